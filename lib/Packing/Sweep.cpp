//===- Sweep.cpp - Best fit in start order, by a sweep over time ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// When buffers are placed in order of non-decreasing start, the placed
// buffers that conflict with the next one are exactly those still live at its
// start. Sweeping time, the live buffers are kept in an address-ordered map
// and the free gaps between them in a set ordered by (length, address), so a
// best-fit query is one ordered lookup instead of a walk over every
// conflicting buffer: O(n log n) for the whole placement.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>
#include <queue>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

bool detail::isStartOrdered(const NormalizedProblem &problem,
                            llvm::ArrayRef<unsigned> order, bool reverse) {
  for (size_t i = 1; i < order.size(); ++i) {
    int64_t previous = problem.buffers[order[i - 1]].start;
    int64_t next = problem.buffers[order[i]].start;
    if (reverse ? previous < next : previous > next)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// LiveGaps
//===----------------------------------------------------------------------===//

void LiveGaps::clear() {
  occupied.clear();
  gaps.clear();
}

void LiveGaps::addGap(int64_t begin, int64_t end) {
  if (end > begin)
    gaps.insert({end - begin, begin});
}

void LiveGaps::removeGap(int64_t begin, int64_t end) {
  if (end > begin)
    gaps.erase({end - begin, begin});
}

void LiveGaps::insert(int64_t offset, int64_t end) {
  auto next = occupied.lower_bound(offset);
  int64_t previousEnd = next == occupied.begin() ? 0 : std::prev(next)->second;
  assert(previousEnd <= offset && "overlapping live buffers");
  if (next != occupied.end()) {
    assert(end <= next->first && "overlapping live buffers");
    removeGap(previousEnd, next->first);
    addGap(end, next->first);
  }
  addGap(previousEnd, offset);
  occupied.emplace_hint(next, offset, end);
}

void LiveGaps::erase(int64_t offset) {
  auto it = occupied.find(offset);
  assert(it != occupied.end() && "erasing a buffer that is not live");
  int64_t previousEnd = it == occupied.begin() ? 0 : std::prev(it)->second;
  removeGap(previousEnd, offset);
  auto next = std::next(it);
  if (next != occupied.end()) {
    removeGap(it->second, next->first);
    addGap(previousEnd, next->first);
  }
  occupied.erase(it);
}

int64_t LiveGaps::bestFit(int64_t size, int64_t alignment) const {
  // The smallest gap whose aligned start leaves room, the lowest of equal
  // gaps: the classic loop's choice.
  for (auto it = gaps.lower_bound({size, INT64_MIN}); it != gaps.end(); ++it) {
    auto [length, begin] = *it;
    int64_t candidate = alignUp(begin, alignment);
    if (candidate + size <= begin + length)
      return candidate;
  }
  return alignUp(top(), alignment);
}

int64_t LiveGaps::bestFitByWalk(int64_t size, int64_t alignment) const {
  // The classic loop verbatim: a gap is judged by its aligned length but
  // remembered by its unaligned length.
  int64_t cursor = 0, bestOffset = -1, bestGap = INT64_MAX;
  for (auto [offset, end] : occupied) {
    int64_t candidate = alignUp(cursor, alignment);
    if (candidate + size <= offset && offset - candidate < bestGap) {
      bestOffset = candidate;
      bestGap = offset - cursor;
    }
    cursor = end;
  }
  return bestOffset >= 0 ? bestOffset : alignUp(cursor, alignment);
}

int64_t LiveGaps::top() const {
  return occupied.empty() ? 0 : occupied.rbegin()->second;
}

//===----------------------------------------------------------------------===//
// SweepPlacer
//===----------------------------------------------------------------------===//

std::optional<int64_t> SweepPlacer::place(llvm::ArrayRef<unsigned> order,
                                          std::vector<int64_t> &offsets,
                                          int64_t heightCutoff) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  assert(isStartOrdered(problem, order) && "the sweep needs a start order");
  offsets.assign(buffers.size(), 0);
  live.clear();
  // The classic loop compares a gap's aligned length with the best gap's
  // unaligned length, so its choice is the smallest gap only when no gap
  // starts unaligned. That holds when every size is a multiple of every
  // alignment (all offsets and ends then are); otherwise the live buffers
  // are walked as the classic loop does, O(live) per buffer.
  int64_t commonAlignment = 1;
  for (const NormalizedBuffer &buffer : buffers)
    commonAlignment = std::min<int64_t>(
        std::lcm(commonAlignment, buffer.alignment), int64_t(1) << 31);
  bool gapsAligned = llvm::all_of(buffers, [&](const NormalizedBuffer &b) {
    return b.size % commonAlignment == 0;
  });
  // Live buffers by end time (earliest first), with their offsets.
  using Expiry = std::pair<int64_t, int64_t>;
  std::priority_queue<Expiry, std::vector<Expiry>, std::greater<Expiry>>
      expiries;

  int64_t height = 0;
  size_t placed = 0;
  auto placeOne = [&](unsigned current) {
    const NormalizedBuffer &buffer = buffers[current];
    if (problem.progress && ++placed % ProgressTracker::kPlacementStride == 0)
      problem.progress->placing(placed);
    // A zero-size buffer owns no byte: it goes to 0 and hinders nobody.
    if (buffer.size == 0)
      return true;
    int64_t offset = gapsAligned
                         ? live.bestFit(buffer.size, buffer.alignment)
                         : live.bestFitByWalk(buffer.size, buffer.alignment);
    offsets[current] = offset;
    height = std::max(height, offset + buffer.size);
    // A zero-length lifetime [t, t) conflicts with no buffer starting at or
    // after t, so it never needs to be live.
    if (buffer.start < buffer.end) {
      live.insert(offset, offset + buffer.size);
      expiries.push({buffer.end, offset});
    }
    return height <= heightCutoff;
  };

  for (size_t groupBegin = 0, e = order.size(); groupBegin < e;) {
    int64_t start = buffers[order[groupBegin]].start;
    size_t groupEnd = groupBegin;
    while (groupEnd < e && buffers[order[groupEnd]].start == start)
      ++groupEnd;
    while (!expiries.empty() && expiries.top().first <= start) {
      live.erase(expiries.top().second);
      expiries.pop();
    }
    // Zero-length lifetimes [t, t) only conflict with buffers that started
    // before t, so they are placed before the buffers starting at t join the
    // live set. Neither kind affects the other, so the offsets are those of
    // the given order.
    for (size_t i = groupBegin; i < groupEnd; ++i)
      if (buffers[order[i]].start == buffers[order[i]].end &&
          !placeOne(order[i]))
        return std::nullopt;
    for (size_t i = groupBegin; i < groupEnd; ++i)
      if (buffers[order[i]].start < buffers[order[i]].end &&
          !placeOne(order[i]))
        return std::nullopt;
    groupBegin = groupEnd;
  }
  return height;
}
