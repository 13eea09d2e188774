// examples/mlp.mlir's perceptron, smaller and with real kernels:
//   hidden = relu(input * W1 + b1)      input: ?x16xf32, W1: 16x16xf32
//   logits = hidden * W2 + b2           W2: 16x4xf32, b2: row 1 of a 2x4 table
// The parameters are small multiples of 1/8 (and the input of 1/2), so every
// product and sum is exact in f32: any device computes the same logits in
// any summation order.
//
// Two variants: `vmvx` has no kernels (the executor runs its dispatch model,
// so --check-lowering compares the levels), `vulkan` carries dense and ReLU
// as SPIR-V in MLIR's SPIR-V dialect, run by `hal-exec --device=vulkan`:
//   hal-exec examples/mlp_vulkan.mlir --lower --device=vulkan \
//     --formats=vulkan-spirv-fb --print-values \
//     --input=3x16xf32=@examples/inputs/mlp_vulkan_3x16xf32.bin
// (test/Examples/mlp_vulkan.test compares the logits with a CPU reference.)

module attributes {hal.device.targets = [#hal.device.target<"vulkan", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 134217728, min_buffer_range_alignment = 16>}>]} {

// Parameter pool: W1 at [0, 1024), W2 at [1024, 1280), the bias table at
// [1280, 1312).
util.global private @params : !hal.buffer = dense<[
    -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5,
    0.125, -0.5, 0.0, 0.5, 0.5, -0.125, 0.375, -0.25, -0.25, 0.25, -0.375, 0.125, 0.125, -0.5, 0.0, 0.5,
    -0.375, 0.25, 0.375, -0.125, 0.0, -0.5, -0.375, 0.25, 0.375, -0.125, 0.0, -0.5, -0.375, 0.25, 0.375, -0.125,
    0.25, -0.125, 0.125, 0.375, -0.5, 0.25, 0.5, -0.375, -0.125, -0.5, -0.25, 0.0, 0.25, -0.125, 0.125, 0.375,
    -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, -0.25,
    0.375, -0.25, 0.25, -0.375, -0.375, 0.125, -0.5, 0.0, 0.0, 0.5, -0.125, 0.375, 0.375, -0.25, 0.25, -0.375,
    -0.125, 0.5, -0.5, 0.125, 0.25, -0.25, -0.125, 0.5, -0.5, 0.125, 0.25, -0.25, -0.125, 0.5, -0.5, 0.125,
    0.5, 0.125, 0.375, -0.5, -0.25, 0.5, -0.375, -0.125, 0.125, -0.25, 0.0, 0.25, 0.5, 0.125, 0.375, -0.5,
    0.0, 0.375, -0.375, 0.0, 0.375, -0.375, 0.0, 0.375, -0.375, 0.0, 0.375, -0.375, 0.0, 0.375, -0.375, 0.0,
    -0.5, 0.0, 0.5, -0.125, -0.125, 0.375, -0.25, 0.25, 0.25, -0.375, 0.125, -0.5, -0.5, 0.0, 0.5, -0.125,
    0.125, -0.375, -0.25, 0.375, 0.5, 0.0, 0.125, -0.375, -0.25, 0.375, 0.5, 0.0, 0.125, -0.375, -0.25, 0.375,
    -0.375, 0.375, -0.5, -0.25, 0.0, -0.375, -0.125, 0.125, 0.375, 0.0, 0.25, 0.5, -0.375, 0.375, -0.5, -0.25,
    0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25,
    -0.25, 0.25, -0.375, 0.125, 0.125, -0.5, 0.0, 0.5, 0.5, -0.125, 0.375, -0.25, -0.25, 0.25, -0.375, 0.125,
    0.375, -0.125, 0.0, -0.5, -0.375, 0.25, 0.375, -0.125, 0.0, -0.5, -0.375, 0.25, 0.375, -0.125, 0.0, -0.5,
    -0.125, -0.5, -0.25, 0.0, 0.25, -0.125, 0.125, 0.375, -0.5, 0.25, 0.5, -0.375, -0.125, -0.5, -0.25, 0.0,
    -0.75, -0.25, 0.25, 0.75, -0.75, 0.0, 0.75, 0.75, -0.75, 0.25, 0.5, 0.75, -0.75, -0.25, 0.25, 0.75,
    -0.75, 0.0, 0.75, 0.75, -0.75, 0.25, 0.5, 0.75, -0.75, -0.25, 0.25, 0.75, -0.75, 0.0, 0.75, 0.75,
    -0.75, 0.25, 0.5, 0.75, -0.75, -0.25, 0.25, 0.75, -0.75, 0.0, 0.75, 0.75, -0.75, 0.25, 0.5, 0.75,
    -0.75, -0.25, 0.25, 0.75, -0.75, 0.0, 0.75, 0.75, -0.75, 0.25, 0.5, 0.75, -0.75, -0.25, 0.25, 0.75,
    -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0
  ]> : tensor<328xf32>

hal.executable private @mlp {
  // Each entry point's interface is its kernel's ABI: a dispatch binds all
  // of it. Push constants: rows, depth (inputs per row), columns.
  hal.interface @dense_io attributes {push_constants = 3 : index} {
    hal.interface.binding @input, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @weights, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @bias, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @output, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
  }
  hal.interface @relu_io attributes {push_constants = 3 : index} {
    hal.interface.binding @inout, set=0, binding=4, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dense attributes {interface = @dense_io, ordinal = 0 : index}
    hal.executable.entry_point @relu attributes {interface = @relu_io, ordinal = 1 : index}
    builtin.module {}
  }
  // One invocation per output element, 64 per workgroup.
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @dense attributes {interface = @dense_io, ordinal = 0 : index} {
    ^bb0(%rows: index, %cols: index):
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %n = arith.muli %rows, %cols : index
      %x = arith.ceildivui %n, %c64 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
    hal.executable.entry_point @relu attributes {interface = @relu_io, ordinal = 1 : index} {
    ^bb0(%rows: index, %cols: index):
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %n = arith.muli %rows, %cols : index
      %x = arith.ceildivui %n, %c64 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @input bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @weights bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @bias bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @output bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @inout bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>

        // output[r][c] = bias[c] + sum over k of input[r][k] * weights[k][c]
        spirv.func @dense() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %two = spirv.Constant 2 : i32
          %sum = spirv.Variable : !spirv.ptr<f32, Function>
          %k = spirv.Variable : !spirv.ptr<i32, Function>
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>
          %rowsPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %depthPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %colsPtr = spirv.AccessChain %constants[%two] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %rows = spirv.Load "PushConstant" %rowsPtr : i32
          %depth = spirv.Load "PushConstant" %depthPtr : i32
          %cols = spirv.Load "PushConstant" %colsPtr : i32
          %count = spirv.IMul %rows, %cols : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^compute, ^done
          ^compute:
            %row = spirv.UDiv %index, %cols : i32
            %col = spirv.UMod %index, %cols : i32
            %input = spirv.mlir.addressof @input : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %weights = spirv.mlir.addressof @weights : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %bias = spirv.mlir.addressof @bias : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %output = spirv.mlir.addressof @output : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %biasPtr = spirv.AccessChain %bias[%zero, %col] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
            %start = spirv.Load "StorageBuffer" %biasPtr : f32
            spirv.Store "Function" %sum, %start : f32
            spirv.Store "Function" %k, %zero : i32
            %rowStart = spirv.IMul %row, %depth : i32
            spirv.mlir.loop {
              spirv.Branch ^header
            ^header:
              %kValue = spirv.Load "Function" %k : i32
              %more = spirv.ULessThan %kValue, %depth : i32
              spirv.BranchConditional %more, ^body, ^merge
            ^body:
              %at = spirv.IAdd %rowStart, %kValue : i32
              %inPtr = spirv.AccessChain %input[%zero, %at] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              %kRow = spirv.IMul %kValue, %cols : i32
              %wAt = spirv.IAdd %kRow, %col : i32
              %wPtr = spirv.AccessChain %weights[%zero, %wAt] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              %x = spirv.Load "StorageBuffer" %inPtr : f32
              %w = spirv.Load "StorageBuffer" %wPtr : f32
              %product = spirv.FMul %x, %w : f32
              %old = spirv.Load "Function" %sum : f32
              %new = spirv.FAdd %old, %product : f32
              spirv.Store "Function" %sum, %new : f32
              %next = spirv.IAdd %kValue, %one : i32
              spirv.Store "Function" %k, %next : i32
              spirv.Branch ^continue
            ^continue:
              spirv.Branch ^header
            ^merge:
              spirv.mlir.merge
            }
            %result = spirv.Load "Function" %sum : f32
            %outPtr = spirv.AccessChain %output[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
            spirv.Store "StorageBuffer" %outPtr, %result : f32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }

        // inout[i] = max(inout[i], 0) for i < rows * columns
        spirv.func @relu() "None" {
          %zero = spirv.Constant 0 : i32
          %two = spirv.Constant 2 : i32
          %fzero = spirv.Constant 0.0 : f32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>
          %rowsPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %colsPtr = spirv.AccessChain %constants[%two] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %rows = spirv.Load "PushConstant" %rowsPtr : i32
          %cols = spirv.Load "PushConstant" %colsPtr : i32
          %count = spirv.IMul %rows, %cols : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^compute, ^done
          ^compute:
            %inout = spirv.mlir.addressof @inout : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %inout[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
            %value = spirv.Load "StorageBuffer" %ptr : f32
            %positive = spirv.FOrdGreaterThan %value, %fzero : f32
            %result = spirv.Select %positive, %value, %fzero : i1, f32
            spirv.Store "StorageBuffer" %ptr, %result : f32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }

        spirv.EntryPoint "GLCompute" @dense, @globalId
        spirv.EntryPoint "GLCompute" @relu, @globalId
        spirv.ExecutionMode @dense "LocalSize", 64, 1, 1
        spirv.ExecutionMode @relu "LocalSize", 64, 1, 1
      }
    }
  }
}

func.func @predict(%input: !hal.buffer_view) -> !hal.buffer_view {
  %batch = hal.buffer_view.dim<%input : !hal.buffer_view>[0] : index
  %x = hal.tensor.cast %input : !hal.buffer_view -> tensor<?x16xf32>{%batch}
  %logits = flow.ex.stream.fragment(%x, %batch)
      : (tensor<?x16xf32>{%batch}, index) -> tensor<?x4xf32>{%batch} =
      (%in: tensor<?x16xf32>, %n: index) -> tensor<?x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %w1 = hal.constant.subspan @params[#util.byte_range<0, 1024>] : tensor<16x16xf32>
    %w2 = hal.constant.subspan @params[#util.byte_range<1024, 256>] : tensor<16x4xf32>
    %table = hal.constant.subspan @params[#util.byte_range<1280, 32>] : tensor<2x4xf32>
    // The first layer has no trained bias: start from zeros.
    %b1 = flow.tensor.splat %zero : tensor<16xf32>
    // The second layer's bias is row 1 of the bias table.
    %b2 = flow.tensor.slice %table[%c1, %c0 for %c1, %c4] : tensor<2x4xf32> -> tensor<1x4xf32>
    %h = flow.dispatch @mlp::@dense[%n, %c16](%in, %w1, %b1, %n, %c16, %c16) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>,
        #hal.ex.push_constant<1 : index, 4 : index>,
        #hal.ex.push_constant<2 : index, 5 : index>]}
        : (tensor<?x16xf32>{%n}, tensor<16x16xf32>, tensor<16xf32>, index, index, index) -> tensor<?x16xf32>{%n}
    // ReLU in place.
    %r = flow.dispatch @mlp::@relu[%n, %c16](%h, %n, %c16) {hal.bindings = [
        #hal.ex.operand_buffer<"inout", 0 : index>,
        #hal.ex.push_constant<0 : index, 1 : index>,
        #hal.ex.push_constant<2 : index, 2 : index>]}
        : (tensor<?x16xf32>{%n}, index, index) -> %h
    %out = flow.dispatch @mlp::@dense[%n, %c4](%r, %w2, %b2, %n, %c16, %c4) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>,
        #hal.ex.push_constant<1 : index, 4 : index>,
        #hal.ex.push_constant<2 : index, 5 : index>]}
        : (tensor<?x16xf32>{%n}, tensor<16x4xf32>, tensor<1x4xf32>, index, index, index) -> tensor<?x4xf32>{%n}
    flow.return %out : tensor<?x4xf32>
  }
  %result = hal.tensor.cast %logits : tensor<?x4xf32>{%batch} -> !hal.buffer_view
  return %result : !hal.buffer_view
}

}
