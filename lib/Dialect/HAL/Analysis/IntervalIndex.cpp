//===- IntervalIndex.cpp - first interval overlapping a query -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/IntervalIndex.h"
#include <algorithm>
#include <cassert>

namespace streamhal {

void IntervalOwners::add(int64_t begin, int64_t end, unsigned id) {
  assert(begin < end && "empty interval");
  // The first piece that overlaps or touches [begin, end).
  auto piece = covered.upper_bound(begin);
  if (piece != covered.begin() && std::prev(piece)->second >= begin)
    --piece;
  int64_t mergedBegin = begin, mergedEnd = end;
  int64_t cursor = begin;
  while (piece != covered.end() && piece->first <= end) {
    // The gap before this piece is new: this interval owns it.
    if (piece->first > cursor)
      owners.emplace(cursor, std::make_pair(piece->first, id));
    cursor = std::max(cursor, piece->second);
    mergedBegin = std::min(mergedBegin, piece->first);
    mergedEnd = std::max(mergedEnd, piece->second);
    piece = covered.erase(piece);
  }
  if (cursor < end)
    owners.emplace(cursor, std::make_pair(end, id));
  covered.emplace(mergedBegin, mergedEnd);
}

std::optional<unsigned> IntervalOwners::findFirstOverlap(int64_t begin,
                                                         int64_t end) const {
  if (begin >= end)
    return std::nullopt;
  auto segment = owners.upper_bound(begin);
  if (segment != owners.begin() && std::prev(segment)->second.first > begin)
    --segment;
  std::optional<unsigned> first;
  for (; segment != owners.end() && segment->first < end; ++segment)
    if (!first || segment->second.second < *first)
      first = segment->second.second;
  return first;
}

bool IntervalOwners::overlapsAny(int64_t begin, int64_t end) const {
  if (begin >= end)
    return false;
  auto piece = covered.upper_bound(begin);
  if (piece != covered.begin() && std::prev(piece)->second > begin)
    return true;
  return piece != covered.end() && piece->first < end;
}

std::optional<int64_t> IntervalOwners::getCoveredEnd(int64_t point) const {
  auto piece = covered.upper_bound(point);
  if (piece == covered.begin())
    return std::nullopt;
  --piece;
  if (piece->second <= point)
    return std::nullopt;
  return piece->second;
}

void IntervalOwners::clear() {
  covered.clear();
  owners.clear();
}

} // namespace streamhal
