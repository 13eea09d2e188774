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
// in time about the accesses of the same root and pack slice: accesses of
// other slices of one pack conflict only when the lifetimes are disjoint, so
// two per-pack extremes (earliest end, latest start) stand for all of them.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"

using namespace mlir;

namespace streamhal {

static std::tuple<int, Value, Attribute> getRootKey(const BufferRoot &root) {
  return {static_cast<int>(root.kind), root.value, root.global};
}

static bool isEmptyAccess(const BufferAccess &access) {
  return access.range.length == std::optional<int64_t>(0);
}

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
      bucket.reads.push_back(index);
    if (access.writes)
      bucket.writes.push_back(index);
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
  auto check = [&](ArrayRef<unsigned> indices) -> const BufferAccess * {
    for (unsigned index : indices)
      if (accesses[index].conflictsWith(access))
        return &accesses[index];
    return nullptr;
  };
  if (access.writes)
    if (const BufferAccess *found = check(bucket.reads))
      return found;
  if (const BufferAccess *found = check(bucket.writes))
    return found;
  const RootByteRange &range = access.range;
  size_t ownPack = range.pack ? bucket.extremes.count(range.pack) : 0;
  if (bucket.extremes.size() > ownPack) {
    // Outside a slice (or several packs on one root): every slice access.
    for (const auto &entry : bucket.bySlice)
      if (entry.first.first != range.pack)
        if (const BufferAccess *found = check(entry.second))
          return found;
    if (!range.pack)
      return nullptr;
  }
  // The same slice: the exact test.
  auto sameSlice = bucket.bySlice.find({range.pack, range.slice});
  if (sameSlice != bucket.bySlice.end())
    if (const BufferAccess *found = check(sameSlice->second))
      return found;
  // Other slices share bytes only when the lifetimes are disjoint: compare
  // with the earliest-ending and the latest-starting access (a write needs
  // any access, a read a write).
  auto extremes = bucket.extremes.find(range.pack);
  if (extremes == bucket.extremes.end())
    return nullptr;
  const SliceExtremes &candidates =
      access.writes ? extremes->second.first : extremes->second.second;
  if (candidates.minEnd >= 0 &&
      accesses[candidates.minEnd].range.sliceEnd < range.sliceStart)
    return &accesses[candidates.minEnd];
  if (candidates.maxStart >= 0 &&
      accesses[candidates.maxStart].range.sliceStart > range.sliceEnd)
    return &accesses[candidates.maxStart];
  return nullptr;
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
