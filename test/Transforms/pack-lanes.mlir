// RUN: hal-opt %s -split-input-file --hal-pack-allocations --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --hal-pack-allocations --canonicalize --hal-verify-command-buffers -verify-diagnostics -o /dev/null
// RUN: hal-opt %s -split-input-file --hal-pack-allocations --canonicalize --hal-place-barriers | FileCheck %s --check-prefix=PLACED

// After packing, a dynamic-size slice's offset is index math. Its subspans
// keep what the pack proved as hal.pack_lane: the lane (slices [0, 1] and
// [0, 2] are live together: lanes 0 and 1; [2, 3] reuses lane 0) and the
// static end (32) as the lowest offset. A view of a slice keeps its lane
// once nested subspans fold. The verifier then sees that the fill of the
// static slice, the fill of the view at a symbolic offset and the fill of
// lane 0 touch no common byte; the fill of [2, 3], in lane 0 again, may
// overwrite [0, 1] and races. The constant-size slice gets no attribute:
// its offset is a constant.

// CHECK-LABEL: func.func @lanes
// CHECK: hal.buffer.subspan<%{{.+}} : !hal.buffer>[%c0, %c32] : !hal.buffer
// CHECK: hal.buffer.subspan<{{.+}}>[%c32, %{{.+}}] {hal.pack_lane = {lane = 0 : i64, min_offset = 32 : i64, pack = 0 : i64}}
// CHECK: hal.buffer.subspan<{{.+}}>[%c32, %{{.+}}] {hal.pack_lane = {lane = 0 : i64, min_offset = 32 : i64, pack = 0 : i64}}
// CHECK: hal.buffer.subspan<{{.+}}>[%{{.+}}, %c8] {hal.pack_lane = {lane = 1 : i64, min_offset = 32 : i64, pack = 0 : i64}}

// Placement after packing: one barrier, before the fill that may overwrite
// bytes of a slice in the same lane.
// PLACED-LABEL: func.func @lanes
// PLACED: fill_buffer
// PLACED-NEXT: fill_buffer
// PLACED-NEXT: fill_buffer
// PLACED-NEXT: execution_barrier
// PLACED-NEXT: fill_buffer
// PLACED-NEXT: hal.command_buffer.end
func.func @lanes(%n: index, %v: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %total, %o:4 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c32, [0, 1] = %n, [0, 2] = %n, [2, 3] = %n}) : index
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%total}
  %s = hal.buffer.subspan<%slab : !hal.buffer>[%o#0, %c32] : !hal.buffer
  %d0 = hal.buffer.subspan<%slab : !hal.buffer>[%o#1, %n] : !hal.buffer
  %d1 = hal.buffer.subspan<%slab : !hal.buffer>[%o#2, %n] : !hal.buffer
  %d2 = hal.buffer.subspan<%slab : !hal.buffer>[%o#3, %n] : !hal.buffer
  %view = hal.buffer.subspan<%d1 : !hal.buffer>[%v, %c8] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s : !hal.buffer)[%c16, %c16] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%view : !hal.buffer)[%c0, %c8] pattern(%c0_i32 : i32)
  // expected-note @below {{earlier command: write of allocation %10 [32, +%arg0) (pack lane 0)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d0 : !hal.buffer)[%c0, %n] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command (no barrier between them): write of allocation %10 [32, +%arg0) (pack lane 0) against write of allocation %10 [32, +%arg0) (pack lane 0)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%d2 : !hal.buffer)[%c0, %n] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Without the attribute (a hand-written module after packing) the model
// cannot tell the view's symbolic offset from the static slice's bytes:
// the verifier reports the race it must assume.
// CHECK-LABEL: func.func @no_lane
func.func @no_lane(%v: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %s = hal.buffer.subspan<%slab : !hal.buffer>[%c16, %c16] : !hal.buffer
  %view = hal.buffer.subspan<%slab : !hal.buffer>[%v, %c8] : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-note @below {{earlier command: write of allocation %2 [16, 32)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command (no barrier between them): write of allocation %2 [%arg0, +8) against write of allocation %2 [16, 32)}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%view : !hal.buffer)[%c0, %c8] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A malformed hal.pack_lane (a user may write anything in a discardable
// attribute) is ignored, not trusted: the race stays.
// CHECK-LABEL: func.func @malformed_lane
func.func @malformed_lane(%v: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %s = hal.buffer.subspan<%slab : !hal.buffer>[%c16, %c16] : !hal.buffer
  %view = hal.buffer.subspan<%slab : !hal.buffer>[%v, %c8] {hal.pack_lane = {lane = "one", min_offset = -4 : i64, pack = 0 : i64}} : !hal.buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // expected-note @below {{earlier command}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s : !hal.buffer)[%c0, %c16] pattern(%c0_i32 : i32)
  // expected-error @below {{races with an earlier command}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%view : !hal.buffer)[%c0, %c8] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
