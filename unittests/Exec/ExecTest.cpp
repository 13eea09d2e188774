//===- ExecTest.cpp - Tests of the executor's pure pieces -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/DispatchModel.h"
#include "streamhal/Exec/InOrderPlacement.h"
#include "streamhal/Exec/Memory.h"
#include "gtest/gtest.h"

using namespace streamhal::exec;

namespace {

//===----------------------------------------------------------------------===//
// Hashes and streams
//===----------------------------------------------------------------------===//

TEST(DispatchModel, Fnv1aKnownValues) {
  EXPECT_EQ(fnv1a64({}), 0xcbf29ce484222325ull);
  const uint8_t a[] = {'a'};
  EXPECT_EQ(fnv1a64(a), 0xaf63dc4c8601ec8cull);
  const uint8_t foobar[] = {'f', 'o', 'o', 'b', 'a', 'r'};
  EXPECT_EQ(fnv1a64(foobar), 0x85944171f73967e8ull);
  Fnv1a64 incremental;
  incremental.addString("foo");
  incremental.addString("bar");
  EXPECT_EQ(incremental.get(), fnv1a64(foobar));
}

TEST(DispatchModel, SplitMixKnownValues) {
  // The reference implementation's first outputs for seed 0.
  SplitMix64 generator(0);
  EXPECT_EQ(generator.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(generator.next(), 0x6e789e6aa1b965f4ull);
}

TEST(DispatchModel, ByteAtMatchesTheStream) {
  std::vector<uint8_t> bytes(37);
  SplitMix64(1234).fill(bytes);
  for (size_t i = 0; i < bytes.size(); ++i)
    EXPECT_EQ(splitMixByteAt(1234, i), bytes[i]) << "byte " << i;
}

/// A dispatch's output changes with every input the model names.
TEST(DispatchModel, EveryInputMatters) {
  std::vector<uint8_t> data = {1, 2, 3, 4};
  DispatchInputs base;
  base.entrySymbol = "@ex::@entry";
  base.reads.push_back({0, 0, data});
  base.pushConstants = {7, 0};
  base.workgroups = {4, 1, 1};
  uint64_t reference = hashDispatchInputs(base);

  DispatchInputs entry = base;
  entry.entrySymbol = "@ex::@other";
  EXPECT_NE(hashDispatchInputs(entry), reference);

  std::vector<uint8_t> changed = {1, 2, 3, 5};
  DispatchInputs bytes = base;
  bytes.reads[0].bytes = changed;
  EXPECT_NE(hashDispatchInputs(bytes), reference);

  DispatchInputs ordinal = base;
  ordinal.reads[0].binding = 1;
  EXPECT_NE(hashDispatchInputs(ordinal), reference);

  DispatchInputs constants = base;
  constants.pushConstants = {0, 7};
  EXPECT_NE(hashDispatchInputs(constants), reference);

  DispatchInputs missing = base;
  missing.pushConstants = {7};
  EXPECT_NE(hashDispatchInputs(missing), reference);

  DispatchInputs count = base;
  count.workgroups = {2, 2, 1};
  EXPECT_NE(hashDispatchInputs(count), reference);
}

TEST(DispatchModel, OutputsDifferPerBindingAndAreDeterministic) {
  std::vector<uint8_t> first(24), second(24), again(24);
  expandDispatchOutput(42, 0, 1, first);
  expandDispatchOutput(42, 0, 2, second);
  expandDispatchOutput(42, 0, 1, again);
  EXPECT_NE(first, second);
  EXPECT_EQ(first, again);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST(Memory, FreshAllocationsArePoison) {
  RootBuffer root = RootBuffer::allocate("a", 16);
  EXPECT_EQ(root.findUninitialized(0, 16), 0);
  const uint8_t data[] = {1, 2, 3, 4};
  root.write(4, data, nullptr);
  EXPECT_EQ(root.findUninitialized(4, 4), std::nullopt);
  EXPECT_EQ(root.findUninitialized(0, 16), 0);
  EXPECT_EQ(root.findUninitialized(4, 12), 8);
  EXPECT_EQ(root.read(4, 4)[3], 4);
  EXPECT_EQ(root.read(0, 1)[0], kPoisonByte);
}

TEST(Memory, CopiesCarryPoison) {
  RootBuffer source = RootBuffer::allocate("s", 8);
  const uint8_t data[] = {9, 9};
  source.write(0, data, nullptr);
  RootBuffer target = RootBuffer::withContents("t", std::vector<uint8_t>(8, 5));
  target.copyFrom(source, 0, 0, 4, nullptr);
  EXPECT_EQ(target.findUninitialized(0, 8), 2);
  EXPECT_EQ(target.read(0, 2)[1], 9);
}

TEST(Memory, OverlappingCopyInOneRoot) {
  std::vector<uint8_t> bytes = {0, 1, 2, 3, 4, 5};
  RootBuffer root = RootBuffer::withContents("r", bytes);
  root.copyFrom(root, 0, 2, 4, nullptr);
  std::vector<uint8_t> expected = {0, 1, 0, 1, 2, 3};
  EXPECT_EQ(
      std::vector<uint8_t>(root.read(0, 6).begin(), root.read(0, 6).end()),
      expected);
}

TEST(Memory, GrowableRootsAreTheSeededStream) {
  RootBuffer pool = RootBuffer::growable("@pool", 99);
  EXPECT_TRUE(pool.ensureRange(100, 8));
  EXPECT_EQ(pool.getLength(), 108);
  EXPECT_EQ(pool.findUninitialized(0, 108), std::nullopt);
  EXPECT_EQ(pool.read(103, 1)[0], splitMixByteAt(99, 103));
  RootBuffer fixed = RootBuffer::allocate("a", 4);
  EXPECT_FALSE(fixed.ensureRange(2, 4));
  EXPECT_FALSE(fixed.ensureRange(-1, 1));
}

TEST(Memory, SnapshotsRestore) {
  RootBuffer root = RootBuffer::allocate("a", 4);
  RootBuffer::Snapshot saved = root.snapshot();
  const uint8_t data[] = {7};
  root.write(1, data, nullptr);
  EXPECT_EQ(root.firstDifference(saved), 1);
  root.restore(saved);
  EXPECT_EQ(root.firstDifference(saved), std::nullopt);
}

//===----------------------------------------------------------------------===//
// In-order placement
//===----------------------------------------------------------------------===//

/// The reference case of the lowering's contract: 432 bytes, offsets
/// 0, 112, 0, 224, 0, 208 with alignment 16.
TEST(InOrderPlacement, ReferenceCase) {
  std::vector<PlacementSlice> slices = {{0, 1, 100}, {1, 2, 100}, {2, 3, 100},
                                        {0, 4, 200}, {5, 6, 200}, {5, 8, 100}};
  Placement placement = placeInOrder(slices, 16, 16);
  EXPECT_EQ(placement.totalLength, 432);
  std::vector<int64_t> expected = {0, 112, 0, 224, 0, 208};
  EXPECT_EQ(
      std::vector<int64_t>(placement.offsets.begin(), placement.offsets.end()),
      expected);
}

/// Intersecting lifetimes never share bytes; offsets are aligned.
TEST(InOrderPlacement, NoOverlapOfLiveSlices) {
  std::vector<PlacementSlice> slices;
  for (int i = 0; i < 40; ++i)
    slices.push_back({i % 7, i % 7 + i % 5, 1 + (i * 37) % 90});
  Placement placement = placeInOrder(slices, 64, 16);
  for (size_t a = 0; a < slices.size(); ++a) {
    EXPECT_EQ(placement.offsets[a] % 64, 0);
    for (size_t b = 0; b < a; ++b) {
      bool live =
          slices[a].end >= slices[b].start && slices[b].end >= slices[a].start;
      if (!live)
        continue;
      int64_t aEnd = placement.offsets[a] + alignTo(slices[a].size, 16);
      int64_t bEnd = placement.offsets[b] + alignTo(slices[b].size, 16);
      EXPECT_TRUE(aEnd <= placement.offsets[b] || bEnd <= placement.offsets[a])
          << "slices " << a << " and " << b;
    }
    EXPECT_LE(placement.offsets[a] + alignTo(slices[a].size, 16),
              placement.totalLength);
  }
  EXPECT_EQ(placement.totalLength % 16, 0);
}

TEST(InOrderPlacement, Empty) {
  Placement placement = placeInOrder({}, 16, 16);
  EXPECT_EQ(placement.totalLength, 0);
  EXPECT_TRUE(placement.offsets.empty());
}

} // namespace
