//===- WorkCounters.cpp - work the conflict queries do
//---------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"
#include "llvm/Support/ErrorHandling.h"
#include <atomic>

namespace streamhal {

static std::atomic<uint64_t> counters[static_cast<unsigned>(Work::Count)];

void countWork(Work counter, uint64_t amount) {
  if (amount)
    counters[static_cast<unsigned>(counter)].fetch_add(
        amount, std::memory_order_relaxed);
}

uint64_t getWork(Work counter) {
  return counters[static_cast<unsigned>(counter)].load(
      std::memory_order_relaxed);
}

llvm::StringRef getWorkName(Work counter) {
  switch (counter) {
  case Work::BatchComparisons:
    return "batch-comparisons";
  case Work::BatchProbes:
    return "batch-probes";
  case Work::EscapeUseVisits:
    return "escape-use-visits";
  case Work::PushSearchSteps:
    return "push-search-steps";
  case Work::InitializedComparisons:
    return "initialized-comparisons";
  case Work::SubmissionComparisons:
    return "submission-comparisons";
  case Work::RecordingUseVisits:
    return "recording-use-visits";
  case Work::Count:
    break;
  }
  llvm_unreachable("not a counter");
}

void resetWork() {
  for (std::atomic<uint64_t> &counter : counters)
    counter.store(0, std::memory_order_relaxed);
}

} // namespace streamhal
