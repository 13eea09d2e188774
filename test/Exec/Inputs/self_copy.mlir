// A clone of a donated operand that is then written in place: the clone
// is a copy onto itself, which the lowering must drop (test/Exec/oracle.test).
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=3, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @self_copy(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> %t =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %c = flow.tensor.clone %a : tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c4](%c) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %c
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
