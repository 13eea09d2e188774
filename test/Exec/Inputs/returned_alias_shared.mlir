// A wrong lowering of returned_alias.mlir: the clone shares the storage of
// the value it copies, so both results are one buffer.
module {
  hal.executable private @ex {
    hal.interface @io {
      hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
      hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    }
    hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
      hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
      builtin.module {
      }
    }
  }
  func.func @main(%arg0: !hal.buffer) -> (!hal.buffer, !hal.buffer) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %0 = hal.ex.shared_device : !hal.device
    %1 = hal.device.allocator<%0 : !hal.device> : !hal.allocator
    %2 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
    %4 = hal.executable_layout.lookup device(%0 : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
    %5 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%5 : !hal.command_buffer>
    hal.device.switch<%0 : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        hal.command_buffer.push_descriptor_set<%5 : !hal.command_buffer> layout(%4 : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16], %c1 = (%2 : !hal.buffer)[%c0, %c16]])
        hal.command_buffer.dispatch.symbol<%5 : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c4, %c1, %c1])
        hal.return
      }
    hal.command_buffer.end<%5 : !hal.command_buffer>
    hal.ex.submit_and_wait %0, %5
    return %2, %2 : !hal.buffer, !hal.buffer
  }
}

