// RUN: hal-opt %s -split-input-file --hal-place-barriers | FileCheck %s --check-prefixes=CHECK,HAZARD
// RUN: hal-opt %s -split-input-file --hal-place-barriers=policy=full | FileCheck %s --check-prefixes=CHECK,FULL
// Placing twice places nothing more, and what is placed passes the verifier.
// RUN: hal-opt %s -split-input-file --hal-place-barriers > %t.once
// RUN: hal-opt %t.once -split-input-file --hal-place-barriers --hal-verify-command-buffers > %t.twice
// RUN: diff %t.once %t.twice
// RUN: hal-opt %s -split-input-file --hal-place-barriers=policy=full --hal-verify-command-buffers -o /dev/null

// Hazard: a barrier only before the copy that reads what the first fill
// wrote; the second fill writes other bytes. Full: one after every command.
// CHECK-LABEL: func.func @read_after_write
// CHECK: fill_buffer{{.*}}[%c0, %c64]
// FULL-NEXT: execution_barrier
// CHECK-NEXT: fill_buffer{{.*}}[%c64, %c64]
// CHECK-NEXT: execution_barrier
// CHECK-SAME: source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
// CHECK-NEXT: copy_buffer
// FULL-NEXT: execution_barrier
// CHECK-NEXT: hal.command_buffer.end
func.func @read_after_write(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c256}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c64, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%buf : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c64)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A barrier already recorded stays and ends the batch: the fill after it
// needs no other. Full adds one after each command that has none.
// CHECK-LABEL: func.func @kept_barrier
// CHECK: fill_buffer
// CHECK-NEXT: execution_barrier{{.*}}flags("None")
// CHECK-NEXT: fill_buffer
// FULL-NEXT: execution_barrier
// CHECK-NEXT: hal.command_buffer.end
func.func @kept_barrier() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Two command buffers recorded interleaved are placed apart: the second
// one's fill of the same bytes conflicts with nothing of its own buffer.
// CHECK-LABEL: func.func @interleaved
// CHECK: hal.command_buffer.begin<%[[A:.*]] :
// CHECK-NEXT: hal.command_buffer.begin<%[[B:.*]] :
// CHECK-NEXT: fill_buffer<%[[A]]
// FULL-NEXT: execution_barrier<%[[A]]
// CHECK-NEXT: fill_buffer<%[[B]]
// FULL-NEXT: execution_barrier<%[[B]]
// HAZARD-NEXT: execution_barrier<%[[A]]
// CHECK-NEXT: fill_buffer<%[[A]]
// FULL-NEXT: execution_barrier<%[[A]]
// CHECK-NEXT: hal.command_buffer.end<%[[A]]
// CHECK-NEXT: hal.command_buffer.end<%[[B]]
func.func @interleaved() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %a = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  %b = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%a : !hal.command_buffer>
  hal.command_buffer.begin<%b : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%a : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%b : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%a : !hal.command_buffer> target(%buf : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%a : !hal.command_buffer>
  hal.command_buffer.end<%b : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %a
  hal.ex.submit_and_wait %dev, %b
  return
}
