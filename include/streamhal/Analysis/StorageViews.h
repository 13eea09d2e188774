//===- StorageViews.h - slices and clones that share storage ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Copy elision (docs/lowering.md, "Views instead of copies"): decides which
// `flow.tensor.slice` / `flow.tensor.clone` results of one fragment can be a
// view of their source's storage instead of a copy of it, from the alias
// classes and liveness intervals of the fragment.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_STORAGEVIEWS_H
#define STREAMHAL_ANALYSIS_STORAGEVIEWS_H

#include "streamhal/Analysis/BoxGeometry.h"
#include "streamhal/Analysis/LivenessIntervals.h"

namespace streamhal {

/// Which alias classes of a fragment are views of another class's storage.
///
/// At the flow level a slice or a clone is a copy. Its result class B may
/// instead be a view of the storage of its source's class A when no
/// execution can tell the difference:
///  - B has storage of its own to give up: none of its members is a block
///    argument or a constant subspan;
///  - the op is a clone, or a slice whose box is contiguous in the source
///    (`BoxGeometry::isContiguous`);
///  - no in-place write (a tied dispatch result, a `flow.tensor.update`, a
///    `flow.tensor.store`) to A's storage happens from the view's definition
///    until B's last use, so the view never sees a later version of A;
///  - no in-place write to B happens while A's storage is still needed: from
///    the view's definition until A's last use, or at all when A's storage
///    outlives the fragment (it holds a block argument, a constant subspan or
///    a returned value; constant storage is also read-only);
///  - when B is returned, A's storage is a transient that is not returned
///    as a whole, and B's bytes in it are constants, disjoint from those of
///    every other returned view of it: the transient becomes an output
///    allocation and B is returned as a subspan of it (one allocation holds
///    several results, as with the result packing of IREE's stream
///    dialect). A returned view of an input or a constant would hand the
///    caller bytes it does not own.
/// A is taken with every view already merged into it (its writes, the ops
/// touching it and the hull of its intervals), so chains of views stay
/// sound.
///
/// The other way round, the update value U of a `flow.tensor.update` with a
/// contiguous box into target T may be computed in T's box directly (U is
/// then a view of T, and the update records nothing) when:
///  - U has storage to give up: no block argument, constant or returned
///    value, and nothing views it yet; T is not a constant;
///  - T's storage is live (initialized) before U's first definition, and no
///    op defines, reads or writes bytes of T's storage overlapping U's box
///    from U's first definition until the update: they would see the box
///    early (an update into T touches its own box only, and a view of T with
///    constant bytes only those bytes; anything else touches all of T);
///  - after the update, T's storage is not written in place while U is
///    read, and U is not written in place while T's storage is needed.
/// Fragment operands may be one buffer (an argument passed twice), so the
/// writes and touches of every class holding or viewing a block argument
/// count for all of them.
/// Candidates are decided in IR order, in O(n log n) for n ops and uses.
///
/// The views form a forest over alias classes: a view's *storage root* is
/// the class at the top of its chain, the one that gets real storage; the
/// root must then stay live over the hull of its whole group
/// (getRootInterval).
class StorageViews {
public:
  /// Builds the views of `fragment`. `boxes` says which boxes of its slices
  /// and updates are one contiguous byte range of the outer tensor; with
  /// `elide` false no view is taken (every copy stays).
  ///
  /// `operandGroups` (groupOperandStorage, OperandStorage.h) gives each
  /// fragment operand, by operand number, the group of outer buffers it may
  /// share bytes with: the rules count a write or a touch of any operand of
  /// a group for the whole group. Empty (the default) puts every operand in
  /// group 0: always sound, fewer views.
  ///
  /// `bindingAlignment` is the device's binding offset alignment
  /// (`min_buffer_offset_alignment` of the module's `#hal.buffer_constraints`,
  /// `hal::getSlabAlignments(op).offset`): a view a dispatch may bind, or a
  /// box a value is computed in, is taken only where it starts at a multiple
  /// of it in its root. The default 1 ignores the rule (for analyses that do
  /// not lower).
  StorageViews(flow::ExStreamFragmentOp fragment,
               const LivenessIntervals &liveness, const BoxGeometry &boxes,
               bool elide = true, llvm::ArrayRef<unsigned> operandGroups = {},
               int64_t bindingAlignment = 1);

  /// The value `op` can make a view: the result of a slice or clone, the
  /// update value of an update; null for any other op.
  static mlir::Value getViewedValue(mlir::Operation *op);
  /// Returns true when `op` is the op that makes a class a view (it then
  /// has nothing to record). A class can be a view by one op and still be
  /// written by another: a slice sunk into a later update still copies.
  bool isViewOp(mlir::Operation *op) const {
    mlir::Value viewed = getViewedValue(op);
    return viewed && liveness.getAliasing().getOrdinal(viewed) &&
           getViewOp(liveness.getAliasing().getClassIndex(viewed)) == op;
  }

  /// Returns the op that makes class `classIndex` a view (the slice or
  /// clone defining it, or the update it is sunk into), or null when the
  /// class has storage of its own.
  mlir::Operation *getViewOp(unsigned classIndex) const {
    return viewOps[classIndex];
  }
  bool isView(unsigned classIndex) const {
    return viewOps[classIndex] != nullptr;
  }
  /// The class whose storage a view class sits in directly: the source of a
  /// slice or clone, the target of an update (itself for other classes).
  unsigned getSourceClass(unsigned classIndex) const {
    return sourceClasses[classIndex];
  }
  /// The class whose storage backs class `classIndex` (itself for a class
  /// that is not a view).
  unsigned getRoot(unsigned classIndex) const { return roots[classIndex]; }
  /// The interval the storage of root class `root` must stay live: the hull
  /// of the intervals of every class in its group.
  std::pair<int64_t, int64_t> getRootInterval(unsigned root) const {
    return rootIntervals[root];
  }
  /// Returns true when root class `root`'s group holds a returned value.
  bool isRootReturned(unsigned root) const { return rootReturned[root]; }
  /// Number of views taken.
  unsigned getNumViews() const { return numViews; }

  /// Prints one line per view: `class B = view of class A (root R) by <op>`.
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  class Decider;

  const LivenessIntervals &liveness;
  /// groupOperandStorage of the fragment; empty: all operands one group.
  llvm::SmallVector<unsigned> operandGroups;
  /// The device's binding offset alignment: a view a dispatch may bind
  /// must start at a multiple of it in its root.
  int64_t bindingAlignment;
  /// In a scheduled body, the intervals in program order: the rules compare
  /// the order in which commands touching shared storage run (conflicting
  /// commands keep their order whatever the waves), while the roots' hulls
  /// stay in wave indices for the pack.
  std::unique_ptr<LivenessIntervals> programOrder;
  bool elide;
  llvm::SmallVector<mlir::Operation *> viewOps;
  llvm::SmallVector<unsigned> sourceClasses;
  llvm::SmallVector<unsigned> roots;
  llvm::SmallVector<std::pair<int64_t, int64_t>> rootIntervals;
  llvm::SmallVector<bool> rootReturned;
  unsigned numViews = 0;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_STORAGEVIEWS_H
