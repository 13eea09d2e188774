// RUN: hal-exec %s --split-input-file --function=device_then_host --print-bytes | FileCheck %s --check-prefix=HOST
// RUN: not hal-exec %s --split-input-file 2>&1 >/dev/null | FileCheck %s

// The host reads only host-visible memory: a hal.buffer.load or store of a
// buffer allocated without HostVisible, or such a buffer (or a subspan of
// it) returned to the host, is an error at the access with a note at the
// allocation. Device commands use any memory.

// A device-local buffer filled and copied on the device into a host-visible
// one that the host reads back and receives.
// HOST-LABEL: @device_then_host result 0: buffer<16 bytes>
// HOST-NEXT: bytes: 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07 07
// HOST-LABEL: @device_then_host result 1: i32
// HOST-NEXT: bytes: 07 07 07 07
func.func @device_then_host() -> (!hal.buffer, i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 0x07070707 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %d = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c16}
  %h = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%d : !hal.buffer)[%c0] target(%h : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %v = hal.buffer.load<%h : !hal.buffer>[%c4] : i32
  return %h, %v : !hal.buffer, i32
}

// -----

// CHECK-NOT: device_then_host
// CHECK: error: reads allocation 0, device memory the host cannot access (allocated without HostVisible)
// CHECK: note: allocated here
func.func @load_device_local() -> i32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %d = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %v = hal.buffer.load<%d : !hal.buffer>[%c0] : i32
  return %v : i32
}

// -----

// CHECK: error: writes allocation 0, device memory the host cannot access (allocated without HostVisible)
// CHECK: note: allocated here
func.func @store_device_local() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %v = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %d = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c16}
  hal.buffer.store<%d : !hal.buffer>[%c0] value(%v : i32)
  return
}

// -----

// A subspan is memory of its allocation.
// CHECK: error: returns to the host (result 0) allocation 0, device memory the host cannot access (allocated without HostVisible)
// CHECK: note: allocated here
func.func @return_device_subspan() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %d = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostCached) usage(All) : !hal.buffer{%c16}
  %s = hal.buffer.subspan<%d : !hal.buffer>[%c8, %c8] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %s : !hal.buffer
}

// -----

// A device-local buffer viewed and returned as a buffer view.
// CHECK: error: returns to the host (result 0) allocation 0, device memory the host cannot access (allocated without HostVisible)
// CHECK: note: allocated here
func.func @return_device_view() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 1 : i32
  %type = arith.constant 268435488 : i32
  %enc = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %d = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %view = hal.buffer_view.create buffer(%d : !hal.buffer) shape([%c4]) type(%type) encoding(%enc) : !hal.buffer_view
  return %view : !hal.buffer_view
}
