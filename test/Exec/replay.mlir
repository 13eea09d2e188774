// Reusable command buffers (docs/replay.md): a memoized command buffer is
// recorded by the first call and replayed by the later ones, with each
// call's buffers and dynamic sizes, matching the flow level every time.
// RUN: hal-exec %streamhal_src_root/examples/mlp.mlir --check-lowering=streamhal-lower-to-hal,hal-verify-command-buffers --call-dims=3 --call-dims=5 --report-commands | FileCheck %s --check-prefix=MLP
// RUN: hal-exec %streamhal_src_root/examples/mlp.mlir '--check-lowering=streamhal-lower-to-hal{memoize=false}' --call-dims=3 --call-dims=5 --report-commands | FileCheck %s --check-prefix=MLP-ONE-SHOT
// RUN: hal-exec %s --split-input-file --function=pad_rows --check-lowering=streamhal-lower-to-hal,hal-verify-command-buffers --call-dims=1 --call-dims=6 --call-dims=0 --call-dims=6 --report-commands --orders=2 | FileCheck %s --check-prefix=PAD
// RUN: hal-exec %s --split-input-file --function=pad_rows '--check-lowering=flow-schedule-fragments,streamhal-lower-to-hal{submission=blocking barriers=full copies=always}' --call-dims=4 --call-dims=2 --report-commands | FileCheck %s --check-prefix=PAD-BLOCKING
// RUN: hal-exec %s --split-input-file --function=disjoint_slots | FileCheck %s --check-prefix=DISJOINT
// RUN: not hal-exec %s --split-input-file --function=aliasing_slots 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not hal-exec %s --split-input-file --function=not_memoized 2>&1 | FileCheck %s --check-prefix=NOT-MEMOIZED
// RUN: not hal-exec %s --split-input-file --function=replay_out_of_range 2>&1 | FileCheck %s --check-prefix=RANGE

// The acceptance case: two batch sizes, one recording.
// MLP: @predict result 0: 3x10xf32
// MLP-NEXT: @predict: the HAL level matches
// MLP-NEXT: @predict: commands recorded=8 executed=8
// MLP-NEXT: @predict result 0: 5x10xf32
// MLP-NEXT: @predict: the HAL level matches
// MLP-NEXT: @predict: commands recorded=0 executed=8
// MLP-ONE-SHOT: @predict: commands recorded=8 executed=8
// MLP-ONE-SHOT: @predict: commands recorded=8 executed=8

// A fill and a copy of dynamic lengths at a dynamic offset (0 rows too).
// PAD: @pad_rows result 0: 3x4xf32
// PAD-NEXT: @pad_rows: the HAL level matches
// PAD-NEXT: @pad_rows: commands recorded=3 executed=3
// PAD-NEXT: @pad_rows result 0: 8x4xf32
// PAD-NEXT: @pad_rows: the HAL level matches
// PAD-NEXT: @pad_rows: commands recorded=0 executed=3
// PAD-NEXT: @pad_rows result 0: 2x4xf32
// PAD-NEXT: @pad_rows: the HAL level matches
// PAD-NEXT: @pad_rows: commands recorded=0 executed=3
// PAD-NEXT: @pad_rows result 0: 8x4xf32
// PAD-NEXT: @pad_rows: the HAL level matches
// PAD-NEXT: @pad_rows: commands recorded=0 executed=3
// PAD-BLOCKING: @pad_rows: the HAL level matches
// PAD-BLOCKING-NEXT: @pad_rows: commands recorded=[[N:[0-9]+]] executed=[[N]]
// PAD-BLOCKING: @pad_rows: the HAL level matches
// PAD-BLOCKING-NEXT: @pad_rows: commands recorded=0 executed=[[N]]
func.func @pad_rows(%input: !hal.buffer_view) -> !hal.buffer_view {
  %c2 = arith.constant 2 : index
  %n = hal.buffer_view.dim<%input : !hal.buffer_view>[0] : index
  %x = hal.tensor.cast %input : !hal.buffer_view -> tensor<?x4xf32>{%n}
  %m = arith.addi %n, %c2 : index
  %padded = flow.ex.stream.fragment(%x, %n, %m) : (tensor<?x4xf32>{%n}, index, index) -> tensor<?x4xf32>{%m} =
      (%in: tensor<?x4xf32>, %rows: index, %total: index) -> tensor<?x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.5 : f32
    %z = flow.tensor.splat %zero : tensor<?x4xf32>{%total}
    %u = flow.tensor.update %in, %z[%c1, %c0] : tensor<?x4xf32>{%rows} -> %z as tensor<?x4xf32>{%total}
    flow.return %u : tensor<?x4xf32>
  }
  %result = hal.tensor.cast %padded : tensor<?x4xf32>{%m} -> !hal.buffer_view
  return %result : !hal.buffer_view
}

// -----

// Slots of different alias classes bound to disjoint halves of one buffer.
// DISJOINT: @disjoint_slots result 0: buffer<64 bytes>
func.func @disjoint_slots() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %lo = hal.buffer.subspan<%buf : !hal.buffer>[%c0, %c32] : !hal.buffer
  %hi = hal.buffer.subspan<%buf : !hal.buffer>[%c32, %c32] : !hal.buffer
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 1]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer, %len: index):
    %z = arith.constant 0 : index
    %c7_i32 = arith.constant 7 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.execution_barrier<%cb : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
    hal.command_buffer.copy_buffer<%cb : !hal.command_buffer> source(%a : !hal.buffer)[%z] target(%b : !hal.buffer)[%z] length(%len)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%lo, %hi]) uniforms([%c32] : index)
  hal.fence.await until([%f])
  return %buf : !hal.buffer
}

// -----

// The same recording with its slots bound to overlapping ranges: the
// recording assumed they do not alias.
// ALIAS: error: binds slot 0 (alias class 0) and slot 1 (alias class 1) to overlapping bytes of {{.*}} ([0, +48) and [16, +48)): the memoized recording assumed they do not alias
func.func @aliasing_slots() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %lo = hal.buffer.subspan<%buf : !hal.buffer>[%c0, %c48] : !hal.buffer
  %hi = hal.buffer.subspan<%buf : !hal.buffer>[%c16, %c48] : !hal.buffer
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 1]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer, %len: index):
    %z = arith.constant 0 : index
    %c7_i32 = arith.constant 7 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.execution_barrier<%cb : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
    hal.command_buffer.copy_buffer<%cb : !hal.command_buffer> source(%a : !hal.buffer)[%z] target(%b : !hal.buffer)[%z] length(%len)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%lo, %hi]) uniforms([%c16] : index)
  hal.fence.await until([%f])
  return %buf : !hal.buffer
}

// -----

// NOT-MEMOIZED: error: submits a command buffer that no hal.device.memoize recorded
func.func @not_memoized() {
  %dev = hal.ex.shared_device : !hal.device
  %cb = hal.command_buffer.create device(%dev : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cb : !hal.command_buffer>
  hal.command_buffer.end<%cb : !hal.command_buffer>
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cb) bindings([])
  hal.fence.await until([%f])
  return
}

// -----

// A uniform that puts a recorded fill outside its slot is found at the
// replay, on the recorded command, and the submission says so.
// RANGE: error: has a fill range [0, 128) outside its 64-byte buffer
// RANGE: error: cannot replay its memoized command buffer with these bindings and uniforms (see above)
func.func @replay_out_of_range() {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c64}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %len: index):
    %z = arith.constant 0 : index
    %c7_i32 = arith.constant 7 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%z, %len] pattern(%c7_i32 : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%buf]) uniforms([%c128] : index)
  hal.fence.await until([%f])
  return
}

// -----

// A memoized command buffer reaching a plain submission (through a call,
// where the verifier cannot see it) is refused: it has no tables.
// RUN: not hal-exec %s --split-input-file --function=memoized_without_tables 2>&1 | FileCheck %s --check-prefix=NO-TABLES
// NO-TABLES: error: submits a memoized command buffer without its bindings and uniforms
func.func private @submit(%dev: !hal.device, %cmd: !hal.command_buffer) {
  hal.ex.submit_and_wait %dev, %cmd
  return
}
func.func @memoized_without_tables() {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  call @submit(%dev, %cmd) : (!hal.device, !hal.command_buffer) -> ()
  return
}
