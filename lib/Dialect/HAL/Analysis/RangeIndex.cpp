//===- RangeIndex.cpp - accesses of one root, indexed by range ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every query answers as BufferAccess::mayOverlap does for each pair. For
// two ranges of one root outside pack slices, not in different lanes of one
// pack, that test reads:
// - same base (or both absolute), constant starts and lengths: the exact
//   interval test (an end that overflows overlaps everything);
// - otherwise, disjoint only when one provably ends before the other
//   starts, which needs the first one's length and start, and its base to be
//   absent or the other's; against an absolute end, a based start counts by
//   its lower bound (offset + baseFloor).
// The cases below follow from it.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/RangeIndex.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;

namespace streamhal {

static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

/// The end of a range with a constant start and positive length that does
/// not overflow; std::nullopt for every other range.
static std::optional<int64_t> getRegularEnd(const RootByteRange &range) {
  int64_t end;
  if (!range.startKnown || !range.length || *range.length <= 0 ||
      llvm::AddOverflow(range.offset, *range.length, end))
    return std::nullopt;
  return end;
}

/// The lowest byte a based range may start at, as the model bounds it
/// against absolute ranges (kMin when the bound overflows: nothing proven).
static int64_t getStartFloor(const RootByteRange &range) {
  int64_t floor;
  if (llvm::AddOverflow(range.offset, range.baseFloor, floor))
    return kMin;
  return floor;
}

/// Keeps the smaller of two optional numbers in `first`.
static void takeFirst(std::optional<unsigned> &first,
                      std::optional<unsigned> found) {
  if (found && (!first || *found < *first))
    first = found;
}

void RangeIndex::Group::add(const BufferAccess &access, unsigned index) {
  all.push_back(index);
  const RootByteRange &range = access.range;
  std::optional<int64_t> end = getRegularEnd(range);
  if (!end) {
    others.push_back(index);
    return;
  }
  byBase[range.base].add(range.offset, *end, index);
  if (!range.base) {
    absoluteEnds.add(*end, index);
    return;
  }
  basedStartFloors.add(getStartFloor(range), index);
  if (!firstBased) {
    firstBased = index;
    firstBase = range.base;
  } else if (!firstOnOtherBase && range.base != firstBase) {
    firstOnOtherBase = index;
  }
}

std::optional<unsigned> RangeIndex::Group::findFirstOverlap(
    const BufferAccess &query, ArrayRef<BufferAccess> accesses,
    uint64_t &comparisons, RangeQuery which) const {
  if (all.empty())
    return std::nullopt;
  const RootByteRange &range = query.range;
  auto scan = [&](ArrayRef<unsigned> indices) -> std::optional<unsigned> {
    for (unsigned index : indices) {
      const BufferAccess &stored = accesses[index];
      if (which == RangeQuery::OtherForms && stored.range.length &&
          *stored.range.length < 0)
        continue;
      ++comparisons;
      if (stored.mayOverlap(query))
        return index;
    }
    return std::nullopt;
  };
  // An unknown start proves nothing: everything may overlap. A negative
  // length is compared one by one, as the pairwise test does.
  if (!range.startKnown && which == RangeQuery::All)
    return all.front();
  if (!range.startKnown || (range.length && *range.length < 0))
    return scan(all);

  std::optional<unsigned> first;
  std::optional<int64_t> end = getRegularEnd(range);
  // The same base: every interval the exact test meets, or (length unknown)
  // every interval ending after the start; a constant length whose end
  // overflows meets all of them.
  if (which == RangeQuery::All) {
    auto sameBase = byBase.find(range.base);
    if (sameBase != byBase.end()) {
      const IntervalOwners &intervals = sameBase->second;
      if (end)
        takeFirst(first, intervals.findFirstOverlap(range.offset, *end));
      else if (range.length)
        takeFirst(first, intervals.findFirstOverlap(kMin, kMax));
      else
        takeFirst(first, intervals.findFirstOverlap(range.offset, kMax));
    }
  }
  if (!range.base) {
    // Against a base: disjoint only when this range provably ends before
    // the other's lowest start.
    if (end)
      takeFirst(first, basedStartFloors.find(*end));
    else
      takeFirst(first, firstBased);
  } else {
    // Absolute ranges ending after this one's lowest start, and every
    // range on another base.
    takeFirst(first, absoluteEnds.find(getStartFloor(range)));
    takeFirst(first, firstBased && firstBase != range.base ? firstBased
                                                           : firstOnOtherBase);
  }
  // The rest one by one, up to the earliest found so far.
  ArrayRef<unsigned> rest = others;
  if (first)
    rest = rest.take_while([&](unsigned index) { return index < *first; });
  takeFirst(first, scan(rest));
  return first;
}

void RangeIndex::add(const BufferAccess &access, unsigned index) {
  const RootByteRange &range = access.range;
  if (range.lanePack < 0) {
    outsideLanes.add(access, index);
    return;
  }
  PackLanes &pack = packs[range.lanePack];
  pack.all.add(access, index);
  pack.lanes[range.lane].add(access, index);
}

SmallVector<const RangeIndex::Group *, 4>
RangeIndex::getGroupsMet(const BufferAccess &query) const {
  SmallVector<const Group *, 4> groups = {&outsideLanes};
  for (const auto &[packId, pack] : packs) {
    if (packId != query.range.lanePack) {
      groups.push_back(&pack.all);
      continue;
    }
    // The same pack: only the query's own lane may share a byte.
    auto lane = pack.lanes.find(query.range.lane);
    if (lane != pack.lanes.end())
      groups.push_back(&lane->second);
  }
  return groups;
}

std::optional<unsigned>
RangeIndex::findFirstOverlap(const BufferAccess &query,
                             ArrayRef<BufferAccess> accesses,
                             uint64_t &comparisons, RangeQuery which) const {
  std::optional<unsigned> first;
  for (const Group *group : getGroupsMet(query))
    takeFirst(first,
              group->findFirstOverlap(query, accesses, comparisons, which));
  return first;
}

bool RangeIndex::covers(ArrayRef<const RangeIndex *> indexes,
                        const BufferAccess &query) {
  const RootByteRange &range = query.range;
  std::optional<int64_t> end = getRegularEnd(range);
  if (!end)
    return false;
  SmallVector<const IntervalOwners *, 4> intervals;
  for (const RangeIndex *index : indexes) {
    for (const Group *group : index->getGroupsMet(query)) {
      auto sameBase = group->byBase.find(range.base);
      if (sameBase != group->byBase.end())
        intervals.push_back(&sameBase->second);
    }
  }
  // Walk from the start through the pieces of the unions: each step moves
  // past the end of a piece.
  int64_t covered = range.offset;
  while (covered < *end) {
    int64_t reach = covered;
    for (const IntervalOwners *owners : intervals)
      if (std::optional<int64_t> pieceEnd = owners->getCoveredEnd(covered))
        reach = std::max(reach, *pieceEnd);
    if (reach == covered)
      return false;
    covered = reach;
  }
  return true;
}

} // namespace streamhal
