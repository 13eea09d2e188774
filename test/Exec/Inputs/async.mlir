// The program the hand-broken async lowerings of async_*.mlir come from:
// three fragments, the second reading the first's result, a host load of
// the second's result, and a third reading the first's result and the
// loaded value.
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @main(%arg0: tensor<16xi32>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %r1 = flow.ex.stream.fragment(%arg0, %c16, %zero) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %r2 = flow.ex.stream.fragment(%r1, %c16, %zero) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %x = flow.tensor.load %r2[%c0] : tensor<16xi32>
  %r3 = flow.ex.stream.fragment(%r1, %c16, %x) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  return %r3 : tensor<16xi32>
}
