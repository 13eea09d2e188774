//===- TestPasses.h - passes that expose analyses to lit tests --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TESTPASSES_TESTPASSES_H
#define STREAMHAL_TESTPASSES_TESTPASSES_H

namespace streamhal {

/// Registers the streamhal test passes with the global pass registry:
///  - `--test-stream-liveness`: annotates every flow.ex.stream.fragment with
///    the results of ValueAliasing and LivenessIntervals;
///  - `--test-fragment-plan`: prints the lowering's plan of every fragment.
void registerTestPasses();

/// Registers `--test-fragment-plan` (TestFragmentPlan.cpp).
void registerTestFragmentPlanPass();

} // namespace streamhal

#endif // STREAMHAL_TESTPASSES_TESTPASSES_H
