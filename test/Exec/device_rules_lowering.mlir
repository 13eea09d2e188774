// RUN: hal-exec %s --check-lowering --skip-device-rules=none | FileCheck %s
// RUN: hal-opt %s --streamhal-lower-to-hal | hal-opt --hal-verify-command-buffers=skip-device-rules=none -o /dev/null

// Programs whose lowering once broke the device rules (docs/lowering.md,
// "Device rules"): a dispatch naming fewer bindings than its interface
// declares, a slice view at byte 4 bound to a dispatch, a 3-byte splat.
// Both checkers, with every rule on, accept the lowering now: the layout
// holds the bindings the dispatch names, the slice is copied into aligned
// storage, the splat fills 4 bytes of padded storage.

// CHECK: @unbound: the HAL level matches
// CHECK: @unaligned_view: the HAL level matches
// CHECK: @short_fill: the HAL level matches

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @in1, set=0, binding=2, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @unbound(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // The interface declares @in1; the dispatch binds in0 and out0 only.
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @unaligned_view(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<8xf32>) -> tensor<4xf32> =
      (%a: tensor<8xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = flow.tensor.slice %a[%c1 for %c4] : tensor<8xf32> -> tensor<4xf32>
    // The slice is a view of the argument at byte 4.
    %1 = flow.dispatch @ex::@entry[%c1](%s, %s) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out0", 0 : index>, #hal.ex.operand_buffer<"in1", 1 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @short_fill() -> tensor<3xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<3xi8> =
      () -> tensor<3xi8> {
    %c7 = arith.constant 7 : i8
    // Three bytes: the fill is not whole 32-bit words.
    %1 = flow.tensor.splat %c7 : tensor<3xi8>
    flow.return %1 : tensor<3xi8>
  }
  return %0 : tensor<3xi8>
}
