// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 --skip-device-rules=none
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal,hal-pack-allocations,canonicalize,hal-verify-command-buffers' --orders=4
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=memoize=false | FileCheck %s
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | hal-opt -split-input-file --hal-verify-command-buffers=skip-device-rules=none -o /dev/null

// The lowering obeys the device rules (docs/lowering.md, "Device rules"):
// dispatch bindings start at multiples of the binding offset alignment,
// fills at 4-byte aligned offsets and lengths.

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
// A slice at byte 12 of an operand, bound to a dispatch: not a view (12 is
// not a multiple of 16), a copy into aligned storage. The slice at byte 16
// is a view.
// CHECK-LABEL: func.func @misaligned_slice
// CHECK: hal.command_buffer.copy_buffer<%{{.+}} : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c12]
// CHECK-LABEL: func.func @aligned_slice
// CHECK-NOT: copy_buffer
// CHECK: hal.buffer.subspan<%arg0 : !hal.buffer>[%c16, %c16]
func.func @misaligned_slice(%arg0: tensor<8x3xf32>) -> tensor<2x3xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<8x3xf32>) -> tensor<2x3xf32> =
      (%a: tensor<8x3xf32>) -> tensor<2x3xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %s = flow.tensor.slice %a[%c1, %c0 for %c2, %c3] : tensor<8x3xf32> -> tensor<2x3xf32>
    %r = flow.dispatch @ex::@entry[%c1](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    flow.return %r : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}
func.func @aligned_slice(%arg0: tensor<8x4xf32>) -> tensor<1x4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<8x4xf32>) -> tensor<1x4xf32> =
      (%a: tensor<8x4xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = flow.tensor.slice %a[%c1, %c0 for %c1, %c4] : tensor<8x4xf32> -> tensor<1x4xf32>
    %r = flow.dispatch @ex::@entry[%c1](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    flow.return %r : tensor<1x4xf32>
  }
  return %0 : tensor<1x4xf32>
}

// -----

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
// A row picked at a dynamic start: every row starts at a multiple of 32
// bytes, so the view is bound at an aligned offset whatever the start.
// CHECK-LABEL: func.func @dynamic_aligned_rows
// CHECK-NOT: copy_buffer
// CHECK: return
func.func @dynamic_aligned_rows(%arg0: tensor<8x8xf32>, %row: index) -> tensor<1x8xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %row) : (tensor<8x8xf32>, index) -> tensor<1x8xf32> =
      (%a: tensor<8x8xf32>, %r: index) -> tensor<1x8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = flow.tensor.slice %a[%r, %c0 for %c1, %c8] : tensor<8x8xf32> -> tensor<1x8xf32>
    %d = flow.dispatch @ex::@entry[%c1](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    flow.return %d : tensor<1x8xf32>
  }
  return %0 : tensor<1x8xf32>
}

// -----

// An i8 splat updated into byte 1 of a target: the fill cannot be computed
// in place (offset 1), so the splat fills padded storage of its own and is
// copied into the box.
// CHECK-LABEL: func.func @unaligned_splat_box
// CHECK: hal.command_buffer.fill_buffer<%{{.+}} : !hal.command_buffer> target(%{{.+}} : !hal.buffer)[%c0, %c4]
// CHECK: hal.command_buffer.copy_buffer<%{{.+}} : !hal.command_buffer> source(%{{.+}} : !hal.buffer)[%c0] target(%{{.+}} : !hal.buffer)[%c1] length(%c3)
func.func @unaligned_splat_box() -> tensor<8xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<8xi8> = () -> tensor<8xi8> {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i8
    %seven = arith.constant 7 : i8
    %t = flow.tensor.splat %zero : tensor<8xi8>
    %v = flow.tensor.splat %seven : tensor<3xi8>
    %u = flow.tensor.update %v, %t[%c1] : tensor<3xi8> -> %t as tensor<8xi8>
    flow.return %u : tensor<8xi8>
  }
  return %0 : tensor<8xi8>
}
