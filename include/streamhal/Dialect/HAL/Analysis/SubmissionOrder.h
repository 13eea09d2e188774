//===- SubmissionOrder.h - Which submissions follow which ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Submissions numbered in program order, each ordered after its direct
// dependencies (earlier submissions it waits for) and so after theirs. A
// plan that shares bytes between two submissions' data needs to know that
// one is ordered after the other without asking every pair: this keeps,
// per submission, a known prefix of earlier submissions ordered before it
// minus a few exceptions (the ones that may run concurrently with it, such
// as a long-lived independent branch), so that one long branch does not
// hide the order of everything after it. Exact while a submission has at
// most `maxExceptions` concurrent earlier submissions below the end of its
// prefix; beyond that it knows less (says "maybe concurrent"), never more.
// Building is O(dependencies x maxExceptions) per submission. No IR: plain
// integers.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_SUBMISSIONORDER_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_SUBMISSIONORDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <vector>

namespace streamhal {

class SubmissionOrder {
public:
  explicit SubmissionOrder(unsigned maxExceptions = 32)
      : maxExceptions(maxExceptions) {}

  /// Appends submission number size(), ordered after each of
  /// `dependencies` (earlier submissions, in any order, repeats allowed)
  /// and after every submission below `orderedPrefix` (the host waited for
  /// them before it submitted).
  void add(llvm::ArrayRef<int64_t> dependencies, int64_t orderedPrefix);
  int64_t size() const { return static_cast<int64_t>(known.size()); }

  /// Whether submission `before` is known to complete before `after`
  /// starts (before < after; false when it may not).
  bool isOrderedBefore(int64_t before, int64_t after) const;

  /// How many earlier submissions may run concurrently with `submission`.
  int64_t countConcurrentBefore(int64_t submission) const;
  /// The first earlier submission that may run concurrently with
  /// `submission`, or `submission` itself when none may.
  int64_t getFirstConcurrentBefore(int64_t submission) const;

  /// For each submission, the last later one for which `ignored` is false
  /// that may run concurrently with it (not known to be ordered after it),
  /// or itself when there is none: O(n) for all, once every submission was
  /// added.
  std::vector<int64_t>
  computeLastConcurrent(llvm::function_ref<bool(int64_t)> ignored) const;

private:
  llvm::ArrayRef<int64_t> getExceptions(int64_t submission) const;

  unsigned maxExceptions;
  /// Per submission j: every i < known[j] not among j's exceptions is
  /// ordered before j.
  std::vector<int64_t> known;
  /// Per submission, its sorted exceptions: exceptionStarts[j] to
  /// exceptionStarts[j + 1] in `exceptions`.
  std::vector<int64_t> exceptionStarts = {0};
  std::vector<int64_t> exceptions;
};

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_SUBMISSIONORDER_H
