// RUN: hal-opt %s -split-input-file --hal-verify-command-buffers -verify-diagnostics

// A copy reads what a fill writes with no barrier between them.
func.func @read_after_write(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c256}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-note @below {{earlier command: write of allocation %2 [0, 256)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c256] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command (no barrier between them): read of allocation %2 [64, 128) against write of allocation %2 [0, 256)}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%buf : !hal.buffer)[%c64] target(%out : !hal.buffer)[%c0] length(%c64)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Two writers of one argument may not run at once; an argument may alias a
// global, so writing one and reading the other races too.
util.global private @pool : !hal.buffer
func.func @write_after_write(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %pool = util.global.load @pool : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // Disjoint constant ranges of one root: no race.
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  // expected-note @below {{earlier command: write of argument %arg0 [16, 48)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c16, %c32] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command (no barrier between them): write of argument %arg0 [32, 48) against write of argument %arg0 [16, 48)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c32, %c16] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // expected-note @below {{earlier command: write of argument %arg0 [0, 16)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  // expected-error @below {{read of global @pool [32, 48) against write of argument %arg0 [0, 16)}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%pool : !hal.buffer)[%c32] target(%pool : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A dispatch's accesses come from the descriptor set in effect and the
// interface: binding 1 is written, so the later read of the same bytes races.
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @dispatch_then_copy(%arg0: !hal.buffer, %out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c256], %c1 = (%out : !hal.buffer)[%c0, %c256]])
  // expected-note @below {{earlier command: write of argument %arg1 [0, 256)}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  // expected-error @below {{read of argument %arg1 [0, 128) against write of argument %arg1 [0, 256)}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%out : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c128] length(%c128)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Slices of one pack: live together, they are disjoint; slices 0 and 2
// have disjoint lifetimes and may share bytes, so they race.
func.func @pack_lifetimes(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c64, [1, 2] = %c64, [2, 3] = %c64}) : index
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%total}
  %s0 = hal.buffer.subspan<%slab : !hal.buffer>[%o#0, %c64] : !hal.buffer
  %s1 = hal.buffer.subspan<%slab : !hal.buffer>[%o#1, %c64] : !hal.buffer
  %s2 = hal.buffer.subspan<%slab : !hal.buffer>[%o#2, %c64] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-note @below {{earlier command: write of allocation %2 [%packed_offsets#0, +64) (pack slice 0)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s0 : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s1 : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  // expected-error @below {{write of allocation %2 [%packed_offsets#2, +64) (pack slice 2) against write of allocation %2 [%packed_offsets#0, +64) (pack slice 0)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s2 : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Reading slab bytes nothing wrote before: a split write leaves a hole.
func.func @uninitialized_read(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%slab : !hal.buffer)[%c32, %c32] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // Covered by the first fill.
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c16)
  // expected-error @below {{reads bytes of allocation %2 [0, 64) that no earlier command of the command buffer wrote (uninitialized read)}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c16] length(%c64)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Ranges outside a buffer of known length, directly and through a subspan.
func.func @out_of_range(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c48 = arith.constant 48 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  // expected-note @below {{buffer defined here}}
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  // expected-note @below {{buffer defined here}}
  %buf2 = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %sub = hal.buffer.subspan<%buf2 : !hal.buffer>[%c32, %c48] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{fill range [32, +64) is outside its buffer of 64 bytes}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c32, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // The subspan itself sticks out of its buffer: [32, +48) of 64 bytes.
  // expected-error @below {{copy target range [32, +48) is outside its buffer of 64 bytes}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%sub : !hal.buffer)[%c0] length(%c48)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Overlapping writes that together cover the read: no uninitialized read;
// a hole past them still is one.
func.func @overlapping_writes_cover_read(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c48] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%slab : !hal.buffer)[%c4, %c4] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c8)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // expected-error @below {{reads bytes of allocation %2 [0, 64) that no earlier command of the command buffer wrote (uninitialized read)}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c64)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A symbolic start is a buffer offset, never negative: a range starting at
// %o + 16 cannot touch [0, 16) whatever its length; at %o + 8 it may.
func.func @symbolic_start_after_constant_end(%out: !hal.buffer, %o: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %at16 = arith.addi %o, %c16 : index
  %at8 = arith.addi %o, %c8 : index
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-note @below {{earlier command: write of allocation %2 [0, 16)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%at16, %n] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%at8, %n] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Empty commands are valid (the clamped copies of a dynamic wide splat):
// a zero-length copy starting at the end of its buffer is in range, reads no
// uninitialized byte and races with nothing; no diagnostic.
func.func @zero_length_at_end() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c1_i32 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c8}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c4] pattern(%c1_i32 : i32)
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%buf : !hal.buffer)[%c4] target(%buf : !hal.buffer)[%c8] length(%c0)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c8, %c0] pattern(%c1_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c4, %c4] pattern(%c1_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A copy onto itself, and one between overlapping ranges of one buffer:
// undefined on a device. Disjoint ranges of one buffer are fine.
func.func @overlapping_copies(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{copies between overlapping byte ranges of one buffer (argument %arg0 [0, 16) onto [0, 16)): overlapping copies are undefined on a device}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // expected-error @below {{copies between overlapping byte ranges of one buffer (argument %arg0 [0, 16) onto [8, 24))}}
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c8] length(%c16)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c16] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A `Read|Write` binding writes: two dispatches through it into the same
// bytes with no barrier race (the access model place-barriers shares).
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @rw, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @read_write_binding(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", RW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16]])
      // expected-note @below {{earlier command: read-write of argument %arg0 [0, 16)}}
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    }
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16]])
      // expected-error @below {{races with an earlier command (no barrier between them): read-write of argument %arg0 [0, 16) against read-write of argument %arg0 [0, 16)}}
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    }
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// An indirect submission binding slots of different alias classes to
// overlapping bytes breaks what the memoized recording's barriers assume.
func.func @memoized_slots_alias() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %lo = hal.buffer.subspan<%buf : !hal.buffer>[%c0, %c48] : !hal.buffer
  %hi = hal.buffer.subspan<%buf : !hal.buffer>[%c16, %c48] : !hal.buffer
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 1]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer):
    %z = arith.constant 0 : index
    %len = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%b : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{binds slot 0 (alias class 0) and slot 1 (alias class 1) to overlapping bytes of allocation %2 ([0, 48) and [16, 64)): the memoized recording assumed they do not alias}}
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%lo, %hi])
  hal.fence.await until([%f])
  return
}

// -----

// The same recording read through its one submission: the two fills write
// the same bytes of the buffer bound to both slots (one class), a race.
func.func @memoized_race() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer):
    %z = arith.constant 0 : index
    %len = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    // expected-note @+1 {{earlier command: write of allocation %2 [0, 16)}}
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    // expected-error @+1 {{race}}
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%b : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%buf, %buf])
  hal.fence.await until([%f])
  return
}
