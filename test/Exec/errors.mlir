// RUN: not hal-exec %s --split-input-file 2>&1 | FileCheck %s
// RUN: not hal-exec %s --split-input-file --function=one_variant --formats=spirv 2>&1 | FileCheck %s --check-prefix=FORMATS
// RUN: not hal-exec %s --split-input-file --function=nowhere 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not hal-exec %s --split-input-file --function=splat_i128 --check-lowering 2>&1 | FileCheck %s --check-prefix=LOWERING

// Every error is a located diagnostic and exit code 1, never an abort.

// CHECK: error: 'arith.addf' op is not supported by the executor
func.func @unsupported(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}

// -----

// CHECK: error: is out of bounds: dim 0 covers [1, 3) of a source of extent 2
func.func @slice_out_of_bounds(%arg0: tensor<2x4xf32>, %o: index) -> tensor<2x4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %o) : (tensor<2x4xf32>, index) -> tensor<2x4xf32> =
      (%a: tensor<2x4xf32>, %io: index) -> tensor<2x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %1 = flow.tensor.slice %a[%io, %c0 for %c2, %c4] : tensor<2x4xf32> -> tensor<2x4xf32>
    flow.return %1 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK: error: divides by zero
func.func @divide_by_zero(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %q = arith.divui %n, %c0 : index
  return %q : index
}

// -----

// CHECK: error: argument 0 of type '!hal.buffer' needs its bytes and shape: pass --input=SHAPExTYPE=@file
func.func @buffer_argument(%b: !hal.buffer) -> !hal.buffer {
  return %b : !hal.buffer
}

// -----

// Two fills of overlapping bytes with no barrier between them: a race that
// names both commands.
// CHECK: error: races with 'hal.command_buffer.fill_buffer' in the same barrier-delimited batch: it writes [8, 24) of allocation 0, the other writes [0, 16) of allocation 0 (overlap [8, 16))
// CHECK: note: the other command of the race
func.func @race() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c32}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c8, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// A copy out of a fresh allocation: uninitialized bytes.
// CHECK: error: reads uninitialized memory: byte 0 of allocation 0 (in its source range [0, 16) of allocation 0) was never written
func.func @uninitialized() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// A result never written: uninitialized bytes returned to the host.
// CHECK: error: result 0 holds uninitialized bytes (byte 0 of 8 was never written)
func.func @unwritten_result() -> !hal.buffer {
  %c8 = arith.constant 8 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c8}
  return %b : !hal.buffer
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @io0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// An untied result bound to a Read|Write binding: the kernel would read
// bytes nothing wrote.
// CHECK: error: reads binding @io0 (result 0) before anything wrote it
// FORMATS: error: dispatches @ex::@entry but no variant has a supported format
func.func @one_variant() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> =
      () -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %1 = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"io0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// MISSING: hal-exec: no chunk of {{.*}}errors.mlir has a function @nowhere

// -----

// A tensor too large to materialize: an error, not an allocation failure.
// CHECK: error: has a 'tensor<4611686018427387904x4xf32>' too large for the executor (4 GiB at most)
func.func @huge() -> tensor<4611686018427387904x4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4611686018427387904x4xf32> =
      () -> tensor<4611686018427387904x4xf32> {
    %one = arith.constant 1.0 : f32
    %1 = flow.tensor.splat %one : tensor<4611686018427387904x4xf32>
    flow.return %1 : tensor<4611686018427387904x4xf32>
  }
  return %0 : tensor<4611686018427387904x4xf32>
}

// -----

// A lowering that fails: its diagnostic, then hal-exec's, and exit 1.
// LOWERING: error: 'flow.tensor.splat' op splats 'i128' values
// LOWERING: error: the lowering pipeline 'convert-flow-to-hal{barriers=none},hal-pack-allocations,canonicalize,hal-place-barriers' failed
func.func @splat_i128(%v: i128) -> tensor<4xi128> {
  %0 = flow.ex.stream.fragment(%v) : (i128) -> tensor<4xi128> =
      (%iv: i128) -> tensor<4xi128> {
    %1 = flow.tensor.splat %iv : tensor<4xi128>
    flow.return %1 : tensor<4xi128>
  }
  return %0 : tensor<4xi128>
}

// -----

// Constant storage is read-only: a write into an immutable global's buffer.
// CHECK: error: writes [0, 4) of @pool, constant storage (an immutable global) that is read-only
util.global private @pool : !hal.buffer
func.func @write_constant() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %pool = util.global.load @pool : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%pool : !hal.buffer)[%c0, %c4] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Dims operands are claims about the values: the lowering sizes buffers and
// copies by them, so an operand (here the argument, 3 rows by default) or a
// result whose shape disagrees is the program's error, not a mismatch.
// CHECK: error: operand 0 has shape 3x4 but its type 'tensor<?x4xf32>' and dims declare 2x4
func.func @operand_dims_disagree(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c2 = arith.constant 2 : index
  %0 = flow.ex.stream.fragment(%arg0, %c2) : (tensor<?x4xf32>{%c2}, index) -> tensor<?x4xf32>{%c2} =
      (%a: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
    %1 = flow.tensor.clone %a : tensor<?x4xf32>{%n}
    flow.return %1 : tensor<?x4xf32>
  }
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK: error: result 0 has shape 2x4 but its type 'tensor<?x4xf32>' and dims declare 1x4
func.func @result_dims_disagree() -> tensor<?x4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  %0 = flow.ex.stream.fragment(%f, %c2) : (f32, index) -> tensor<?x4xf32>{%c1} =
      (%v: f32, %n: index) -> tensor<?x4xf32> {
    %1 = flow.tensor.splat %v : tensor<?x4xf32>{%n}
    flow.return %1 : tensor<?x4xf32>
  }
  return %0 : tensor<?x4xf32>
}
