//===- FragmentPlan.h - everything decided about one fragment ---*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fragment check produces one immutable FragmentPlan per fragment: its
// alias classes and liveness, the plan of every box, the resolved variants
// of every dispatch, and the storage kind and views of every class. The
// storage materialization and the command recorder only read it, so every
// decision is made, and every user error found, in one place.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTPLAN_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTPLAN_H

#include "streamhal/Analysis/BoxGeometry.h"
#include "streamhal/Analysis/ErrorReporter.h"
#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/StorageViews.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Conversion/FlowToHAL/FragmentPlanView.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include <memory>

namespace streamhal {

//===----------------------------------------------------------------------===//
// Dispatch resolution
//===----------------------------------------------------------------------===//

/// One buffer binding of a dispatch, resolved against an interface.
struct ResolvedBinding {
  enum class Kind { OperandBuffer, ResultBuffer, ConstantStorage };
  Kind kind;
  int64_t set;
  int64_t ordinal;
  /// Operand (within the dispatch arguments) or result index.
  unsigned index = 0;
  /// Constant storage: the global and the byte range.
  mlir::StringAttr storage;
  int64_t offset = 0;
  int64_t length = 0;
};

/// A dispatch's callee in one executable variant, with its bindings.
struct ResolvedVariant {
  hal::ExecutableVariantOp variant;
  hal::ExecutableEntryPointOp entryPoint;
  hal::InterfaceOp interface;
  llvm::SmallVector<ResolvedBinding> bindings;
  /// Dispatch argument index per push constant ordinal (std::nullopt when
  /// no binding provides it).
  llvm::SmallVector<std::optional<unsigned>> pushConstantArguments;
  /// The interface's descriptor set layouts, indexed by set.
  mlir::ArrayAttr setLayouts;
};

/// Resolves the callee and the `hal.bindings` of a dispatch for every
/// variant of its executable, reporting any problem at the dispatch
/// (DispatchResolution.cpp).
mlir::FailureOr<llvm::SmallVector<ResolvedVariant>>
resolveDispatch(flow::DispatchOp op, const ErrorReporter &report);

//===----------------------------------------------------------------------===//
// Storage kinds (StorageKind: FragmentPlanView.h)
//===----------------------------------------------------------------------===//

/// The storage kind of every alias class of a fragment, in class order,
/// before views are taken. A class holding a constant subspan keeps the
/// pool's bytes only while nothing writes it in place, it is not returned
/// and no dispatch binds it at a misaligned pool offset; otherwise it gets
/// its own storage (an output or a transient) that the recorder fills with
/// a copy of the constant. Fails, reporting at the culprit, when a class
/// would need two storages (two operands, or an operand and a constant,
/// alias each other).
mlir::FailureOr<llvm::SmallVector<StorageKind>>
classifyAliasClasses(flow::ExStreamFragmentOp fragment,
                     const ValueAliasing &aliasing,
                     const ErrorReporter &report);

//===----------------------------------------------------------------------===//
// FragmentPlan
//===----------------------------------------------------------------------===//

/// Everything the lowering decides about one fragment before it rewrites
/// anything. Immutable once built; it refers to the fragment's body, which
/// stays untouched until the fragment itself is lowered.
class FragmentPlan {
public:
  /// Checks `fragment` for everything a user can get wrong, reporting each
  /// problem at the op at fault through `report`, and plans it when it can
  /// be lowered. `operandGroups` is groupOperandStorage of the fragment
  /// (empty: every operand may be any other); `copies` decides whether
  /// slices and clones may be views. With `analyses` (the fragment's own
  /// analysis manager) the alias classes, liveness intervals and box plans
  /// are its analyses, shared with every other pass that asks; the plan
  /// then refers to them and must not outlive their invalidation.
  static mlir::FailureOr<std::unique_ptr<FragmentPlan>>
  build(flow::ExStreamFragmentOp fragment, CopyPolicy copies,
        llvm::ArrayRef<unsigned> operandGroups, const ErrorReporter &report,
        mlir::AnalysisManager *analyses = nullptr);

  flow::ExStreamFragmentOp getFragment() const { return fragment; }
  const ValueAliasing &getAliasing() const { return *aliasing; }
  const LivenessIntervals &getLiveness() const { return *liveness; }
  const BoxGeometry &getBoxes() const { return *boxes; }
  const StorageViews &getViews() const { return *views; }
  /// The policy the views were decided with.
  CopyPolicy getCopyPolicy() const { return copies; }

  /// The storage kind of every alias class (views applied), in class order.
  llvm::ArrayRef<StorageKind> getStorageKinds() const { return kinds; }
  StorageKind getStorageKind(mlir::Value tensor) const {
    return kinds[aliasing->getClassIndex(tensor)];
  }

  /// The plan of a slice or update of the body.
  const BoxCopyPlan &getBoxPlan(mlir::Operation *boxOp) const {
    const BoxCopyPlan *plan = boxes->lookup(boxOp);
    assert(plan && "every box of a planned fragment has a plan");
    return *plan;
  }
  /// The variants a dispatch of the body is recorded for, in variant order.
  llvm::ArrayRef<ResolvedVariant> getVariants(flow::DispatchOp op) const;

  /// Prints the classes with their storage kinds, the views and the boxes.
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  FragmentPlan(flow::ExStreamFragmentOp fragment, CopyPolicy copies)
      : fragment(fragment), copies(copies) {}

  flow::ExStreamFragmentOp fragment;
  CopyPolicy copies;
  /// The analyses the plan reads: the analysis manager's, or the plan's own
  /// (kept in the `owned*` members) when it was built without one.
  const ValueAliasing *aliasing = nullptr;
  const LivenessIntervals *liveness = nullptr;
  const BoxGeometry *boxes = nullptr;
  std::unique_ptr<ValueAliasing> ownedAliasing;
  std::unique_ptr<LivenessIntervals> ownedLiveness;
  std::unique_ptr<BoxGeometry> ownedBoxes;
  std::unique_ptr<StorageViews> views;
  llvm::SmallVector<StorageKind> kinds;
  /// Resolutions shared by dispatches alike in everything resolution reads,
  /// and the one of each dispatch of the body.
  llvm::SmallVector<llvm::SmallVector<ResolvedVariant>> resolutions;
  llvm::DenseMap<mlir::Operation *, unsigned> resolutionOf;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTPLAN_H
