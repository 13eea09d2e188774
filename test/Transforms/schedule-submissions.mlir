// RUN: hal-opt %s -split-input-file --hal-schedule-submissions --verify-each | FileCheck %s
// The scheduled functions run clean on the executor's timeline, in every
// order the fences allow.
// RUN: hal-opt %s -split-input-file --hal-schedule-submissions -o %t.mlir
// RUN: hal-exec %t.mlir --split-input-file --orders=4 --skip-function=unknown_command_buffer --skip-function=waits_for_argument_reader > /dev/null

// A chain: the copy reads what the fill wrote, so it waits on the fill's
// fence; the host waits only before it reads the copy's result, and nothing
// is left to wait for at the return.
// CHECK-LABEL: func.func @chain
// CHECK: %[[F0:.+]] = hal.fence.create device(%{{.+}} : !hal.device) : !hal.fence
// CHECK-NEXT: hal.device.queue.execute<%{{.+}} : !hal.device> wait([]) signal(%[[F0]]) commands([%{{.+}}])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK-NEXT: hal.fence.await until([%[[F1]]])
// CHECK-NEXT: hal.buffer.load
// CHECK-NOT: hal.fence.await
// CHECK: return
func.func @chain() -> i32 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c64] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd1 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c64)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %x = hal.buffer.load<%b : !hal.buffer>[%c0] : i32
  return %x : i32
}

// -----

// Independent submissions wait for nothing; the return awaits both, joined.
// CHECK-LABEL: func.func @independent
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F1]])
// CHECK: %[[J:.+]] = hal.fence.join at([%[[F0]], %[[F1]]]) : !hal.fence
// CHECK-NEXT: hal.fence.await until([%[[J]]])
// CHECK-NEXT: return
func.func @independent() -> (!hal.buffer_view, !hal.buffer_view) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %va = hal.buffer_view.create buffer(%a : !hal.buffer) shape([%c4]) type(%et) encoding(%enc) : !hal.buffer_view
  %vb = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%c4]) type(%et) encoding(%enc) : !hal.buffer_view
  return %va, %vb : !hal.buffer_view, !hal.buffer_view
}

// -----

// A host read waits only for the submission that writes its buffer; the
// other one is still pending until the next read.
// CHECK-LABEL: func.func @host_read_waits_for_its_writer
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F1]])
// CHECK-NEXT: hal.fence.await until([%[[F1]]])
// CHECK-NEXT: hal.buffer.load<%[[B:.+]] : !hal.buffer>
// CHECK-NEXT: hal.fence.await until([%[[F0]]])
// CHECK-NEXT: hal.buffer.load
// CHECK-NEXT: arith.addi
// CHECK-NEXT: return
func.func @host_read_waits_for_its_writer() -> i32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %x = hal.buffer.load<%b : !hal.buffer>[%c0] : i32
  %y = hal.buffer.load<%a : !hal.buffer>[%c0] : i32
  %sum = arith.addi %x, %y : i32
  return %sum : i32
}

// -----

// Write after read: the second submission overwrites the bytes the first
// reads, so it waits; a third that reads what the second wrote (and writes
// bytes the first did not touch) depends on the second alone. The pruning
// of an already ordered fence is @dependence_already_ordered, below.
// CHECK-LABEL: func.func @write_after_read
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK: %[[F2:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F1]]]) signal(%[[F2]])
// CHECK-NEXT: hal.buffer_view.create
// CHECK-NEXT: hal.fence.await until([%[[F2]]])
// CHECK-NEXT: return
func.func @write_after_read() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c32}
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%pattern : i32)
  hal.buffer.store<%a : !hal.buffer>[%c8] value(%pattern : i32)
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  hal.buffer.store<%a : !hal.buffer>[%c4] value(%pattern : i32)
  hal.buffer.store<%a : !hal.buffer>[%c12] value(%pattern : i32)
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd2 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c16] length(%c16)
  hal.command_buffer.end<%cmd2 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd2
  %v = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%c8]) type(%et) encoding(%enc) : !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A host write of bytes a pending submission reads waits for it.
// CHECK-LABEL: func.func @host_write_waits_for_reader
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK-NEXT: hal.fence.await until([%[[F0]]])
// CHECK-NEXT: hal.buffer.store
// CHECK-NEXT: hal.buffer.load
// CHECK-NEXT: return
func.func @host_write_waits_for_reader() -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c4}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%pattern : i32)
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c4)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  hal.buffer.store<%a : !hal.buffer>[%c0] value(%pattern : i32)
  %x = hal.buffer.load<%a : !hal.buffer>[%c0] : i32
  return %x : i32
}

// -----

// A call may touch any buffer: everything pending is awaited before it.
// CHECK-LABEL: func.func @call_awaits_everything
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK-NEXT: hal.fence.await until([%[[F0]]])
// CHECK-NEXT: call @callee()
// CHECK-NEXT: return
func.func @callee() {
  return
}
func.func @call_awaits_everything() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  call @callee() : () -> ()
  return
}

// -----

// A command buffer from the caller may hold any command: a host read of any
// buffer waits for it.
// CHECK-LABEL: func.func @unknown_command_buffer
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]]) commands([%[[CMD:.+]]])
// CHECK-NEXT: hal.fence.await until([%[[F0]]])
// CHECK-NEXT: hal.buffer.load
func.func @unknown_command_buffer(%cmd: !hal.command_buffer, %a: !hal.buffer) -> i32 {
  %c0 = arith.constant 0 : index
  %dev = hal.ex.shared_device : !hal.device
  hal.ex.submit_and_wait %dev, %cmd
  %x = hal.buffer.load<%a : !hal.buffer>[%c0] : i32
  return %x : i32
}

// -----

// An argument buffer may be a global's buffer: a write of the global waits
// for the submission reading the argument (they may alias).
// CHECK-LABEL: func.func @waits_for_argument_reader
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
util.global private mutable @state : !hal.buffer
func.func @waits_for_argument_reader(%arg: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%arg : !hal.buffer)[%c0] target(%a : !hal.buffer)[%c0] length(%c4)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %g = util.global.load @state : !hal.buffer
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%g : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  return
}

// -----

// An allocation stored into a global is what a later load of the global
// returns: a submission reading the loaded global waits for the one writing
// the allocation (found by utils/gen_cow_fragments.py --classes=program: a
// tied fragment on a copy of a global stored back, the global loaded again
// and written in place by the next fragment). Directly and through a
// pointer (a call the allocation is passed to counts as storing it).
// CHECK-LABEL: func.func @stored_allocation
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK-LABEL: func.func @stored_allocation_indirect
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK-LABEL: func.func @unstored_allocation
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F1]])
util.global private mutable @cache : !hal.buffer
func.func @stored_allocation() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  util.global.store %a, @cache : !hal.buffer
  %g = util.global.load @cache : !hal.buffer
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd1 : !hal.command_buffer> source(%g : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c4)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  return
}
func.func @stored_allocation_indirect() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %p = util.global.address @cache : !util.ptr<!hal.buffer>
  util.global.store.indirect %a, %p : !hal.buffer -> !util.ptr<!hal.buffer>
  %g = util.global.load @cache : !hal.buffer
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%g : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  return
}
// An allocation that never escapes shares no bytes with a global.
func.func @unstored_allocation() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %g = util.global.load @cache : !hal.buffer
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%g : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  return
}

// -----

// An initializer leaves no work pending either.
// CHECK-LABEL: util.initializer
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK-NEXT: util.global.store
// CHECK-NEXT: hal.fence.await until([%[[F0]]])
// CHECK-NEXT: util.return
util.global private mutable @pool : !hal.buffer
util.initializer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c4] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  util.global.store %a, @pool : !hal.buffer
  util.return
}
func.func @uses_pool() {
  return
}

// -----

// A submission that depends on two earlier ones, neither ordered after the
// other, waits on both fences: the copy reads the bytes the first fill
// wrote and overwrites those the second fill wrote.
// CHECK-LABEL: func.func @two_unordered_dependences
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F1]])
// CHECK: %[[F2:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]], %[[F1]]]) signal(%[[F2]])
func.func @two_unordered_dependences() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c32}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd1 : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c32] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd2 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c16] length(%c16)
  hal.command_buffer.end<%cmd2 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd2
  %v = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%c8]) type(%et) encoding(%enc) : !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A submission that depends on two earlier ones of which the second already
// waits on the first waits on the second alone: the last copy reads what
// the fill wrote and what the first copy wrote, and the first copy waits on
// the fill.
// CHECK-LABEL: func.func @dependence_already_ordered
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK: %[[F2:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F1]]]) signal(%[[F2]])
func.func @dependence_already_ordered() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %pattern = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %c = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c32}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %c16] pattern(%pattern : i32)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd0
  %cmd1 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd1 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd1 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd1 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd1
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd2 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%c : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%b : !hal.buffer)[%c0] target(%c : !hal.buffer)[%c16] length(%c16)
  hal.command_buffer.end<%cmd2 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd2
  %v = hal.buffer_view.create buffer(%c : !hal.buffer) shape([%c8]) type(%et) encoding(%enc) : !hal.buffer_view
  return %v : !hal.buffer_view
}
