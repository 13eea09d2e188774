//===- SubmissionOrder.cpp - Which submissions follow which --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/SubmissionOrder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>
#include <numeric>

using namespace streamhal;

llvm::ArrayRef<int64_t>
SubmissionOrder::getExceptions(int64_t submission) const {
  return llvm::ArrayRef(exceptions)
      .slice(exceptionStarts[submission],
             exceptionStarts[submission + 1] - exceptionStarts[submission]);
}

bool SubmissionOrder::isOrderedBefore(int64_t before, int64_t after) const {
  assert(before >= 0 && after < size() && "submission out of range");
  if (before >= after || before >= known[after])
    return false;
  return !std::binary_search(getExceptions(after).begin(),
                             getExceptions(after).end(), before);
}

void SubmissionOrder::add(llvm::ArrayRef<int64_t> dependencies,
                          int64_t orderedPrefix) {
  int64_t self = size();
  llvm::SmallVector<int64_t> direct(dependencies.begin(), dependencies.end());
  llvm::sort(direct);
  direct.erase(std::unique(direct.begin(), direct.end()), direct.end());
  assert((direct.empty() || direct.back() < self) &&
         "a dependency on a later submission");
  orderedPrefix = std::clamp<int64_t>(orderedPrefix, 0, self);

  // Everything ordered before j is ordered before a submission after j:
  // start from the dependency that knows the longest prefix. Below it only
  // its exceptions can be concurrent, and only those no other dependency
  // orders.
  int64_t prefix = orderedPrefix;
  llvm::SmallVector<int64_t> concurrent;
  const int64_t *best = nullptr;
  for (const int64_t &q : direct)
    if (!best || known[q] > known[*best])
      best = &q;
  if (best && known[*best] > prefix) {
    prefix = known[*best];
    for (int64_t e : getExceptions(*best)) {
      if (e < orderedPrefix)
        continue;
      bool ordered = llvm::any_of(
          direct, [&](int64_t q) { return q == e || isOrderedBefore(e, q); });
      if (!ordered)
        concurrent.push_back(e);
    }
  }
  // Past that prefix only the dependencies themselves are known; the
  // submissions between them become exceptions while there is room.
  for (int64_t q : direct) {
    if (q < prefix)
      continue;
    if (concurrent.size() + (q - prefix) > maxExceptions)
      break;
    for (int64_t gap = prefix; gap < q; ++gap)
      concurrent.push_back(gap);
    prefix = q + 1;
  }
  known.push_back(prefix);
  llvm::append_range(exceptions, concurrent);
  exceptionStarts.push_back(exceptions.size());
}

int64_t SubmissionOrder::countConcurrentBefore(int64_t submission) const {
  return submission - known[submission] +
         static_cast<int64_t>(getExceptions(submission).size());
}

int64_t SubmissionOrder::getFirstConcurrentBefore(int64_t submission) const {
  llvm::ArrayRef<int64_t> concurrent = getExceptions(submission);
  if (!concurrent.empty())
    return concurrent.front();
  return known[submission];
}

std::vector<int64_t> SubmissionOrder::computeLastConcurrent(
    llvm::function_ref<bool(int64_t)> ignored) const {
  // Submission j may run concurrently with every i in [known[j], j) and
  // with its exceptions. From the last j down, each i takes the first j
  // that covers it (the largest); `next` skips the i already taken.
  int64_t n = size();
  std::vector<int64_t> lastConcurrent(n);
  std::iota(lastConcurrent.begin(), lastConcurrent.end(), 0);
  std::vector<int64_t> next(n + 1);
  std::iota(next.begin(), next.end(), 0);
  auto findFree = [&](int64_t i) {
    int64_t root = i;
    while (next[root] != root)
      root = next[root];
    while (next[i] != root) {
      int64_t up = next[i];
      next[i] = root;
      i = up;
    }
    return root;
  };
  for (int64_t j = n - 1; j >= 0; --j) {
    if (ignored(j))
      continue;
    for (int64_t i = findFree(known[j]); i < j; i = findFree(i)) {
      lastConcurrent[i] = j;
      next[i] = i + 1;
    }
  }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t e : ignored(j) ? llvm::ArrayRef<int64_t>() : getExceptions(j))
      lastConcurrent[e] = std::max(lastConcurrent[e], j);
  return lastConcurrent;
}
