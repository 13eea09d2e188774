// RUN: hal-opt %s -split-input-file --hal-pack-allocations=strategy=in-order --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --hal-pack-allocations --canonicalize | FileCheck %s --check-prefix=GREEDY
// RUN: hal-opt %s -split-input-file --hal-pack-allocations=strategy=optimal --canonicalize | FileCheck %s --check-prefix=GREEDY

// The reference case of lowering.md: 16-byte alignment, in-order best fit.

// CHECK-LABEL: func.func @reference_static
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C112:.+]] = arith.constant 112 : index
// CHECK-DAG:     %[[C224:.+]] = arith.constant 224 : index
// CHECK-DAG:     %[[C208:.+]] = arith.constant 208 : index
// CHECK-DAG:     %[[C432:.+]] = arith.constant 432 : index
// CHECK-NOT:     hal.allocator.pack
// CHECK:         return %[[C432]], %[[C0]], %[[C112]], %[[C0]], %[[C224]], %[[C0]], %[[C208]]
// Every strategy reaches the 432-byte lower bound here, and the in-order
// packing wins ties, so every strategy gives lowering.md's reference offsets.
// GREEDY-LABEL: func.func @reference_static
// GREEDY-DAG:     %[[C0:.+]] = arith.constant 0 : index
// GREEDY-DAG:     %[[C112:.+]] = arith.constant 112 : index
// GREEDY-DAG:     %[[C224:.+]] = arith.constant 224 : index
// GREEDY-DAG:     %[[C208:.+]] = arith.constant 208 : index
// GREEDY-DAG:     %[[C432:.+]] = arith.constant 432 : index
// GREEDY-NOT:     hal.allocator.pack
// GREEDY:         return %[[C432]], %[[C0]], %[[C112]], %[[C0]], %[[C224]], %[[C0]], %[[C208]]
func.func @reference_static(%allocator: !hal.allocator) -> (index, index, index, index, index, index, index) {
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %total, %o:6 = hal.allocator.pack<%allocator : !hal.allocator> slices({
    [0, 1] = %c100, [1, 2] = %c100, [2, 3] = %c100,
    [0, 4] = %c200, [5, 6] = %c200, [5, 8] = %c100
  }) : index
  return %total, %o#0, %o#1, %o#2, %o#3, %o#4, %o#5 : index, index, index, index, index, index, index
}

// -----

// Dynamic slices sharing one SSA size share bytes when their lifetimes are
// disjoint: offsets 0, align(%a), 0; total align(align(%a) + align(%b)).

// CHECK-LABEL: func.func @reference_dynamic
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[A:.+]]: index, %[[B:.+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         %[[A1:.+]] = arith.addi %[[A]], %[[C15]]
// CHECK:         %[[A2:.+]] = arith.divui %[[A1]], %[[C16]]
// CHECK:         %[[ALIGNED_A:.+]] = arith.muli %[[A2]], %[[C16]]
// CHECK:         %[[B1:.+]] = arith.addi %[[B]], %[[C15]]
// CHECK:         %[[B2:.+]] = arith.divui %[[B1]], %[[C16]]
// CHECK:         %[[ALIGNED_B:.+]] = arith.muli %[[B2]], %[[C16]]
// CHECK:         %[[SUM:.+]] = arith.addi %[[ALIGNED_A]], %[[ALIGNED_B]]
// CHECK:         %[[T1:.+]] = arith.addi %[[SUM]], %[[C15]]
// CHECK:         %[[T2:.+]] = arith.divui %[[T1]], %[[C16]]
// CHECK:         %[[TOTAL:.+]] = arith.muli %[[T2]], %[[C16]]
// CHECK:         return %[[TOTAL]], %[[C0]], %[[ALIGNED_A]], %[[C0]]
func.func @reference_dynamic(%allocator: !hal.allocator, %a: index, %b: index) -> (index, index, index, index) {
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %a, [1, 2] = %b, [2, 3] = %a}) : index
  return %total, %o#0, %o#1, %o#2 : index, index, index, index
}

// -----

// Dynamic slices of one size whose lifetimes overlap need two lanes.

// CHECK-LABEL: func.func @dynamic_overlapping_lanes
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[A:.+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[UNITS:.+]] = arith.divui
// CHECK:         %[[ALIGNED:.+]] = arith.muli %[[UNITS]], %{{.+}} : index
// CHECK:         arith.muli %[[UNITS]], %[[C32]] : index
// CHECK:         return %{{.+}}, %[[C0]], %[[ALIGNED]]
func.func @dynamic_overlapping_lanes(%allocator: !hal.allocator, %a: index) -> (index, index, index) {
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 2] = %a, [1, 3] = %a}) : index
  return %total, %o#0, %o#1 : index, index, index
}

// -----

// Static slices first, then the dynamic group at the aligned static end.

// CHECK-LABEL: func.func @mixed_static_dynamic
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[N:.+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK:         %[[ALIGNED:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         arith.addi %[[ALIGNED]], %{{.+}} : index
// CHECK:         %[[TOTAL:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         return %[[TOTAL]], %[[C0]], %[[C64]], %[[C128]]
func.func @mixed_static_dynamic(%allocator: !hal.allocator, %n: index) -> (index, index, index, index) {
  %c64 = arith.constant 64 : index
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c64, [1, 2] = %c64, [0, 3] = %n}) : index
  return %total, %o#0, %o#1, %o#2 : index, index, index, index
}

// -----

// The base offset is added to every offset, not to the total.

// CHECK-LABEL: func.func @base_offset
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[BASE:.+]]: index)
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         %[[SECOND:.+]] = arith.addi %[[BASE]], %[[C32]] : index
// CHECK:         return %[[C64]], %[[BASE]], %[[SECOND]]
func.func @base_offset(%allocator: !hal.allocator, %base: index) -> (index, index, index) {
  %c20 = arith.constant 20 : index
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> offset(%base) slices({[0, 1] = %c20, [1, 2] = %c20}) : index
  return %total, %o#0, %o#1 : index, index, index
}

// -----

// Alignments come from the module's buffer constraints (here 64 / 256).

// CHECK-LABEL: func.func @module_alignments
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG:     %[[C512:.+]] = arith.constant 512 : index
// CHECK:         return %[[C512]], %[[C0]], %[[C256]]
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 64, max_buffer_range = 1073741824, min_buffer_range_alignment = 256>}>]} {
  func.func @module_alignments(%allocator: !hal.allocator) -> (index, index, index) {
    %c10 = arith.constant 10 : index
    %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c10, [1, 2] = %c10}) : index
    return %total, %o#0, %o#1 : index, index, index
  }
}

// -----

// No slices: a zero-length slab.

// CHECK-LABEL: func.func @zero_slices
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    return %[[C0]] : index
func.func @zero_slices(%allocator: !hal.allocator) -> index {
  %total = hal.allocator.pack<%allocator : !hal.allocator> slices({}) : index
  return %total : index
}
