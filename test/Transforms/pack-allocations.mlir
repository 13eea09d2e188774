// RUN: hal-opt %s -split-input-file --hal-pack-allocations=strategy=in-order --canonicalize | FileCheck %s --check-prefixes=CHECK,INORDER
// RUN: hal-opt %s -split-input-file --hal-pack-allocations --canonicalize | FileCheck %s --check-prefixes=CHECK,GREEDY
// RUN: hal-opt %s -split-input-file --hal-pack-allocations=strategy=greedy --canonicalize | FileCheck %s --check-prefixes=CHECK,GREEDY
// RUN: hal-opt %s -split-input-file --hal-pack-allocations=strategy=optimal --canonicalize | FileCheck %s --check-prefixes=CHECK,OPTIMAL

// Every case is checked under every strategy: lines every strategy must
// produce are CHECK lines, the rest INORDER, GREEDY (the default) or OPTIMAL
// lines. Slice lifetimes are closed ([l, u] is live at steps l..u, so [0, 1]
// and [1, 2] share step 1); without buffer constraints offsets and sizes are
// aligned to 16. The lower bound is the peak over steps of the live aligned
// bytes; a total equal to it is optimal.

// The reference case. Aligned sizes 112 (100) and 208 (200); the peak is at
// steps 1 and 2 (112 + 112 + 208 = 432). In-order best fit: [0,1] at 0;
// [1,2] meets it at step 1, so 112; [2,3] meets only [1,2], so the gap
// [0, 112) fits it: 0; [0,4] meets all three, so the top, 224; [5,6] is
// alone: 0; [5,8] meets [5,6]: 208. The total, 432, is the lower bound.
// Greedy also runs in-order on the rows as given (here they are few) and
// keeps its offsets on a tie, so every strategy returns the classic loop's
// packing: greedy's own orderings reach 432 too, but not lower, and optimal
// keeps a greedy packing at the lower bound.

// CHECK-LABEL: func.func @reference_static
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C112:.+]] = arith.constant 112 : index
// CHECK-DAG:     %[[C224:.+]] = arith.constant 224 : index
// CHECK-DAG:     %[[C208:.+]] = arith.constant 208 : index
// CHECK-DAG:     %[[C432:.+]] = arith.constant 432 : index
// CHECK-NOT:     hal.allocator.pack
// CHECK:         return %[[C432]], %[[C0]], %[[C112]], %[[C0]], %[[C224]], %[[C0]], %[[C208]]
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

// In-order best fit is not optimal: A = [0,0] x 16 goes to 0, B = [0,2] x 16
// meets A: 16; C = [1,1] x 32 meets only B, and the gap [0, 16) below B is
// too small: 32, total 64. The lower bound is 48 (step 1: B + C). Greedy's
// first ordering (largest first) places C at 0, A at 0 (A and C never meet)
// and B on both at 32: total 48, which no later ordering beats; optimal
// keeps it.

// CHECK-LABEL: func.func @greedy_beats_in_order
// INORDER-DAG:   %[[C0:.+]] = arith.constant 0 : index
// INORDER-DAG:   %[[C16:.+]] = arith.constant 16 : index
// INORDER-DAG:   %[[C32:.+]] = arith.constant 32 : index
// INORDER-DAG:   %[[C64:.+]] = arith.constant 64 : index
// GREEDY-DAG:    %[[C0:.+]] = arith.constant 0 : index
// GREEDY-DAG:    %[[C32:.+]] = arith.constant 32 : index
// GREEDY-DAG:    %[[C48:.+]] = arith.constant 48 : index
// OPTIMAL-DAG:   %[[C0:.+]] = arith.constant 0 : index
// OPTIMAL-DAG:   %[[C32:.+]] = arith.constant 32 : index
// OPTIMAL-DAG:   %[[C48:.+]] = arith.constant 48 : index
// CHECK-NOT:     hal.allocator.pack
// INORDER:       return %[[C64]], %[[C0]], %[[C16]], %[[C32]]
// GREEDY:        return %[[C48]], %[[C0]], %[[C32]], %[[C0]]
// OPTIMAL:       return %[[C48]], %[[C0]], %[[C32]], %[[C0]]
func.func @greedy_beats_in_order(%allocator: !hal.allocator) -> (index, index, index, index) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 0] = %c16, [0, 2] = %c16, [1, 1] = %c32}) : index
  return %total, %o#0, %o#1, %o#2 : index, index, index, index
}

// -----

// Three strategies, three totals. A = [2,5] x 48, B = [1,2] x 32,
// C = [0,1] x 64, D = [2,2] x 32: C meets only B; A, B and D all meet at
// step 2, the peak (lower bound 112). In-order: A 0, B on it at 48, C meets
// B and the gap [0, 48) below it is too small: 80, D meets A and B: 80,
// total 144. Greedy's first ordering (largest first, then by start: C, A,
// B, D) gives C 0, A 0 (they never meet), B on both at 64, D meets A and B
// and the gap [48, 64) is too small: 96, total 128, which no later
// ordering beats. Optimal finds a packing at the lower bound: C 0, A 0,
// D 48 ([48, 80), under B), B 80.

// CHECK-LABEL: func.func @optimal_beats_greedy
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// INORDER-DAG:   %[[C48:.+]] = arith.constant 48 : index
// INORDER-DAG:   %[[C80:.+]] = arith.constant 80 : index
// INORDER-DAG:   %[[C144:.+]] = arith.constant 144 : index
// GREEDY-DAG:    %[[C64:.+]] = arith.constant 64 : index
// GREEDY-DAG:    %[[C96:.+]] = arith.constant 96 : index
// GREEDY-DAG:    %[[C128:.+]] = arith.constant 128 : index
// OPTIMAL-DAG:   %[[C48:.+]] = arith.constant 48 : index
// OPTIMAL-DAG:   %[[C80:.+]] = arith.constant 80 : index
// OPTIMAL-DAG:   %[[C112:.+]] = arith.constant 112 : index
// CHECK-NOT:     hal.allocator.pack
// INORDER:       return %[[C144]], %[[C0]], %[[C48]], %[[C80]], %[[C80]]
// GREEDY:        return %[[C128]], %[[C0]], %[[C64]], %[[C0]], %[[C96]]
// OPTIMAL:       return %[[C112]], %[[C0]], %[[C80]], %[[C0]], %[[C48]]
func.func @optimal_beats_greedy(%allocator: !hal.allocator) -> (index, index, index, index, index) {
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %total, %o:4 = hal.allocator.pack<%allocator : !hal.allocator> slices({[2, 5] = %c48, [1, 2] = %c32, [0, 1] = %c64, [2, 2] = %c32}) : index
  return %total, %o#0, %o#1, %o#2, %o#3 : index, index, index, index, index
}

// -----

// The reference dynamic case: slices sharing one SSA size share bytes when
// their lifetimes are disjoint ([0,1] and [2,3]), so offsets 0, align(%a), 0
// and total align(align(%a) + align(%b)). Dynamic slices are laid out
// without the packer, the same under every strategy.

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

// Dynamic slices of one size whose lifetimes meet (steps 1 and 2) need two
// lanes: offsets 0 and align(%a), total align(2 * align(%a)), written as
// (%a + 15) / 16 units of 32 bytes, rounded to 16.

// CHECK-LABEL: func.func @dynamic_overlapping_lanes
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[A:.+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[A1:.+]] = arith.addi %[[A]], %[[C15]]
// CHECK:         %[[UNITS:.+]] = arith.divui %[[A1]], %[[C16]]
// CHECK:         %[[ALIGNED:.+]] = arith.muli %[[UNITS]], %[[C16]] : index
// CHECK:         %[[LANES:.+]] = arith.muli %[[UNITS]], %[[C32]] : index
// CHECK:         %[[T1:.+]] = arith.addi %[[LANES]], %[[C15]]
// CHECK:         %[[T2:.+]] = arith.divui %[[T1]], %[[C16]]
// CHECK:         %[[TOTAL:.+]] = arith.muli %[[T2]], %[[C16]]
// CHECK:         return %[[TOTAL]], %[[C0]], %[[ALIGNED]]
func.func @dynamic_overlapping_lanes(%allocator: !hal.allocator, %a: index) -> (index, index, index) {
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 2] = %a, [1, 3] = %a}) : index
  return %total, %o#0, %o#1 : index, index, index
}

// -----

// Static slices first, then the dynamic group at the aligned static end. The
// two 64-byte slices meet (steps 1 and 2): 0 and 64, static end 128, the
// lower bound, so every strategy keeps the input order's packing. %n goes at
// 128; total align(128 + align(%n)), folded to (align(%n) + 143) / 16 * 16.

// CHECK-LABEL: func.func @mixed_static_dynamic
// CHECK-SAME:    (%{{.+}}: !hal.allocator, %[[N:.+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG:     %[[C143:.+]] = arith.constant 143 : index
// CHECK:         %[[N1:.+]] = arith.addi %[[N]], %[[C15]]
// CHECK:         %[[N2:.+]] = arith.divui %[[N1]], %[[C16]]
// CHECK:         %[[ALIGNED:.+]] = arith.muli %[[N2]], %[[C16]] : index
// CHECK:         %[[T1:.+]] = arith.addi %[[ALIGNED]], %[[C143]] : index
// CHECK:         %[[T2:.+]] = arith.divui %[[T1]], %[[C16]]
// CHECK:         %[[TOTAL:.+]] = arith.muli %[[T2]], %[[C16]] : index
// CHECK:         return %[[TOTAL]], %[[C0]], %[[C64]], %[[C128]]
func.func @mixed_static_dynamic(%allocator: !hal.allocator, %n: index) -> (index, index, index, index) {
  %c64 = arith.constant 64 : index
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 3] = %c64, [1, 2] = %c64, [0, 3] = %n}) : index
  return %total, %o#0, %o#1, %o#2 : index, index, index, index
}

// -----

// The base offset is added to every offset, not to the total. 20 bytes align
// to 32; [0,1] and [1,2] meet at step 1: 0 and 32, total 64 (the lower
// bound) under every strategy.

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

// Alignments come from the module's buffer constraints: offsets 64, sizes
// 256. 10 bytes take 256; the slices meet at step 1: 0 and 256, total 512
// (the lower bound) under every strategy.

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

// No slices: a zero-length slab under every strategy.

// CHECK-LABEL: func.func @zero_slices
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    return %[[C0]] : index
func.func @zero_slices(%allocator: !hal.allocator) -> index {
  %total = hal.allocator.pack<%allocator : !hal.allocator> slices({}) : index
  return %total : index
}
