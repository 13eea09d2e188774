//===- IntervalIndex.h - first interval overlapping a query ------*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Insert-only indexes over numbered values that answer "the smallest number
// whose value meets a query" without looking at every value: the conflict
// queries of the access model (AccessBatch) are built on them, so that a
// batch of 100,000 accesses answers in logarithmic time instead of comparing
// a new access with each one. No IR: plain integers.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_INTERVALINDEX_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_INTERVALINDEX_H

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace streamhal {

/// Half-open intervals `[begin, end)` added with increasing ids. Keeps their
/// union twice: as maximal pieces (to find what a new interval adds), and
/// cut into disjoint segments each owned by the smallest id covering it (an
/// interval adds segments only where it covers new bytes). The smallest id
/// of an interval overlapping a query is then the smallest owner of a
/// segment the query overlaps: O(log n + segments overlapped); adding is
/// amortized O(log n).
class IntervalOwners {
public:
  /// Adds `[begin, end)` (begin < end) as `id`, larger than every id so far.
  void add(int64_t begin, int64_t end, unsigned id);
  /// The smallest id of an added interval that overlaps `[begin, end)`.
  std::optional<unsigned> findFirstOverlap(int64_t begin, int64_t end) const;
  /// Whether any added interval overlaps `[begin, end)`: O(log n).
  bool overlapsAny(int64_t begin, int64_t end) const;
  /// The end of the piece of the union that holds `point`, if any.
  std::optional<int64_t> getCoveredEnd(int64_t point) const;
  bool empty() const { return covered.empty(); }
  void clear();

private:
  /// The union as maximal disjoint pieces: begin -> end.
  std::map<int64_t, int64_t> covered;
  /// The union as disjoint segments: begin -> (end, owner id).
  std::map<int64_t, std::pair<int64_t, unsigned>> owners;
};

/// Values added with increasing ids: the smallest id whose value is above
/// (`Above` = true) or below (`Above` = false) a bound, in O(log n). Only the
/// ids that set a new extreme can ever be the answer, and their values are
/// monotonic, so they are kept alone and searched by bisection.
template <bool Above> class FirstBeyond {
public:
  void add(int64_t value, unsigned id) {
    if (records.empty() || beyond(value, records.back().first))
      records.emplace_back(value, id);
  }
  /// The smallest id whose value is beyond `bound` (strictly).
  std::optional<unsigned> find(int64_t bound) const {
    // Records grow more extreme: those beyond the bound are a suffix, and
    // the first of them is the answer (an id that set no record comes after
    // a record at least as far beyond).
    size_t low = 0, high = records.size();
    while (low < high) {
      size_t middle = (low + high) / 2;
      if (beyond(records[middle].first, bound))
        high = middle;
      else
        low = middle + 1;
    }
    if (low == records.size())
      return std::nullopt;
    return records[low].second;
  }
  void clear() { records.clear(); }

private:
  static bool beyond(int64_t value, int64_t bound) {
    return Above ? value > bound : value < bound;
  }
  std::vector<std::pair<int64_t, unsigned>> records;
};

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_INTERVALINDEX_H
