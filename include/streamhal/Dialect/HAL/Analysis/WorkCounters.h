//===- WorkCounters.h - work the conflict queries do, always counted -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Counts of the steps the conflict queries take (accesses compared, index
// entries visited, ops walked), kept in every build type: llvm::Statistic
// counts nothing without LLVM_ENABLE_STATS, and a test that checks the work
// per command stays bounded must run in the Release build CI uses. Counting
// is one relaxed atomic add per query, not per step.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_WORKCOUNTERS_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_WORKCOUNTERS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace streamhal {

/// What is counted.
enum class Work : unsigned {
  /// Accesses a conflict query of an AccessBatch compared exactly.
  BatchComparisons,
  /// Index entries (interval groups, buckets) a batch query visited.
  BatchProbes,
  /// Uses walked to decide whether an allocation escapes into a global.
  EscapeUseVisits,
  /// Ops walked back from a dispatch to the descriptor sets in effect.
  PushSearchSteps,
  /// Written ranges the uninitialized-read check of the verifier compared.
  InitializedComparisons,
  /// Pending submissions a new submission or a host access was compared with.
  SubmissionComparisons,
  /// Uses walked to find the recording uses of a buffer (and its subspans).
  RecordingUseVisits,
  Count,
};

/// Adds `amount` to a counter (thread-safe).
void countWork(Work counter, uint64_t amount);
/// The current value of a counter.
uint64_t getWork(Work counter);
/// A stable name for a counter (`batch-comparisons`, ...).
llvm::StringRef getWorkName(Work counter);
/// Sets every counter to 0.
void resetWork();

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_WORKCOUNTERS_H
