// RUN: not hal-exec %s --split-input-file --orders=4 2>&1 | FileCheck %s
// RUN: hal-exec %s --split-input-file --orders=4 --function=independent | FileCheck %s --check-prefix=GOOD
// RUN: hal-exec %s --split-input-file --orders=4 --function=host_read_while_pending_read | FileCheck %s --check-prefix=GOOD-READ
// RUN: hal-exec %s --split-input-file --orders=4 --function=transient_on_the_timeline | FileCheck %s --check-prefix=GOOD-SLAB
// RUN: hal-exec %s --split-input-file --orders=4 --function=reusable_replays --print-bytes | FileCheck %s --check-prefix=GOOD-REUSE

// The device timeline's rules, one case each (docs/async.md): each error is
// located at the op that breaks the rule, with a note at the other party.

// Unordered submissions that touch disjoint bytes run in any order: fine,
// and the await before the return completes both.
// GOOD: @independent result 0: 8xi32 0x
func.func @independent() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %p1 = arith.constant 1 : i32
  %p2 = arith.constant 2 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c32}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%a : !hal.buffer)[%c16, %c16] pattern(%p2 : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  %f1 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f1) commands([%cmd1])
  %j = hal.fence.join at([%f0, %f1]) : !hal.fence
  hal.fence.await until([%j])
  %v = hal.buffer_view.create buffer(%a : !hal.buffer) shape([%c8]) type(%et) encoding(%enc) : !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A transient on the device timeline: allocated, filled, copied out and
// released, each ordered after the last by a fence, with one host wait.
// GOOD-SLAB: @transient_on_the_timeline result 0: 4xi32 0x
func.func @transient_on_the_timeline() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %out = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %slab = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.execution_barrier<%cmd0 : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([%fa]) signal(%f0) commands([%cmd0])
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%f0]) signal(%fd) buffer(%slab : !hal.buffer)
  %v = hal.buffer_view.create buffer(%out : !hal.buffer) shape([%c4]) type(%et) encoding(%enc) : !hal.buffer_view
  hal.fence.await until([%fd])
  return %v : !hal.buffer_view
}

// -----

// Two unordered writes of the same bytes race.
// CHECK: error: races with a pending submission that no chain of fences orders before it: it writes [0, 16) of allocation 0, the other writes [0, 16) of allocation 0 (overlap [0, 16))
// CHECK: note: the other submission
func.func @write_write_race() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  %f1 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f1) commands([%cmd1])
  hal.fence.await until([%f0, %f1])
  return
}

// -----

// A host write of bytes a pending submission touches.
// CHECK: error: the host writes [0, 4) of allocation 0 while a pending submission writes [0, 16) of allocation 0: await its fence first
// CHECK: note: the pending submission
func.func @host_write_while_read() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%p1 : i32)
  hal.fence.await until([%f0])
  return
}

// -----

// A host write of bytes a pending submission only reads: the copy may still
// read the old value.
// CHECK: error: the host writes [0, 4) of allocation 0 while a pending submission reads [0, 4) of allocation 0: await its fence first
// CHECK: note: the pending submission
func.func @host_write_while_pending_read() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%p1 : i32)
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c4)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%p1 : i32)
  hal.fence.await until([%f0])
  return
}

// -----

// A host read of bytes a pending submission only reads is no race.
// GOOD-READ: @host_read_while_pending_read result 0: i32
func.func @host_read_while_pending_read() -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%p1 : i32)
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c4)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  %v = hal.buffer.load<%a : !hal.buffer>[%c0] : i32
  hal.fence.await until([%f0])
  return %v : i32
}

// -----

// Awaiting a fence nothing signals would block the host forever.
// CHECK: error: awaits a fence that no submission signals: the host would wait forever
// CHECK: note: the fence
func.func @await_unsignalled() {
  %dev = hal.ex.shared_device : !hal.device
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.fence.await until([%f0])
  return
}

// -----

// Work left pending at the return, even of bytes no result holds (here a
// global the caller sees next).
// CHECK: error: returns while a submission it issued is pending: await its fence before returning
// CHECK: note: the pending submission
util.global private mutable @state : !hal.buffer
func.func @pending_at_return() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %g = util.global.load @state : !hal.buffer
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%g : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  return
}

// -----

// A blocking submission waits for no fence: it races with pending work on
// the same bytes.
// CHECK: error: races with a pending submission that no chain of fences orders before it: it reads [0, 16) of allocation 0, the other writes [0, 16) of allocation 0 (overlap [0, 16))
// CHECK: note: the other submission
func.func @blocking_races_with_pending() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd1 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  hal.fence.await until([%f0])
  return
}

// -----

// A buffer from hal.device.queue.alloca, used before its fence orders the
// use after the allocation: a race with the allocation.
// CHECK: error: races with a pending submission that no chain of fences orders before it: it writes [0, 16) of allocation 0, the other writes [0, 16) of allocation 0 (overlap [0, 16))
// CHECK: note: the other submission
func.func @alloca_use_unordered() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %a = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  hal.fence.await until([%fa, %f0])
  return
}

// -----

// A release not ordered after the work still using the buffer.
// CHECK: error: races with a pending submission that no chain of fences orders before it: it writes [0, 16) of allocation 0, the other writes [0, 16) of allocation 0 (overlap [0, 16))
// CHECK: note: the other submission
func.func @dealloca_while_used() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %a = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([%fa]) signal(%f0) commands([%cmd0])
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%fa]) signal(%fd) buffer(%a : !hal.buffer)
  hal.fence.await until([%f0, %fd])
  return
}

// -----

// A released buffer released again: the second dealloca is a use after
// free (found by mutate_exec.py; it was accepted).
// CHECK: error: uses allocation 0 after its release
// CHECK: note: released here
func.func @dealloca_twice() {
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %a = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%fa]) signal(%fd) buffer(%a : !hal.buffer)
  %fe = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%fd]) signal(%fe) buffer(%a : !hal.buffer)
  hal.fence.await until([%fe])
  return
}

// -----

// A submission ordered after the release that uses the released buffer
// (it was accepted, and ran on the freed bytes).
// CHECK: error: uses allocation 1 after its release
// CHECK: note: released here
func.func @use_after_dealloca() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %out = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %slab = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%fa]) signal(%fd) buffer(%slab : !hal.buffer)
  hal.fence.await until([%fd])
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  hal.fence.await until([%f0])
  return
}

// -----

// A host load of a released buffer (it was accepted).
// CHECK: error: uses allocation 0 after its release
// CHECK: note: released here
func.func @load_after_dealloca() -> i32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %a = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%fa]) signal(%fd) buffer(%a : !hal.buffer)
  hal.fence.await until([%fd])
  %x = hal.buffer.load<%a : !hal.buffer>[%c0] : i32
  return %x : i32
}

// -----

// One command buffer in two submissions: its commands ran once, so the
// second would silently run nothing (it was accepted).
// CHECK: error: submits command buffer 0 a second time; a one-shot command buffer runs once
// CHECK: note: its first submission
func.func @execute_twice() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  %f1 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([%f0]) signal(%f1) commands([%cmd0])
  hal.fence.await until([%f1])
  return
}

// -----

// A blocking submission of a command buffer already queued (it was
// accepted).
// CHECK: error: submits the command buffer a second time; a one-shot command buffer runs once
// CHECK: note: its first submission
func.func @submit_after_execute() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd0])
  hal.fence.await until([%f0])
  hal.ex.submit_and_wait %dev, %cmd0
  return
}

// -----

// A released buffer returned as a result: the caller would read freed
// bytes (it was accepted). Located at the function, as the other checks of
// results are.
// CHECK: error: uses allocation 0 after its release
// CHECK: note: released here
func.func @return_after_dealloca() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %a = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  hal.fence.await until([%fa])
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%p1 : i32)
  hal.buffer.store<%a : !hal.buffer>[%c4] value(%p1 : i32)
  hal.buffer.store<%a : !hal.buffer>[%c8] value(%p1 : i32)
  hal.buffer.store<%a : !hal.buffer>[%c12] value(%p1 : i32)
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([]) signal(%fd) buffer(%a : !hal.buffer)
  hal.fence.await until([%fd])
  return %a : !hal.buffer
}

// -----

// A command buffer recorded without OneShot is reusable: each submission
// replays its commands. The copy of bytes [0, 4) to [4, 8) runs twice, the
// second time after the host stored 2 (when every buffer counted as one-shot,
// the second submission ran nothing and bytes [4, 8) kept the first 1).
// GOOD-REUSE: @reusable_replays result 0: buffer<8 bytes>
// GOOD-REUSE-NEXT: bytes: 02 00 00 00 02 00 00 00
func.func @reusable_replays() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c8}
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%one : i32)
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%a : !hal.buffer)[%c4] length(%c4)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f0) commands([%cmd])
  hal.fence.await until([%f0])
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%two : i32)
  %f1 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f1) commands([%cmd])
  hal.fence.await until([%f1])
  return %a : !hal.buffer
}
