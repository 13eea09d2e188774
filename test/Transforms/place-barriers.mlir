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

// -----

// A `Read|Write` binding is a write (and a read): two dispatches through it
// into the same bytes need a barrier between them, in both policies.
// CHECK-LABEL: func.func @read_write_binding
// CHECK: hal.command_buffer.dispatch.symbol
// CHECK: hal.return
// CHECK-NEXT: }
// CHECK-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.device.switch
// CHECK: hal.command_buffer.dispatch.symbol
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @rw, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @read_write_binding(%arg0: !hal.buffer) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", RW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16]])
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    }
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16]])
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    }
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %arg0 : !hal.buffer
}
