// A fragment returning a value and a clone of it: two results the caller
// owns separately.
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) =
      (%n: index, %a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %c = flow.tensor.clone %p : tensor<4xf32>
    flow.return %p, %c : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
