// A classifier with a reduction, on real kernels:
//   hidden        = relu(x * W1 + b1)        x: ?x24xf32, W1: 24x12, b1: 12
//   logits        = hidden * W2 + b2         W2: 12x3, b2: 3
//   probabilities = softmax(logits)          per row, over the 3 classes
// The batch is dynamic (`hal.buffer_view.dim`). Three SPIR-V kernels, in
// MLIR's SPIR-V dialect, in the only variant (`vulkan`, format
// `vulkan-spirv-fb`), each entry point with its own interface, every
// binding of which each dispatch binds:
//   @dense    one invocation per output element: bias + sum of products
//   @relu     one invocation per element, in place
//   @softmax  one invocation per row, three loops over the columns: the
//             maximum, the sum of exp(v - max) (GLSL.std.450 Exp), and
//             out = exp(v - max) / sum
// All use 64 invocations per workgroup, a ceildiv workgroup count and a
// bounds check. The parameters are small multiples of 1/8 and the inputs of
// 1/4, so both dense layers are exact in f32 on any device; only the
// softmax (the device's exp and division) differs from the CPU's, on
// lavapipe by less than 1e-6 relative (measured on 1 to 1000 rows).
//
// Run it on the Vulkan device:
//   hal-exec examples/softmax_vulkan.mlir --lower --device=vulkan --validate \
//     --formats=vulkan-spirv-fb --print-values \
//     --input=5x24xf32=@examples/inputs/softmax_vulkan_5x24xf32.bin
// The result is compared with a CPU reference (plain Python, f32 rounding
// after every operation): examples/inputs/softmax_vulkan_5x3xf32.expected.bin
// is what examples/inputs/softmax_vulkan_reference.py computes for the
// shipped input (`expected`; it also `generate`s inputs of any batch and
// `compare`s a printed result within a relative tolerance, 1e-5 in
// test/Examples/softmax_vulkan.test, and checks that every row sums to 1).

module attributes {hal.device.targets = [#hal.device.target<"vulkan", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 134217728, min_buffer_range_alignment = 16>}>]} {

// Parameter pool (byte ranges, all offsets multiples of 16): W1 (24x12, row
// k the weights of input k) at [0, 1152), b1 at [1152, 1200), W2 (12x3) at
// [1200, 1344), b2 at [1344, 1356), then one f32 of padding.
util.global private @params : !hal.buffer = dense<[
    0.5, 0.375, 0.25, -0.375, -0.375, -0.25, 0.25, -0.125, -0.125, -0.5, 0.0, 0.125,
    -0.125, -0.5, 0.125, -0.25, 0.25, 0.25, -0.5, 0.25, -0.25, -0.375, -0.25, 0.25,
    -0.5, -0.125, -0.125, 0.125, -0.375, 0.125, 0.125, -0.25, 0.5, 0.375, -0.25, 0.125,
    -0.375, 0.375, -0.5, 0.25, -0.25, 0.125, -0.5, -0.125, -0.375, 0.125, -0.5, -0.25,
    -0.25, -0.125, 0.25, -0.25, 0.0, 0.5, 0.25, 0.0, -0.5, 0.375, 0.5, -0.375,
    0.375, 0.0, 0.0, 0.25, 0.0, 0.25, -0.125, 0.5, 0.125, 0.0, 0.0, 0.0,
    -0.25, 0.25, -0.375, 0.25, 0.375, -0.375, 0.0, -0.125, 0.5, -0.125, -0.375, -0.125,
    0.0, 0.375, -0.375, 0.0, 0.25, -0.25, -0.25, -0.25, -0.125, -0.125, 0.375, 0.0,
    0.5, -0.5, -0.25, 0.375, -0.5, -0.5, 0.25, -0.125, -0.125, -0.25, 0.125, 0.125,
    0.5, -0.375, -0.375, -0.125, -0.25, 0.375, -0.125, 0.375, 0.375, 0.0, 0.375, -0.5,
    0.125, 0.125, 0.5, -0.125, 0.5, -0.5, 0.375, 0.5, 0.25, -0.375, -0.375, 0.5,
    0.0, 0.125, 0.25, 0.125, 0.125, 0.375, 0.25, 0.125, 0.0, -0.375, -0.25, -0.125,
    -0.375, 0.0, -0.5, 0.5, -0.375, 0.125, -0.125, -0.25, -0.5, 0.0, -0.25, -0.375,
    -0.375, -0.125, 0.5, -0.375, 0.5, 0.25, -0.125, 0.0, 0.0, 0.0, -0.25, 0.0,
    0.125, 0.0, 0.25, -0.5, 0.375, 0.5, -0.375, 0.0, 0.5, 0.0, 0.125, 0.5,
    0.125, 0.5, 0.25, 0.25, 0.5, 0.5, 0.375, 0.125, 0.5, -0.125, -0.125, -0.375,
    0.0, 0.0, -0.375, -0.125, 0.125, -0.5, 0.125, 0.0, -0.5, 0.25, -0.375, -0.5,
    0.0, -0.5, -0.125, -0.125, -0.25, -0.375, -0.5, 0.0, -0.25, 0.125, -0.375, 0.125,
    0.0, -0.125, 0.0, 0.5, 0.375, 0.25, 0.375, 0.375, -0.25, -0.125, -0.5, -0.125,
    0.5, 0.375, 0.125, -0.375, -0.25, -0.375, -0.125, -0.25, 0.0, 0.25, -0.125, -0.125,
    -0.25, 0.5, 0.25, -0.125, -0.5, 0.0, 0.25, -0.125, 0.0, 0.25, 0.5, -0.25,
    -0.25, -0.375, 0.125, 0.375, -0.375, -0.25, 0.125, 0.5, 0.375, 0.25, 0.5, 0.375,
    0.125, 0.125, -0.375, -0.375, -0.125, 0.375, 0.25, 0.25, -0.125, 0.5, 0.5, 0.125,
    0.5, 0.375, 0.5, 0.125, 0.125, -0.125, -0.25, -0.375, 0.0, -0.125, 0.125, -0.25,
    0.125, 0.0, 0.25, 0.25, 0.0, -0.25, -0.125, -0.25, 0.0, -0.125, -0.25, -0.125,
    1.0, -0.875, 0.5,
    1.0, -0.875, -0.625,
    0.0, -0.375, 0.75,
    -0.5, -0.625, -1.0,
    -0.5, -0.375, -0.125,
    0.625, 0.125, -1.0,
    0.625, -0.25, 1.0,
    -0.25, -0.375, 0.875,
    -0.125, -0.25, -0.5,
    -0.375, -0.375, 0.0,
    -1.0, 1.0, 0.75,
    -0.375, 0.625, 0.375,
    0.25, -0.5, 0.125, 0.0
  ]> : tensor<340xf32>

hal.executable private @classifier {
  // output[r][c] = bias[c] + sum over k < depth of input[r][k] * weights[k][c]
  // Push constants: rows, depth, columns.
  hal.interface @dense_io attributes {push_constants = 3 : index} {
    hal.interface.binding @input, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @weights, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @bias, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @output, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
  }
  // inout[i] = max(inout[i], 0). Push constants: rows, columns.
  hal.interface @relu_io attributes {push_constants = 2 : index} {
    hal.interface.binding @inout, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  // output row r = softmax(input row r). Push constants: rows, columns.
  hal.interface @softmax_io attributes {push_constants = 2 : index} {
    hal.interface.binding @input, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @output, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    // Workload (rows, columns): one invocation per element.
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
    // Workload (rows): one invocation per row.
    hal.executable.entry_point @softmax attributes {interface = @softmax_io, ordinal = 2 : index} {
    ^bb0(%rows: index):
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %x = arith.ceildivui %rows, %c64 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
    builtin.module {
      // One spirv.module per kernel, its globals those of its interface.
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @input bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @weights bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @bias bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @output bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>

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

        spirv.EntryPoint "GLCompute" @dense, @globalId
        spirv.ExecutionMode @dense "LocalSize", 64, 1, 1
      }

      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @inout bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>

        spirv.func @relu() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %fzero = spirv.Constant 0.0 : f32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %rowsPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %colsPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
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

        spirv.EntryPoint "GLCompute" @relu, @globalId
        spirv.ExecutionMode @relu "LocalSize", 64, 1, 1
      }

      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @input bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @output bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>

        // For row r < rows: top = max of input[r][*]; sum = the sum of
        // exp(input[r][c] - top) in order of c; output[r][c] =
        // exp(input[r][c] - top) / sum (the exp computed again, not read back
        // from the Write|Discard output). 3 * columns loop iterations.
        spirv.func @softmax() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %fzero = spirv.Constant 0.0 : f32
          %top = spirv.Variable : !spirv.ptr<f32, Function>
          %sum = spirv.Variable : !spirv.ptr<f32, Function>
          %c = spirv.Variable : !spirv.ptr<i32, Function>
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %row = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %rowsPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %colsPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %rows = spirv.Load "PushConstant" %rowsPtr : i32
          %cols = spirv.Load "PushConstant" %colsPtr : i32
          %inside = spirv.ULessThan %row, %rows : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^compute, ^done
          ^compute:
            %input = spirv.mlir.addressof @input : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %output = spirv.mlir.addressof @output : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
            %rowStart = spirv.IMul %row, %cols : i32
            %firstPtr = spirv.AccessChain %input[%zero, %rowStart] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
            %first = spirv.Load "StorageBuffer" %firstPtr : f32
            spirv.Store "Function" %top, %first : f32
            // The maximum, from column 1 on.
            spirv.Store "Function" %c, %one : i32
            spirv.mlir.loop {
              spirv.Branch ^header
            ^header:
              %cValue = spirv.Load "Function" %c : i32
              %more = spirv.ULessThan %cValue, %cols : i32
              spirv.BranchConditional %more, ^body, ^merge
            ^body:
              %at = spirv.IAdd %rowStart, %cValue : i32
              %ptr = spirv.AccessChain %input[%zero, %at] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              %value = spirv.Load "StorageBuffer" %ptr : f32
              %old = spirv.Load "Function" %top : f32
              %greater = spirv.FOrdGreaterThan %value, %old : f32
              %new = spirv.Select %greater, %value, %old : i1, f32
              spirv.Store "Function" %top, %new : f32
              %next = spirv.IAdd %cValue, %one : i32
              spirv.Store "Function" %c, %next : i32
              spirv.Branch ^continue
            ^continue:
              spirv.Branch ^header
            ^merge:
              spirv.mlir.merge
            }
            %max = spirv.Load "Function" %top : f32
            // The sum of the exponentials.
            spirv.Store "Function" %sum, %fzero : f32
            spirv.Store "Function" %c, %zero : i32
            spirv.mlir.loop {
              spirv.Branch ^header
            ^header:
              %cValue = spirv.Load "Function" %c : i32
              %more = spirv.ULessThan %cValue, %cols : i32
              spirv.BranchConditional %more, ^body, ^merge
            ^body:
              %at = spirv.IAdd %rowStart, %cValue : i32
              %ptr = spirv.AccessChain %input[%zero, %at] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              %value = spirv.Load "StorageBuffer" %ptr : f32
              %shifted = spirv.FSub %value, %max : f32
              %exp = spirv.GL.Exp %shifted : f32
              %old = spirv.Load "Function" %sum : f32
              %new = spirv.FAdd %old, %exp : f32
              spirv.Store "Function" %sum, %new : f32
              %next = spirv.IAdd %cValue, %one : i32
              spirv.Store "Function" %c, %next : i32
              spirv.Branch ^continue
            ^continue:
              spirv.Branch ^header
            ^merge:
              spirv.mlir.merge
            }
            %total = spirv.Load "Function" %sum : f32
            // Normalize.
            spirv.Store "Function" %c, %zero : i32
            spirv.mlir.loop {
              spirv.Branch ^header
            ^header:
              %cValue = spirv.Load "Function" %c : i32
              %more = spirv.ULessThan %cValue, %cols : i32
              spirv.BranchConditional %more, ^body, ^merge
            ^body:
              %at = spirv.IAdd %rowStart, %cValue : i32
              %ptr = spirv.AccessChain %input[%zero, %at] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              %value = spirv.Load "StorageBuffer" %ptr : f32
              %shifted = spirv.FSub %value, %max : f32
              %exp = spirv.GL.Exp %shifted : f32
              %quotient = spirv.FDiv %exp, %total : f32
              %outPtr = spirv.AccessChain %output[%zero, %at] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
              spirv.Store "StorageBuffer" %outPtr, %quotient : f32
              %next = spirv.IAdd %cValue, %one : i32
              spirv.Store "Function" %c, %next : i32
              spirv.Branch ^continue
            ^continue:
              spirv.Branch ^header
            ^merge:
              spirv.mlir.merge
            }
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }

        spirv.EntryPoint "GLCompute" @softmax, @globalId
        spirv.ExecutionMode @softmax "LocalSize", 64, 1, 1
      }
    }
  }
}

func.func @predict(%input: !hal.buffer_view) -> !hal.buffer_view {
  %batch = hal.buffer_view.dim<%input : !hal.buffer_view>[0] : index
  %x = hal.tensor.cast %input : !hal.buffer_view -> tensor<?x24xf32>{%batch}
  %probabilities = flow.ex.stream.fragment(%x, %batch)
      : (tensor<?x24xf32>{%batch}, index) -> tensor<?x3xf32>{%batch} =
      (%in: tensor<?x24xf32>, %n: index) -> tensor<?x3xf32> {
    %c3 = arith.constant 3 : index
    %c12 = arith.constant 12 : index
    %c24 = arith.constant 24 : index
    %w1 = hal.constant.subspan @params[#util.byte_range<0, 1152>] : tensor<24x12xf32>
    %b1 = hal.constant.subspan @params[#util.byte_range<1152, 48>] : tensor<12xf32>
    %w2 = hal.constant.subspan @params[#util.byte_range<1200, 144>] : tensor<12x3xf32>
    %b2 = hal.constant.subspan @params[#util.byte_range<1344, 12>] : tensor<3xf32>
    %h = flow.dispatch @classifier::@dense[%n, %c12](%in, %w1, %b1, %n, %c24, %c12) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>,
        #hal.ex.push_constant<1 : index, 4 : index>,
        #hal.ex.push_constant<2 : index, 5 : index>]}
        : (tensor<?x24xf32>{%n}, tensor<24x12xf32>, tensor<12xf32>, index, index, index) -> tensor<?x12xf32>{%n}
    // ReLU in place.
    %r = flow.dispatch @classifier::@relu[%n, %c12](%h, %n, %c12) {hal.bindings = [
        #hal.ex.operand_buffer<"inout", 0 : index>,
        #hal.ex.push_constant<0 : index, 1 : index>,
        #hal.ex.push_constant<1 : index, 2 : index>]}
        : (tensor<?x12xf32>{%n}, index, index) -> %h
    %logits = flow.dispatch @classifier::@dense[%n, %c3](%r, %w2, %b2, %n, %c12, %c3) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>,
        #hal.ex.push_constant<1 : index, 4 : index>,
        #hal.ex.push_constant<2 : index, 5 : index>]}
        : (tensor<?x12xf32>{%n}, tensor<12x3xf32>, tensor<3xf32>, index, index, index) -> tensor<?x3xf32>{%n}
    %p = flow.dispatch @classifier::@softmax[%n](%logits, %n, %c3) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 1 : index>,
        #hal.ex.push_constant<1 : index, 2 : index>]}
        : (tensor<?x3xf32>{%n}, index, index) -> tensor<?x3xf32>{%n}
    flow.return %p : tensor<?x3xf32>
  }
  %result = hal.tensor.cast %probabilities : tensor<?x3xf32>{%batch} -> !hal.buffer_view
  return %result : !hal.buffer_view
}

}
