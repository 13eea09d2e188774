// Two-head self-attention over a sequence of 8 tokens of width 16, the way a
// transformer block spells it:
//   qkv   = x * Wqkv                  one fused projection, rows Q | K | V
//   q, k, v = row blocks of qkv       three slices
//   head_i = softmax(q_i k_i^T) v_i   per head, on row blocks of q, k, v
//   out   = concat(head_0, head_1)    head-major: a zero splat and two
//                                     updates of 8 rows each
// It returns `out` and the key/value cache (clones of k and v).
//
// Lower it with:
//   hal-opt examples/attention.mlir --convert-flow-to-hal --canonicalize
// Every slice is a view of the projection, each head's dispatch writes its
// rows of `out` directly, and the cache is returned as two subspans of the
// projection: the command buffer holds a fill and dispatches, no copy
// (`copies=always` shows the copies this saves; docs/lowering.md).

util.global private @params : !hal.buffer

hal.executable private @kernels {
  hal.interface @io {
    hal.interface.binding @lhs, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @rhs, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @result, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=3, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @matmul attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @matmul_transposed attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @softmax attributes {interface = @io, ordinal = 2 : index}
    builtin.module {}
  }
}

func.func @attention(%x: tensor<8x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %c8 = arith.constant 8 : index
  %out:3 = flow.ex.stream.fragment(%c8, %x) : (index, tensor<8x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) =
      (%n: index, %input: tensor<8x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
    %c0 = arith.constant 0 : index
    %c8_0 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    // Wqkv: 16x48 floats at the start of the pool.
    %wqkv = hal.constant.subspan @params[#util.byte_range<0, 3072>] : tensor<16x48xf32>
    %qkv = flow.dispatch @kernels::@matmul[%n](%wqkv, %input) {hal.bindings = [#hal.ex.operand_buffer<"lhs", 0 : index>, #hal.ex.operand_buffer<"rhs", 1 : index>, #hal.ex.result_buffer<"result", 0 : index>]} : (tensor<16x48xf32>, tensor<8x16xf32>) -> tensor<48x8xf32>
    %q = flow.tensor.slice %qkv[%c0, %c0 for %c16, %c8_0] : tensor<48x8xf32> -> tensor<16x8xf32>
    %k = flow.tensor.slice %qkv[%c16, %c0 for %c16, %c8_0] : tensor<48x8xf32> -> tensor<16x8xf32>
    %v = flow.tensor.slice %qkv[%c32, %c0 for %c16, %c8_0] : tensor<48x8xf32> -> tensor<16x8xf32>
    %concat = flow.tensor.splat %zero : tensor<16x8xf32>
    // Head 0: rows 0-7 of q, k, v; its output is rows 0-7 of the result.
    %q0 = flow.tensor.slice %q[%c0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %k0 = flow.tensor.slice %k[%c0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %v0 = flow.tensor.slice %v[%c0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %s0 = flow.dispatch @kernels::@matmul_transposed[%n](%q0, %k0) {hal.bindings = [#hal.ex.operand_buffer<"lhs", 0 : index>, #hal.ex.operand_buffer<"rhs", 1 : index>, #hal.ex.result_buffer<"result", 0 : index>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %p0 = flow.dispatch @kernels::@softmax[%n](%s0) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<8x8xf32>) -> %s0
    %h0 = flow.dispatch @kernels::@matmul[%n](%p0, %v0) {hal.bindings = [#hal.ex.operand_buffer<"lhs", 0 : index>, #hal.ex.operand_buffer<"rhs", 1 : index>, #hal.ex.result_buffer<"result", 0 : index>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %concat0 = flow.tensor.update %h0, %concat[%c0, %c0] : tensor<8x8xf32> -> %concat as tensor<16x8xf32>
    // Head 1: rows 8-15 of q, k, v; rows 8-15 of the result.
    %q1 = flow.tensor.slice %q[%c8_0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %k1 = flow.tensor.slice %k[%c8_0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %v1 = flow.tensor.slice %v[%c8_0, %c0 for %c8_0, %c8_0] : tensor<16x8xf32> -> tensor<8x8xf32>
    %s1 = flow.dispatch @kernels::@matmul_transposed[%n](%q1, %k1) {hal.bindings = [#hal.ex.operand_buffer<"lhs", 0 : index>, #hal.ex.operand_buffer<"rhs", 1 : index>, #hal.ex.result_buffer<"result", 0 : index>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %p1 = flow.dispatch @kernels::@softmax[%n](%s1) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<8x8xf32>) -> %s1
    %h1 = flow.dispatch @kernels::@matmul[%n](%p1, %v1) {hal.bindings = [#hal.ex.operand_buffer<"lhs", 0 : index>, #hal.ex.operand_buffer<"rhs", 1 : index>, #hal.ex.result_buffer<"result", 0 : index>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %concat1 = flow.tensor.update %h1, %concat0[%c8_0, %c0] : tensor<8x8xf32> -> %concat0 as tensor<16x8xf32>
    // The key/value cache the next step reads.
    %k_cache = flow.tensor.clone %k : tensor<16x8xf32>
    %v_cache = flow.tensor.clone %v : tensor<16x8xf32>
    flow.return %concat1, %k_cache, %v_cache : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  }
  return %out#0, %out#1, %out#2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}
