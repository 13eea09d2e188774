// The transient of test/Exec/timeline.mlir: a queue.alloca'd slab, filled,
// copied out and released on the timeline; its own flow-level module for
// utils/mutate_exec.py (test/Exec/mutation.test).
func.func @transient_on_the_timeline() -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %out = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %fa = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %slab = hal.device.queue.alloca<%dev> wait([]) signal(%fa) type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %cmd0 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd0 : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd0 : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c16] pattern(%p1 : i32)
  hal.command_buffer.execution_barrier<%cmd0 : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
  hal.command_buffer.copy_buffer<%cmd0 : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd0 : !hal.command_buffer>
  %f0 = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([%fa]) signal(%f0) commands([%cmd0])
  %fd = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%dev> wait([%f0]) signal(%fd) buffer(%slab : !hal.buffer)
  %v = hal.buffer_view.create buffer(%out : !hal.buffer) shape([%c4]) type(%et) encoding(%enc) : !hal.buffer_view
  hal.fence.await until([%fd])
  return %v : !hal.buffer_view
}
