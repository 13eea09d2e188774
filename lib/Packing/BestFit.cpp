//===- BestFit.cpp - Conflict index and best-fit placement ----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>
#include <utility>

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
  nodeBuffers.resize(4 * numPoints);

  auto pointAtOrAfter = [&](int64_t time) {
    return size_t(std::lower_bound(points.begin(), points.end(), time) -
                  points.begin());
  };
  pointIndex.resize(numBuffers);
  nodesOf.resize(numBuffers);
  for (unsigned i = 0; i < numBuffers; ++i) {
    pointIndex[i] = pointAtOrAfter(buffers[i].start);
    // The leaves [start, end) of the buffer's lifetime.
    size_t to = pointAtOrAfter(buffers[i].end);
    if (pointIndex[i] < to)
      collectNodes(1, 0, numPoints, pointIndex[i], to, nodesOf[i]);
  }

  byStart.resize(numBuffers);
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
    return buffers[a].start < buffers[b].start;
  });
  positionByStart.resize(numBuffers);
  for (size_t position = 0; position < numBuffers; ++position)
    positionByStart[byStart[position]] = position;
  auto firstStartAbove = [&](int64_t time, bool inclusive) {
    auto it =
        std::partition_point(byStart.begin(), byStart.end(), [&](unsigned j) {
          return inclusive ? buffers[j].start < time : buffers[j].start <= time;
        });
    return size_t(it - byStart.begin());
  };
  firstStartAfter.resize(numBuffers);
  firstStartAtEnd.resize(numBuffers);
  for (unsigned i = 0; i < numBuffers; ++i) {
    firstStartAfter[i] = firstStartAbove(buffers[i].start, false);
    firstStartAtEnd[i] =
        std::max(firstStartAfter[i], firstStartAbove(buffers[i].end, true));
  }
  placedByStart.assign((numBuffers + 63) / 64, 0);
  payloadByStart.assign(numBuffers, 0);
}

void ConflictIndex::collectNodes(size_t node, size_t lo, size_t hi, size_t from,
                                 size_t to, std::vector<unsigned> &out) {
  if (to <= lo || hi <= from)
    return;
  if (from <= lo && hi <= to) {
    out.push_back(node);
    return;
  }
  size_t mid = (lo + hi) / 2;
  collectNodes(2 * node, lo, mid, from, to, out);
  collectNodes(2 * node + 1, mid, hi, from, to, out);
}

void ConflictIndex::reset() {
  for (std::vector<uint64_t> &list : nodeLists)
    list.clear();
  for (std::vector<unsigned> &list : nodeBuffers)
    list.clear();
  std::fill(placedByStart.begin(), placedByStart.end(), 0);
}

void ConflictIndex::markPlaced(unsigned i, uint64_t payload) {
  for (unsigned node : nodesOf[i]) {
    nodeLists[node].push_back(payload);
    nodeBuffers[node].push_back(i);
  }
  size_t position = positionByStart[i];
  placedByStart[position / 64] |= uint64_t(1) << (position % 64);
  payloadByStart[position] = payload;
}

/// Sorts `keys` by their bits above `payloadBits` (the low bits are a
/// payload that does not take part). The conflict walk sorts about a
/// thousand keys per buffer at 100,000 buffers, and std::sort's mispredicted
/// comparisons were half of its time: an LSD radix sort by bytes, skipping
/// the payload bytes and the bytes that are equal in every key (the high
/// bytes of small offsets), is about twice as fast there.
static void sortKeys(std::vector<uint64_t> &keys,
                     std::vector<uint64_t> &scratch, unsigned payloadBits) {
  size_t count = keys.size();
  if (count < 128) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  uint64_t all = ~uint64_t(0), any = 0;
  for (uint64_t key : keys) {
    all &= key;
    any |= key;
  }
  // Bytes above the payload where some key differs from another.
  uint64_t varying = any & ~all & (~uint64_t(0) << payloadBits);
  unsigned shifts[8], numPasses = 0;
  for (unsigned shift = 0; shift < 64; shift += 8)
    if ((varying >> shift) & 0xff)
      shifts[numPasses++] = shift;
  // Every pass's histogram in one read of the keys.
  uint32_t counts[8][256] = {};
  for (uint64_t key : keys)
    for (unsigned pass = 0; pass < numPasses; ++pass)
      ++counts[pass][(key >> shifts[pass]) & 0xff];
  scratch.resize(count);
  uint64_t *from = keys.data(), *to = scratch.data();
  for (unsigned pass = 0; pass < numPasses; ++pass) {
    uint32_t sum = 0;
    for (uint32_t &bucket : counts[pass])
      sum += std::exchange(bucket, sum);
    unsigned shift = shifts[pass];
    for (size_t k = 0; k < count; ++k)
      to[counts[pass][(from[k] >> shift) & 0xff]++] = from[k];
    std::swap(from, to);
  }
  if (from != keys.data())
    std::copy(from, from + count, keys.data());
}

//===----------------------------------------------------------------------===//
// BestFitPlacer
//===----------------------------------------------------------------------===//

static constexpr unsigned kUnplaced = ~0u;

BestFitPlacer::BestFitPlacer(const NormalizedProblem &problem)
    : problem(problem), sweep(problem) {}

std::optional<int64_t> BestFitPlacer::place(llvm::ArrayRef<unsigned> order,
                                            std::vector<int64_t> &offsets,
                                            int64_t heightCutoff) {
  if (isStartOrdered(problem, order))
    return sweep.place(order, offsets, heightCutoff);
  // Both engines give the same offsets. In any order but the reverse of
  // time, the conflict walk is faster: placed buffers scattered over time
  // leave the occupancy index's address sets fragmented, and a long-lived
  // buffer is one interval in each of several of them (at 100,000 buffers,
  // 1.3x-2x slower shuffled, sorted by size or nearly sorted). Placed in
  // reverse time order (a backward liveness analysis lists buffers so), the
  // sets stay merged, and the index is 3x faster.
  Engine engine =
      isStartOrdered(problem, order, /*reverse=*/true) && !order.empty()
          ? Engine::Occupancy
          : Engine::Conflicts;
  return placeWith(engine, order, offsets, heightCutoff);
}

uint64_t detail::countConflictingPairs(const NormalizedProblem &problem) {
  // All pairs minus those where one ends before the other starts.
  std::vector<int64_t> ends;
  ends.reserve(problem.buffers.size());
  for (const NormalizedBuffer &buffer : problem.buffers)
    ends.push_back(buffer.end);
  llvm::sort(ends);
  uint64_t numBuffers = problem.buffers.size();
  uint64_t disjoint = 0;
  for (const NormalizedBuffer &buffer : problem.buffers)
    disjoint +=
        std::upper_bound(ends.begin(), ends.end(), buffer.start) - ends.begin();
  uint64_t pairs = numBuffers * (numBuffers - (numBuffers > 0)) / 2;
  return pairs > disjoint ? pairs - disjoint : 0;
}

std::optional<int64_t>
BestFitPlacer::placeByOccupancy(llvm::ArrayRef<unsigned> order,
                                std::vector<int64_t> &offsets,
                                int64_t heightCutoff) {
  return placeWith(Engine::Occupancy, order, offsets, heightCutoff);
}

std::optional<int64_t>
BestFitPlacer::placeByConflicts(llvm::ArrayRef<unsigned> order,
                                std::vector<int64_t> &offsets,
                                int64_t heightCutoff) {
  return placeWith(Engine::Conflicts, order, offsets, heightCutoff);
}

int64_t BestFitPlacer::bestFitByConflicts(unsigned current,
                                          llvm::ArrayRef<unsigned> order,
                                          llvm::ArrayRef<int64_t> offsets) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  const NormalizedBuffer &buffer = buffers[current];
  // Walk the reservations bottom-up (by offset; the most recent first among
  // equal offsets), remembering the smallest gap that fits. As in IREE, a
  // gap is judged by its aligned start but remembered by its unaligned
  // size, and the first of equal gaps wins.
  int64_t cursor = 0;
  int64_t bestOffset = -1;
  int64_t bestGap = INT64_MAX;
  auto visitReservation = [&](int64_t offset, int64_t end) {
    int64_t candidate = alignUp(cursor, buffer.alignment);
    if (candidate + buffer.size <= offset && offset - candidate < bestGap) {
      bestOffset = candidate;
      bestGap = offset - cursor;
    }
    cursor = std::max(cursor, end);
  };
  if (usePackedKeys) {
    packedScratch.clear();
    index->forEachPlacedConflict(
        current, [&](uint64_t key) { packedScratch.push_back(key); });
    // Only the offset orders the walk: of two reservations at one offset
    // (neither empty), the second always meets a cursor past its start, so
    // which comes first changes nothing, and the size bits are left out.
    sortKeys(packedScratch, radixScratch, sizeBits);
    // The key holds the offset and the size: the walk reads nothing else.
    const uint64_t sizeMask = (uint64_t(1) << sizeBits) - 1;
    for (uint64_t key : packedScratch) {
      int64_t offset = int64_t(key >> sizeBits);
      visitReservation(offset, offset + int64_t(key & sizeMask));
    }
  } else {
    scratch.clear();
    index->forEachPlacedConflict(current, [&](uint64_t other) {
      scratch.push_back({offsets[other], offsets[other] + buffers[other].size,
                         placedStep[other]});
    });
    llvm::sort(scratch, [](const Reservation &a, const Reservation &b) {
      if (a.offset != b.offset)
        return a.offset < b.offset;
      return a.step > b.step;
    });
    for (const Reservation &reservation : scratch)
      visitReservation(reservation.offset, reservation.end);
  }
  return bestOffset >= 0 ? bestOffset : alignUp(cursor, buffer.alignment);
}

std::optional<int64_t> BestFitPlacer::placeWith(Engine engine,
                                                llvm::ArrayRef<unsigned> order,
                                                std::vector<int64_t> &offsets,
                                                int64_t heightCutoff) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  offsets.assign(buffers.size(), 0);
  bool useConflicts = engine == Engine::Conflicts;
  bool useOccupancy = !useConflicts;
  if (useConflicts) {
    placedStep.assign(buffers.size(), kUnplaced);
    if (!index)
      index.emplace(problem);
    index->reset();
    // No offset can exceed the sum of all sizes and alignments. When that
    // and the largest size fit in one 64-bit word, sorting plain integers is
    // about twice as fast as sorting records; this matters for tens of
    // thousands of buffers.
    int64_t offsetBound = 0, largest = 0;
    for (const NormalizedBuffer &buffer : buffers) {
      offsetBound += buffer.size + buffer.alignment;
      largest = std::max(largest, buffer.size);
    }
    sizeBits = llvm::Log2_64(uint64_t(largest)) + 1;
    usePackedKeys = sizeBits < 64 &&
                    llvm::Log2_64(uint64_t(offsetBound)) + 1 + sizeBits <= 64;
  }
  if (useOccupancy) {
    if (!occupancy)
      occupancy.emplace(problem);
    occupancy->reset();
  }
  int64_t height = 0;
  for (unsigned step = 0, e = order.size(); step < e; ++step) {
    unsigned current = order[step];
    const NormalizedBuffer &buffer = buffers[current];
    if (problem.progress && step &&
        step % ProgressTracker::kPlacementStride == 0)
      problem.progress->placing(step);
    // A zero-size buffer owns no byte: offset 0, and never an obstacle.
    if (buffer.size == 0)
      continue;
    int64_t offset;
    if (engine == Engine::Conflicts) {
      offset = bestFitByConflicts(current, order, offsets);
    } else {
      offset = occupancy->bestFit(current);
    }
    offsets[current] = offset;
    if (useConflicts) {
      placedStep[current] = step;
      index->markPlaced(current, usePackedKeys
                                     ? (uint64_t(offset) << sizeBits) |
                                           uint64_t(buffer.size)
                                     : current);
    }
    if (useOccupancy)
      occupancy->insert(current, offset);
    height = std::max(height, offset + buffer.size);
    if (height > heightCutoff)
      return std::nullopt;
  }
  return height;
}

//===----------------------------------------------------------------------===//
// in-order
//===----------------------------------------------------------------------===//

PackingResult detail::packInOrder(const NormalizedProblem &problem) {
  std::vector<unsigned> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  PackingResult result;
  BestFitPlacer placer(problem);
  std::optional<int64_t> height = placer.place(order, result.offsets);
  result.slabSize = slabFromHeight(problem, height.value_or(0));
  if (problem.progress)
    problem.progress->found(result.slabSize);
  return result;
}
