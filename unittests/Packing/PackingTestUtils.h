//===- PackingTestUtils.h - helpers shared by the packing tests -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H
#define STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H

#include "streamhal/Packing/Packing.h"
#include "streamhal/Packing/PackingCSV.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace streamhal::packing::testing {

//===----------------------------------------------------------------------===//
// An independent reference for the packing rules
//===----------------------------------------------------------------------===//
//
// Written from the definitions of docs/packing.md, without any helper of the
// library under test (no alignTo, alignedSize, effectiveAlignment,
// lifetimesConflict, computeLowerBound or validatePacking), so that a bug in
// those cannot hide the same bug in a packing.

/// Buffer `index`'s size rounded up to the problem's size alignment.
inline int64_t referenceAlignedSize(const PackingProblem &problem,
                                    size_t index) {
  int64_t size = problem.buffers[index].size;
  int64_t unit = problem.sizeAlignment;
  return (size + unit - 1) / unit * unit;
}

/// The offset alignment buffer `index` must honour.
inline int64_t referenceAlignment(const PackingProblem &problem, size_t index) {
  return std::lcm(problem.offsetAlignment, problem.buffers[index].alignment);
}

/// Whether the lifetimes of buffers `a` and `b` intersect, by the formula of
/// the problem's convention.
inline bool referenceLifetimesIntersect(const PackingProblem &problem, size_t a,
                                        size_t b) {
  const Buffer &x = problem.buffers[a];
  const Buffer &y = problem.buffers[b];
  if (problem.lifetimes == LifetimeConvention::Closed)
    return x.lower <= y.upper && y.lower <= x.upper;
  return x.lower < y.upper && y.lower < x.upper;
}

/// The peak over time of the live aligned bytes, by a sweep over lifetime
/// end points (closed `[l, u]` counted as the steps `l..u`; at one instant,
/// buffers ending there leave before buffers starting there arrive).
inline int64_t referenceLowerBound(const PackingProblem &problem) {
  std::vector<std::pair<int64_t, int64_t>> events; // (time, byte delta)
  bool closed = problem.lifetimes == LifetimeConvention::Closed;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &buffer = problem.buffers[i];
    int64_t firstDead = closed ? buffer.upper + 1 : buffer.upper;
    int64_t size = referenceAlignedSize(problem, i);
    if (buffer.lower >= firstDead || size == 0)
      continue;
    events.push_back({buffer.lower, size});
    events.push_back({firstDead, -size});
  }
  std::sort(events.begin(), events.end()); // negative deltas first
  int64_t live = 0, peak = 0;
  for (const auto &[time, delta] : events)
    peak = std::max(peak, live += delta);
  return peak;
}

/// What is wrong with `result` as a packing of `problem` ("" when nothing):
/// one offset per buffer, non-negative offsets that are multiples of their
/// alignment, every buffer inside the slab, a slab that is a multiple of the
/// size alignment and at least the lower bound, and disjoint byte ranges
/// `[offset, offset + aligned size)` for every pair of buffers whose lifetimes
/// intersect (an empty range owns no byte). Every pair is compared up to 4096
/// buffers; beyond, the pairs are enumerated by start time (every
/// intersecting pair has one buffer starting inside the other's lifetime)
/// and still judged by the same formula.
inline std::string referenceViolation(const PackingProblem &problem,
                                      const PackingResult &result) {
  size_t numBuffers = problem.buffers.size();
  if (result.offsets.size() != numBuffers)
    return "expected " + std::to_string(numBuffers) + " offsets, got " +
           std::to_string(result.offsets.size());
  for (size_t i = 0; i < numBuffers; ++i) {
    int64_t offset = result.offsets[i];
    std::string where = "buffer " + std::to_string(i) + " at offset " +
                        std::to_string(offset) + ": ";
    if (offset < 0)
      return where + "negative";
    if (offset % referenceAlignment(problem, i) != 0)
      return where + "not a multiple of " +
             std::to_string(referenceAlignment(problem, i));
    if (offset + referenceAlignedSize(problem, i) > result.slabSize)
      return where + "ends beyond the slab " + std::to_string(result.slabSize);
  }
  if (result.slabSize % problem.sizeAlignment != 0)
    return "slab " + std::to_string(result.slabSize) +
           " is not a multiple of the size alignment";
  if (int64_t lowerBound = referenceLowerBound(problem);
      result.slabSize < lowerBound)
    return "slab " + std::to_string(result.slabSize) +
           " is below the lower bound " + std::to_string(lowerBound);

  // Byte ranges [low, high); an empty one owns no byte.
  std::vector<int64_t> low(result.offsets), high(numBuffers);
  for (size_t i = 0; i < numBuffers; ++i)
    high[i] = low[i] + referenceAlignedSize(problem, i);
  auto shareBytes = [&](size_t a, size_t b) {
    return low[a] < high[a] && low[b] < high[b] && low[a] < high[b] &&
           low[b] < high[a];
  };
  auto overlapMessage = [&](size_t a, size_t b) {
    return "buffers " + std::to_string(std::min(a, b)) + " and " +
           std::to_string(std::max(a, b)) +
           " are live together and share bytes";
  };
  if (numBuffers <= 4096) {
    for (size_t a = 0; a < numBuffers; ++a)
      for (size_t b = a + 1; b < numBuffers; ++b)
        if (shareBytes(a, b) && referenceLifetimesIntersect(problem, a, b))
          return overlapMessage(a, b);
    return "";
  }
  bool closed = problem.lifetimes == LifetimeConvention::Closed;
  std::vector<size_t> byStart(numBuffers);
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
    return problem.buffers[a].lower < problem.buffers[b].lower;
  });
  // The same data in start order, scanned contiguously.
  std::vector<int64_t> starts(numBuffers), lows(numBuffers), highs(numBuffers);
  for (size_t p = 0; p < numBuffers; ++p) {
    starts[p] = problem.buffers[byStart[p]].lower;
    lows[p] = low[byStart[p]];
    highs[p] = high[byStart[p]];
  }
  for (size_t p = 0; p < numBuffers; ++p) {
    const Buffer &first = problem.buffers[byStart[p]];
    int64_t firstDead = closed ? first.upper + 1 : first.upper;
    int64_t lowP = lows[p], highP = highs[p];
    if (lowP == highP)
      continue;
    for (size_t q = p + 1; q < numBuffers && starts[q] < firstDead; ++q) {
      // One branch, almost never taken in a valid packing.
      bool share = (lows[q] < highP) & (lowP < highs[q]) & (lows[q] < highs[q]);
      if (share && referenceLifetimesIntersect(problem, byStart[p], byStart[q]))
        return overlapMessage(byStart[p], byStart[q]);
    }
  }
  return "";
}

/// `problem` with its rows sorted by (lower, upper, size, alignment), the
/// documented canonical order. Greedy places in this order among its others,
/// so its slab is never above in-order's on these rows.
inline PackingProblem canonicallySorted(const PackingProblem &problem) {
  PackingProblem sorted = problem;
  std::stable_sort(sorted.buffers.begin(), sorted.buffers.end(),
                   [](const Buffer &a, const Buffer &b) {
                     return std::tie(a.lower, a.upper, a.size, a.alignment) <
                            std::tie(b.lower, b.upper, b.size, b.alignment);
                   });
  return sorted;
}

/// `problem`'s rows in the order `order` (a permutation of the row indices).
inline PackingProblem permutedRows(const PackingProblem &problem,
                                   const std::vector<size_t> &order) {
  PackingProblem permuted = problem;
  for (size_t position = 0; position < order.size(); ++position)
    permuted.buffers[position] = problem.buffers[order[position]];
  return permuted;
}

/// Every row with its offset, sorted: two packings of two row orders of one
/// problem give the same list exactly when they place each kind of buffer
/// (equal rows are interchangeable) at the same offsets.
inline std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>>
rowsWithOffsets(const PackingProblem &problem, const PackingResult &result) {
  std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>> rows;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &buffer = problem.buffers[i];
    rows.emplace_back(buffer.lower, buffer.upper, buffer.size, buffer.alignment,
                      i < result.offsets.size() ? result.offsets[i] : -1);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The validator's verdict as a string ("" when the packing is valid), so a
/// failing expectation prints why.
inline std::string validationMessage(const PackingProblem &problem,
                                     const PackingResult &result) {
  if (llvm::Error error = validatePacking(problem, result))
    return llvm::toString(std::move(error));
  return "";
}

/// Loads a file of the data set shipped in bench/packing/data, or returns
/// std::nullopt (and the caller fails) when it cannot be read.
inline std::optional<PackingTable> loadPackingDataFile(llvm::StringRef name) {
  std::string path = std::string(STREAMHAL_PACKING_DATA_DIR) + "/" + name.str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return std::nullopt;
  llvm::Expected<PackingTable> table = parsePackingCSV((*file)->getBuffer());
  if (!table) {
    ADD_FAILURE() << path << ": " << llvm::toString(table.takeError());
    return std::nullopt;
  }
  return std::move(*table);
}

} // namespace streamhal::packing::testing

#endif // STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H
