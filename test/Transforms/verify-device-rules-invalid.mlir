// RUN: hal-opt %s -split-input-file --hal-verify-command-buffers=skip-device-rules=none -verify-diagnostics

// One case per device rule (docs/concurrency.md, "Device rules"): each break
// is an error naming the rule, the values and the limit.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The binding's offset counts from the root: subspan offset 8 plus binding
// offset 0 is byte 8 of the argument.
func.func @binding_offset_through_subspan(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %dev = hal.ex.shared_device : !hal.device
  %sub = hal.buffer.subspan<%arg0 : !hal.buffer>[%c8, %c64] : !hal.buffer
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{breaks device rule binding-offset-alignment: binding 0 (ordinal 0) starts at byte 8 of argument %arg0, not a multiple of min_buffer_offset_alignment 16}}
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%sub : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A slice of a pack starts at a multiple of the offset alignment; 4 bytes
// into it is not.
func.func @binding_offset_in_pack_slice(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c64, [0, 1] = %c64}) : index
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%total}
  %s1 = hal.buffer.subspan<%slab : !hal.buffer>[%o#1, %c64] : !hal.buffer
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // Binding 0 at the slice's start is aligned.
  // expected-error @below {{breaks device rule binding-offset-alignment: binding 1 (ordinal 1) starts at byte (a multiple of 16) + 4 of allocation %2, not a multiple of min_buffer_offset_alignment 16}}
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%s1 : !hal.buffer)[%c0, %c32], %c1 = (%s1 : !hal.buffer)[%c4, %c32]])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A buffer view's buffer is the bytes the view was created on.
func.func @binding_offset_through_view(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c50331680_i32 = arith.constant 50331680 : i32
  %c1_i32 = arith.constant 1 : i32
  %sub = hal.buffer.subspan<%arg0 : !hal.buffer>[%c4, %c16] : !hal.buffer
  %view = hal.buffer_view.create buffer(%sub : !hal.buffer) shape([%c4]) type(%c50331680_i32) encoding(%c1_i32) : !hal.buffer_view
  %buf = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{breaks device rule binding-offset-alignment: binding 0 (ordinal 0) starts at byte 4 of argument %arg0, not a multiple of min_buffer_offset_alignment 16}}
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%buf : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// The limits come from the module's constraints: offsets aligned to 64,
// bindings of at most 256 bytes.
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 64, max_buffer_range = 256, min_buffer_range_alignment = 16>}>]} {
  func.func @module_constraints(%arg0: !hal.buffer) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %dev = hal.ex.shared_device : !hal.device
    %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", R>]]) : !hal.executable_layout
    %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%cmd : !hal.command_buffer>
    // expected-error @below {{breaks device rule binding-offset-alignment: binding 0 (ordinal 0) starts at byte 32 of argument %arg0, not a multiple of min_buffer_offset_alignment 64}}
    // expected-error @below {{breaks device rule binding-range: binding 1 (ordinal 1) binds 512 bytes, more than max_buffer_range 256}}
    hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c32, %c32], %c1 = (%arg0 : !hal.buffer)[%c0, %c512]])
    hal.command_buffer.end<%cmd : !hal.command_buffer>
    hal.ex.submit_and_wait %dev, %cmd
    return
  }
}

// -----

// The defaults: a binding of more than 1 GiB.
func.func @binding_range_default(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1g = arith.constant 1073741840 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{breaks device rule binding-range: binding 0 (ordinal 0) binds 1073741840 bytes, more than max_buffer_range 1073741824}}
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c1g]])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

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
// The latest push of set 0 binds ordinal 0 only; ordinal 1 of the earlier
// push is not left over for the dispatch.
func.func @binding_left_over(%arg0: !hal.buffer, %out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c256], %c1 = (%out : !hal.buffer)[%c0, %c256]])
  // expected-note @below {{push in effect}}
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c256]])
  // expected-error @below {{breaks device rule unbound-binding: binding @ret0 (set 0, binding 1) of interface @io is not bound by the push_descriptor_set of set 0 in effect, which binds ordinals [0]}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Set 1 was pushed in an earlier recording only.
func.func @set_not_pushed(%arg0: !hal.buffer, %out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>], [#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c1] bindings([%c0 = (%out : !hal.buffer)[%c0, %c256]])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd2 : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd2 : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c256]])
  // expected-error @below {{breaks device rule unbound-binding: binding @ret0 (set 1, binding 0) of interface @io is not bound: no push_descriptor_set of set 1 since the command buffer began}}
  hal.command_buffer.dispatch.symbol<%cmd2 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd2 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd2
  return
}

// -----

// vkCmdFillBuffer: offset (from the root) and length are multiples of 4.
func.func @fill_alignment(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %sub = hal.buffer.subspan<%arg0 : !hal.buffer>[%c2, %c16] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-error @below {{breaks device rule fill-alignment: the fill starts at byte 2 of argument %arg0, not a multiple of 4 (the 32-bit pattern)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%sub : !hal.buffer)[%c0, %c8] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  // expected-error @below {{breaks device rule fill-alignment: the fill length 6 is not a multiple of 4 (the 32-bit pattern)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c8, %c6] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1024, min_buffer_offset_alignment = 16, max_buffer_range = 1024, min_buffer_range_alignment = 16>}>]} {
  func.func @allocation_size() {
    %c1024 = arith.constant 1024 : index
    %c1040 = arith.constant 1040 : index
    %cm1 = arith.constant -1 : index
    %dev = hal.ex.shared_device : !hal.device
    %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
    %ok = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c1024}
    // expected-error @below {{breaks device rule allocation-size: allocates 1040 bytes, more than max_allocation_size 1024}}
    %big = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c1040}
    // expected-error @below {{breaks device rule allocation-size: allocates 18446744073709551615 bytes (-1 as a signed index), more than max_allocation_size 1024}}
    %huge = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%cm1}
    return
  }
}

// -----

hal.executable private @ex {
  // expected-error @below {{breaks device rule push-constants: declares 33 push constant values, more than the 32 (128 bytes, maxPushConstantsSize) a device has}}
  hal.interface @io attributes {push_constants = 33 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
}
func.func @push_constants(%x: i32) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @below {{breaks device rule push-constants: declares 33 push constant values, more than the 32 (128 bytes, maxPushConstantsSize) a device has}}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(33) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // Ordinals 29 to 31 are the last ones a device has.
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(29) values([%x, %x, %x]) : i32, i32, i32
  // expected-error @below {{breaks device rule push-constants: sets up to 33 push constant values, more than the 32 (128 bytes, maxPushConstantsSize) a device has}}
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(30) values([%x, %x, %x]) : i32, i32, i32
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Nothing pushed set 1, and the layout of set 0's push has no set 1: the
// interface still declares @ret0, which the kernel may touch (as hal-exec
// reports it; the layout only excuses bindings of a set that a push in
// effect describes).
func.func @set_never_pushed(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c256]])
  // expected-error @below {{breaks device rule unbound-binding: binding @ret0 (set 1, binding 0) of interface @io is not bound: no push_descriptor_set of set 1 since the command buffer began}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @a0, set=0, binding=2, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @a1, set=0, binding=3, type="StorageBuffer", access="Read|Write|MayAlias"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The written binding 1 covers bytes binding 0 reads; bindings 2 and 3
// overlap too, but both are MayAlias.
func.func @binding_aliasing(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>, #hal.descriptor_set_layout_binding<2, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<3, "StorageBuffer", RW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c16, %c16], %c1 = (%arg0 : !hal.buffer)[%c0, %c64], %c2 = (%arg0 : !hal.buffer)[%c64, %c64], %c3 = (%arg0 : !hal.buffer)[%c64, %c64]])
  // expected-error @below {{breaks device rule binding-aliasing: binding (set 0, binding 1), which the kernel writes, and binding (set 0, binding 0) share bytes [16, 32) of argument %arg0; a kernel may assume its bindings do not alias unless both are declared MayAlias}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  return
}
