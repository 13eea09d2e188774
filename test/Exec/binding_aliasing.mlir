// RUN: not hal-exec %s --function=overlapping 2>&1 | FileCheck %s
// RUN: hal-exec %s --function=may_alias
// RUN: hal-exec %s --skip-device-rules=binding-aliasing

// Device rule binding-aliasing (docs/executor.md): a kernel may assume its
// bindings do not alias (SPIR-V storage buffers without the Aliased
// decoration), so a dispatch whose written binding shares bytes with
// another of its bindings is an error, unless both are declared MayAlias.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @io0, set=0, binding=1, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// The read binding lies inside the written one.
// CHECK: {{.*}}:{{[0-9]+}}:3: error: breaks device rule binding-aliasing: binding (set 0, binding 1), which the kernel writes, and binding (set 0, binding 0) share bytes [16, 32) of allocation 0; a kernel may assume its bindings do not alias unless both are declared MayAlias
func.func @overlapping() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", RW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c64] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c16, %c16], %c1 = (%b : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

hal.executable private @exa {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @io0, set=0, binding=1, type="StorageBuffer", access="Read|Write|MayAlias"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Both declared MayAlias: the same ranges run.
func.func @may_alias() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", RW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c64] pattern(%x : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c16, %c16], %c1 = (%b : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@exa::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
