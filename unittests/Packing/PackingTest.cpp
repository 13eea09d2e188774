//===- PackingTest.cpp - Tests of the slab packer and its CSV format ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Packing/Packing.h"
#include "PackingTestUtils.h"
#include "streamhal/Packing/PackingCSV.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace streamhal::packing;
using streamhal::packing::testing::loadPackingDataFile;
using streamhal::packing::testing::referenceViolation;
using streamhal::packing::testing::validationMessage;

namespace {

/// The spec's reference case: closed lifetimes, alignment 16.
PackingProblem referenceProblem() {
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::Closed;
  problem.offsetAlignment = 16;
  problem.sizeAlignment = 16;
  problem.buffers = {{0, 1, 100}, {1, 2, 100}, {2, 3, 100},
                     {0, 4, 200}, {5, 6, 200}, {5, 8, 100}};
  return problem;
}

/// Five buffers (closed lifetimes, alignment 16) and a valid packing of them
/// in which every kind of sharing occurs: 0 and 1 share bytes at disjoint
/// times, 2 and 3 too, 1 sits beside 2, 3 and 4 while they live.
///
///   buffer  lifetime  size  offset  bytes
///        0    [0, 1]    16       0  [0, 16)
///        1    [2, 3]    16       0  [0, 16)
///        2    [1, 2]    48      16  [16, 64)
///        3    [3, 5]    16      16  [16, 32)
///        4    [3, 4]    16      32  [32, 48)
///
/// Lifetimes intersect for 0-2, 1-2, 1-3, 1-4 and 3-4 only; the slab, 64, is
/// the peak of live bytes (steps 1 and 2), and only buffer 2 reaches it.
PackingProblem fiveBufferProblem() {
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::Closed;
  problem.offsetAlignment = 16;
  problem.sizeAlignment = 16;
  problem.buffers = {
      {0, 1, 16}, {2, 3, 16}, {1, 2, 48}, {3, 5, 16}, {3, 4, 16}};
  return problem;
}

/// The valid packing of `fiveBufferProblem` in the table above.
PackingResult fiveBufferPacking() { return {{0, 0, 16, 16, 32}, 64, true}; }

/// The CSV parser's error message for `text` ("" when it parses).
std::string parseError(llvm::StringRef text) {
  llvm::Expected<PackingTable> table = parsePackingCSV(text);
  if (table)
    return "";
  return llvm::toString(table.takeError());
}

//===----------------------------------------------------------------------===//
// Reference case and names
//===----------------------------------------------------------------------===//

TEST(PackingTest, ReferenceCaseInOrder) {
  PackingProblem problem = referenceProblem();
  ASSERT_FALSE(static_cast<bool>(verifyProblem(problem)));
  EXPECT_EQ(computeLowerBound(problem), 432);
  PackingResult result = pack(problem, {PackingStrategy::InOrder});
  EXPECT_EQ(result.offsets, (std::vector<int64_t>{0, 112, 0, 224, 0, 208}));
  EXPECT_EQ(result.slabSize, 432);
  EXPECT_TRUE(result.provenOptimal);
  EXPECT_EQ(validationMessage(problem, result), "");
}

TEST(PackingTest, ReferenceCaseAllStrategies) {
  PackingProblem problem = referenceProblem();
  for (PackingStrategy strategy :
       {PackingStrategy::InOrder, PackingStrategy::Greedy,
        PackingStrategy::Optimal}) {
    PackingResult result = pack(problem, {strategy});
    EXPECT_EQ(result.slabSize, 432) << toString(strategy).str();
    EXPECT_EQ(validationMessage(problem, result), "");
  }
}

TEST(PackingTest, StrategyAndConventionNames) {
  for (PackingStrategy strategy :
       {PackingStrategy::InOrder, PackingStrategy::Greedy,
        PackingStrategy::Optimal})
    EXPECT_EQ(parseStrategy(toString(strategy)), strategy);
  EXPECT_FALSE(parseStrategy("best"));
  EXPECT_EQ(parseLifetimeConvention("closed"), LifetimeConvention::Closed);
  EXPECT_EQ(parseLifetimeConvention("half-open"), LifetimeConvention::HalfOpen);
  EXPECT_FALSE(parseLifetimeConvention("open"));
}

TEST(PackingTest, EmptyProblem) {
  PackingProblem problem;
  for (PackingStrategy strategy :
       {PackingStrategy::InOrder, PackingStrategy::Greedy,
        PackingStrategy::Optimal}) {
    PackingResult result = pack(problem, {strategy});
    EXPECT_EQ(result.slabSize, 0);
    EXPECT_TRUE(result.offsets.empty());
    EXPECT_EQ(validationMessage(problem, result), "");
  }
}

//===----------------------------------------------------------------------===//
// Lower bound
//===----------------------------------------------------------------------===//

TEST(PackingTest, LowerBoundDependsOnConvention) {
  PackingProblem problem;
  problem.buffers = {{0, 2, 10}, {2, 4, 20}, {5, 6, 7}};
  // Closed: [0,2] and [2,4] share step 2.
  problem.lifetimes = LifetimeConvention::Closed;
  EXPECT_EQ(computeLowerBound(problem), 30);
  // Half-open: they merely touch.
  problem.lifetimes = LifetimeConvention::HalfOpen;
  EXPECT_EQ(computeLowerBound(problem), 20);
}

TEST(PackingTest, LowerBoundRoundsSizes) {
  PackingProblem problem;
  problem.sizeAlignment = 64;
  problem.buffers = {{0, 3, 1}, {1, 2, 65}};
  EXPECT_EQ(computeLowerBound(problem), 64 + 128);
}

//===----------------------------------------------------------------------===//
// Validator
//===----------------------------------------------------------------------===//

TEST(PackingTest, ValidatorAcceptsAndRejects) {
  PackingProblem problem = referenceProblem();
  PackingResult good{{0, 112, 0, 224, 0, 208}, 432, false};
  EXPECT_EQ(validationMessage(problem, good), "");

  // Overlaps, misalignment and a short slab: see the isolated tests below.
  PackingResult unalignedSlab = good;
  unalignedSlab.slabSize = 440;
  EXPECT_EQ(validationMessage(problem, unalignedSlab),
            "slab size 440 is not a multiple of the size alignment 16");

  PackingResult missing = good;
  missing.offsets.pop_back();
  EXPECT_EQ(validationMessage(problem, missing), "expected 6 offsets, got 5");

  PackingResult negative = good;
  negative.offsets[0] = -16;
  EXPECT_EQ(validationMessage(problem, negative),
            "buffer 0: negative offset -16");
}

TEST(PackingTest, ValidatorNamesTheOneOverlappingPair) {
  PackingProblem problem = fiveBufferProblem();
  PackingResult packing = fiveBufferPacking();
  ASSERT_EQ(validationMessage(problem, packing), "");
  ASSERT_EQ(referenceViolation(problem, packing), "");
  // Buffer 4 moved onto buffer 1's bytes: still aligned, inside the slab and
  // clear of buffer 3, so 1-4 is the only defect.
  packing.offsets[4] = 0;
  EXPECT_EQ(validationMessage(problem, packing),
            "buffers 1 and 4 are live at the same time and overlap: [0, 16) "
            "and [0, 16)");
  EXPECT_EQ(referenceViolation(problem, packing),
            "buffers 1 and 4 are live together and share bytes");
  // A partial overlap: buffer 0 moved inside buffer 2's bytes, its only
  // lifetime neighbour. Both are named, the lower id first although it sits
  // higher.
  packing = fiveBufferPacking();
  packing.offsets[0] = 48;
  EXPECT_EQ(validationMessage(problem, packing),
            "buffers 0 and 2 are live at the same time and overlap: [48, 64) "
            "and [16, 64)");
  EXPECT_EQ(referenceViolation(problem, packing),
            "buffers 0 and 2 are live together and share bytes");
}

TEST(PackingTest, ValidatorNamesTheOneMisalignedBuffer) {
  PackingProblem problem = fiveBufferProblem();
  PackingResult packing = fiveBufferPacking();
  // [40, 56) is clear of buffers 1 and 3 and inside the slab; only the
  // alignment is wrong.
  packing.offsets[4] = 40;
  EXPECT_EQ(validationMessage(problem, packing),
            "buffer 4: offset 40 is not a multiple of its alignment 16");
  EXPECT_EQ(referenceViolation(problem, packing),
            "buffer 4 at offset 40: not a multiple of 16");
  // A buffer's own alignment: lcm(16, 32) = 32 for buffer 2 at 16.
  packing = fiveBufferPacking();
  problem.buffers[2].alignment = 32;
  EXPECT_EQ(validationMessage(problem, packing),
            "buffer 2: offset 16 is not a multiple of its alignment 32");
  EXPECT_EQ(referenceViolation(problem, packing),
            "buffer 2 at offset 16: not a multiple of 32");
}

TEST(PackingTest, ValidatorNamesTheBufferBeyondTheSlab) {
  PackingProblem problem = fiveBufferProblem();
  PackingResult packing = fiveBufferPacking();
  // Buffer 2 reaches byte 64, every other buffer stays below 48.
  packing.slabSize = 48;
  EXPECT_EQ(validationMessage(problem, packing),
            "slab size 48 does not cover buffer 2, which reaches byte 64");
  EXPECT_EQ(referenceViolation(problem, packing),
            "buffer 2 at offset 16: ends beyond the slab 48");
}

TEST(PackingTest, ValidatorFollowsConvention) {
  PackingProblem problem;
  problem.buffers = {{0, 2, 10}, {2, 4, 10}};
  PackingResult shared{{0, 0}, 10, false};
  problem.lifetimes = LifetimeConvention::HalfOpen;
  EXPECT_EQ(validationMessage(problem, shared), "");
  problem.lifetimes = LifetimeConvention::Closed;
  EXPECT_NE(validationMessage(problem, shared), "");
}

TEST(PackingTest, ValidatorPerBufferAlignment) {
  PackingProblem problem;
  problem.offsetAlignment = 4;
  problem.buffers = {{0, 1, 4}, {0, 1, 4, 6}};
  // The second buffer needs lcm(4, 6) = 12.
  EXPECT_EQ(validationMessage(problem, {{0, 12}, 16, false}), "");
  EXPECT_NE(validationMessage(problem, {{0, 4}, 8, false}), "");
}

TEST(PackingTest, ClosedLifetimesSharingAnEndConflict) {
  // Closed [0, 1] and [1, 2] are both live at 1; [2, 3] starts after [0, 1].
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::Closed;
  problem.buffers = {{0, 1, 8}, {1, 2, 8}, {2, 3, 8}};
  EXPECT_TRUE(lifetimesConflict(problem, 0, 1));
  EXPECT_TRUE(lifetimesConflict(problem, 1, 0));
  EXPECT_FALSE(lifetimesConflict(problem, 0, 2));
  EXPECT_TRUE(lifetimesConflict(problem, 1, 2));
}

TEST(PackingTest, ZeroLengthHalfOpenLifetimeFollowsFormula) {
  // [5, 5) conflicts with [0, 10) (0 < 5 && 5 < 10) but not with [5, 8).
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  problem.buffers = {{5, 5, 8}, {0, 10, 8}, {5, 8, 8}};
  EXPECT_TRUE(lifetimesConflict(problem, 0, 1));
  EXPECT_FALSE(lifetimesConflict(problem, 0, 2));
  EXPECT_NE(validationMessage(problem, {{0, 0, 8}, 16, false}), "");
  EXPECT_EQ(validationMessage(problem, {{0, 8, 0}, 16, false}), "");
  for (PackingStrategy strategy :
       {PackingStrategy::InOrder, PackingStrategy::Greedy,
        PackingStrategy::Optimal})
    EXPECT_EQ(validationMessage(problem, pack(problem, {strategy})), "");
}

TEST(PackingTest, ValidatorScalesToTwentyThousandBuffers) {
  // Buffers stacked end to end are trivially valid; an O(n^2) check would
  // take seconds here.
  PackingProblem problem;
  problem.lifetimes = LifetimeConvention::HalfOpen;
  PackingResult result;
  int64_t offset = 0;
  for (int i = 0; i < 20000; ++i) {
    problem.buffers.push_back({i % 97, 20000 + i, 1 + i % 13});
    result.offsets.push_back(offset);
    offset += 1 + i % 13;
  }
  result.slabSize = offset;
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(validationMessage(problem, result), "");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LT(seconds, 1.0);
}

//===----------------------------------------------------------------------===//
// verifyProblem
//===----------------------------------------------------------------------===//

TEST(PackingTest, VerifyProblemRejectsBadInput) {
  auto message = [](const PackingProblem &problem) -> std::string {
    if (llvm::Error error = verifyProblem(problem))
      return llvm::toString(std::move(error));
    return "";
  };
  PackingProblem problem;
  problem.buffers = {{3, 1, 10}};
  EXPECT_EQ(message(problem), "buffer 0: upper 1 is less than lower 3");
  problem.buffers = {{0, 1, -1}};
  EXPECT_EQ(message(problem), "buffer 0: negative size -1");
  problem.buffers = {{0, 1, 1}};
  problem.offsetAlignment = 0;
  EXPECT_EQ(message(problem), "offset alignment 0 is not in [1, 2^30]");
  problem.offsetAlignment = 1;
  EXPECT_EQ(message(problem), "");
}

//===----------------------------------------------------------------------===//
// CSV
//===----------------------------------------------------------------------===//

TEST(PackingTest, CSVParsesAnyColumnOrder) {
  llvm::Expected<PackingTable> table =
      parsePackingCSV("size,upper,id,alignment,lower,note\n"
                      "100, 4, a, 8, 0, x\r\n"
                      "\n"
                      "200,6,b,1,5,y\n");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  ASSERT_EQ(table->buffers.size(), 2u);
  EXPECT_EQ(table->buffers[0].lower, 0);
  EXPECT_EQ(table->buffers[0].upper, 4);
  EXPECT_EQ(table->buffers[0].size, 100);
  EXPECT_EQ(table->buffers[0].alignment, 8);
  EXPECT_EQ(table->buffers[1].size, 200);
  EXPECT_FALSE(table->offsetColumn);

  std::string text;
  llvm::raw_string_ostream os(text);
  writePackingCSV(os, *table, {0, 128});
  EXPECT_EQ(os.str(), "size,upper,id,alignment,lower,note,offset\n"
                      "100,4,a,8,0,x,0\n"
                      "200,6,b,1,5,y,128\n");
}

TEST(PackingTest, CSVReplacesOffsetColumn) {
  llvm::Expected<PackingTable> table =
      parsePackingCSV("id,lower,upper,size,offset\n0,0,1,5,7\n");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  EXPECT_EQ(table->givenOffsets, (std::vector<int64_t>{7}));
  std::string text;
  llvm::raw_string_ostream os(text);
  writePackingCSV(os, *table, {0});
  EXPECT_EQ(os.str(), "id,lower,upper,size,offset\n0,0,1,5,0\n");
}

TEST(PackingTest, CSVErrorsNameLineAndColumn) {
  EXPECT_EQ(parseError("id,lower,size\n0,1,2\n"),
            "line 1: missing column 'upper'");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,1,4\n1,0,1,-5\n"),
            "line 3, column 4 (size): negative size -5");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,5,3,4\n"),
            "line 2, column 3 (upper): upper 3 is less than lower 5");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,x1,3,4\n"),
            "line 2, column 2 (lower): expected an integer, found 'x1'");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,1,3\n"),
            "line 2: expected 4 columns, found 3");
  EXPECT_EQ(parseError("id,lower,upper,size,alignment\n0,1,3,4,0\n"),
            "line 2, column 5 (alignment): alignment 0 is not in [1, 2^30]");
  EXPECT_EQ(parseError("id,lower,upper,size,size\n"),
            "line 1, column 5: duplicate column 'size'");
  EXPECT_EQ(parseError(""),
            "line 1: empty input, expected a header 'id,lower,upper,size'");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,1,99999999999999999999\n"),
            "line 2, column 4 (size): expected an integer, found "
            "'99999999999999999999'");
}

//===----------------------------------------------------------------------===//
// Real data
//===----------------------------------------------------------------------===//

TEST(PackingTest, InOrderMatchesIREEOnMobileBERT) {
  std::optional<PackingTable> table =
      loadPackingDataFile("iree_mobilebert.csv");
  if (!table)
    FAIL() << "iree_mobilebert.csv not found";
  PackingProblem problem;
  problem.buffers = table->buffers;
  problem.lifetimes = LifetimeConvention::Closed;
  ASSERT_EQ(table->buffers.size(), 316u);
  EXPECT_EQ(computeLowerBound(problem), 2164224);

  PackingResult inOrder = pack(problem, {PackingStrategy::InOrder});
  EXPECT_EQ(inOrder.offsets, table->givenOffsets);
  EXPECT_EQ(inOrder.slabSize, 2408448);
  EXPECT_EQ(validationMessage(problem, inOrder), "");

  PackingResult greedy = pack(problem, {PackingStrategy::Greedy});
  EXPECT_LE(greedy.slabSize, 2260992);
  EXPECT_EQ(validationMessage(problem, greedy), "");

  PackingResult optimal =
      pack(problem, {PackingStrategy::Optimal, /*timeLimitSeconds=*/5.0});
  EXPECT_EQ(optimal.slabSize, 2164224);
  EXPECT_TRUE(optimal.provenOptimal);
  EXPECT_EQ(validationMessage(problem, optimal), "");
}

/// The 11 MiniMalloc `challenging` files fit in 1 MiB (issue 5). Node limits
/// rather than the clock stop the search, so the test is reproducible: the
/// nine files whose lower bound is 1 MiB stop once they reach it (E needs
/// the most, ~450,000 nodes); D and J, whose lower bounds are not reachable,
/// get 1.5 times the ~100,000 nodes they need.
TEST(PackingTest, OptimalFitsMiniMallocChallengingInOneMiB) {
  for (char name = 'A'; name <= 'K'; ++name) {
    std::string file = std::string(1, name) + ".1048576.csv";
    std::optional<PackingTable> table = loadPackingDataFile(file);
    if (!table)
      FAIL() << file << " not found";
    PackingProblem problem;
    problem.buffers = table->buffers;
    problem.lifetimes = LifetimeConvention::HalfOpen;
    PackingOptions options;
    options.strategy = PackingStrategy::Optimal;
    options.timeLimitSeconds = 30.0;
    options.nodeLimit = name == 'D' || name == 'J' ? 150000 : 1000000;
    PackingResult optimal = pack(problem, options);
    EXPECT_LE(optimal.slabSize, 1048576) << file;
    EXPECT_EQ(validationMessage(problem, optimal), "") << file;
  }
}

} // namespace
