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

/// The blocked digest: the sum of each block's mixed FNV-1a-64 and its
/// position, so every byte counts, and so does the order of the blocks.
TEST(DispatchModel, BlockedDigest) {
  EXPECT_EQ(digestBindingBlocks({}), 0u);
  std::vector<uint8_t> one = {9};
  EXPECT_EQ(digestBindingBlocks(one),
            mixSplitMix64(fnv1a64(one) + 0x9e3779b97f4a7c15ull));
  // Two blocks: the first kModelBlockBytes bytes, then the rest.
  std::vector<uint8_t> bytes(kModelBlockBytes + 3);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(i * 7);
  llvm::ArrayRef<uint8_t> all(bytes);
  uint64_t expected = mixSplitMix64(fnv1a64(all.take_front(kModelBlockBytes)) +
                                    0x9e3779b97f4a7c15ull) +
                      mixSplitMix64(fnv1a64(all.drop_front(kModelBlockBytes)) +
                                    2 * 0x9e3779b97f4a7c15ull);
  EXPECT_EQ(digestBindingBlocks(bytes), expected);
  uint64_t digest = digestBindingBlocks(bytes);
  for (size_t at : {size_t(0), size_t(kModelBlockBytes - 1),
                    size_t(kModelBlockBytes), bytes.size() - 1}) {
    std::vector<uint8_t> changed = bytes;
    changed[at] ^= 1;
    EXPECT_NE(digestBindingBlocks(changed), digest) << "byte " << at;
  }
  // Equal blocks at different positions do not cancel out.
  std::vector<uint8_t> twice(2 * kModelBlockBytes, 5);
  std::vector<uint8_t> swapped = twice;
  swapped[0] = 6;
  std::vector<uint8_t> swappedBack = twice;
  swappedBack[kModelBlockBytes] = 6;
  EXPECT_NE(digestBindingBlocks(swapped), digestBindingBlocks(swappedBack));
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

/// A distinct fake writer: the memory only compares and returns writers.
static mlir::Operation *fakeOp(uintptr_t tag) {
  return reinterpret_cast<mlir::Operation *>(tag * 16);
}

TEST(Memory, FreshAllocationsArePoison) {
  RootBuffer root = RootBuffer::allocate("a", 16);
  EXPECT_EQ(root.findUninitialized(0, 16), 0);
  const uint8_t data[] = {1, 2, 3, 4};
  root.write(4, data, nullptr);
  EXPECT_EQ(root.findUninitialized(4, 4), std::nullopt);
  EXPECT_EQ(root.findUninitialized(0, 16), 0);
  EXPECT_EQ(root.findUninitialized(4, 12), 8);
  EXPECT_EQ(root.readBytes(4, 4)[3], 4);
  EXPECT_EQ(root.readBytes(0, 1)[0], kPoisonByte);
}

TEST(Memory, CopiesCarryPoison) {
  RootBuffer source = RootBuffer::allocate("s", 8);
  const uint8_t data[] = {9, 9};
  source.write(0, data, nullptr);
  RootBuffer target = RootBuffer::withContents("t", std::vector<uint8_t>(8, 5));
  target.copyFrom(source, 0, 0, 4, fakeOp(1));
  EXPECT_EQ(target.findUninitialized(0, 8), 2);
  EXPECT_EQ(target.readBytes(0, 2)[1], 9);
  // The copy wrote the poison too; the bytes past it keep their state.
  EXPECT_EQ(target.getLastWriter(3), fakeOp(1));
  EXPECT_EQ(target.getLastWriter(4), nullptr);
  EXPECT_EQ(target.findUninitialized(4, 4), std::nullopt);
}

TEST(Memory, OverlappingCopyInOneRoot) {
  std::vector<uint8_t> bytes = {0, 1, 2, 3, 4, 5};
  RootBuffer root = RootBuffer::withContents("r", bytes);
  root.copyFrom(root, 0, 2, 4, nullptr);
  std::vector<uint8_t> expected = {0, 1, 0, 1, 2, 3};
  EXPECT_EQ(root.readBytes(0, 6), expected);
}

/// Copies longer than a page move in pieces: both directions of overlap
/// must read every byte before it is overwritten, and carry the states.
TEST(Memory, OverlappingCopiesAcrossPages) {
  int64_t size = 3 * kPageBytes + 123;
  std::vector<uint8_t> bytes(size + 1000);
  SplitMix64(7).fill(bytes);
  for (int64_t shift : {int64_t(1000), int64_t(-1000)}) {
    RootBuffer root = RootBuffer::allocate("r", size + 1000);
    root.write(0, bytes, fakeOp(1));
    // A never-written hole, carried by the copy.
    RootBuffer hole = RootBuffer::allocate("h", 10);
    root.copyFrom(hole, 0, 5000, 10, fakeOp(2));
    std::vector<uint8_t> before = root.readBytes(0, size + 1000);
    int64_t from = shift > 0 ? 0 : 1000, to = from + shift;
    root.copyFrom(root, from, to, size, fakeOp(3));
    std::vector<uint8_t> after = root.readBytes(0, size + 1000);
    for (int64_t i = 0; i < size; ++i)
      ASSERT_EQ(after[to + i], before[from + i]) << "byte " << i;
    EXPECT_EQ(root.findUninitialized(to, size), 5000 + shift);
    EXPECT_EQ(root.getLastWriter(to), fakeOp(3));
  }
}

TEST(Memory, GrowableRootsAreTheSeededStream) {
  RootBuffer pool = RootBuffer::growable("@pool", 99);
  EXPECT_EQ(pool.getLength(), INT64_MAX);
  EXPECT_TRUE(pool.contains(100, 8));
  EXPECT_FALSE(pool.contains(100, INT64_MAX));
  EXPECT_EQ(pool.findUninitialized(0, 108), std::nullopt);
  EXPECT_EQ(pool.readBytes(103, 1)[0], splitMixByteAt(99, 103));
  // Reading materializes nothing; a write keeps the stream around it.
  EXPECT_EQ(pool.getMaterializedBytes(), 0);
  const uint8_t data[] = {1};
  pool.write(kPageBytes + 5, data, fakeOp(1));
  EXPECT_EQ(pool.getMaterializedBytes(), kPageBytes);
  std::vector<uint8_t> around = pool.readBytes(kPageBytes + 4, 3);
  EXPECT_EQ(around[0], splitMixByteAt(99, kPageBytes + 4));
  EXPECT_EQ(around[1], 1);
  EXPECT_EQ(around[2], splitMixByteAt(99, kPageBytes + 6));
  RootBuffer fixed = RootBuffer::allocate("a", 4);
  EXPECT_FALSE(fixed.contains(2, 4));
  EXPECT_FALSE(fixed.contains(-1, 1));
  EXPECT_FALSE(fixed.contains(INT64_MAX, 16));
}

TEST(DispatchModel, BytesAtMatchTheStream) {
  std::vector<uint8_t> bytes(41);
  SplitMix64(5).fill(bytes);
  for (uint64_t from : {0, 3, 8, 13}) {
    std::vector<uint8_t> part(bytes.size() - from);
    splitMixBytesAt(5, from, part);
    EXPECT_EQ(part, std::vector<uint8_t>(bytes.begin() + from, bytes.end()));
  }
}

/// A 4 GiB allocation with a few writes costs a page per write, and the
/// states a run per write, not per byte.
TEST(Memory, LargeBuffersCostWhatIsWritten) {
  auto account = std::make_shared<MemoryAccount>();
  {
    RootBuffer root = RootBuffer::allocate("big", kMaxBufferBytes);
    root.setAccount(account);
    EXPECT_EQ(root.getUnmaterializedBytes(0, kMaxBufferBytes), kMaxBufferBytes);
    const uint8_t data[16] = {};
    root.write(kMaxBufferBytes - 16, data, fakeOp(1));
    root.write(1 << 20, data, fakeOp(2));
    EXPECT_EQ(root.getMaterializedBytes(), 2 * kPageBytes);
    EXPECT_EQ(account->used, 2 * kPageBytes);
    EXPECT_EQ(root.getUnmaterializedBytes(kMaxBufferBytes - 8, 8), 0);
    EXPECT_EQ(root.findUninitialized(kMaxBufferBytes - 16, 16), std::nullopt);
    EXPECT_EQ(root.findUninitialized(0, kMaxBufferBytes), 0);
    EXPECT_EQ(root.findUninitialized(1 << 20, kMaxBufferBytes - (1 << 20)),
              (1 << 20) + 16);
    EXPECT_EQ(root.getRuns(0, kMaxBufferBytes).size(), 4u);
    EXPECT_EQ(root.getLastWriter(kMaxBufferBytes - 1), fakeOp(1));
    // A fill of everything is one run.
    std::vector<uint8_t> page(kPageBytes, 7);
    for (int64_t at = 0; at < 64 * kPageBytes; at += kPageBytes)
      root.write(at, page, fakeOp(3));
    EXPECT_EQ(root.getRuns(0, 64 * kPageBytes).size(), 1u);
  }
  // A root gives its pages back to the account.
  EXPECT_EQ(account->used, 0);
}

TEST(Memory, LastWritersPerRun) {
  RootBuffer root = RootBuffer::allocate("a", 100);
  std::vector<uint8_t> data(50, 1);
  root.write(0, data, fakeOp(1));
  root.write(25, data, fakeOp(2));
  root.write(40, llvm::ArrayRef<uint8_t>(data).take_front(5), fakeOp(1));
  EXPECT_EQ(root.getLastWriter(24), fakeOp(1));
  EXPECT_EQ(root.getLastWriter(25), fakeOp(2));
  EXPECT_EQ(root.getLastWriter(40), fakeOp(1));
  EXPECT_EQ(root.getLastWriter(45), fakeOp(2));
  EXPECT_EQ(root.getLastWriter(74), fakeOp(2));
  EXPECT_EQ(root.getLastWriter(75), nullptr);
  EXPECT_EQ(root.getRuns(0, 100).size(), 5u);
  EXPECT_EQ(root.findUninitialized(0, 100), 75);
}

TEST(Memory, SnapshotsRestore) {
  RootBuffer root = RootBuffer::allocate("a", 4);
  RootBuffer::Snapshot saved = root.snapshot();
  const uint8_t data[] = {7};
  root.write(1, data, fakeOp(1));
  EXPECT_EQ(root.firstDifference(saved), 1);
  RootBuffer::Snapshot written = root.snapshot();
  EXPECT_EQ(written.getLastWriter(1), fakeOp(1));
  root.restore(saved);
  EXPECT_EQ(root.firstDifference(saved), std::nullopt);
  EXPECT_EQ(root.getLastWriter(1), nullptr);
  EXPECT_EQ(root.getMaterializedBytes(), 0);
}

/// Differences in state alone (a copy of poison over initialized bytes of
/// the same value) and in bytes alone are both found, the first one wins.
TEST(Memory, FirstDifferenceOfStateOrBytes) {
  RootBuffer root =
      RootBuffer::withContents("r", std::vector<uint8_t>(3 * kPageBytes, 0xCD));
  RootBuffer::Snapshot saved = root.snapshot();
  RootBuffer poison = RootBuffer::allocate("p", 8);
  root.copyFrom(poison, 0, 2 * kPageBytes + 8, 8, nullptr);
  EXPECT_EQ(root.firstDifference(saved), 2 * kPageBytes + 8);
  const uint8_t data[] = {1};
  root.write(kPageBytes + 3, data, nullptr);
  EXPECT_EQ(root.firstDifference(saved), kPageBytes + 3);
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
