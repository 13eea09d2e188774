// Programs whose buffers are 4 GiB but touch a few pages of them (see
// large.test).

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

util.global private @pool : !hal.buffer

// A 4 GiB allocation (the largest the executor runs): a fill of its first
// 64 KiB, a dispatch reading them and writing its last 64 KiB, and a copy
// of its last 16 bytes to the output.
func.func @allocation_4gib() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64k = arith.constant 65536 : index
  %c4g = arith.constant 4294967296 : index
  %last64k = arith.constant 4294901760 : index
  %last16 = arith.constant 4294967280 : index
  %p = arith.constant 7 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %big = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c4g}
  %out = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%big : !hal.buffer)[%c0, %c64k] pattern(%p : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%big : !hal.buffer)[%c0, %c64k], %c1 = (%big : !hal.buffer)[%last64k, %c64k]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%big : !hal.buffer)[%last16] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%big : !hal.buffer)[%c64k, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %out : !hal.buffer
}

// The last 16 bytes of the first 4 GiB of a global without contents.
func.func @pool_end() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %last16 = arith.constant 4294967280 : index
  %pool = util.global.load @pool : !hal.buffer
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %out = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%pool : !hal.buffer)[%last16] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %out : !hal.buffer
}

// The flow level: a constant at the end of the first 4 GiB of the pool,
// read by a dispatch.
func.func @constant_at_4gib(%n: index) -> tensor<16xf32> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<16xf32> =
      (%in: index) -> tensor<16xf32> {
    %c1 = arith.constant 1 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<4294967232, 64>] : tensor<16xf32>
    %1 = flow.dispatch @ex::@entry[%c1](%cst) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<16xf32>) -> tensor<16xf32>
    flow.return %1 : tensor<16xf32>
  }
  return %0 : tensor<16xf32>
}
