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
#include <numeric>
#include <random>

using namespace streamhal::packing;
using namespace streamhal::packing::testing;

namespace {

/// First fit in `order`, O(n^2), from the definitions: each buffer goes to
/// the lowest multiple of its alignment where its bytes meet no placed buffer
/// whose lifetime intersects its own. Zero-size buffers go to 0 and are no
/// obstacle.
std::vector<int64_t> referenceFirstFit(const PackingProblem &problem,
                                       const std::vector<unsigned> &order) {
  std::vector<int64_t> offsets(problem.buffers.size(), 0);
  std::vector<unsigned> placed;
  for (unsigned current : order) {
    int64_t size = referenceAlignedSize(problem, current);
    if (size == 0)
      continue;
    int64_t alignment = referenceAlignment(problem, current);
    std::vector<std::pair<int64_t, int64_t>> taken;
    for (unsigned other : placed)
      if (referenceLifetimesIntersect(problem, current, other))
        taken.push_back({offsets[other], offsets[other] + referenceAlignedSize(
                                                              problem, other)});
    std::sort(taken.begin(), taken.end());
    int64_t candidate = 0;
    for (auto [begin, end] : taken) {
      if (end <= candidate)
        continue;
      if (begin >= candidate + size)
        break;
      candidate = (end + alignment - 1) / alignment * alignment;
    }
    offsets[current] = candidate;
    placed.push_back(current);
  }
  return offsets;
}

/// The classic best-fit loop in `order`, O(n^2): walk the placed conflicting
/// buffers by offset, take the smallest gap (measured from its unaligned
/// start, the first of equal ones) whose aligned start leaves room, else the
/// aligned top.
std::vector<int64_t> referenceBestFit(const PackingProblem &problem,
                                      const std::vector<unsigned> &order) {
  std::vector<int64_t> offsets(problem.buffers.size(), 0);
  std::vector<unsigned> placed;
  for (unsigned current : order) {
    int64_t size = referenceAlignedSize(problem, current);
    if (size == 0)
      continue;
    int64_t alignment = referenceAlignment(problem, current);
    auto alignUp = [&](int64_t value) {
      return (value + alignment - 1) / alignment * alignment;
    };
    std::vector<std::pair<int64_t, int64_t>> taken;
    for (unsigned other : placed)
      if (referenceLifetimesIntersect(problem, current, other))
        taken.push_back({offsets[other], offsets[other] + referenceAlignedSize(
                                                              problem, other)});
    std::sort(taken.begin(), taken.end());
    int64_t cursor = 0, bestOffset = -1, bestGap = INT64_MAX;
    for (auto [begin, end] : taken) {
      int64_t candidate = alignUp(cursor);
      if (candidate + size <= begin && begin - candidate < bestGap) {
        bestOffset = candidate;
        bestGap = begin - cursor;
      }
      cursor = std::max(cursor, end);
    }
    offsets[current] = bestOffset >= 0 ? bestOffset : alignUp(cursor);
    placed.push_back(current);
  }
  return offsets;
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
    std::vector<unsigned> order(numBuffers);
    std::iota(order.begin(), order.end(), 0);
    // Random orders, start order and largest first: the orders it serves.
    switch (round % 3) {
    case 0:
      std::shuffle(order.begin(), order.end(), rng);
      break;
    case 1:
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return problem.buffers[a].lower < problem.buffers[b].lower;
      });
      break;
    case 2:
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return problem.buffers[a].size > problem.buffers[b].size;
      });
      break;
    }
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
    std::vector<unsigned> order(numBuffers);
    std::iota(order.begin(), order.end(), 0);
    // Random orders, reverse time order (where `place` uses the index) and
    // largest first.
    switch (round % 3) {
    case 0:
      std::shuffle(order.begin(), order.end(), rng);
      break;
    case 1:
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return problem.buffers[a].lower > problem.buffers[b].lower;
      });
      break;
    case 2:
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return problem.buffers[a].size > problem.buffers[b].size;
      });
      break;
    }
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
