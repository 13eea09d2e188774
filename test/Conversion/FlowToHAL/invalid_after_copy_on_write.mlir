// RUN: hal-opt %s -split-input-file --convert-flow-to-hal-patterns -verify-diagnostics

// Modules that claim copy on write ran (the marker by hand, as edited IR can
// have it) but need copies it would have made: the check still refuses
// what it cannot lower, rather than writing in place.

module attributes {flow.copy_on_write} {
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
func.func @two_storages(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{maps a value to two storages: it aliases both fragment operand 0 and fragment operand 1}}
  %0 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> %arg0 =
      (%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%b) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %b
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
}
