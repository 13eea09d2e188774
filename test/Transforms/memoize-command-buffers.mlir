// RUN: hal-opt %s -split-input-file --hal-memoize-command-buffers -verify-diagnostics | FileCheck %s
// What the pass makes passes the verifier, which sees through the slots.
// RUN: hal-opt %s -split-input-file --hal-memoize-command-buffers --hal-verify-command-buffers -o /dev/null 2>/dev/null

// A blocking submission: every dynamic value a command uses becomes a
// uniform; constants stay in the recording. The slab's two pieces are
// subspans at constant offsets, named at constant offsets: one slot binds
// the slab (a fresh allocation, class 1) and the recording adds the pieces'
// offsets (64 for the second). The argument's buffer view is another root
// (class 0). The submission creates and awaits a fence.
// CHECK-LABEL: func.func @copy_slice
// CHECK: %[[SLAB:.*]] = hal.allocator.allocate
// CHECK: %[[CMD:.*]] = hal.device.memoize<%{{.*}} : !hal.device> slots([0, 1]) : !hal.command_buffer {
// CHECK-NEXT: ^bb0(%[[D:.*]]: !hal.device, %[[S0:.*]]: !hal.buffer, %[[S1:.*]]: !hal.buffer, %[[U0:.*]]: index):
// CHECK: %[[O64:.*]] = arith.constant 64 : index
// CHECK: %[[CB:.*]] = hal.command_buffer.create device(%[[D]] : !hal.device) mode(None)
// CHECK: copy_buffer<%[[CB]] : !hal.command_buffer> source(%[[S0]] : !hal.buffer)[%{{.*}}] target(%[[S1]] : !hal.buffer)[%{{.*}}] length(%[[U0]])
// CHECK: copy_buffer<%[[CB]] : !hal.command_buffer> source(%[[S1]] : !hal.buffer)[%{{.*}}] target(%[[S1]] : !hal.buffer)[%[[O64]]] length(%[[U0]])
// CHECK: hal.return %[[CB]] : !hal.command_buffer
// CHECK: %[[F:.*]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute.indirect<%{{.*}} : !hal.device> wait([]) signal(%[[F]]) commands(%[[CMD]]) bindings([%{{.*}}, %[[SLAB]]]) uniforms([%{{.*}}] : index)
// CHECK-NEXT: hal.fence.await until([%[[F]]])
// CHECK-NOT: hal.ex.submit_and_wait
func.func @copy_slice(%arg: !hal.buffer_view) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c50331680_i32 = arith.constant 50331680 : i32
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %n = hal.buffer_view.dim<%arg : !hal.buffer_view>[0] : index
  %bytes = arith.muli %n, %c4 : index
  %in = hal.buffer_view.buffer<%arg : !hal.buffer_view> : !hal.buffer
  %slab = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c128}
  %a = hal.buffer.subspan<%slab : !hal.buffer>[%c0, %bytes] : !hal.buffer
  %b = hal.buffer.subspan<%slab : !hal.buffer>[%c64, %bytes] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%in : !hal.buffer)[%c0] target(%a : !hal.buffer)[%c0] length(%bytes)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%bytes)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %view = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%n]) type(%c50331680_i32) encoding(%c0_i32) : !hal.buffer_view
  return %view : !hal.buffer_view
}

// -----

// A queue submission keeps its fences. A binding whose offset is dynamic
// keeps its own slot. The workgroup count a switch case computes on the
// host is computed at the submission and read as a uniform, one for both
// variants since they compute the same; the layout lookup moves into the
// recording.
// CHECK-LABEL: func.func @switch_workgroups
// CHECK: hal.device.memoize<%{{.*}} : !hal.device> slots([0]) : !hal.command_buffer {
// CHECK-NEXT: ^bb0(%{{.*}}: !hal.device, %[[S:.*]]: !hal.buffer, %[[N:.*]]: index, %[[V:.*]]: i32, %[[X:.*]]: index):
// CHECK: hal.executable_layout.lookup
// CHECK: hal.device.switch
// CHECK: bindings([%c0 = (%[[S]] : !hal.buffer)[%c0{{.*}}, %[[N]]]])
// CHECK: values([%[[V]]]) : i32
// CHECK: workgroups([%[[X]], %c1{{.*}}, %c1{{.*}}])
// CHECK: workgroups([%[[X]], %c1{{.*}}, %c1{{.*}}])
// CHECK-NOT: arith.ceildivui
// CHECK: hal.return %{{.*}} : !hal.command_buffer
// CHECK: %[[COUNT:.*]] = arith.ceildivui %{{.*}}, %c64
// CHECK-NEXT: hal.device.queue.execute.indirect<%{{.*}} : !hal.device> wait([%{{.*}}]) signal(%{{.*}}) commands(%{{.*}}) bindings([%{{.*}}]) uniforms([%{{.*}}, %{{.*}}, %[[COUNT]]] : index, i32, index)
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @cpu, target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> {
    hal.executable.entry_point @fill attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @fill attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @switch_workgroups(%buf: !hal.buffer, %n: index, %v: i32, %ready: !hal.fence) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"embedded-elf-x86_64"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%buf : !hal.buffer)[%c0, %n]])
      hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%v]) : i32
      %c64 = arith.constant 64 : index
      %x = arith.ceildivui %n, %c64 : index
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@cpu::@fill) workgroups([%x, %c1, %c1])
      hal.return
    },
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%buf : !hal.buffer)[%c0, %n]])
      hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%v]) : i32
      %c64_1 = arith.constant 64 : index
      %x_1 = arith.ceildivui %n, %c64_1 : index
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@fill) workgroups([%x_1, %c1, %c1])
      hal.return
    }
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  %done = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([%ready]) signal(%done) commands([%cmd])
  hal.fence.await until([%done])
  return
}

// -----

// A command buffer a callee records into is recorded on the host's path:
// it stays one-shot.
// CHECK-LABEL: func.func @recorded_by_callee
// CHECK-NOT: hal.device.memoize
// CHECK: hal.ex.submit_and_wait
func.func private @record_fill(%cmd: !hal.command_buffer, %buf: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
  return
}
func.func @recorded_by_callee(%buf: !hal.buffer) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-remark @+1 {{command buffer stays one-shot: 'func.call' uses it}}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  func.call @record_fill(%cmd, %buf) : (!hal.command_buffer, !hal.buffer) -> ()
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A command buffer submitted with another stays one-shot; so does the other.
// CHECK-LABEL: func.func @submitted_together
// CHECK-NOT: hal.device.memoize
// CHECK: hal.device.queue.execute<
func.func @submitted_together(%buf: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  // expected-remark @+1 {{command buffer stays one-shot: it is submitted together with other command buffers}}
  %a = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%a : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%a : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%a : !hal.command_buffer>
  // expected-remark @+1 {{command buffer stays one-shot: it is submitted together with other command buffers}}
  %b = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%b : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%b : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%b : !hal.command_buffer>
  %done = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%done) commands([%a, %b])
  hal.fence.await until([%done])
  return
}

// -----

// A reusable command buffer submitted twice stays as it is.
// CHECK-LABEL: func.func @submitted_twice
// CHECK-NOT: hal.device.memoize
func.func @submitted_twice(%buf: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  // expected-remark @+1 {{command buffer stays one-shot: it is submitted more than once}}
  %a = hal.command_buffer.create device(%dev : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%a : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%a : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%a : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %a
  hal.ex.submit_and_wait %dev, %a
  return
}

// -----

// Two function arguments may be the same bytes: one class. A fresh
// allocation stored into a global escapes and joins them.
// CHECK-LABEL: func.func @classes
// CHECK: hal.device.memoize<%{{.*}} : !hal.device> slots([0, 0, 0, 1])
util.global private mutable @kept : !hal.buffer
func.func @classes(%x: !hal.buffer, %y: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %kept = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  util.global.store %kept, @kept : !hal.buffer
  %fresh = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%x : !hal.buffer)[%c0] target(%y : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%y : !hal.buffer)[%c0] target(%kept : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%kept : !hal.buffer)[%c0] target(%fresh : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A layout a switch case looks up stays in the recording's case.
// CHECK-LABEL: func.func @layout_in_case
// CHECK: hal.device.memoize
// CHECK: hal.device.switch
// CHECK-NEXT: #hal.device.match.executable.format<"embedded-elf-x86_64"> {
// CHECK-NEXT: %[[L:.*]] = hal.executable_layout.lookup
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%{{.*}} : !hal.command_buffer> layout(%[[L]] : !hal.executable_layout)
// CHECK: hal.device.queue.execute.indirect
hal.executable private @ex2 {
  hal.interface @io {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @cpu, target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> {
    hal.executable.entry_point @fill attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @layout_in_case(%buf: !hal.buffer, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"embedded-elf-x86_64"> {
      %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%buf : !hal.buffer)[%c0, %n]])
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex2::@cpu::@fill) workgroups([%c1, %c1, %c1])
      hal.return
    }
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
