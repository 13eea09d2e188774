//===- PropertyTest.cpp - Randomised tests of the packing strategies ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Thousands of random instances, small and large, closed and half-open, with
// and without alignments: every strategy's packing must pass the independent
// pairwise check of PackingTestUtils.h (and the library's validator must
// agree), greedy's own orderings must not depend on the row order, greedy
// must not lose to in-order (on the given rows, whose offsets it keeps on a
// tie, and on the canonically sorted rows), optimal must not lose to greedy,
// and on tiny instances optimal must match an exhaustive search. Mutated
// packings check that the validator rejects what the pairwise check rejects.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"
#include "PackingTestUtils.h"
#include "streamhal/Packing/Packing.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace streamhal::packing;
using namespace streamhal::packing::testing;

namespace {

/// Shape of a family of random instances.
struct InstanceShape {
  int minBuffers;
  int maxBuffers;
  int64_t horizon;
  int64_t maxSize;
};

PackingProblem randomProblem(std::mt19937_64 &rng, const InstanceShape &shape) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  PackingProblem problem;
  problem.lifetimes =
      uniform(0, 1) ? LifetimeConvention::Closed : LifetimeConvention::HalfOpen;
  // Mostly unaligned, sometimes the 16/16 of hal.allocator.pack, sometimes
  // odd values.
  switch (uniform(0, 3)) {
  case 0:
  case 1:
    break;
  case 2:
    problem.offsetAlignment = problem.sizeAlignment = 16;
    break;
  case 3:
    problem.offsetAlignment = uniform(1, 6);
    problem.sizeAlignment = uniform(1, 6);
    break;
  }
  bool perBufferAlignment = uniform(0, 4) == 0;
  int numBuffers = int(uniform(shape.minBuffers, shape.maxBuffers));
  for (int i = 0; i < numBuffers; ++i) {
    Buffer buffer;
    buffer.lower = uniform(0, shape.horizon);
    int64_t length = uniform(0, 3) == 0 ? uniform(0, shape.horizon)
                                        : uniform(0, shape.horizon / 4 + 1);
    buffer.upper = std::min(buffer.lower + length, shape.horizon);
    // A few zero sizes exercise the degenerate paths.
    buffer.size = uniform(0, 19) == 0 ? 0 : uniform(1, shape.maxSize);
    if (perBufferAlignment)
      buffer.alignment = int64_t(1) << uniform(0, 3);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

/// Checks the invariants shared by every instance and returns the results.
void checkStrategies(const PackingProblem &problem, const PackingOptions &base,
                     const std::string &label) {
  ASSERT_FALSE(static_cast<bool>(verifyProblem(problem))) << label;
  int64_t lowerBound = referenceLowerBound(problem);
  EXPECT_EQ(computeLowerBound(problem), lowerBound) << label;
  PackingOptions options = base;
  options.strategy = PackingStrategy::InOrder;
  PackingResult inOrder = pack(problem, options);
  options.strategy = PackingStrategy::Greedy;
  PackingResult greedy = pack(problem, options);
  options.strategy = PackingStrategy::Optimal;
  PackingResult optimal = pack(problem, options);
  for (const PackingResult *result : {&inOrder, &greedy, &optimal}) {
    EXPECT_EQ(referenceViolation(problem, *result), "") << label;
    EXPECT_EQ(validationMessage(problem, *result), "") << label;
    EXPECT_GE(result->slabSize, lowerBound) << label;
  }
  // Greedy chooses its own orders: on reversed rows they give the same
  // packing, up to which of two equal rows gets which offset. Only in-order
  // on the rows as given, which greedy also tries, follows the rows.
  std::vector<size_t> reversed(problem.buffers.size());
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  PackingProblem reversedProblem = permutedRows(problem, reversed);
  auto ownOrderings = [](const PackingProblem &rows) {
    PackingResult result = detail::packGreedy(
        detail::normalize(rows), detail::canonicalOrder(rows),
        /*firstFit=*/true, /*tryGivenOrder=*/false);
    return rowsWithOffsets(rows, result);
  };
  EXPECT_EQ(ownOrderings(reversedProblem), ownOrderings(problem)) << label;
  // Never worse than in-order, on the given rows (which greedy tries on
  // instances this small, and whose offsets it keeps on a tie) and on the
  // canonically sorted rows (one of its orderings).
  EXPECT_LE(greedy.slabSize, inOrder.slabSize) << label;
  if (greedy.slabSize == inOrder.slabSize) {
    EXPECT_EQ(greedy.offsets, inOrder.offsets) << label;
  }
  options.strategy = PackingStrategy::InOrder;
  PackingResult sortedInOrder = pack(canonicallySorted(problem), options);
  EXPECT_LE(greedy.slabSize, sortedInOrder.slabSize) << label;
  EXPECT_LE(optimal.slabSize, greedy.slabSize) << label;
}

TEST(PackingPropertyTest, SmallInstances) {
  std::mt19937_64 rng(1);
  PackingOptions options;
  options.timeLimitSeconds = 1.0;
  options.nodeLimit = 20000;
  for (int round = 0; round < 3000; ++round)
    checkStrategies(randomProblem(rng, {1, 12, 20, 64}), options,
                    "small round " + std::to_string(round));
}

TEST(PackingPropertyTest, MediumInstances) {
  std::mt19937_64 rng(2);
  PackingOptions options;
  options.timeLimitSeconds = 0.02;
  options.nodeLimit = 2000;
  for (int round = 0; round < 150; ++round)
    checkStrategies(randomProblem(rng, {20, 200, 500, 4096}), options,
                    "medium round " + std::to_string(round));
}

TEST(PackingPropertyTest, LargeInstances) {
  std::mt19937_64 rng(3);
  PackingOptions options;
  options.timeLimitSeconds = 0.1;
  options.nodeLimit = 1000;
  for (int round = 0; round < 3; ++round)
    checkStrategies(randomProblem(rng, {1000, 3000, 20000, 1 << 20}), options,
                    "large round " + std::to_string(round));
}

/// The smallest slab over every placement order, each buffer put at the
/// lowest aligned offset above the conflicting buffers placed before it.
/// Every packing pushed down as far as it goes is produced by one of these
/// orders (sort its buffers by offset), so this is the optimum.
int64_t exhaustiveOptimum(const PackingProblem &problem) {
  size_t numBuffers = problem.buffers.size();
  std::vector<size_t> order(numBuffers);
  std::iota(order.begin(), order.end(), 0);
  int64_t best = INT64_MAX;
  std::vector<int64_t> offsets(numBuffers);
  do {
    int64_t height = 0;
    for (size_t step = 0; step < numBuffers; ++step) {
      size_t current = order[step];
      int64_t floor = 0;
      for (size_t previous = 0; previous < step; ++previous) {
        size_t other = order[previous];
        if (referenceLifetimesIntersect(problem, current, other))
          floor = std::max(floor, offsets[other] +
                                      referenceAlignedSize(problem, other));
      }
      int64_t alignment = referenceAlignment(problem, current);
      offsets[current] = (floor + alignment - 1) / alignment * alignment;
      height = std::max(height, offsets[current] +
                                    referenceAlignedSize(problem, current));
    }
    int64_t unit = problem.sizeAlignment;
    best = std::min(best, (height + unit - 1) / unit * unit);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(PackingPropertyTest, OptimalMatchesExhaustiveSearchOnTinyInstances) {
  std::mt19937_64 rng(4);
  PackingOptions options;
  options.strategy = PackingStrategy::Optimal;
  options.timeLimitSeconds = 5.0;
  for (int round = 0; round < 1500; ++round) {
    PackingProblem problem = randomProblem(rng, {1, 6, 12, 40});
    PackingResult result = pack(problem, options);
    std::string label = "tiny round " + std::to_string(round);
    EXPECT_EQ(referenceViolation(problem, result), "") << label;
    EXPECT_EQ(result.slabSize, exhaustiveOptimum(problem)) << label;
    EXPECT_TRUE(result.provenOptimal) << label;
  }
}

/// Valid packings with one offset or the slab moved: the library's
/// validator must reject exactly what the pairwise check rejects.
TEST(PackingPropertyTest, ValidatorAgreesWithPairwiseCheckOnMutations) {
  std::mt19937_64 rng(5);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int rejected = 0;
  for (int round = 0; round < 2000; ++round) {
    PackingProblem problem = randomProblem(rng, {2, 12, 20, 64});
    PackingResult result = pack(problem, {PackingStrategy::Greedy});
    if (uniform(0, 4) == 0) {
      result.slabSize -= uniform(1, 16);
    } else {
      size_t moved = size_t(uniform(0, problem.buffers.size() - 1));
      result.offsets[moved] = uniform(0, result.slabSize);
    }
    std::string expected = referenceViolation(problem, result);
    std::string actual = validationMessage(problem, result);
    EXPECT_EQ(actual.empty(), expected.empty())
        << "round " << round << ": validator '" << actual
        << "', pairwise check '" << expected << "'";
    rejected += !expected.empty();
  }
  // Most mutations break the packing; the test must see both verdicts.
  EXPECT_GT(rejected, 1000);
  EXPECT_LT(rejected, 2000);
}

} // namespace
