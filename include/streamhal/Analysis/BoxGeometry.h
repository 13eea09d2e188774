//===- BoxGeometry.h - the boxes slices and updates copy --------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `flow.tensor.slice` copies a box of its source into a whole tensor and a
// `flow.tensor.update` copies a whole tensor into a box of its target. This
// file decides how such a box is copied: as one copy when it is contiguous in
// the outer tensor, as one copy per contiguous run when its shape is static,
// or not at all (a located error) when neither can be shown. BoxGeometry
// plans every box of a fragment once; the fragment check reports its
// failures, copy elision asks it which boxes are contiguous and the recorder
// reads its plans.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_BOXGEOMETRY_H
#define STREAMHAL_ANALYSIS_BOXGEOMETRY_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "streamhal/Analysis/ErrorReporter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace streamhal {

/// More runs than this in one non-contiguous copy is almost surely a bug in
/// the program; refuse rather than emit millions of commands.
inline constexpr int64_t kMaxCopyRuns = 1 << 16;

/// The box a slice reads or an update writes, every extent a constant where
/// one is known (also through fragment operands) and a value otherwise.
struct CopyBox {
  /// The tensor the box lies in (slice source, update target).
  mlir::ShapedType outerType;
  /// One extent per dim of the outer tensor.
  llvm::SmallVector<mlir::OpFoldResult> outerExtents;
  /// Start index of the box in each dim.
  llvm::SmallVector<mlir::OpFoldResult> starts;
  /// Extent of the box in each dim: the slice's result type or the update's
  /// type, with their dynamic dims as values (length operands only spell
  /// what the type says).
  llvm::SmallVector<mlir::OpFoldResult> lengths;
};

/// Builds the box of a `flow.tensor.slice` or `flow.tensor.update`. Every
/// SSA value is passed through `lookup` first (the recorder maps body values
/// to values outside the fragment; the check passes them through).
CopyBox getCopyBox(mlir::Operation *op,
                   llvm::function_ref<mlir::Value(mlir::Value)> lookup);

/// How a box is copied.
struct BoxCopyPlan {
  /// One copy covers the box: it is contiguous in the outer tensor.
  bool contiguous = false;
  /// Non-contiguous boxes: element offset of each run from the first element
  /// of the box (in the outer tensor), in row-major order. Each run is
  /// `runElements` long and lands at `run * runElements` in the inner tensor.
  llvm::SmallVector<int64_t> runDeltas;
  int64_t runElements = 0;
};

/// Plans the copy of `box` for `op`: checks every bound that is known and
/// decides contiguity. Fails, reporting at `op` through `report`, for an
/// out-of-bounds box, a length operand that contradicts the type, a box
/// whose contiguity depends on dynamic sizes, a non-contiguous box with a
/// dynamic shape, or one that needs more than kMaxCopyRuns copies.
mlir::FailureOr<BoxCopyPlan> planBoxCopy(mlir::Operation *op,
                                         const CopyBox &box,
                                         const ErrorReporter &report);

/// The byte offset of the box of a slice or update in its outer tensor
/// (the source of a slice, the target of an update) when the outer shape,
/// the element size and the starts are constants and the starts in bounds.
std::optional<int64_t> getStaticBoxByteOffset(mlir::Operation *boxOp);

/// A number every runtime byte offset of the box of a slice or update in
/// its outer tensor is a multiple of: the gcd of the constant starts' byte
/// offsets and of the byte strides of dynamic starts (0 for a box always at
/// offset 0); std::nullopt when a start that may be nonzero has a byte
/// stride a dynamic dim of the outer shape makes unknown (a dynamic
/// leading dim alone never does).
std::optional<uint64_t> getBoxByteOffsetDivisor(mlir::Operation *boxOp);

/// The copy plan of every `flow.tensor.slice` and `flow.tensor.update` in
/// the body of one fragment, each planned once on the body's own values.
class BoxGeometry {
public:
  /// Plans every box of `fragment` (a `flow.ex.stream.fragment`), reporting
  /// each one that cannot be copied through `report`. The default reporter
  /// is silent, so that `getAnalysis<BoxGeometry>()` can build it.
  explicit BoxGeometry(mlir::Operation *fragment,
                       const ErrorReporter &report = ErrorReporter(false));

  /// Whether every box of the fragment could be planned.
  bool isValid() const { return valid; }
  /// The plan of a slice or update of the body, or null when it has none
  /// (another op, or a box that cannot be copied).
  const BoxCopyPlan *lookup(mlir::Operation *boxOp) const {
    auto it = plans.find(boxOp);
    return it == plans.end() ? nullptr : &it->second;
  }
  /// Whether the box of `boxOp` is one contiguous byte range of its outer
  /// tensor (false for a box without a plan).
  bool isContiguous(mlir::Operation *boxOp) const {
    const BoxCopyPlan *plan = lookup(boxOp);
    return plan && plan->contiguous;
  }

  /// Prints one line per box: `<op> at <loc>: contiguous` or `N runs of M`.
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  /// In body order, for printing.
  llvm::SmallVector<mlir::Operation *> boxOps;
  llvm::DenseMap<mlir::Operation *, BoxCopyPlan> plans;
  bool valid = true;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_BOXGEOMETRY_H
