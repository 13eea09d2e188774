//===- LiveBytesTest.cpp - Tests of the live-byte meter -------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/LiveBytes.h"
#include "gtest/gtest.h"
#include <random>
#include <vector>

using namespace streamhal::exec;

namespace {

bool none(uint64_t) { return false; }

/// One command of a chain: reads `input`, writes `output`.
void chainStep(LiveByteMeter &meter, uint64_t buffer, int64_t input,
               int64_t output, int64_t bytes) {
  meter.access(buffer, input, bytes, /*reads=*/true, /*writes=*/false);
  meter.access(buffer, output, bytes, /*reads=*/false, /*writes=*/true);
  meter.step();
}

TEST(LiveBytes, ChainNeedsTwoValues) {
  // Each command reads the previous value and writes a fresh one: at most
  // two values are live, however long the chain and wherever they sit.
  LiveByteMeter meter;
  meter.track(1, 16 * 64);
  meter.access(1, 0, 64, false, true);
  meter.step();
  for (int64_t i = 0; i + 1 < 16; ++i)
    chainStep(meter, 1, i * 64, (i + 1) * 64, 64);
  EXPECT_EQ(meter.getPeak(none), 128);
  EXPECT_EQ(meter.getTrackedBytes(none), 16 * 64);
}

TEST(LiveBytes, ValueLivesUntilItsLastRead) {
  LiveByteMeter meter;
  meter.track(1, 300);
  meter.access(1, 0, 100, false, true); // A
  meter.step();
  meter.access(1, 100, 100, false, true); // B
  meter.step();
  meter.access(1, 200, 100, false, true); // C; A, B, C live
  meter.step();
  meter.access(1, 0, 100, true, false); // last reads of A and B
  meter.access(1, 100, 100, true, false);
  meter.step();
  EXPECT_EQ(meter.getPeak(none), 300);
}

TEST(LiveBytes, DeadValueCountsOnlyAtItsWrite) {
  LiveByteMeter meter;
  meter.track(1, 200);
  meter.access(1, 0, 100, false, true); // never read
  meter.step();
  meter.access(1, 100, 100, false, true);
  meter.step();
  EXPECT_EQ(meter.getPeak(none), 100);
}

TEST(LiveBytes, InPlaceUpdateContinuesItsValue) {
  LiveByteMeter meter;
  meter.track(1, 64);
  meter.access(1, 0, 64, false, true);
  meter.step();
  for (int i = 0; i < 4; ++i) {
    meter.access(1, 0, 64, true, true);
    meter.step();
  }
  EXPECT_EQ(meter.getPeak(none), 64);
}

TEST(LiveBytes, OverwriteEndsTheOldValue) {
  // A value overwritten in part keeps its other bytes live.
  LiveByteMeter meter;
  meter.track(1, 100);
  meter.access(1, 0, 100, false, true);
  meter.step();
  meter.access(1, 0, 50, false, true);
  meter.step();
  meter.access(1, 50, 50, true, false);
  meter.step();
  EXPECT_EQ(meter.getPeak(none), 100);
}

TEST(LiveBytes, UntrackedAndExcludedBuffersDoNotCount) {
  LiveByteMeter meter;
  meter.track(1, 64);
  meter.track(2, 32);
  meter.access(1, 0, 64, false, true);
  meter.access(2, 0, 32, false, true);
  meter.access(3, 0, 1000, false, true);
  meter.step();
  EXPECT_EQ(meter.getPeak(none), 96);
  auto isTwo = [](uint64_t buffer) { return buffer == 2; };
  EXPECT_EQ(meter.getPeak(isTwo), 64);
  EXPECT_EQ(meter.getTrackedBytes(isTwo), 64);
  meter.clear();
  EXPECT_EQ(meter.getPeak(none), 0);
  EXPECT_FALSE(meter.isTracked(1));
}

TEST(LiveBytes, MatchesBytewiseModelOnRandomAccesses) {
  // The meter against the plain definition on one byte array.
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t length = 48;
    LiveByteMeter meter;
    meter.track(1, length);
    struct Byte {
      int64_t written = -1, lastRead = -1;
    };
    std::vector<Byte> bytes(length);
    std::vector<std::pair<int64_t, int64_t>> lifetimes;
    int steps = 1 + random() % 12;
    for (int step = 0; step < steps; ++step) {
      int accesses = 1 + random() % 3;
      for (int a = 0; a < accesses; ++a) {
        int64_t offset = random() % length;
        int64_t size = 1 + random() % (length - offset);
        int kind = random() % 3; // write, read, read-write
        bool reads = kind != 0, writes = kind != 1;
        meter.access(1, offset, size, reads, writes);
        for (int64_t i = offset; i < offset + size; ++i) {
          Byte &byte = bytes[i];
          if (!reads) {
            if (byte.written >= 0)
              lifetimes.emplace_back(byte.written, byte.lastRead);
            byte = {step, step};
          } else if (byte.written >= 0) {
            byte.lastRead = step;
          } else if (writes) {
            byte = {step, step};
          }
        }
      }
      meter.step();
    }
    for (const Byte &byte : bytes)
      if (byte.written >= 0)
        lifetimes.emplace_back(byte.written, byte.lastRead);
    int64_t peak = 0;
    for (int step = 0; step < steps; ++step) {
      int64_t live = 0;
      for (auto [written, lastRead] : lifetimes)
        live += written <= step && step <= lastRead;
      peak = std::max(peak, live);
    }
    ASSERT_EQ(meter.getPeak(none), peak) << "trial " << trial;
  }
}

} // namespace
