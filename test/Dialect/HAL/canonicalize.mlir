// RUN: hal-opt %s -split-input-file -canonicalize | FileCheck %s

// Folds and canonicalizations of hal ops.

// compute_size of a static tensor<5x24x48xf32> folds to 5 * 24 * 48 * 4.
// CHECK-LABEL: func.func @compute_size_static
func.func @compute_size_static(%a: !hal.allocator) -> index {
  %c5 = arith.constant 5 : index
  %c24 = arith.constant 24 : index
  %c48 = arith.constant 48 : index
  %et = arith.constant 50331680 : i32  // f32
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[C:.+]] = arith.constant 23040 : index
  // CHECK-NEXT: return %[[C]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%c5, %c24, %c48]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// An i1 element occupies one byte.
// CHECK-LABEL: func.func @compute_size_i1
func.func @compute_size_i1(%a: !hal.allocator) -> index {
  %c3 = arith.constant 3 : index
  %et = arith.constant 16777217 : i32  // i1
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[C:.+]] = arith.constant 3 : index
  // CHECK-NEXT: return %[[C]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%c3]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// A rank-0 tensor<bf16> is one element.
// CHECK-LABEL: func.func @compute_size_scalar
func.func @compute_size_scalar(%a: !hal.allocator) -> index {
  %et = arith.constant 67108880 : i32  // bf16
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[C:.+]] = arith.constant 2 : index
  // CHECK-NEXT: return %[[C]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// tensor<?x128xf32>{%n} becomes %n * 512.
// CHECK-LABEL: func.func @compute_size_dynamic
// CHECK-SAME: (%{{.+}}: !hal.allocator, %[[N:.+]]: index)
func.func @compute_size_dynamic(%a: !hal.allocator, %n: index) -> index {
  %c128 = arith.constant 128 : index
  %et = arith.constant 50331680 : i32  // f32
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[C512:.+]] = arith.constant 512 : index
  // CHECK-NEXT: %[[S:.+]] = arith.muli %[[N]], %[[C512]] : index
  // CHECK-NEXT: return %[[S]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%n, %c128]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// With one-byte elements and unit static dims only the dynamic dims remain.
// CHECK-LABEL: func.func @compute_size_two_dynamic
// CHECK-SAME: (%{{.+}}: !hal.allocator, %[[N:.+]]: index, %[[M:.+]]: index)
func.func @compute_size_two_dynamic(%a: !hal.allocator, %n: index, %m: index) -> index {
  %c1 = arith.constant 1 : index
  %et = arith.constant 16777224 : i32  // i8
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[S:.+]] = arith.muli %[[N]], %[[M]] : index
  // CHECK-NEXT: return %[[S]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%n, %c1, %m]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// Nothing to do without a constant element type.
// CHECK-LABEL: func.func @compute_size_unknown_type
func.func @compute_size_unknown_type(%a: !hal.allocator, %n: index, %et: i32) -> index {
  %c4 = arith.constant 4 : index
  %enc = arith.constant 0 : i32
  // CHECK: %[[S:.+]] = hal.allocator.compute_size
  // CHECK-NEXT: return %[[S]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%n, %c4]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// A product that overflows int64 is not folded.
// CHECK-LABEL: func.func @compute_size_overflow
func.func @compute_size_overflow(%a: !hal.allocator) -> index {
  %c = arith.constant 4611686018427387904 : index
  %et = arith.constant 50331680 : i32
  %enc = arith.constant 0 : i32
  // CHECK: %[[S:.+]] = hal.allocator.compute_size
  // CHECK-NEXT: return %[[S]] : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%c, %c]) type(%et) encoding(%enc) : index
  return %s : index
}

// -----

// Element [1, 2] of a tensor<2x3xi32> is at ((1 * 3) + 2) * 4 = 20.
// CHECK-LABEL: func.func @compute_offset_static
func.func @compute_offset_static(%a: !hal.allocator) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %et = arith.constant 16777248 : i32  // i32
  %enc = arith.constant 0 : i32
  // CHECK-NEXT: %[[C:.+]] = arith.constant 20 : index
  // CHECK-NEXT: return %[[C]] : index
  %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%c1, %c2]) shape([%c2, %c3]) type(%et) encoding(%enc) : index
  return %o : index
}

// -----

// CHECK-LABEL: func.func @compute_offset_dynamic
// CHECK-SAME: (%{{.+}}: !hal.allocator, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index, %[[N:[^:]+]]: index)
func.func @compute_offset_dynamic(%a: !hal.allocator, %i: index, %j: index, %n: index) -> index {
  %c3 = arith.constant 3 : index
  %et = arith.constant 16777248 : i32  // i32
  %enc = arith.constant 0 : i32
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
  // CHECK: %[[ROW:.+]] = arith.muli %[[I]], %[[C3]] : index
  // CHECK-NEXT: %[[LIN:.+]] = arith.addi %[[ROW]], %[[J]] : index
  // CHECK-NEXT: %[[OFF:.+]] = arith.muli %[[LIN]], %[[C4]] : index
  // CHECK-NEXT: return %[[OFF]] : index
  %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%i, %j]) shape([%n, %c3]) type(%et) encoding(%enc) : index
  return %o : index
}

// -----

// CHECK-LABEL: func.func @buffer_view_buffer
// CHECK-SAME: (%[[B:[^:]+]]: !hal.buffer, %{{.+}}: index)
func.func @buffer_view_buffer(%b: !hal.buffer, %n: index) -> !hal.buffer {
  %et = arith.constant 16777248 : i32
  %enc = arith.constant 0 : i32
  %bv = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%n]) type(%et) encoding(%enc) : !hal.buffer_view
  %bb = hal.buffer_view.buffer<%bv : !hal.buffer_view> : !hal.buffer
  // CHECK-NEXT: return %[[B]] : !hal.buffer
  return %bb : !hal.buffer
}

// -----

// A buffer view that does not come from buffer_view.create stays.
// CHECK-LABEL: func.func @buffer_view_buffer_argument
// CHECK-SAME: (%[[BV:[^:]+]]: !hal.buffer_view)
func.func @buffer_view_buffer_argument(%bv: !hal.buffer_view) -> !hal.buffer {
  // CHECK-NEXT: %[[B:.+]] = hal.buffer_view.buffer<%[[BV]] : !hal.buffer_view> : !hal.buffer
  // CHECK-NEXT: return %[[B]] : !hal.buffer
  %bb = hal.buffer_view.buffer<%bv : !hal.buffer_view> : !hal.buffer
  return %bb : !hal.buffer
}

// -----

// A pack of one slice: offset 0 (or the base), total = the size rounded up to
// the range alignment (16 by default).
// CHECK-LABEL: func.func @pack_single_static
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C112:.+]] = arith.constant 112 : index
// CHECK-NOT: hal.allocator.pack
// CHECK: return %[[C112]], %[[C0]]
func.func @pack_single_static(%allocator: !hal.allocator) -> (index, index) {
  %c100 = arith.constant 100 : index
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c100}) : index
  return %total, %o : index, index
}

// -----

// CHECK-LABEL: func.func @pack_single_dynamic_with_base
// CHECK-SAME: (%{{.+}}: !hal.allocator, %[[SIZE:.+]]: index, %[[BASE:.+]]: index)
// CHECK-DAG: %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: %[[BUMPED:.+]] = arith.addi %[[SIZE]], %[[C15]] : index
// CHECK: %[[UNITS:.+]] = arith.divui %[[BUMPED]], %[[C16]] : index
// CHECK: %[[TOTAL:.+]] = arith.muli %[[UNITS]], %[[C16]] : index
// CHECK: return %[[TOTAL]], %[[BASE]]
func.func @pack_single_dynamic_with_base(%allocator: !hal.allocator, %size: index, %base: index) -> (index, index) {
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> offset(%base) slices({[0, 0] = %size}) : index
  return %total, %o : index, index
}

// -----

// The module's buffer constraints give the range alignment.
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 256, max_buffer_range = 1073741824, min_buffer_range_alignment = 64>}>]} {
  // CHECK-LABEL: func.func @pack_single_module_alignment
  // CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
  // CHECK: return %[[C128]]
  func.func @pack_single_module_alignment(%allocator: !hal.allocator) -> index {
    %c100 = arith.constant 100 : index
    %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c100}) : index
    return %total : index
  }
}

// -----

// Two slices need the packer: left alone.
// CHECK-LABEL: func.func @pack_two_slices
// CHECK: hal.allocator.pack
func.func @pack_two_slices(%allocator: !hal.allocator) -> index {
  %c100 = arith.constant 100 : index
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c100, [1, 2] = %c100}) : index
  return %total : index
}
