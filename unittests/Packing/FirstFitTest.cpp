//===- FirstFitTest.cpp - Placement in any order against references ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The occupancy index (lib/Packing/FirstFit.cpp) finds the conflicting
// placed buffers through merged address sets on a segment tree over time.
// First fit through it (greedy's largest-first ordering) and best fit
// through it (in-order on rows in reverse time order) must give, offset for
// offset, what plain quadratic placements give on random instances in random
// orders: closed and half-open lifetimes, zero-length lifetimes (which
// conflict with lifetimes strictly containing their instant but not with
// each other), zero sizes, and per-buffer alignments.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"
#include "PackingTestUtils.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

using namespace streamhal::packing;
using namespace streamhal::packing::testing;

namespace {

/// Places the buffers of `order` one by one, O(n^2): `choose(taken, size,
/// alignment)` picks each offset from the address ranges of the placed
/// buffers whose lifetimes intersect its own, sorted. Zero-size buffers go
/// to 0 and are no obstacle.
using Choice = std::function<int64_t(
    const std::vector<std::pair<int64_t, int64_t>> &, int64_t, int64_t)>;
std::vector<int64_t> referencePlacement(const PackingProblem &problem,
                                        const std::vector<unsigned> &order,
                                        const Choice &choose) {
  std::vector<int64_t> offsets(problem.buffers.size(), 0);
  std::vector<unsigned> placed;
  for (unsigned current : order) {
    int64_t size = referenceAlignedSize(problem, current);
    if (size == 0)
      continue;
    std::vector<std::pair<int64_t, int64_t>> taken;
    for (unsigned other : placed)
      if (referenceLifetimesIntersect(problem, current, other))
        taken.push_back({offsets[other], offsets[other] + referenceAlignedSize(
                                                              problem, other)});
    std::sort(taken.begin(), taken.end());
    offsets[current] =
        choose(taken, size, referenceAlignment(problem, current));
    placed.push_back(current);
  }
  return offsets;
}

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// First fit, from the definition: the lowest multiple of the alignment
/// where the buffer's bytes meet no conflicting placed buffer.
std::vector<int64_t> referenceFirstFit(const PackingProblem &problem,
                                       const std::vector<unsigned> &order) {
  return referencePlacement(
      problem, order, [](const auto &taken, int64_t size, int64_t alignment) {
        int64_t candidate = 0;
        for (auto [begin, end] : taken) {
          if (end <= candidate)
            continue;
          if (begin >= candidate + size)
            break;
          candidate = alignUp(end, alignment);
        }
        return candidate;
      });
}

/// The classic best-fit loop: walk the conflicting placed buffers by
/// offset, take the smallest gap (measured from its unaligned start, the
/// first of equal ones) whose aligned start leaves room, else the aligned
/// top.
std::vector<int64_t> referenceBestFit(const PackingProblem &problem,
                                      const std::vector<unsigned> &order) {
  return referencePlacement(
      problem, order, [](const auto &taken, int64_t size, int64_t alignment) {
        int64_t cursor = 0, bestOffset = -1, bestGap = INT64_MAX;
        for (auto [begin, end] : taken) {
          int64_t candidate = alignUp(cursor, alignment);
          if (candidate + size <= begin && begin - candidate < bestGap) {
            bestOffset = candidate;
            bestGap = begin - cursor;
          }
          cursor = std::max(cursor, end);
        }
        return bestOffset >= 0 ? bestOffset : alignUp(cursor, alignment);
      });
}

/// The orders the index serves, by round: random, by start (`reverse`:
/// latest first), largest first.
std::vector<unsigned> testOrder(const PackingProblem &problem, int round,
                                bool reverse, std::mt19937_64 &rng) {
  std::vector<unsigned> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  switch (round % 3) {
  case 0:
    std::shuffle(order.begin(), order.end(), rng);
    break;
  case 1:
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return reverse ? problem.buffers[a].lower > problem.buffers[b].lower
                     : problem.buffers[a].lower < problem.buffers[b].lower;
    });
    break;
  case 2:
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return problem.buffers[a].size > problem.buffers[b].size;
    });
    break;
  }
  return order;
}

PackingProblem randomProblem(std::mt19937_64 &rng, size_t numBuffers) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  PackingProblem problem;
  problem.lifetimes =
      uniform(0, 1) ? LifetimeConvention::Closed : LifetimeConvention::HalfOpen;
  if (uniform(0, 3) == 0)
    problem.offsetAlignment = problem.sizeAlignment = 16;
  bool perBufferAlignment = uniform(0, 2) == 0;
  int64_t horizon = std::max<int64_t>(4, int64_t(numBuffers) / 2);
  for (size_t i = 0; i < numBuffers; ++i) {
    Buffer buffer;
    buffer.lower = uniform(0, horizon);
    // Mostly short lifetimes, some long, some zero-length.
    int64_t length =
        uniform(0, 5) == 0 ? uniform(0, horizon) : uniform(0, horizon / 8 + 1);
    buffer.upper = std::min(buffer.lower + length, horizon);
    buffer.size = uniform(0, 19) == 0 ? 0 : uniform(1, 1000);
    if (perBufferAlignment)
      buffer.alignment = int64_t(1) << uniform(0, 5);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

TEST(PackingFirstFitTest, MatchesQuadraticFirstFitInRandomOrders) {
  std::mt19937_64 rng(31);
  for (int round = 0; round < 400; ++round) {
    size_t numBuffers = size_t(1) << (round % 10);
    PackingProblem problem = randomProblem(rng, numBuffers);
    std::vector<unsigned> order =
        testOrder(problem, round, /*reverse=*/false, rng);
    detail::NormalizedProblem normalized = detail::normalize(problem);
    detail::FirstFitPlacer placer(normalized);
    std::vector<int64_t> offsets;
    std::optional<int64_t> height = placer.place(order, offsets);
    ASSERT_TRUE(height.has_value());
    std::vector<int64_t> expected = referenceFirstFit(problem, order);
    std::string label = "round " + std::to_string(round);
    ASSERT_EQ(offsets, expected) << label;
    PackingResult result;
    result.offsets = offsets;
    result.slabSize = alignTo(*height, problem.sizeAlignment);
    EXPECT_EQ(referenceViolation(problem, result), "") << label;
    // A second placement by the same placer starts from scratch.
    std::vector<int64_t> again;
    placer.place(order, again);
    EXPECT_EQ(again, offsets) << label;
  }
}

TEST(PackingFirstFitTest, BestFitByOccupancyMatchesQuadraticBestFit) {
  std::mt19937_64 rng(32);
  for (int round = 0; round < 400; ++round) {
    size_t numBuffers = size_t(1) << (round % 10);
    PackingProblem problem = randomProblem(rng, numBuffers);
    // Reverse time order is where `place` uses the index.
    std::vector<unsigned> order =
        testOrder(problem, round, /*reverse=*/true, rng);
    detail::NormalizedProblem normalized = detail::normalize(problem);
    detail::BestFitPlacer placer(normalized);
    std::vector<int64_t> offsets;
    std::optional<int64_t> height = placer.placeByOccupancy(order, offsets);
    ASSERT_TRUE(height.has_value());
    std::string label = "round " + std::to_string(round);
    std::vector<int64_t> expected = referenceBestFit(problem, order);
    ASSERT_EQ(offsets, expected) << label;
    // The conflict walk agrees, and so does `place`, whichever engine it
    // picks for the order.
    std::vector<int64_t> byConflicts, byPlace;
    placer.placeByConflicts(order, byConflicts);
    EXPECT_EQ(byConflicts, expected) << label;
    placer.place(order, byPlace);
    EXPECT_EQ(byPlace, expected) << label;
  }
}

TEST(PackingFirstFitTest, StopsAtTheHeightCutoff) {
  // Three buffers alive together, 10 bytes each: the third ends at 30.
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::Closed;
  problem.buffers = {{0, 5, 10}, {0, 5, 10}, {0, 5, 10}};
  detail::NormalizedProblem normalized = detail::normalize(problem);
  detail::FirstFitPlacer placer(normalized);
  std::vector<unsigned> order = {0, 1, 2};
  std::vector<int64_t> offsets;
  EXPECT_EQ(placer.place(order, offsets, 29), std::nullopt);
  EXPECT_EQ(placer.place(order, offsets, 30), 30);
  EXPECT_EQ(offsets, (std::vector<int64_t>{0, 10, 20}));
}

} // namespace
