//===- SubmissionOrderTest.cpp - Tests of SubmissionOrder -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/SubmissionOrder.h"
#include "gtest/gtest.h"
#include <random>
#include <vector>

using namespace streamhal;

namespace {

bool none(int64_t) { return false; }

TEST(SubmissionOrder, ChainIsOrdered) {
  SubmissionOrder order;
  order.add({}, 0);
  for (int64_t i = 1; i < 10; ++i)
    order.add({i - 1}, 0);
  EXPECT_TRUE(order.isOrderedBefore(0, 9));
  EXPECT_TRUE(order.isOrderedBefore(4, 5));
  EXPECT_FALSE(order.isOrderedBefore(5, 4));
  std::vector<int64_t> last = order.computeLastConcurrent(none);
  for (int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(last[i], i);
}

TEST(SubmissionOrder, LongBranchDoesNotHideLaterOrder) {
  // 0 -> 1 (a branch read again only at 9), 0 -> 2 -> 3 -> ... -> 8,
  // 9 after 1 and 8. A plain prefix stops at 1 for every later one.
  SubmissionOrder order;
  order.add({}, 0);
  order.add({0}, 0);
  order.add({0}, 0);
  for (int64_t i = 3; i < 9; ++i)
    order.add({i - 1}, 0);
  order.add({1, 8}, 0);
  EXPECT_FALSE(order.isOrderedBefore(1, 8));
  EXPECT_TRUE(order.isOrderedBefore(3, 8));
  EXPECT_TRUE(order.isOrderedBefore(1, 9));
  std::vector<int64_t> last = order.computeLastConcurrent(none);
  EXPECT_EQ(last[1], 8);
  EXPECT_EQ(last[3], 3);
  EXPECT_EQ(last[2], 2);
}

TEST(SubmissionOrder, HostWaitOrdersEverythingBefore) {
  SubmissionOrder order;
  order.add({}, 0);
  order.add({}, 0);
  order.add({}, 2);
  EXPECT_FALSE(order.isOrderedBefore(0, 1));
  EXPECT_TRUE(order.isOrderedBefore(0, 2));
  EXPECT_TRUE(order.isOrderedBefore(1, 2));
  EXPECT_EQ(order.computeLastConcurrent(none)[0], 1);
}

/// Random DAGs against their exact reachability: never ordered when not
/// reachable; exact with room for every exception; and each submission's
/// last concurrent one is the largest later one not known ordered.
TEST(SubmissionOrder, AgreesWithReachabilityOnRandomDags) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    int64_t n = 1 + random() % 40;
    unsigned budget = trial % 3 == 0 ? 64 : random() % 4;
    SubmissionOrder order(budget);
    std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n));
    int64_t prefix = 0;
    for (int64_t j = 0; j < n; ++j) {
      std::vector<int64_t> deps;
      int count = j ? random() % 4 : 0;
      for (int d = 0; d < count; ++d)
        deps.push_back(random() % j);
      if (random() % 10 == 0)
        prefix = j;
      for (int64_t i = 0; i < prefix; ++i)
        reaches[i][j] = true;
      for (int64_t q : deps) {
        reaches[q][j] = true;
        for (int64_t i = 0; i < q; ++i)
          if (reaches[i][q])
            reaches[i][j] = true;
      }
      order.add(deps, prefix);
    }
    std::vector<int64_t> last = order.computeLastConcurrent(none);
    for (int64_t i = 0; i < n; ++i) {
      int64_t expectedLast = i;
      for (int64_t j = i + 1; j < n; ++j) {
        bool ordered = order.isOrderedBefore(i, j);
        ASSERT_TRUE(!ordered || reaches[i][j])
            << trial << ": " << i << " " << j;
        if (budget >= 64) {
          ASSERT_EQ(ordered, reaches[i][j]) << trial << ": " << i << " " << j;
        }
        if (!ordered)
          expectedLast = j;
      }
      ASSERT_EQ(last[i], expectedLast) << trial << ": " << i;
    }
  }
}

} // namespace
