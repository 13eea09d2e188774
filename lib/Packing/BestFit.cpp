//===- BestFit.cpp - Conflict index and best-fit placement ----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

//===----------------------------------------------------------------------===//
// ConflictIndex
//===----------------------------------------------------------------------===//

ConflictIndex::ConflictIndex(const NormalizedProblem &problem)
    : buffers(problem.buffers) {
  size_t numBuffers = buffers.size();
  // The segment tree's leaves are the distinct start times: stabbing queries
  // are only ever asked at a buffer's start.
  std::vector<int64_t> points;
  points.reserve(numBuffers);
  for (const NormalizedBuffer &buffer : buffers)
    points.push_back(buffer.start);
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  numPoints = std::max<size_t>(points.size(), 1);
  nodeLists.resize(4 * numPoints);

  auto pointAtOrAfter = [&](int64_t time) {
    return size_t(std::lower_bound(points.begin(), points.end(), time) -
                  points.begin());
  };
  pointIndex.resize(numBuffers);
  for (unsigned i = 0; i < numBuffers; ++i) {
    pointIndex[i] = pointAtOrAfter(buffers[i].start);
    // The leaves [start, end) of the buffer's lifetime.
    size_t to = pointAtOrAfter(buffers[i].end);
    if (pointIndex[i] < to)
      insert(1, 0, numPoints, pointIndex[i], to, i);
  }

  byStart.resize(numBuffers);
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
    return buffers[a].start < buffers[b].start;
  });
  firstStartAfter.resize(numBuffers);
  for (unsigned i = 0; i < numBuffers; ++i) {
    auto it = std::upper_bound(
        byStart.begin(), byStart.end(), buffers[i].start,
        [&](int64_t time, unsigned j) { return time < buffers[j].start; });
    firstStartAfter[i] = it - byStart.begin();
  }
}

void ConflictIndex::insert(size_t node, size_t lo, size_t hi, size_t from,
                           size_t to, unsigned buffer) {
  if (to <= lo || hi <= from)
    return;
  if (from <= lo && hi <= to) {
    nodeLists[node].push_back(buffer);
    return;
  }
  size_t mid = (lo + hi) / 2;
  insert(2 * node, lo, mid, from, to, buffer);
  insert(2 * node + 1, mid, hi, from, to, buffer);
}

//===----------------------------------------------------------------------===//
// BestFitPlacer
//===----------------------------------------------------------------------===//

static constexpr unsigned kUnplaced = ~0u;

BestFitPlacer::BestFitPlacer(const NormalizedProblem &problem,
                             ConflictIndex &index)
    : problem(problem), index(index) {}

std::optional<int64_t> BestFitPlacer::place(llvm::ArrayRef<unsigned> order,
                                            std::vector<int64_t> &offsets,
                                            int64_t heightCutoff) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  offsets.assign(buffers.size(), 0);
  placedStep.assign(buffers.size(), kUnplaced);
  int64_t height = 0;
  for (unsigned step = 0, e = order.size(); step < e; ++step) {
    unsigned current = order[step];
    const NormalizedBuffer &buffer = buffers[current];
    scratch.clear();
    index.forEachConflict(current, [&](unsigned other) {
      if (placedStep[other] != kUnplaced)
        scratch.push_back({offsets[other], offsets[other] + buffers[other].size,
                           placedStep[other]});
    });
    llvm::sort(scratch, [](const Reservation &a, const Reservation &b) {
      if (a.offset != b.offset)
        return a.offset < b.offset;
      return a.step > b.step;
    });

    // Walk the reservations bottom-up, remembering the smallest gap that
    // fits. As in IREE, a gap is judged by its aligned start but remembered
    // by its unaligned size, and the first of equal gaps wins.
    int64_t cursor = 0;
    int64_t bestOffset = -1;
    int64_t bestGap = INT64_MAX;
    for (const Reservation &reservation : scratch) {
      int64_t candidate = alignTo(cursor, buffer.alignment);
      if (candidate + buffer.size <= reservation.offset &&
          reservation.offset - candidate < bestGap) {
        bestOffset = candidate;
        bestGap = reservation.offset - cursor;
      }
      cursor = std::max(cursor, reservation.end);
    }
    if (bestOffset < 0)
      bestOffset = alignTo(cursor, buffer.alignment);

    offsets[current] = bestOffset;
    placedStep[current] = step;
    height = std::max(height, bestOffset + buffer.size);
    if (height > heightCutoff)
      return std::nullopt;
  }
  return height;
}

//===----------------------------------------------------------------------===//
// in-order
//===----------------------------------------------------------------------===//

PackingResult detail::packInOrder(const NormalizedProblem &problem,
                                  ConflictIndex &index) {
  std::vector<unsigned> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  PackingResult result;
  BestFitPlacer placer(problem, index);
  std::optional<int64_t> height = placer.place(order, result.offsets);
  result.slabSize = slabFromHeight(problem, height.value_or(0));
  return result;
}
