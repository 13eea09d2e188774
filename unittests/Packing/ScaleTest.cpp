//===- ScaleTest.cpp - The near-linear placement against the classic loop -===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `in-order` must give the offsets of the classic quadratic best-fit loop
// (kept here as the reference) whichever engine places it: the sweep for
// start-ordered inputs, the occupancy index for rows in reverse time order,
// the conflict walk for others. Large random instances
// (up to 100,000 buffers) check that every strategy's packing still passes
// the independent check of PackingTestUtils.h.
//
//===----------------------------------------------------------------------===//

#include "PackingTestUtils.h"
#include "streamhal/Packing/Packing.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "llvm/ADT/ArrayRef.h"

using namespace streamhal::packing;
using namespace streamhal::packing::testing;

namespace {

/// The classic best-fit loop (IREE's packStaticSlicesGreedily) in input
/// order, O(n^2): walk the placed conflicting buffers by offset (the most
/// recent first among equal offsets), take the smallest gap whose aligned
/// start fits (a gap measured from its unaligned start; the first of equal
/// gaps), else the aligned top. Zero-size buffers go to 0 and are no
/// obstacle.
std::vector<int64_t> classicInOrder(const PackingProblem &problem) {
  size_t numBuffers = problem.buffers.size();
  std::vector<int64_t> offsets(numBuffers, 0);
  struct Reservation {
    int64_t offset, end;
    size_t step;
  };
  std::vector<size_t> placed;
  for (size_t current = 0; current < numBuffers; ++current) {
    int64_t size = referenceAlignedSize(problem, current);
    if (size == 0)
      continue;
    int64_t alignment = referenceAlignment(problem, current);
    auto alignUp = [&](int64_t value) {
      return (value + alignment - 1) / alignment * alignment;
    };
    std::vector<Reservation> reservations;
    for (size_t step = 0; step < placed.size(); ++step)
      if (referenceLifetimesIntersect(problem, current, placed[step]))
        reservations.push_back({offsets[placed[step]],
                                offsets[placed[step]] +
                                    referenceAlignedSize(problem, placed[step]),
                                step});
    std::sort(reservations.begin(), reservations.end(),
              [](const Reservation &a, const Reservation &b) {
                return a.offset != b.offset ? a.offset < b.offset
                                            : a.step > b.step;
              });
    int64_t cursor = 0, bestOffset = -1, bestGap = INT64_MAX;
    for (const Reservation &reservation : reservations) {
      int64_t candidate = alignUp(cursor);
      if (candidate + size <= reservation.offset &&
          reservation.offset - candidate < bestGap) {
        bestOffset = candidate;
        bestGap = reservation.offset - cursor;
      }
      cursor = std::max(cursor, reservation.end);
    }
    offsets[current] = bestOffset >= 0 ? bestOffset : alignUp(cursor);
    placed.push_back(current);
  }
  return offsets;
}

/// Random buffers over `horizon` steps: mostly short lifetimes, a few long
/// ones, some zero-length, a few zero sizes, sometimes the 16-byte alignment
/// of hal.allocator.pack; rows in start order when `startOrdered`. With
/// `mixedAlignments`, some instances give buffers their own alignments, so
/// that gaps start unaligned (the sweep then walks the live buffers).
PackingProblem randomProblem(std::mt19937_64 &rng, size_t numBuffers,
                             int64_t horizon, bool startOrdered,
                             bool mixedAlignments) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  PackingProblem problem;
  problem.lifetimes =
      uniform(0, 1) ? LifetimeConvention::Closed : LifetimeConvention::HalfOpen;
  if (uniform(0, 2) == 0)
    problem.offsetAlignment = problem.sizeAlignment = 16;
  bool perBufferAlignment = mixedAlignments && uniform(0, 3) == 0;
  for (size_t i = 0; i < numBuffers; ++i) {
    Buffer buffer;
    buffer.lower = uniform(0, horizon);
    int64_t length = uniform(0, 9) == 0
                         ? uniform(0, horizon / 4)
                         : uniform(0, std::max<int64_t>(horizon / 200, 3));
    buffer.upper = std::min(buffer.lower + length, horizon);
    // Sizes log-uniform in [16 B, 16 MiB], sometimes zero.
    buffer.size = uniform(0, 49) == 0
                      ? 0
                      : int64_t(std::exp(std::uniform_real_distribution<>(
                            std::log(16.0), std::log(16.0 * (1 << 20)))(rng)));
    if (perBufferAlignment)
      buffer.alignment = int64_t(1) << uniform(0, 6);
    problem.buffers.push_back(buffer);
  }
  if (startOrdered)
    std::stable_sort(
        problem.buffers.begin(), problem.buffers.end(),
        [](const Buffer &a, const Buffer &b) { return a.lower < b.lower; });
  return problem;
}

TEST(PackingScaleTest, InOrderMatchesClassicLoopOnRandomInstances) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 300; ++round) {
    bool startOrdered = round % 3 != 0;
    size_t numBuffers = size_t(1) << (round % 10);
    PackingProblem problem =
        randomProblem(rng, numBuffers, int64_t(numBuffers) * 2, startOrdered,
                      /*mixedAlignments=*/true);
    // Every other start-ordered instance comes in reverse time order.
    if (startOrdered && round % 2)
      std::reverse(problem.buffers.begin(), problem.buffers.end());
    PackingResult result = pack(problem, {PackingStrategy::InOrder});
    std::string label = "round " + std::to_string(round);
    std::vector<int64_t> expected = classicInOrder(problem);
    for (size_t i = 0; i < expected.size(); ++i)
      ASSERT_EQ(result.offsets[i], expected[i])
          << label << ", buffer " << i << " [" << problem.buffers[i].lower
          << ", " << problem.buffers[i].upper << "] size "
          << problem.buffers[i].size << " closed "
          << (problem.lifetimes == LifetimeConvention::Closed);
    EXPECT_EQ(referenceViolation(problem, result), "") << label;
  }
}

TEST(PackingScaleTest, InOrderMatchesClassicLoopOnRealData) {
  for (const char *name :
       {"iree_mobilebert.csv", "iree_mobilenet.csv", "somas_resnet50.csv",
        "iopddl_G_1.csv", "D.1048576.csv", "J.1048576.csv"}) {
    std::optional<PackingTable> table = loadPackingDataFile(name);
    ASSERT_TRUE(table) << name << " not found";
    PackingProblem problem;
    problem.buffers = table->buffers;
    problem.lifetimes = llvm::StringRef(name).starts_with("iree_")
                            ? LifetimeConvention::Closed
                            : LifetimeConvention::HalfOpen;
    PackingResult result = pack(problem, {PackingStrategy::InOrder});
    EXPECT_EQ(result.offsets, classicInOrder(problem)) << name;
    if (!table->givenOffsets.empty()) {
      EXPECT_EQ(result.offsets, table->givenOffsets) << name;
    }
  }
}

/// FNV-1a over the little-endian bytes of `offsets`.
uint64_t fingerprint(llvm::ArrayRef<int64_t> offsets) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int64_t offset : offsets)
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (uint64_t(offset) >> (8 * byte)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  return hash;
}

/// The 18,692 buffers of somas_pangu_2.6B take the classic loop too long for
/// a unit test; its offsets, computed by the quadratic implementation this
/// sweep replaced, are recorded as a fingerprint.
TEST(PackingScaleTest, InOrderMatchesClassicLoopOnPangu) {
  std::optional<PackingTable> table =
      loadPackingDataFile("somas_pangu_2.6B.csv");
  ASSERT_TRUE(table) << "somas_pangu_2.6B.csv not found";
  PackingProblem problem;
  problem.buffers = table->buffers;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  PackingResult result = pack(problem, {PackingStrategy::InOrder});
  EXPECT_EQ(result.slabSize, 6604013617);
  EXPECT_EQ(fingerprint(result.offsets), 0xb18f5c3323d9a3f4ull);
  EXPECT_EQ(referenceViolation(problem, result), "");
}

/// Up to 100,000 buffers: every strategy passes the independent check (and
/// the library's validator agrees), greedy <= in-order on the canonically
/// sorted rows,
/// optimal <= greedy, and nothing falls below the lower bound.
TEST(PackingScaleTest, LargeRandomInstancesValidate) {
  std::mt19937_64 rng(13);
  struct Shape {
    size_t numBuffers;
    int64_t horizon;
    bool optimal;
  };
  // Lifetimes up to an eighth of the horizon keep hundreds to thousands of
  // buffers live at once: beyond 16 million conflicting pairs (the 100,000
  // buffers) greedy takes its sweeps-only path.
  for (Shape shape : {Shape{10000, 1250, true}, Shape{100000, 12500, false}}) {
    PackingProblem problem =
        randomProblem(rng, shape.numBuffers, shape.horizon, true,
                      /*mixedAlignments=*/false);
    std::string label = std::to_string(shape.numBuffers) +
                        " buffers, horizon " + std::to_string(shape.horizon);
    int64_t lowerBound = referenceLowerBound(problem);
    EXPECT_EQ(computeLowerBound(problem), lowerBound) << label;
    PackingResult inOrder = pack(problem, {PackingStrategy::InOrder});
    PackingResult greedy = pack(problem, {PackingStrategy::Greedy});
    PackingOptions options;
    options.strategy = PackingStrategy::Optimal;
    options.timeLimitSeconds = 0.2;
    options.nodeLimit = 2000;
    PackingResult optimal = shape.optimal ? pack(problem, options) : greedy;
    for (const PackingResult *result : {&inOrder, &greedy, &optimal}) {
      if (result == &optimal && !shape.optimal)
        continue; // A copy of greedy's.
      EXPECT_EQ(referenceViolation(problem, *result), "") << label;
      EXPECT_EQ(validationMessage(problem, *result), "") << label;
      EXPECT_GE(result->slabSize, lowerBound) << label;
    }
    EXPECT_LE(
        greedy.slabSize,
        pack(canonicallySorted(problem), {PackingStrategy::InOrder}).slabSize)
        << label;
    EXPECT_LE(optimal.slabSize, greedy.slabSize) << label;
  }
}

/// Greedy does not depend on the order of the rows: sorted by start,
/// reversed and shuffled rows of one random instance give the same slab and
/// put each kind of buffer at the same offsets, on both of greedy's paths
/// (every ordering under 16 million conflicting pairs; above, first fit with
/// the band of small buffers, then sweeps).
/// Sized to run in well under a second.
TEST(PackingScaleTest, GreedyIgnoresRowOrder) {
  std::mt19937_64 rng(21);
  struct Shape {
    size_t numBuffers;
    int64_t horizon;
    bool mixedAlignments;
  };
  // About 0.5 million and 25 million conflicting pairs.
  for (Shape shape : {Shape{3000, 1500, true}, Shape{40000, 1000, true}}) {
    PackingProblem problem = randomProblem(rng, shape.numBuffers, shape.horizon,
                                           true, shape.mixedAlignments);
    // Per-buffer alignments for sure (randomProblem only sometimes gives
    // them): on the large instance they reach the band of small buffers,
    // whose base must suit every one of them.
    if (shape.mixedAlignments)
      for (size_t i = 0; i < problem.buffers.size(); i += 3)
        problem.buffers[i].alignment = int64_t(1) << (i % 7);
    problem = canonicallySorted(problem);
    std::string label = std::to_string(shape.numBuffers) + " buffers";
    PackingResult sorted = pack(problem, {PackingStrategy::Greedy});
    EXPECT_EQ(referenceViolation(problem, sorted), "") << label;
    auto expected = rowsWithOffsets(problem, sorted);
    std::vector<size_t> order(problem.buffers.size());
    std::iota(order.rbegin(), order.rend(), 0);
    for (int round = 0; round < 3; ++round) {
      PackingProblem permuted = permutedRows(problem, order);
      PackingResult result = pack(permuted, {PackingStrategy::Greedy});
      EXPECT_EQ(result.slabSize, sorted.slabSize)
          << label << " round " << round;
      EXPECT_EQ(referenceViolation(permuted, result), "") << label;
      EXPECT_TRUE(rowsWithOffsets(permuted, result) == expected)
          << label << " round " << round;
      std::shuffle(order.begin(), order.end(), rng);
    }
  }
}

/// Greedy's quality beyond the 16-million-pair budget, on an instance shaped
/// like bench/packing/generate.py's (start uniform over N steps, duration
/// log-uniform in [1, N/10], size log-uniform in [16 B, 16 MiB]; 50,000
/// buffers, about 29 million conflicting pairs). The start-ordered sweeps
/// that greedy ran alone there reached 1.151x the lower bound (1.157 on
/// generate.py's own 50k instance); largest first by first fit reaches
/// 1.057 (1.036). A ratio, not a time: the instance is fixed by its seed
/// (the bound leaves room because the standard library's distributions, and
/// so the instance, may differ elsewhere).
TEST(PackingScaleTest, GreedyPacksLargeRandomInstancesTightly) {
  std::mt19937_64 rng(23);
  const size_t numBuffers = 50000;
  std::uniform_real_distribution<double> logDuration(
      0, std::log(double(numBuffers / 10)));
  std::uniform_real_distribution<double> logSize(std::log(16.0),
                                                 std::log(16.0 * (1 << 20)));
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  for (size_t i = 0; i < numBuffers; ++i) {
    Buffer buffer;
    buffer.lower =
        std::uniform_int_distribution<int64_t>(0, numBuffers - 1)(rng);
    int64_t duration =
        std::max<int64_t>(1, int64_t(std::exp(logDuration(rng))));
    buffer.upper = std::min<int64_t>(numBuffers, buffer.lower + duration);
    buffer.size = int64_t(std::exp(logSize(rng)));
    problem.buffers.push_back(buffer);
  }
  PackingResult greedy = pack(problem, {PackingStrategy::Greedy});
  EXPECT_EQ(referenceViolation(problem, greedy), "");
  int64_t lowerBound = referenceLowerBound(problem);
  EXPECT_LE(double(greedy.slabSize), 1.08 * double(lowerBound))
      << "greedy " << greedy.slabSize << ", lower bound " << lowerBound;
}

/// The independent check's start-ordered enumeration (beyond 4,096 buffers)
/// finds an overlap planted among 6,000 buffers and names the moved buffer.
TEST(PackingScaleTest, IndependentCheckFindsOnePlantedOverlap) {
  std::mt19937_64 rng(15);
  PackingProblem problem = randomProblem(rng, 6000, 3000, true, false);
  PackingResult result = pack(problem, {PackingStrategy::InOrder});
  ASSERT_EQ(referenceViolation(problem, result), "");
  int planted = 0;
  for (size_t moved = 0; moved < problem.buffers.size() && planted < 8;
       moved += 701) {
    for (size_t other = 0; other < problem.buffers.size(); ++other) {
      if (other == moved || problem.buffers[moved].size == 0 ||
          problem.buffers[other].size == 0 ||
          !referenceLifetimesIntersect(problem, moved, other))
        continue;
      PackingResult broken = result;
      broken.offsets[moved] = broken.offsets[other];
      broken.slabSize = std::max(
          broken.slabSize,
          (broken.offsets[moved] + referenceAlignedSize(problem, moved) +
           problem.sizeAlignment - 1) /
              problem.sizeAlignment * problem.sizeAlignment);
      std::string message = referenceViolation(problem, broken);
      std::string id = std::to_string(moved);
      EXPECT_TRUE(llvm::StringRef(message).starts_with("buffers " + id + " ") ||
                  llvm::StringRef(message).ends_with(
                      " and " + id + " are live together and share bytes"))
          << "moved " << moved << " onto " << other << ": " << message;
      EXPECT_NE(validationMessage(problem, broken), "") << "moved " << moved;
      ++planted;
      break;
    }
  }
  EXPECT_EQ(planted, 8);
}

/// Progress reports arrive while packing and never claim a slab below the
/// lower bound or above the final one.
TEST(PackingScaleTest, ProgressReports) {
  std::mt19937_64 rng(14);
  PackingProblem problem = randomProblem(rng, 20000, 40000, true, false);
  PackingOptions options;
  options.strategy = PackingStrategy::InOrder;
  std::vector<PackingProgress> reports;
  options.progress = [&](const PackingProgress &progress) {
    reports.push_back(progress);
  };
  PackingResult result = pack(problem, options);
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.back().bestSlab, result.slabSize);
  for (const PackingProgress &progress : reports) {
    EXPECT_EQ(progress.strategy, "in-order");
    EXPECT_EQ(progress.numBuffers, 20000u);
    EXPECT_LE(progress.placed, progress.numBuffers);
    if (progress.bestSlab) {
      EXPECT_GE(progress.bestSlab, result.slabSize);
      EXPECT_GE(progress.bestSlab, progress.lowerBound);
    }
  }
}

} // namespace
