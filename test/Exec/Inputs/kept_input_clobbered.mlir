// Hand-broken lowering of kept_input.mlir: the update's splat is also
// written into the caller's operand.
module {
  hal.executable private @ex {
    hal.interface @io {
      hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
      hal.interface.binding @s1, set=0, binding=3, type="StorageBuffer", access="Read"
      hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
      hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
    }
    hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
      hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
      builtin.module {
      }
    }
  }
  func.func @f(%arg0: !hal.buffer) -> !hal.buffer {
    %c1065353216_i32 = arith.constant 1065353216 : i32
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %0 = hal.ex.shared_device : !hal.device
    %1 = hal.device.allocator<%0 : !hal.device> : !hal.allocator
    %2 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
    %3 = hal.allocator.allocate<%1 : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c16}
    %4 = hal.buffer.subspan<%3 : !hal.buffer>[%c0, %c4] : !hal.buffer
    %5 = hal.command_buffer.create device(%0 : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
    hal.command_buffer.begin<%5 : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%5 : !hal.command_buffer> target(%4 : !hal.buffer)[%c0, %c4] pattern(%c1065353216_i32 : i32)
    hal.command_buffer.copy_buffer<%5 : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%2 : !hal.buffer)[%c0] length(%c16)
    hal.command_buffer.execution_barrier<%5 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
    hal.command_buffer.copy_buffer<%5 : !hal.command_buffer> source(%4 : !hal.buffer)[%c0] target(%2 : !hal.buffer)[%c0] length(%c4)
    hal.command_buffer.execution_barrier<%5 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
    hal.command_buffer.fill_buffer<%5 : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c0, %c4] pattern(%c1065353216_i32 : i32)
    hal.command_buffer.end<%5 : !hal.command_buffer>
    hal.ex.submit_and_wait %0, %5
    return %2 : !hal.buffer
  }
}

