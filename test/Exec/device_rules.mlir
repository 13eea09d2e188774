// RUN: not hal-exec %s --split-input-file --skip-device-rules=none 2>&1 | FileCheck %s
// RUN: not hal-exec %s --split-input-file --skip-device-rules=none --device-limits=offset-alignment=4,max-range=64,max-allocation=2048,push-constants=64 2>&1 | FileCheck %s --check-prefix=LIMITS --implicit-check-not=error:
// RUN: not hal-exec %s --split-input-file 2>&1 | FileCheck %s
// RUN: not hal-exec %s --device-limits=offset-alignment=12 2>&1 | FileCheck %s --check-prefix=BADLIMIT
// RUN: not hal-exec %s --device-limits=max-range=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not hal-exec %s --device-limits=alignment=16 2>&1 | FileCheck %s --check-prefix=UNKNOWNLIMIT
// RUN: not hal-exec %s --skip-device-rules=fill-alignment,bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWNRULE

// The device rules on the concrete values of a run (docs/executor.md): each
// break is a located error naming the rule, the values and the limit. The
// limits come from the module's constraints or --device-limits. Every rule
// is checked by default; --skip-device-rules turns some off.

// BADLIMIT: hal-exec: --device-limits: device limit offset-alignment must be a power of two, got 12
// ZERO: hal-exec: --device-limits: device limit 'max-range=0' needs a positive integer value
// UNKNOWNLIMIT: hal-exec: --device-limits: unknown device limit 'alignment'
// UNKNOWNRULE: hal-exec: --skip-device-rules: unknown device rule 'bogus'

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Byte 8 of the allocation: subspan offset 4 plus binding offset 4. With
// offset-alignment=4 it is aligned, and the 128-byte binding 1 is longer
// than max-range=64.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule binding-offset-alignment: binding ordinal 0 starts at byte 8 of allocation 0, not a multiple of min_buffer_offset_alignment 16
// LIMITS: {{.*}}:{{[0-9]+}}:3: error: breaks device rule binding-range: binding ordinal 1 binds 128 bytes of allocation 0, more than max_buffer_range 64
func.func @binding_offset() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  %sub = hal.buffer.subspan<%b : !hal.buffer>[%c4, %c128] : !hal.buffer
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%sub : !hal.buffer)[%c4, %c16], %c1 = (%b : !hal.buffer)[%c0, %c128]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%x]) : i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// The latest push of set 0 binds ordinal 0 only: ordinal 1 of the earlier
// push is not left over.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule unbound-binding: the interface declares binding @out0 (set 0, binding 1) and the push_descriptor_set of set 0 in effect does not bind it
// LIMITS: {{.*}}:{{[0-9]+}}:3: error: breaks device rule unbound-binding: the interface declares binding @out0 (set 0, binding 1)
func.func @binding_left_over() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c0, %c16], %c1 = (%b : !hal.buffer)[%c128, %c16]])
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%x]) : i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Nothing pushed set 1 in this command buffer.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule unbound-binding: the interface declares binding @out0 (set 1, binding 0) and no push_descriptor_set of set 1 is in effect in the command buffer
// LIMITS: {{.*}}:{{[0-9]+}}:3: error: breaks device rule unbound-binding: the interface declares binding @out0 (set 1, binding 0)
func.func @set_not_pushed() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%x]) : i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// vkCmdFillBuffer: offset and length from the root are multiples of 4; the
// subspan starts at byte 2.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule fill-alignment: fills [2, +4) of allocation 0; offset and length must be multiples of 4 (the 32-bit pattern)
// LIMITS: {{.*}}:{{[0-9]+}}:3: error: breaks device rule fill-alignment: fills [2, +4)
func.func @fill_offset() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  %sub = hal.buffer.subspan<%b : !hal.buffer>[%c2, %c16] : !hal.buffer
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%sub : !hal.buffer)[%c0, %c4] pattern(%x : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule fill-alignment: fills [4, +6) of allocation 0
// LIMITS: {{.*}}:{{[0-9]+}}:3: error: breaks device rule fill-alignment: fills [4, +6)
func.func @fill_length() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c4, %c6] pattern(%x : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// The module's max_allocation_size; --device-limits=max-allocation=2048
// replaces it.
// CHECK: {{.*}}:{{[0-9]+}}:10: error: breaks device rule allocation-size: allocates 1040 bytes, more than max_allocation_size 1024
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1024, min_buffer_offset_alignment = 16, max_buffer_range = 1024, min_buffer_range_alignment = 16>}>]} {
  func.func @allocation_size() {
    %c1040 = arith.constant 1040 : index
    %dev = hal.ex.shared_device : !hal.device
    %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
    %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c1040}
    return
  }
}

// -----

// Push constant ordinals 30 to 32: the device has 32 (128 bytes).
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule push-constants: sets up to 33 push constant values, more than the 32 (128 bytes, maxPushConstantsSize) of the device
func.func @push_constants() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(30) values([%x, %x, %x]) : i32, i32, i32
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 33 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// The dispatched interface takes 33 push constants.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule push-constants: its interface declares 33 push constant values, more than the 32 (128 bytes, maxPushConstantsSize) of the device
func.func @interface_push_constants() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c256}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c256] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c0, %c16], %c1 = (%b : !hal.buffer)[%c128, %c16]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
