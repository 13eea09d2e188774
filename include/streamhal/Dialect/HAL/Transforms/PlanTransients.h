//===- PlanTransients.h - Where transient memory is planned -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The policy of `--streamhal-lower-to-hal`'s `transients=` option: one
// transient slab per fragment, as the conversion allocates them, or one per
// function (`--hal-plan-function-transients`, docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_PLANTRANSIENTS_H
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_PLANTRANSIENTS_H

#include "llvm/Support/CommandLine.h"

namespace streamhal {

/// Which transient plan the lowering keeps.
enum class TransientPlan {
  /// Each fragment's own slab, and an allocation per value passed between
  /// fragments.
  Fragment,
  /// One slab per function block, packed on the function's timeline.
  Function,
};

/// `fragment` and `function`, shared by every option that takes a plan.
inline llvm::cl::ValuesClass getTransientPlanValues() {
  return llvm::cl::values(
      clEnumValN(TransientPlan::Fragment, "fragment",
                 "one slab per fragment, one allocation per value passed "
                 "between fragments"),
      clEnumValN(TransientPlan::Function, "function",
                 "one slab per function, packed on the function's timeline"));
}

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_PLANTRANSIENTS_H
