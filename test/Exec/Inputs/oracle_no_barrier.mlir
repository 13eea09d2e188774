// Hand-broken: the barrier between the two dependent dispatches is gone.
module {
  hal.executable private @ex {
    hal.interface @io attributes {push_constants = 1 : index} {
      hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
      hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
      hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    }
    hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
      hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
      builtin.module {
      }
    }
  }
  func.func @main(%arg0: !hal.buffer, %arg1: i32) -> !hal.buffer {
    %c1065353216_i32 = arith.constant 1065353216 : i32
    %c32 = arith.constant 32 : index
    %c192 = arith.constant 192 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %0 = hal.ex.shared_device : !hal.device
    %1 = hal.device.allocator<%0 : !hal.device> : !hal.allocator
    %2 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
    %3 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c192}
    %4 = hal.buffer.subspan<%3 : !hal.buffer>[%c0, %c64] : !hal.buffer
    %5 = hal.buffer.subspan<%3 : !hal.buffer>[%c64, %c64] : !hal.buffer
    %6 = hal.buffer.subspan<%3 : !hal.buffer>[%c128, %c64] : !hal.buffer
    %7 = hal.executable_layout.lookup device(%0 : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<2, "StorageBuffer", DW>]]) : !hal.executable_layout
    %8 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%8 : !hal.command_buffer>
    hal.command_buffer.copy_buffer<%8 : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c32] target(%4 : !hal.buffer)[%c0] length(%c64)
    hal.command_buffer.execution_barrier<%8 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
    hal.command_buffer.fill_buffer<%8 : !hal.command_buffer> target(%5 : !hal.buffer)[%c0, %c64] pattern(%c1065353216_i32 : i32)
    hal.command_buffer.execution_barrier<%8 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout)[%c0] bindings([%c0 = (%4 : !hal.buffer)[%c0, %c64], %c1 = (%5 : !hal.buffer)[%c0, %c64], %c2 = (%6 : !hal.buffer)[%c0, %c64]])
        hal.command_buffer.push_constants<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout) offset(0) values([%arg1]) : i32
        hal.command_buffer.dispatch.symbol<%8 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c4, %c2, %c1])
        hal.return
      }
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout)[%c0] bindings([%c0 = (%6 : !hal.buffer)[%c0, %c64], %c1 = (%5 : !hal.buffer)[%c0, %c64], %c2 = (%2 : !hal.buffer)[%c0, %c64]])
        hal.command_buffer.push_constants<%8 : !hal.command_buffer> layout(%7 : !hal.executable_layout) offset(0) values([%arg1]) : i32
        hal.command_buffer.dispatch.symbol<%8 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c4, %c2, %c1])
        hal.return
      }
    hal.command_buffer.execution_barrier<%8 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
    hal.command_buffer.end<%8 : !hal.command_buffer>
    hal.ex.submit_and_wait %0, %8
    return %2 : !hal.buffer
  }
}

