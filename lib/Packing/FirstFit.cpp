//===- FirstFit.cpp - First fit in any order, by a time-address index -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places buffers in any order, each at the lowest aligned offset where it
// meets no placed buffer, without walking the placed buffers it conflicts
// with. A segment tree over time keeps, per node, two unions of address
// intervals (merged, so a long run of touching buffers is one interval):
//
//  - `cover`: the placed buffers whose lifetime decomposes into the node
//    (they span its whole time range);
//  - `subtree`: every placed buffer that decomposes into the node or a node
//    below it (they intersect its time range).
//
// The placed buffers conflicting with a query are then exactly those in the
// `subtree` sets of the query's canonical nodes and in the `cover` sets of
// their ancestors: for a buffer and a query sharing a leaf, of the two nodes
// holding that leaf in their decompositions one is an ancestor of the other.
// The lowest offset free in the union of those O(log n) sets is found by
// leapfrogging: each set in turn moves the candidate up to its own lowest
// fit at or above it, until every set accepts the same candidate. Each step
// skips whole merged runs, so the cost follows the structure of the free
// space rather than the number of conflicting buffers.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

//===----------------------------------------------------------------------===//
// AddressSet
//===----------------------------------------------------------------------===//

bool AddressSet::insert(int64_t begin, int64_t end) {
  // The first interval that overlaps or touches [begin, end), and the first
  // one past it: everything in between merges into one interval.
  auto first = std::partition_point(
      intervals.begin(), intervals.end(),
      [&](const Interval &interval) { return interval.end < begin; });
  if (first != intervals.end() && first->begin <= begin && end <= first->end)
    return false;
  auto last = first;
  while (last != intervals.end() && last->begin <= end) {
    begin = std::min(begin, last->begin);
    end = std::max(end, last->end);
    ++last;
  }
  if (first == last) {
    intervals.insert(first, {begin, end});
    return true;
  }
  *first = {begin, end};
  intervals.erase(first + 1, last);
  return true;
}

size_t AddressSet::firstEndingAfter(int64_t offset, size_t from) const {
  // Gallop from `from` (the candidate only grows during a query, so the
  // answer is usually at or just past the previous one), then bisect.
  size_t count = intervals.size(), step = 1, lo = from;
  while (lo + step < count && intervals[lo + step].end <= offset) {
    lo += step;
    step *= 2;
  }
  auto it = std::partition_point(
      intervals.begin() + lo,
      intervals.begin() + std::min(count, lo + step + 1),
      [&](const Interval &interval) { return interval.end <= offset; });
  return size_t(it - intervals.begin());
}

int64_t AddressSet::lowestFit(int64_t candidate, int64_t size,
                              int64_t alignment, size_t &position) const {
  position = firstEndingAfter(candidate, position);
  for (size_t e = intervals.size();
       position < e && intervals[position].begin < candidate + size; ++position)
    candidate = alignUp(intervals[position].end, alignment);
  return candidate;
}

//===----------------------------------------------------------------------===//
// FirstFitPlacer
//===----------------------------------------------------------------------===//

// Time points: a lifetime [s, e) with s < e covers the doubled points
// [2s + 1, 2e), and a zero-length lifetime [t, t) is the point 2t. Two
// non-empty lifetimes share a point iff they intersect, and the point of
// [t, t) lies in [2s + 1, 2e) iff s < t < e, the half-open formula. Two
// zero-length lifetimes never conflict, so the placed zero-length buffers
// join the `subtree` sets only, never `cover`: a zero-length query reads
// only `cover` sets.
static int64_t firstPoint(const NormalizedBuffer &buffer) {
  return buffer.start < buffer.end ? 2 * buffer.start + 1 : 2 * buffer.start;
}
static int64_t endPoint(const NormalizedBuffer &buffer) {
  return buffer.start < buffer.end ? 2 * buffer.end : 2 * buffer.start + 1;
}

FirstFitPlacer::FirstFitPlacer(const NormalizedProblem &problem)
    : problem(problem) {
  // Leaves: the distinct first points (every range starts at one).
  std::vector<int64_t> points;
  points.reserve(problem.buffers.size());
  for (const NormalizedBuffer &buffer : problem.buffers)
    points.push_back(firstPoint(buffer));
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  numLeaves = std::max<size_t>(points.size(), 1);
  auto leafAtOrAfter = [&](int64_t point) {
    return unsigned(std::lower_bound(points.begin(), points.end(), point) -
                    points.begin());
  };
  leafRange.reserve(problem.buffers.size());
  for (const NormalizedBuffer &buffer : problem.buffers)
    leafRange.push_back(
        {leafAtOrAfter(firstPoint(buffer)), leafAtOrAfter(endPoint(buffer))});
  visitedEpoch.assign(2 * numLeaves, 0);
}

void FirstFitPlacer::collect(unsigned buffer) {
  // The canonical nodes of the buffer's leaves, by the bottom-up loop (any
  // leaf count works: the nodes form a binary tree by halving), then every
  // proper ancestor of them once.
  canonical.clear();
  ancestors.clear();
  auto [from, to] = leafRange[buffer];
  for (size_t lo = from + numLeaves, hi = to + numLeaves; lo < hi;
       lo /= 2, hi /= 2) {
    if (lo & 1)
      canonical.push_back(unsigned(lo++));
    if (hi & 1)
      canonical.push_back(unsigned(--hi));
  }
  if (++epoch == 0) {
    std::fill(visitedEpoch.begin(), visitedEpoch.end(), 0);
    epoch = 1;
  }
  for (unsigned node : canonical)
    visitedEpoch[node] = epoch;
  for (unsigned node : canonical)
    for (unsigned up = node / 2; up >= 1 && visitedEpoch[up] != epoch;
         up /= 2) {
      visitedEpoch[up] = epoch;
      ancestors.push_back(up);
    }
}

int64_t FirstFitPlacer::lowestFreeOffset(unsigned buffer) {
  const NormalizedBuffer &query = problem.buffers[buffer];
  bool zeroLength = query.start >= query.end;
  sets.clear();
  auto addSet = [&](const AddressSet &set) {
    if (!set.empty())
      sets.push_back({&set, 0});
  };
  for (unsigned node : llvm::reverse(canonical))
    addSet(zeroLength ? cover[node] : subtree[node]);
  for (unsigned node : ancestors)
    addSet(cover[node]);
  // Leapfrog: the sets are checked in turn until all accept the candidate.
  // A set that moves it goes to the front (a set that blocks once tends to
  // block again), and one with nothing left above the candidate is dropped.
  // Each set keeps its position: the candidate never moves down.
  int64_t candidate = 0;
  for (size_t next = 0; next < sets.size();) {
    auto &[set, position] = sets[next];
    int64_t fit =
        set->lowestFit(candidate, query.size, query.alignment, position);
    bool exhausted = position == set->count();
    bool moved = fit != candidate;
    candidate = fit;
    if (exhausted) {
      sets[next] = sets.back();
      sets.pop_back();
      if (moved)
        next = 0;
      continue;
    }
    if (!moved) {
      ++next;
      continue;
    }
    std::rotate(sets.begin(), sets.begin() + next, sets.begin() + next + 1);
    next = 1;
  }
  return candidate;
}

void FirstFitPlacer::insert(unsigned buffer, int64_t offset) {
  const NormalizedBuffer &placed = problem.buffers[buffer];
  int64_t end = offset + placed.size;
  bool zeroLength = placed.start >= placed.end;
  for (unsigned node : canonical) {
    if (!zeroLength)
      cover[node].insert(offset, end);
    subtree[node].insert(offset, end);
    // A node's `subtree` set contains its children's, so once one already
    // covers the interval (another path got there first, or buffers outside
    // this lifetime did), every node above it does too.
    for (unsigned up = node / 2; up >= 1 && subtree[up].insert(offset, end);
         up /= 2) {
    }
  }
}

std::optional<int64_t> FirstFitPlacer::place(llvm::ArrayRef<unsigned> order,
                                             std::vector<int64_t> &offsets,
                                             int64_t heightCutoff) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  offsets.assign(buffers.size(), 0);
  cover.assign(2 * numLeaves, AddressSet());
  subtree.assign(2 * numLeaves, AddressSet());
  int64_t height = 0;
  for (size_t step = 0, e = order.size(); step < e; ++step) {
    unsigned current = order[step];
    if (problem.progress && step &&
        step % ProgressTracker::kPlacementStride == 0)
      problem.progress->placing(step);
    // A zero-size buffer owns no byte: offset 0, and never an obstacle.
    if (buffers[current].size == 0)
      continue;
    collect(current);
    int64_t offset = lowestFreeOffset(current);
    offsets[current] = offset;
    height = std::max(height, offset + buffers[current].size);
    if (height > heightCutoff)
      return std::nullopt;
    insert(current, offset);
  }
  return height;
}
