//===- WindowRepackTest.cpp - The window repacking of `optimal` -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The window repacking (lib/Packing/WindowRepack.cpp) moves buffers of a
// complete packing: on random instances (closed and half-open lifetimes,
// zero-length lifetimes, zero sizes, per-buffer alignments) its packing must
// pass the independent pairwise check of PackingTestUtils.h and never be
// worse than the one it started from; on a small instance where greedy
// provably misses the optimum it must reach it; with the same work limit two
// runs must give the same offsets; and `optimal` must use it on instances
// too large for the branch and bound, within its time limit.
//
//===----------------------------------------------------------------------===//

#include "WindowRepack.h"
#include "PackingInternal.h"
#include "PackingTestUtils.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <random>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;
using namespace streamhal::packing::testing;

namespace {

/// A random instance with every degenerate case in it: zero-length
/// lifetimes, zero sizes, per-buffer and problem alignments, both lifetime
/// conventions.
PackingProblem randomProblem(std::mt19937_64 &rng, int minBuffers,
                             int maxBuffers, int64_t horizon, int64_t maxSize) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  PackingProblem problem;
  problem.lifetimes =
      uniform(0, 1) ? LifetimeConvention::Closed : LifetimeConvention::HalfOpen;
  switch (uniform(0, 2)) {
  case 0:
    break;
  case 1:
    problem.offsetAlignment = problem.sizeAlignment = 16;
    break;
  case 2:
    problem.offsetAlignment = uniform(1, 6);
    problem.sizeAlignment = uniform(1, 6);
    break;
  }
  bool perBufferAlignment = uniform(0, 2) == 0;
  int numBuffers = int(uniform(minBuffers, maxBuffers));
  for (int i = 0; i < numBuffers; ++i) {
    Buffer buffer;
    buffer.lower = uniform(0, horizon);
    int64_t length = uniform(0, 9) == 0   ? 0
                     : uniform(0, 3) == 0 ? uniform(0, horizon)
                                          : uniform(0, horizon / 8 + 1);
    buffer.upper = std::min(buffer.lower + length, horizon);
    buffer.size = uniform(0, 19) == 0 ? 0 : uniform(1, maxSize);
    if (perBufferAlignment)
      buffer.alignment = int64_t(1) << uniform(0, 4);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

/// Buffers in the manner of bench/packing/generate.py: uniform starts over
/// `count` steps, log-uniform durations up to a tenth of them, log-uniform
/// sizes from 16 B to 16 MiB.
PackingProblem generatedProblem(int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  double maxDuration = std::max(1, count / 10);
  for (int i = 0; i < count; ++i) {
    Buffer buffer;
    buffer.lower = int64_t(unit(rng) * count);
    int64_t duration = int64_t(std::exp(unit(rng) * std::log(maxDuration)));
    buffer.upper =
        std::min<int64_t>(count, buffer.lower + std::max<int64_t>(1, duration));
    buffer.size = int64_t(std::exp(
        std::log(16.0) + unit(rng) * (std::log(16 << 20) - std::log(16.0))));
    problem.buffers.push_back(buffer);
  }
  return problem;
}

/// Greedy's packing of `problem`, the start of every repacking here.
PackingResult greedyPacking(const PackingProblem &problem,
                            const NormalizedProblem &normalized) {
  return packGreedy(normalized, canonicalOrder(problem));
}

/// Repacks `offsets` in place within `workLimit` (and a generous deadline
/// that the tests never reach) and returns the result as a packing.
PackingResult repack(const PackingProblem &problem,
                     const NormalizedProblem &normalized,
                     std::vector<int64_t> offsets, uint64_t workLimit,
                     RepackStats &stats, size_t maxWindow = 2048) {
  RepackLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  limits.workLimit = workLimit;
  limits.maxWindow = maxWindow;
  stats = repackWindows(
      normalized, offsets,
      alignTo(computeLowerBound(problem), problem.sizeAlignment), limits);
  PackingResult result;
  result.offsets = std::move(offsets);
  result.slabSize = stats.finalSlab;
  return result;
}

TEST(WindowRepackTest, RandomInstancesStayValidAndNeverWorse) {
  std::mt19937_64 rng(11);
  uint64_t improved = 0;
  for (int round = 0; round < 150; ++round) {
    PackingProblem problem = randomProblem(rng, 1, 300, 200, 64);
    NormalizedProblem normalized = normalize(problem);
    PackingResult greedy = greedyPacking(problem, normalized);
    RepackStats stats;
    // Small windows too, so that most windows leave buffers fixed.
    PackingResult result =
        repack(problem, normalized, greedy.offsets, 20000, stats,
               /*maxWindow=*/round % 2 ? 2048 : 8);
    std::string label = "round " + std::to_string(round);
    ASSERT_EQ(referenceViolation(problem, result), "") << label;
    EXPECT_EQ(validationMessage(problem, result), "") << label;
    EXPECT_LE(stats.finalSlab, stats.startSlab) << label;
    EXPECT_LE(stats.startSlab, greedy.slabSize) << label;
    EXPECT_LE(stats.windowsImproved, stats.windowsTried) << label;
    improved += stats.finalSlab < greedy.slabSize;
  }
  // The instances leave greedy room often enough for the test to see moves.
  EXPECT_GT(improved, 10u);
}

/// Through `pack`: the repacking runs after the branch and bound, and the
/// result must stay valid and never lose to greedy.
TEST(WindowRepackTest, OptimalStaysValidWithRepacking) {
  std::mt19937_64 rng(12);
  PackingOptions options;
  options.strategy = PackingStrategy::Optimal;
  options.timeLimitSeconds = 10.0;
  options.nodeLimit = 3000;
  for (int round = 0; round < 25; ++round) {
    PackingProblem problem = randomProblem(rng, 50, 800, 400, 1000);
    PackingResult greedy = pack(problem, {PackingStrategy::Greedy});
    PackingResult optimal = pack(problem, options);
    std::string label = "round " + std::to_string(round);
    ASSERT_EQ(referenceViolation(problem, optimal), "") << label;
    EXPECT_LE(optimal.slabSize, greedy.slabSize) << label;
    if (optimal.repackStartSlab != 0) {
      EXPECT_LE(optimal.slabSize, optimal.repackStartSlab) << label;
    }
  }
}

/// Seven buffers whose lower bound, 14 (at time 6 the last five are live),
/// greedy misses by one: every one of its orders leaves a buffer on top. One
/// window around the peak moves it into the hole the others leave.
TEST(WindowRepackTest, ImprovesGreedyWhereItIsProvablySuboptimal) {
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  problem.buffers = {{2, 6, 4}, {5, 8, 3}, {4, 5, 1}, {6, 10, 2},
                     {3, 7, 4}, {3, 7, 2}, {6, 10, 3}};
  ASSERT_EQ(computeLowerBound(problem), 14);
  NormalizedProblem normalized = normalize(problem);
  PackingResult greedy = greedyPacking(problem, normalized);
  ASSERT_EQ(greedy.slabSize, 15);

  RepackStats stats;
  PackingResult result =
      repack(problem, normalized, greedy.offsets, 10000, stats);
  EXPECT_EQ(referenceViolation(problem, result), "");
  EXPECT_EQ(stats.startSlab, 15);
  EXPECT_EQ(stats.finalSlab, 14);
  EXPECT_GE(stats.windowsImproved, 1u);
}

/// Equal work limits give equal offsets, directly and through `pack`.
TEST(WindowRepackTest, SameWorkLimitGivesSameOffsets) {
  PackingProblem problem = generatedProblem(3000, 21);
  NormalizedProblem normalized = normalize(problem);
  PackingResult greedy = greedyPacking(problem, normalized);
  RepackStats first, second;
  PackingResult a = repack(problem, normalized, greedy.offsets, 200000, first);
  PackingResult b = repack(problem, normalized, greedy.offsets, 200000, second);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(first.windowsTried, second.windowsTried);
  EXPECT_EQ(first.windowsImproved, second.windowsImproved);
  EXPECT_GT(first.windowsTried, 0u);
  EXPECT_EQ(referenceViolation(problem, a), "");

  PackingOptions options;
  options.strategy = PackingStrategy::Optimal;
  options.timeLimitSeconds = 60.0;
  options.nodeLimit = 100000;
  PackingResult x = pack(problem, options);
  PackingResult y = pack(problem, options);
  EXPECT_EQ(x.offsets, y.offsets);
  EXPECT_EQ(x.windowsTried, y.windowsTried);
  EXPECT_EQ(referenceViolation(problem, x), "");
}

/// One part of 10,000 buffers is beyond the branch and bound: `optimal`
/// used to return greedy's packing, the repacking now lowers it.
TEST(WindowRepackTest, OptimalImprovesInstancesTooLargeToSearch) {
  PackingProblem problem = generatedProblem(10000, 1);
  PackingResult greedy = pack(problem, {PackingStrategy::Greedy});
  PackingOptions options;
  options.strategy = PackingStrategy::Optimal;
  options.timeLimitSeconds = 60.0;
  options.nodeLimit = 300000;
  PackingResult optimal = pack(problem, options);
  EXPECT_EQ(referenceViolation(problem, optimal), "");
  EXPECT_EQ(optimal.repackStartSlab, greedy.slabSize);
  EXPECT_GT(optimal.windowsTried, 0u);
  EXPECT_LT(optimal.slabSize, greedy.slabSize);
}

/// Without a node limit the repacking runs until the time limit, and not
/// past it: the clock is read every window and every 64 placements. How far
/// the search gets in the time depends on the machine (a loaded one, or an
/// -O1 build with assertions, may not reach the repacking at all), so only
/// the bound is checked, with a slack for a loaded machine.
TEST(WindowRepackTest, OptimalKeepsTheTimeLimit) {
  PackingProblem problem = generatedProblem(10000, 1);
  PackingOptions options;
  options.strategy = PackingStrategy::Optimal;
  options.timeLimitSeconds = 0.5;
  auto start = std::chrono::steady_clock::now();
  PackingResult optimal = pack(problem, options);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(referenceViolation(problem, optimal), "");
  // The slack covers one window and a loaded machine.
  EXPECT_LT(seconds, 0.5 + 2.0);
}

} // namespace
