//===- IntervalIndexTest.cpp - Tests of the interval indexes
//---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/IntervalIndex.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace streamhal;

namespace {

TEST(IntervalOwnersTest, EarliestOverlapOfNestedIntervals) {
  IntervalOwners owners;
  owners.add(10, 20, 0);
  owners.add(0, 100, 1);
  owners.add(15, 16, 2);
  EXPECT_EQ(owners.findFirstOverlap(0, 5), 1u);
  EXPECT_EQ(owners.findFirstOverlap(15, 16), 0u);
  EXPECT_EQ(owners.findFirstOverlap(19, 21), 0u);
  EXPECT_EQ(owners.findFirstOverlap(100, 200), std::nullopt);
  EXPECT_FALSE(owners.overlapsAny(100, 200));
  EXPECT_TRUE(owners.overlapsAny(99, 200));
  // Touching is not overlapping.
  EXPECT_EQ(owners.findFirstOverlap(-5, 0), std::nullopt);
}

/// Agrees with a scan of every interval, over random adds and queries.
TEST(IntervalOwnersTest, AgreesWithScan) {
  std::mt19937 random(7);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random);
  };
  for (int round = 0; round < 500; ++round) {
    IntervalOwners owners;
    std::vector<std::pair<int64_t, int64_t>> added;
    int span = 8 + pick(200);
    for (int step = 0; step < 60; ++step) {
      int64_t begin = pick(span), end = begin + 1 + pick(span / 4 + 1);
      if (pick(2)) {
        owners.add(begin, end, added.size());
        added.emplace_back(begin, end);
        continue;
      }
      std::optional<unsigned> expected;
      for (unsigned id = 0; id < added.size(); ++id)
        if (added[id].first < end && begin < added[id].second) {
          expected = id;
          break;
        }
      ASSERT_EQ(owners.findFirstOverlap(begin, end), expected)
          << "round " << round << " step " << step;
      ASSERT_EQ(owners.overlapsAny(begin, end), expected.has_value());
    }
  }
}

TEST(FirstBeyondTest, AgreesWithScan) {
  std::mt19937 random(11);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random);
  };
  for (int round = 0; round < 500; ++round) {
    FirstBeyond<true> above;
    FirstBeyond<false> below;
    std::vector<int64_t> values;
    for (int step = 0; step < 50; ++step) {
      int64_t value = pick(100) - 50;
      if (pick(2)) {
        above.add(value, values.size());
        below.add(value, values.size());
        values.push_back(value);
        continue;
      }
      std::optional<unsigned> firstAbove, firstBelow;
      for (unsigned id = 0; id < values.size(); ++id) {
        if (!firstAbove && values[id] > value)
          firstAbove = id;
        if (!firstBelow && values[id] < value)
          firstBelow = id;
      }
      ASSERT_EQ(above.find(value), firstAbove) << "round " << round;
      ASSERT_EQ(below.find(value), firstBelow) << "round " << round;
    }
  }
}

} // namespace
