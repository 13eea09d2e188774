// The program the hand-broken lowerings of oracle_*.mlir come from: a
// slice (one copy at byte 32), a splat (a fill), and two dependent
// dispatches with a push constant and a 2-D workload, all through
// transients of one slab.
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @main(%arg0: tensor<8x4xf32>, %n: i32) -> tensor<4x4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<8x4xf32>, i32) -> tensor<4x4xf32> =
      (%a: tensor<8x4xf32>, %in: i32) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %s = flow.tensor.slice %a[%c2, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %b = flow.tensor.splat %one : tensor<4x4xf32>
    %d1 = flow.dispatch @ex::@entry[%c4, %c2](%s, %b, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.operand_buffer<"arg1", 1 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 2 : index>]} : (tensor<4x4xf32>, tensor<4x4xf32>, i32) -> tensor<4x4xf32>
    %d2 = flow.dispatch @ex::@entry[%c4, %c2](%d1, %b, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.operand_buffer<"arg1", 1 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 2 : index>]} : (tensor<4x4xf32>, tensor<4x4xf32>, i32) -> tensor<4x4xf32>
    flow.return %d2 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}
