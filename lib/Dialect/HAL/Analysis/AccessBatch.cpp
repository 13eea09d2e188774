//===- AccessBatch.cpp - conflicts with the accesses since a barrier ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The batch answers "does this access conflict with any access since the last
// barrier" exactly like the pairwise test (BufferAccess::conflictsWith), but
// in time about the accesses that may conflict, never the whole batch:
//
// - Accesses of other roots conflict by root alone: one access per bucket
//   stands for them.
// - Accesses of other slices of one pack conflict only when the lifetimes are
//   disjoint: two per-pack extremes (earliest end, latest start) stand for
//   all of them.
// - Accesses of the same root outside pack slices: a RangeIndex per kind.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/RangeIndex.h"
#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"

using namespace mlir;

namespace streamhal {

static std::tuple<int, Value, Attribute> getRootKey(const BufferRoot &root) {
  return {static_cast<int>(root.kind), root.value, root.global};
}

static bool isEmptyAccess(const BufferAccess &access) {
  return access.range.length == std::optional<int64_t>(0);
}

AccessBatch::AccessBatch() = default;
AccessBatch::~AccessBatch() = default;
AccessBatch::AccessBatch(AccessBatch &&) = default;
AccessBatch &AccessBatch::operator=(AccessBatch &&) = default;
AccessBatch::Bucket::Bucket()
    : reads(std::make_unique<RangeIndex>()),
      writes(std::make_unique<RangeIndex>()) {}
AccessBatch::Bucket::~Bucket() = default;
AccessBatch::Bucket::Bucket(Bucket &&) = default;
AccessBatch::Bucket &AccessBatch::Bucket::operator=(Bucket &&) = default;

void AccessBatch::add(const BufferAccess &access) {
  if (isEmptyAccess(access))
    return; // touches no byte: conflicts with nothing
  unsigned index = accesses.size();
  accesses.push_back(access);
  auto [it, inserted] =
      bucketOf.try_emplace(getRootKey(access.root), buckets.size());
  if (inserted) {
    buckets.emplace_back();
    buckets.back().root = access.root;
    if (access.root.kind != BufferRootKind::Allocation || access.root.escapes)
      aliasableBuckets.push_back(it->second);
  }
  Bucket &bucket = buckets[it->second];
  if (bucket.anyAccess < 0)
    bucket.anyAccess = index;
  if (access.writes && bucket.anyWrite < 0)
    bucket.anyWrite = index;
  const RootByteRange &range = access.range;
  if (!range.pack) {
    if (access.reads)
      bucket.reads->add(access, index);
    if (access.writes)
      bucket.writes->add(access, index);
    return;
  }
  bucket.bySlice[{range.pack, range.slice}].push_back(index);
  auto update = [&](SliceExtremes &extremes) {
    if (extremes.minEnd < 0 ||
        range.sliceEnd < accesses[extremes.minEnd].range.sliceEnd)
      extremes.minEnd = index;
    if (extremes.maxStart < 0 ||
        range.sliceStart > accesses[extremes.maxStart].range.sliceStart)
      extremes.maxStart = index;
  };
  auto &[all, writes] = bucket.extremes[range.pack];
  update(all);
  if (access.writes)
    update(writes);
}

const BufferAccess *
AccessBatch::findInBucket(const Bucket &bucket,
                          const BufferAccess &access) const {
  uint64_t comparisons = 0;
  auto countAndReturn = [&](const BufferAccess *found) {
    countWork(Work::BatchComparisons, comparisons);
    return found;
  };
  auto check = [&](ArrayRef<unsigned> indices) -> const BufferAccess * {
    for (unsigned index : indices) {
      ++comparisons;
      if (accesses[index].conflictsWith(access))
        return &accesses[index];
    }
    return nullptr;
  };
  // Outside slices: a write conflicts with any overlapping access, a read
  // with an overlapping write.
  if (access.writes)
    if (std::optional<unsigned> found =
            bucket.reads->findFirstOverlap(access, accesses, comparisons))
      return countAndReturn(&accesses[*found]);
  if (std::optional<unsigned> found =
          bucket.writes->findFirstOverlap(access, accesses, comparisons))
    return countAndReturn(&accesses[*found]);
  const RootByteRange &range = access.range;
  size_t ownPack = range.pack ? bucket.extremes.count(range.pack) : 0;
  if (bucket.extremes.size() > ownPack) {
    // Outside a slice (or several packs on one root): every slice access.
    for (const auto &entry : bucket.bySlice)
      if (entry.first.first != range.pack)
        if (const BufferAccess *found = check(entry.second))
          return countAndReturn(found);
    if (!range.pack)
      return countAndReturn(nullptr);
  }
  // The same slice: the exact test.
  auto sameSlice = bucket.bySlice.find({range.pack, range.slice});
  if (sameSlice != bucket.bySlice.end())
    if (const BufferAccess *found = check(sameSlice->second))
      return countAndReturn(found);
  // Other slices share bytes only when the lifetimes are disjoint: compare
  // with the earliest-ending and the latest-starting access (a write needs
  // any access, a read a write).
  auto extremes = bucket.extremes.find(range.pack);
  if (extremes == bucket.extremes.end())
    return countAndReturn(nullptr);
  const SliceExtremes &candidates =
      access.writes ? extremes->second.first : extremes->second.second;
  if (candidates.minEnd >= 0 &&
      accesses[candidates.minEnd].range.sliceEnd < range.sliceStart)
    return countAndReturn(&accesses[candidates.minEnd]);
  if (candidates.maxStart >= 0 &&
      accesses[candidates.maxStart].range.sliceStart > range.sliceEnd)
    return countAndReturn(&accesses[candidates.maxStart]);
  return countAndReturn(nullptr);
}

const BufferAccess *
AccessBatch::findConflict(const BufferAccess &access) const {
  if (isEmptyAccess(access) || accesses.empty())
    return nullptr;
  auto crossRoot = [&](const Bucket &bucket) -> const BufferAccess * {
    int candidate = access.writes ? bucket.anyAccess : bucket.anyWrite;
    return candidate >= 0 ? &accesses[candidate] : nullptr;
  };
  if (access.root.kind == BufferRootKind::Unknown) {
    countWork(Work::BatchProbes, buckets.size());
    for (const Bucket &bucket : buckets) {
      const BufferAccess *found = bucket.root == access.root
                                      ? findInBucket(bucket, access)
                                      : crossRoot(bucket);
      if (found)
        return found;
    }
    return nullptr;
  }
  auto own = bucketOf.find(getRootKey(access.root));
  if (own != bucketOf.end())
    if (const BufferAccess *found = findInBucket(buckets[own->second], access))
      return found;
  countWork(Work::BatchProbes, aliasableBuckets.size());
  for (unsigned index : aliasableBuckets) {
    const Bucket &bucket = buckets[index];
    if (bucket.root != access.root && bucket.root.mayAlias(access.root))
      if (const BufferAccess *found = crossRoot(bucket))
        return found;
  }
  return nullptr;
}

void AccessBatch::clear() {
  accesses.clear();
  buckets.clear();
  aliasableBuckets.clear();
  bucketOf.clear();
}

} // namespace streamhal
