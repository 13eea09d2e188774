// A two-layer perceptron over a dynamic batch:
//   hidden = relu(input * W1 + b1)      input: ?x64xf32, W1: 64x64xf32
//   logits = hidden * W2 + b2           W2: 64x10xf32, b2: row 1 of a 2x10 table
// The host passes the input as a !hal.buffer_view and gets the logits back
// as one. The parameters live in one constant pool, `@params`.
//
// Lower it with:
//   hal-opt examples/mlp.mlir --convert-flow-to-hal --canonicalize
// and add --hal-pack-allocations to turn the transient pack into offsets.

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {

// Parameter pool: W1 at [0, 16384), W2 at [16384, 18944), the bias table at
// [18944, 19024).
util.global private @params : !hal.buffer

hal.executable private @mlp {
  // One interface for every entry point: the batch size is push constant 0.
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @input, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @weights, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @bias, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @output, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=4, type="StorageBuffer", access="Read|Write"
  }
  // The reference interpreter: one workgroup per output element.
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dense attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @relu attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
  // A CPU variant tiling the rows by 8 and the columns by 16.
  hal.executable.variant @cpu, target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> {
    hal.executable.entry_point @dense attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%rows: index, %cols: index):
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %x = arith.ceildivui %cols, %c16 : index
      %y = arith.ceildivui %rows, %c8 : index
      hal.return %x, %y, %c1 : index, index, index
    }
    hal.executable.entry_point @relu attributes {interface = @io, ordinal = 1 : index} {
    ^bb0(%rows: index, %cols: index):
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %n = arith.muli %rows, %cols : index
      %x = arith.ceildivui %n, %c64 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
    builtin.module {}
  }
}

func.func @predict(%input: !hal.buffer_view) -> !hal.buffer_view {
  %batch = hal.buffer_view.dim<%input : !hal.buffer_view>[0] : index
  %x = hal.tensor.cast %input : !hal.buffer_view -> tensor<?x64xf32>{%batch}
  %logits = flow.ex.stream.fragment(%x, %batch)
      : (tensor<?x64xf32>{%batch}, index) -> tensor<?x10xf32>{%batch} =
      (%in: tensor<?x64xf32>, %n: index) -> tensor<?x10xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %w1 = hal.constant.subspan @params[#util.byte_range<0, 16384>] : tensor<64x64xf32>
    %w2 = hal.constant.subspan @params[#util.byte_range<16384, 2560>] : tensor<64x10xf32>
    %table = hal.constant.subspan @params[#util.byte_range<18944, 80>] : tensor<2x10xf32>
    // The first layer has no trained bias: start from zeros.
    %b1 = flow.tensor.splat %zero : tensor<64xf32>
    // The second layer's bias is row 1 of the bias table.
    %b2 = flow.tensor.slice %table[%c1, %c0 for %c1, %c10] : tensor<2x10xf32> -> tensor<1x10xf32>
    %h = flow.dispatch @mlp::@dense[%n, %c64](%in, %w1, %b1, %n) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>]}
        : (tensor<?x64xf32>{%n}, tensor<64x64xf32>, tensor<64xf32>, index) -> tensor<?x64xf32>{%n}
    // ReLU in place.
    %r = flow.dispatch @mlp::@relu[%n, %c64](%h, %n) {hal.bindings = [
        #hal.ex.operand_buffer<"inout", 0 : index>,
        #hal.ex.push_constant<0 : index, 1 : index>]}
        : (tensor<?x64xf32>{%n}, index) -> %h
    %out = flow.dispatch @mlp::@dense[%n, %c10](%r, %w2, %b2, %n) {hal.bindings = [
        #hal.ex.operand_buffer<"input", 0 : index>,
        #hal.ex.operand_buffer<"weights", 1 : index>,
        #hal.ex.operand_buffer<"bias", 2 : index>,
        #hal.ex.result_buffer<"output", 0 : index>,
        #hal.ex.push_constant<0 : index, 3 : index>]}
        : (tensor<?x64xf32>{%n}, tensor<64x10xf32>, tensor<1x10xf32>, index) -> tensor<?x10xf32>{%n}
    flow.return %out : tensor<?x10xf32>
  }
  %result = hal.tensor.cast %logits : tensor<?x10xf32>{%batch} -> !hal.buffer_view
  return %result : !hal.buffer_view
}

}
