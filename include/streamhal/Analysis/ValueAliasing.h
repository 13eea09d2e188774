//===- ValueAliasing.h - tied-value alias classes of a fragment -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 1 of the fragment lowering (docs/lowering.md, "Tied-value aliasing"):
// partitions the tensor values of one `flow.ex.stream.fragment` body into
// alias classes, the sets of values that share one storage.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_VALUEALIASING_H
#define STREAMHAL_ANALYSIS_VALUEALIASING_H

#include "mlir/IR/Value.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace streamhal {

/// Alias classes of the tensor values of one flow.ex.stream.fragment.
///
/// The tracked values are the tensor-typed block arguments of the fragment
/// body and the tensor-typed results of the ops directly in the body block
/// (values defined inside regions nested in body ops are not tracked). Two
/// values alias when one is tied to the other:
///  - fragment result `i` tied to operand `j`: the value returned at position
///    `i` by `flow.return` aliases block argument `j`;
///  - an op result tied to one of its operands through
///    `util::TiedOpInterface` (flow.dispatch ties, flow.tensor.update to its
///    target, flow.tensor.reshape to its source, flow.tensor.store to its
///    target).
/// Aliasing is the reflexive, symmetric and transitive closure of these ties.
///
/// The analysis is computed once by the constructor, in time near-linear in
/// the number of values and ties (union-find on dense ordinals), and every
/// result is ordered by IR order, never by pointer values, so it is
/// deterministic across runs. It never modifies the IR. It keeps pointers
/// into the fragment body (the body block, values, ops), so it is valid as
/// long as the fragment's body is not rewritten; build it before rewriting.
class ValueAliasing {
public:
  explicit ValueAliasing(flow::ExStreamFragmentOp fragment);
  /// The form `getAnalysis<ValueAliasing>()` builds: `fragment` must be a
  /// `flow.ex.stream.fragment`.
  explicit ValueAliasing(mlir::Operation *fragment)
      : ValueAliasing(mlir::cast<flow::ExStreamFragmentOp>(fragment)) {}

  /// Returns true for the types the analyses track (tensor types).
  static bool isTrackedType(mlir::Type type);

  /// Every tensor value of the fragment body in IR order: block arguments,
  /// then op results in op order (ops nested in the body only one level: the
  /// body block).
  llvm::ArrayRef<mlir::Value> getValues() const { return values; }

  /// Dense ordinal of a tensor value in getValues() order; std::nullopt for
  /// non-tensor / foreign values.
  std::optional<unsigned> getOrdinal(mlir::Value value) const;

  /// Returns the number of alias classes.
  unsigned getNumClasses() const { return classOffsets.size() - 1; }

  /// Class number of a tensor value; classes are numbered in IR order of
  /// their first member. Returns getNumClasses() (an invalid class number)
  /// for a value the analysis does not track.
  unsigned getClassIndex(mlir::Value value) const;

  /// Class number of the value with ordinal `ordinal`; getNumClasses() for
  /// an ordinal out of range.
  unsigned getClassIndexOfOrdinal(unsigned ordinal) const {
    return ordinal < classOfOrdinal.size() ? classOfOrdinal[ordinal]
                                           : getNumClasses();
  }

  /// Members of class `classIndex` in IR order; the first is the leader.
  /// Empty for an invalid class number.
  llvm::ArrayRef<mlir::Value> getClassMembers(unsigned classIndex) const;

  /// Returns the first member (in IR order) of the class of `value`, or a
  /// null value for a value the analysis does not track.
  mlir::Value getLeader(mlir::Value value) const;

  /// Returns true when `a` and `b` are tracked and in the same class.
  bool isAliased(mlir::Value a, mlir::Value b) const;

  /// Prints a value as `<ordinal> <argN | op name>`.
  void printValue(llvm::raw_ostream &os, mlir::Value value) const;
  /// Prints one line per class: `class C: <member>, <member>, ...`.
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  /// The body block, or null for a fragment without one.
  mlir::Block *body = nullptr;
  /// Tracked values in IR order; the index is the ordinal.
  llvm::SmallVector<mlir::Value> values;
  /// Ordinal of each block argument of the body (~0u when not tracked).
  llvm::SmallVector<unsigned> argumentOrdinals;
  /// Ordinal of the first tracked result of each body op that has one (the
  /// others follow consecutively). Keyed by op rather than by value: the
  /// pointer hash of ops keeps IR-order accesses close together in memory.
  llvm::DenseMap<mlir::Operation *, unsigned> firstResultOrdinals;
  /// Class number of each ordinal.
  llvm::SmallVector<unsigned> classOfOrdinal;
  /// Members of all classes, grouped by class, each group in IR order.
  llvm::SmallVector<mlir::Value> classMembers;
  /// Class `c` owns classMembers[classOffsets[c], classOffsets[c + 1]).
  llvm::SmallVector<unsigned> classOffsets;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_VALUEALIASING_H
