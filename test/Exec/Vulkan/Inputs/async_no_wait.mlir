// Broken for the Vulkan device's oracle (test/Exec/Vulkan/async.test): the
// second fragment no longer waits on the first, whose result it reads, and
// the host awaits both fences, so that the two run as one group of queue
// submissions that nothing orders on the device.
module {
  hal.executable private @ex {
    hal.interface @io attributes {push_constants = 1 : index} {
      hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
      hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    }
    hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
      hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
      builtin.module {
      }
    }
  }
  func.func @main(%arg0: !hal.buffer) -> !hal.buffer {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c0_i32 = arith.constant 0 : i32
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %0 = hal.ex.shared_device : !hal.device
    %1 = hal.device.allocator<%0 : !hal.device> : !hal.allocator
    %2 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
    %3 = hal.executable_layout.lookup device(%0 : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
    %4 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%4 : !hal.command_buffer>
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%4 : !hal.command_buffer> layout(%3 : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c64], %c1 = (%2 : !hal.buffer)[%c0, %c64]])
        hal.command_buffer.push_constants<%4 : !hal.command_buffer> layout(%3 : !hal.executable_layout) offset(0) values([%c0_i32]) : i32
        hal.command_buffer.dispatch.symbol<%4 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c16, %c1, %c1])
        hal.return
      }
    hal.command_buffer.end<%4 : !hal.command_buffer>
    %5 = hal.fence.create device(%0 : !hal.device) : !hal.fence
    hal.device.queue.execute<%0 : !hal.device> wait([]) signal(%5) commands([%4])
    %6 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
    %7 = hal.executable_layout.lookup device(%0 : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
    %8 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%8 : !hal.command_buffer>
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout)[%c0] bindings([%c0 = (%2 : !hal.buffer)[%c0, %c64], %c1 = (%6 : !hal.buffer)[%c0, %c64]])
        hal.command_buffer.push_constants<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout) offset(0) values([%c0_i32]) : i32
        hal.command_buffer.dispatch.symbol<%8 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c16, %c1, %c1])
        hal.return
      }
    hal.command_buffer.end<%8 : !hal.command_buffer>
    %9 = hal.fence.create device(%0 : !hal.device) : !hal.fence
    hal.device.queue.execute<%0 : !hal.device> wait([]) signal(%9) commands([%8])
    hal.fence.await until([%5, %9])
    %10 = hal.buffer.load<%6 : !hal.buffer>[%c0] : i32
    %11 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
    %12 = hal.executable_layout.lookup device(%0 : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
    %13 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%13 : !hal.command_buffer>
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%13 : !hal.command_buffer> layout(%12 : !hal.executable_layout)[%c0] bindings([%c0 = (%2 : !hal.buffer)[%c0, %c64], %c1 = (%11 : !hal.buffer)[%c0, %c64]])
        hal.command_buffer.push_constants<%13 : !hal.command_buffer> layout(%12 : !hal.executable_layout) offset(0) values([%10]) : i32
        hal.command_buffer.dispatch.symbol<%13 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c16, %c1, %c1])
        hal.return
      }
    hal.command_buffer.end<%13 : !hal.command_buffer>
    %14 = hal.fence.create device(%0 : !hal.device) : !hal.fence
    hal.device.queue.execute<%0 : !hal.device> wait([]) signal(%14) commands([%13])
    hal.fence.await until([%14])
    return %11 : !hal.buffer
  }
}

