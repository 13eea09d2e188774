//===- FirstFit.cpp - Placement in any order, by a time-address index -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places buffers in any order, by first fit or by best fit, without walking
// the placed buffers each one conflicts with. A segment tree over time keeps,
// per node, two unions of address intervals (merged, so a long run of
// touching buffers is one interval):
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
// Best fit needs every gap of the union that fits, not just the first: the
// leapfrog finds the next fitting offset, the sets' neighbouring intervals
// there bound its gap, and the walk resumes above the gap. Gaps too small
// for the buffer are skipped inside each set without being assembled.
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
      [&](const AddressInterval &interval) { return interval.end < begin; });
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

//===----------------------------------------------------------------------===//
// OccupancyIndex
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

OccupancyIndex::OccupancyIndex(const NormalizedProblem &problem)
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
  reset();
}

void OccupancyIndex::reset() {
  collected = ~0u;
  // Two sets per node are megabytes at scale: a fresh index is not built
  // twice (the constructor's and the first placement's reset).
  if (empty)
    return;
  cover.assign(2 * numLeaves, AddressSet());
  subtree.assign(2 * numLeaves, AddressSet());
  empty = true;
}

void OccupancyIndex::collect(unsigned buffer) {
  if (collected == buffer)
    return;
  collected = buffer;
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

void OccupancyIndex::gatherSets(unsigned buffer) {
  collect(buffer);
  const NormalizedBuffer &query = problem.buffers[buffer];
  bool zeroLength = query.start >= query.end;
  cursors.clear();
  auto addSet = [&](const AddressSet &set) {
    llvm::ArrayRef<AddressInterval> intervals = set.getIntervals();
    if (!intervals.empty())
      cursors.push_back({intervals.data(), intervals.size(), 0, 0,
                         intervals[0].begin, intervals[0].end});
  };
  for (unsigned node : llvm::reverse(canonical))
    addSet(zeroLength ? cover[node] : subtree[node]);
  for (unsigned node : ancestors)
    addSet(cover[node]);
}

void OccupancyIndex::seek(SetCursor &cursor, int64_t candidate) {
  // Gallop from the current position, then bisect: the candidate only
  // grows, so the answer is usually close.
  const AddressInterval *intervals = cursor.intervals;
  size_t count = cursor.count, lo = cursor.position, step = 1;
  while (lo + step < count && intervals[lo + step].end <= candidate) {
    lo += step;
    step *= 2;
  }
  size_t position =
      size_t(std::partition_point(intervals + lo,
                                  intervals + std::min(count, lo + step + 1),
                                  [&](const AddressInterval &interval) {
                                    return interval.end <= candidate;
                                  }) -
             intervals);
  cursor.position = position;
  cursor.previousEnd = position > 0 ? intervals[position - 1].end : 0;
  if (position < count) {
    cursor.nextBegin = intervals[position].begin;
    cursor.nextEnd = intervals[position].end;
  } else {
    cursor.nextBegin = cursor.nextEnd = INT64_MAX;
  }
}

int64_t OccupancyIndex::leapfrog(int64_t candidate, int64_t size,
                                 int64_t alignment) {
  // The sets are checked in turn, round the cursor array, until all of them
  // in a row accept the candidate; one that moves it accepts the new one.
  // The candidate never moves down, so the cursors only move forward.
  size_t numCursors = cursors.size(), accepted = 0;
  for (size_t k = 0; accepted < numCursors;
       k = k + 1 == numCursors ? 0 : k + 1) {
    SetCursor &cursor = cursors[k];
    if (cursor.nextEnd <= candidate)
      seek(cursor, candidate);
    if (cursor.nextBegin >= candidate + size) {
      ++accepted;
      continue;
    }
    // Step over the intervals in the way, one by one: each ends above the
    // last, and the first one that leaves room stops the walk.
    do {
      candidate = alignUp(cursor.nextEnd, alignment);
      cursor.previousEnd = cursor.nextEnd;
      if (++cursor.position < cursor.count) {
        cursor.nextBegin = cursor.intervals[cursor.position].begin;
        cursor.nextEnd = cursor.intervals[cursor.position].end;
      } else {
        cursor.nextBegin = cursor.nextEnd = INT64_MAX;
      }
    } while (cursor.nextBegin < candidate + size);
    if (cursor.nextEnd <= candidate)
      seek(cursor, candidate);
    accepted = 1;
  }
  return candidate;
}

int64_t OccupancyIndex::lowestFit(unsigned buffer) {
  const NormalizedBuffer &query = problem.buffers[buffer];
  assert(query.size > 0 && "zero-size buffers are never placed");
  gatherSets(buffer);
  return leapfrog(0, query.size, query.alignment);
}

int64_t OccupancyIndex::bestFit(unsigned buffer) {
  const NormalizedBuffer &query = problem.buffers[buffer];
  assert(query.size > 0 && "zero-size buffers are never placed");
  gatherSets(buffer);
  int64_t size = query.size, alignment = query.alignment;
  int64_t candidate = 0, bestOffset = -1, bestGap = INT64_MAX;
  while (true) {
    int64_t fit = leapfrog(candidate, size, alignment);
    // The gap around the fit: from the highest end at or below it to the
    // lowest begin above it (each cursor is at its first interval ending
    // above the fit, which begins at or above fit + size).
    int64_t gapBegin = 0, gapEnd = INT64_MAX;
    for (const SetCursor &cursor : cursors) {
      gapBegin = std::max(gapBegin, cursor.previousEnd);
      gapEnd = std::min(gapEnd, cursor.nextBegin);
    }
    // Nothing above: the fit is the aligned top, the classic loop's answer
    // when no gap below the top fits.
    if (gapEnd == INT64_MAX)
      return bestOffset >= 0 ? bestOffset : fit;
    assert(fit == alignUp(gapBegin, alignment) &&
           "the first fit of a gap is its aligned start");
    // As the classic loop: judged by the aligned length, remembered by the
    // unaligned one, the first of equal gaps kept.
    if (gapEnd - fit < bestGap) {
      bestOffset = fit;
      bestGap = gapEnd - gapBegin;
      // No later gap's aligned length can be below the size.
      if (bestGap == size)
        return bestOffset;
    }
    candidate = alignUp(gapEnd, alignment);
  }
}

void OccupancyIndex::insert(unsigned buffer, int64_t offset) {
  const NormalizedBuffer &placed = problem.buffers[buffer];
  assert(placed.size > 0 && "zero-size buffers are never placed");
  collect(buffer);
  empty = false;
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

//===----------------------------------------------------------------------===//
// FirstFitPlacer
//===----------------------------------------------------------------------===//

std::optional<int64_t> FirstFitPlacer::place(llvm::ArrayRef<unsigned> order,
                                             std::vector<int64_t> &offsets,
                                             int64_t heightCutoff) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  offsets.assign(buffers.size(), 0);
  occupancy.reset();
  int64_t height = 0;
  for (size_t step = 0, e = order.size(); step < e; ++step) {
    unsigned current = order[step];
    if (problem.progress && step &&
        step % ProgressTracker::kPlacementStride == 0)
      problem.progress->placing(step);
    // A zero-size buffer owns no byte: offset 0, and never an obstacle.
    if (buffers[current].size == 0)
      continue;
    int64_t offset = occupancy.lowestFit(current);
    offsets[current] = offset;
    height = std::max(height, offset + buffers[current].size);
    if (height > heightCutoff)
      return std::nullopt;
    occupancy.insert(current, offset);
  }
  return height;
}
