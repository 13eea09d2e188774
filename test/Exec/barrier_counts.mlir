// RUN: hal-exec %s --split-input-file --report-barriers | FileCheck %s

// --report-barriers: the barriers a run recorded and the fewest the same
// command order needs on the concrete byte ranges.

// Two fills of disjoint bytes of one buffer need no barrier between them,
// the copy that reads the first needs one; the recorded barrier after the
// second fill is the needed one, the one after the first is not.
// CHECK-LABEL: @one_needed: barriers recorded=2 minimum=1
func.func @one_needed() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c12}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c4] pattern(%p1 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c4, %c4] pattern(%p1 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%b : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c8] length(%c4)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// Reads of common bytes need no barrier; a later write of bytes they read
// needs one. The counts are per run, summed over its submissions, and the
// first submission's trailing barrier is recorded but not needed.
// CHECK-LABEL: @two_submissions: barriers recorded=2 minimum=1
func.func @two_submissions() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %p1 = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c12}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c12] pattern(%p1 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd2 : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%b : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c8] length(%c4)
  hal.command_buffer.copy_buffer<%cmd2 : !hal.command_buffer> source(%b : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c4] length(%c4)
  hal.command_buffer.execution_barrier<%cmd2 : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.fill_buffer<%cmd2 : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c4] pattern(%p1 : i32)
  hal.command_buffer.end<%cmd2 : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd2
  return %b : !hal.buffer
}
