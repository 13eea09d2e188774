//===- FragmentPlanView.h - A fragment's plan, read-only --------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the check decided for a fragment, for a downstream pass that needs
// the same classes, kinds, views and liveness the lowering uses (for
// example to make its own HostReadability-like decisions agree with the
// lowering's): a read-only window on a plan of a FragmentPlanCache, valid
// while the cache lives and the fragment is unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_CONVERSION_FLOWTOHAL_FRAGMENTPLANVIEW_H
#define STREAMHAL_CONVERSION_FLOWTOHAL_FRAGMENTPLANVIEW_H

#include "streamhal/Analysis/BoxGeometry.h"
#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/StorageViews.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include <optional>

namespace streamhal {

/// Where the values of one alias class of a fragment live.
enum class StorageKind {
  Input,     ///< a fragment operand (block argument)
  Constant,  ///< a read-only view of a hal.constant.subspan's pool
  Output,    ///< returned, not an input: a new allocation
  Transient, ///< born and dead inside the fragment: a slice of the slab
  View,      ///< a subspan of another class's storage (StorageViews)
};

/// A read-only view of the plan of one fragment.
class FragmentPlanView {
public:
  explicit FragmentPlanView(const FragmentPlan &plan) : plan(&plan) {}

  flow::ExStreamFragmentOp getFragment() const;
  /// The alias classes of the fragment's tensor values.
  const ValueAliasing &getAliasing() const;
  /// The live interval of every value and class, in body op indices.
  const LivenessIntervals &getLiveness() const;
  /// Which slice and update boxes are one contiguous byte range.
  const BoxGeometry &getBoxes() const;
  /// The slices and clones that are views, and the update sinks.
  const StorageViews &getViews() const;
  /// The policy the views were decided with.
  CopyPolicy getCopyPolicy() const;
  /// The storage kind of `tensor`'s class (views applied).
  StorageKind getStorageKind(mlir::Value tensor) const;

  /// The view of `fragment`'s plan in `plans`, or std::nullopt when it has
  /// none or its plan is stale (FragmentPlanCache::lookup).
  static std::optional<FragmentPlanView> lookup(const FragmentPlanCache &plans,
                                                mlir::Operation *fragment);

private:
  const FragmentPlan *plan;
};

} // namespace streamhal

#endif // STREAMHAL_CONVERSION_FLOWTOHAL_FRAGMENTPLANVIEW_H
