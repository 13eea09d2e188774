// RUN: hal-exec %s --function=tied | FileCheck %s
// RUN: hal-exec %s --function=tied --check-lowering --orders=4 | FileCheck %s --check-prefix=LOWERED
// RUN: hal-opt %s --streamhal-lower-to-hal | FileCheck %s --check-prefix=PUSH

// A tied operand and result are one storage: an operand_buffer and a
// result_buffer of the pair may name one interface binding, which is then
// bound once (two different values on one binding are rejected by the
// flow.dispatch verifier, test/Dialect/Flow/invalid.mlir).

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @io0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}

// CHECK-LABEL: @tied result 0: 4xf32 0x
// The lowering binds the shared binding once.
// LOWERED: @tied: the HAL level matches
// PUSH: bindings([%{{.+}} = (%{{.+}} : !hal.buffer)[%{{.+}}, %{{.+}}]])
func.func @tied(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.result_buffer<"io0", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
