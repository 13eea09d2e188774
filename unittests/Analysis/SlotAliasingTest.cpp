//===- SlotAliasingTest.cpp - Tests of findCrossClassOverlap --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/SlotAliasing.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace streamhal;

namespace {

TEST(SlotAliasingTest, SameClassMayOverlap) {
  std::vector<SlotRange> ranges = {{0, 0, 64, 0}, {0, 16, 32, 0}};
  EXPECT_EQ(findCrossClassOverlap(ranges), std::nullopt);
}

TEST(SlotAliasingTest, AdjacentRangesAndOtherRootsDoNotOverlap) {
  std::vector<SlotRange> ranges = {
      {0, 0, 32, 0}, {0, 32, 64, 1}, {1, 0, 64, 2}, {0, 64, 64, 3}};
  EXPECT_EQ(findCrossClassOverlap(ranges), std::nullopt);
}

TEST(SlotAliasingTest, OverlapAfterALongerSameClassRange) {
  // The class 0 range reaching furthest overlaps the class 1 range that
  // starts last, not the one before it.
  std::vector<SlotRange> ranges = {
      {0, 0, 100, 0}, {0, 0, 8, 0}, {0, 90, 120, 1}};
  auto found = findCrossClassOverlap(ranges);
  ASSERT_TRUE(found);
  EXPECT_EQ(ranges[found->first].aliasClass, 0);
  EXPECT_EQ(ranges[found->second].aliasClass, 1);
}

/// Every pair, for comparison.
static bool anyCrossClassOverlap(const std::vector<SlotRange> &ranges) {
  for (size_t i = 0; i < ranges.size(); ++i)
    for (size_t j = i + 1; j < ranges.size(); ++j) {
      const SlotRange &a = ranges[i], &b = ranges[j];
      if (a.root == b.root && a.aliasClass != b.aliasClass && a.start < a.end &&
          b.start < b.end && a.start < b.end && b.start < a.end)
        return true;
    }
  return false;
}

TEST(SlotAliasingTest, AgreesWithAllPairsOnRandomTables) {
  std::mt19937_64 random(20261204);
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<SlotRange> ranges(1 + random() % 8);
    for (SlotRange &range : ranges) {
      range.root = random() % 2;
      range.start = random() % 16;
      range.end = range.start + random() % 8;
      range.aliasClass = random() % 3;
    }
    auto found = findCrossClassOverlap(ranges);
    ASSERT_EQ(found.has_value(), anyCrossClassOverlap(ranges))
        << "trial " << trial;
    if (!found)
      continue;
    const SlotRange &a = ranges[found->first], &b = ranges[found->second];
    EXPECT_EQ(a.root, b.root);
    EXPECT_NE(a.aliasClass, b.aliasClass);
    EXPECT_LT(std::max(a.start, b.start), std::min(a.end, b.end));
  }
}

} // namespace
