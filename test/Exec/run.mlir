// RUN: hal-exec %s --split-input-file --print-bytes | FileCheck %s
// RUN: hal-exec %s --split-input-file --function=slice_input --input=2x3xi32=@%S/Inputs/2x3xi32.bin --print-bytes | FileCheck %s --check-prefix=FILE
// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 | FileCheck %s --check-prefix=LOWER
// RUN: hal-exec %s --split-input-file --function=one_batch --orders=4 --print-bytes | FileCheck %s --check-prefix=ORDERS

// Host-side semantics the executor runs without any lowering: a splat, a
// slice of an input, an update and a reshape; element bytes are printed.

// CHECK-LABEL: @splat_i16 result 0: 2x3xi16 0x
// CHECK-NEXT: bytes: 07 00 07 00 07 00 07 00 07 00 07 00
// LOWER: @splat_i16: the HAL level matches
func.func @splat_i16() -> tensor<2x3xi16> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2x3xi16> =
      () -> tensor<2x3xi16> {
    %c7 = arith.constant 7 : i16
    %1 = flow.tensor.splat %c7 : tensor<2x3xi16>
    flow.return %1 : tensor<2x3xi16>
  }
  return %0 : tensor<2x3xi16>
}

// -----

// Column 1 of both rows: a box that is not contiguous in the source.
// FILE-LABEL: @slice_input result 0: 2x1xi32 0x
// FILE-NEXT: bytes: 02 00 00 00 05 00 00 00
// LOWER: @slice_input: the HAL level matches
func.func @slice_input(%arg0: tensor<2x3xi32>) -> tensor<2x1xi32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<2x3xi32>) -> tensor<2x1xi32> =
      (%a: tensor<2x3xi32>) -> tensor<2x1xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %1 = flow.tensor.slice %a[%c0, %c1 for %c2, %c1] : tensor<2x3xi32> -> tensor<2x1xi32>
    flow.return %1 : tensor<2x1xi32>
  }
  return %0 : tensor<2x1xi32>
}

// -----

// An update of one 8-bit element into a splat, then a reshape; host load
// and store around the fragment.
// (The store writes in place: the fragment's result is not used after it.)
// CHECK-LABEL: @update_reshape result 0: i8 0x
// CHECK-NEXT: bytes: 09
// CHECK-NEXT: @update_reshape result 1: 6xi8 0x
// CHECK-NEXT: bytes: 01 05 01 01 09 01
// LOWER: @update_reshape: the HAL level matches
func.func @update_reshape() -> (i8, tensor<6xi8>) {
  %0 = flow.ex.stream.fragment() : () -> tensor<6xi8> =
      () -> tensor<6xi8> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i8
    %nine = arith.constant 9 : i8
    %s = flow.tensor.splat %one : tensor<2x3xi8>
    %u = flow.tensor.splat %nine : tensor<1x1xi8>
    %t = flow.tensor.update %u, %s[%c1, %c1] : tensor<1x1xi8> -> %s as tensor<2x3xi8>
    %r = flow.tensor.reshape %t : tensor<2x3xi8> -> tensor<6xi8>
    flow.return %r : tensor<6xi8>
  }
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %five = arith.constant 5 : i8
  %x = flow.tensor.load %0[%c4] : tensor<6xi8>
  %y = flow.tensor.store %five, %0[%c1] : tensor<6xi8>
  return %x, %y : i8, tensor<6xi8>
}

// -----

// A HAL-level function: three independent commands in one batch, run in 4
// orders (program, reversed, two shuffles) with the same result.
// CHECK-LABEL: @one_batch result 0: buffer<12 bytes> 0x
// CHECK-NEXT: bytes: 01 01 01 01 02 00 00 00 07 07 07 07
// ORDERS-LABEL: @one_batch result 0: buffer<12 bytes> 0x
// ORDERS-NEXT: bytes: 01 01 01 01 02 00 00 00 07 07 07 07
func.func @one_batch() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %p1 = arith.constant 16843009 : i32
  %p2 = arith.constant 2 : i32
  %p7 = arith.constant 117901063 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c12}
  %s = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s : !hal.buffer)[%c0, %c4] pattern(%p7 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c4] pattern(%p1 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c4, %c4] pattern(%p2 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%s : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c8] length(%c4)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}
