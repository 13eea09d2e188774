// A fragment that updates its operand without a tie: the caller keeps the
// operand, so the lowering must copy it first (test/Exec/oracle.test).
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
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 1.0 : f32
    %s = flow.tensor.splat %cst : tensor<1xf32>
    %u = flow.tensor.update %s, %a[%c0] : tensor<1xf32> -> %a as tensor<4xf32>
    flow.return %u : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
