//===- FragmentAnalysis.h - facts the check hands the pattern ---*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fragment check computes a fragment's alias classes and their storage
// kinds on its way; the pattern reuses them instead of computing them again.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTANALYSIS_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTANALYSIS_H

#include "FragmentState.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include <memory>

namespace streamhal {

struct FragmentAnalysisCache::Entry {
  std::unique_ptr<ValueAliasing> aliasing;
  llvm::SmallVector<StorageKind> kinds;
  /// groupOperandStorage of the fragment, when the module check computed it
  /// (empty: every operand may be any other).
  llvm::SmallVector<unsigned> operandGroups;
};

/// Runs every check of one fragment, with a diagnostic at each culprit, and
/// returns its alias classes and storage kinds when it can be lowered.
mlir::FailureOr<std::unique_ptr<FragmentAnalysisCache::Entry>>
analyzeStreamFragment(flow::ExStreamFragmentOp fragment);

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTANALYSIS_H
