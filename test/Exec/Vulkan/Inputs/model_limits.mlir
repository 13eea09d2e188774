// The model kernel's limits (model_limits.test): 12 MiB of Read
// binding run, 20 MiB are refused; 13 Read bindings are refused.

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 0 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @large() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 12582912 : index
  %pattern = arith.constant 7 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %big = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%size}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%big : !hal.buffer)[%c0, %size] pattern(%pattern : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%big : !hal.buffer)[%c0, %size], %c1 = (%result : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

func.func @too_large() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 20971520 : index
  %pattern = arith.constant 7 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %big = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%size}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%big : !hal.buffer)[%c0, %size] pattern(%pattern : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%big : !hal.buffer)[%c0, %size], %c1 = (%result : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// A dispatch with more bindings than the model kernel has slots.

hal.executable private @wide {
  hal.interface @io attributes {push_constants = 0 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @in3, set=0, binding=3, type="StorageBuffer", access="Read"
    hal.interface.binding @in4, set=0, binding=4, type="StorageBuffer", access="Read"
    hal.interface.binding @in5, set=0, binding=5, type="StorageBuffer", access="Read"
    hal.interface.binding @in6, set=0, binding=6, type="StorageBuffer", access="Read"
    hal.interface.binding @in7, set=0, binding=7, type="StorageBuffer", access="Read"
    hal.interface.binding @in8, set=0, binding=8, type="StorageBuffer", access="Read"
    hal.interface.binding @in9, set=0, binding=9, type="StorageBuffer", access="Read"
    hal.interface.binding @in10, set=0, binding=10, type="StorageBuffer", access="Read"
    hal.interface.binding @in11, set=0, binding=11, type="StorageBuffer", access="Read"
    hal.interface.binding @in12, set=0, binding=12, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=13, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @too_many_bindings() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %pattern = arith.constant 7 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %big = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<2, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<3, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<4, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<5, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<6, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<7, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<8, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<9, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<10, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<11, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<12, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<13, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%big : !hal.buffer)[%c0, %c64] pattern(%pattern : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%big : !hal.buffer)[%c0, %c64], %c1 = (%big : !hal.buffer)[%c0, %c64], %c2 = (%big : !hal.buffer)[%c0, %c64], %c3 = (%big : !hal.buffer)[%c0, %c64], %c4 = (%big : !hal.buffer)[%c0, %c64], %c5 = (%big : !hal.buffer)[%c0, %c64], %c6 = (%big : !hal.buffer)[%c0, %c64], %c7 = (%big : !hal.buffer)[%c0, %c64], %c8 = (%big : !hal.buffer)[%c0, %c64], %c9 = (%big : !hal.buffer)[%c0, %c64], %c10 = (%big : !hal.buffer)[%c0, %c64], %c11 = (%big : !hal.buffer)[%c0, %c64], %c12 = (%big : !hal.buffer)[%c0, %c64], %c13 = (%result : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@wide::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}
