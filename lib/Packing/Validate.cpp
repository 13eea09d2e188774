//===- Validate.cpp - Check a packing in O(n log n) -----------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Space overlaps are found with a sweep over time that keeps the live buffers
// in a set ordered by offset. As long as no overlap has been found the live
// buffers are disjoint in space, so a newcomer overlaps one of them iff it
// overlaps its neighbour below or above in that order.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// A live buffer in the sweep, ordered by offset.
struct LiveBuffer {
  int64_t offset;
  int64_t size;
  unsigned index;
  bool operator<(const LiveBuffer &other) const {
    if (offset != other.offset)
      return offset < other.offset;
    return index < other.index;
  }
};
} // namespace

/// Returns the live buffer that `candidate` overlaps in space, if any.
static std::optional<unsigned>
findSpaceOverlap(const std::set<LiveBuffer> &live,
                 const LiveBuffer &candidate) {
  auto above = live.lower_bound(candidate);
  if (above != live.end() && above->offset < candidate.offset + candidate.size)
    return above->index;
  if (above != live.begin()) {
    auto below = std::prev(above);
    if (below->offset + below->size > candidate.offset)
      return below->index;
  }
  return std::nullopt;
}

llvm::Error streamhal::packing::validatePacking(const PackingProblem &problem,
                                                const PackingResult &result) {
  size_t numBuffers = problem.buffers.size();
  if (result.offsets.size() != numBuffers)
    return fail(llvm::formatv("expected {0} offsets, got {1}", numBuffers,
                              result.offsets.size()));
  NormalizedProblem normalized = normalize(problem);
  int64_t height = 0;
  size_t highest = 0;
  for (size_t i = 0; i < numBuffers; ++i) {
    int64_t offset = result.offsets[i];
    const NormalizedBuffer &buffer = normalized.buffers[i];
    if (offset < 0)
      return fail(llvm::formatv("buffer {0}: negative offset {1}", i, offset));
    if (offset % buffer.alignment != 0)
      return fail(llvm::formatv(
          "buffer {0}: offset {1} is not a multiple of its alignment {2}", i,
          offset, buffer.alignment));
    if (offset + buffer.size > height) {
      height = offset + buffer.size;
      highest = i;
    }
  }
  if (result.slabSize < height)
    return fail(llvm::formatv(
        "slab size {0} does not cover buffer {1}, which reaches byte {2}",
        result.slabSize, highest, height));
  if (result.slabSize % problem.sizeAlignment != 0)
    return fail(llvm::formatv(
        "slab size {0} is not a multiple of the size alignment {1}",
        result.slabSize, problem.sizeAlignment));

  // Sweep: at each time point, retire buffers that end there, check the
  // zero-length lifetimes sitting there (they conflict only with buffers
  // strictly containing the point), then admit the buffers starting there.
  // Zero-size buffers own no byte and cannot overlap anything.
  std::vector<unsigned> byStart, byEnd, empties;
  for (unsigned i = 0; i < numBuffers; ++i) {
    const NormalizedBuffer &buffer = normalized.buffers[i];
    if (buffer.size == 0)
      continue;
    if (buffer.start == buffer.end) {
      empties.push_back(i);
      continue;
    }
    byStart.push_back(i);
    byEnd.push_back(i);
  }
  auto startOf = [&](unsigned i) { return normalized.buffers[i].start; };
  auto endOf = [&](unsigned i) { return normalized.buffers[i].end; };
  llvm::sort(byStart,
             [&](unsigned a, unsigned b) { return startOf(a) < startOf(b); });
  llvm::sort(byEnd,
             [&](unsigned a, unsigned b) { return endOf(a) < endOf(b); });
  llvm::sort(empties,
             [&](unsigned a, unsigned b) { return startOf(a) < startOf(b); });

  auto overlapError = [&](unsigned a, unsigned b) {
    if (a > b)
      std::swap(a, b);
    return fail(llvm::formatv(
        "buffers {0} and {1} are live at the same time and overlap: [{2}, {3}) "
        "and [{4}, {5})",
        a, b, result.offsets[a], result.offsets[a] + normalized.buffers[a].size,
        result.offsets[b], result.offsets[b] + normalized.buffers[b].size));
  };

  std::set<LiveBuffer> live;
  size_t nextStart = 0, nextEnd = 0, nextEmpty = 0;
  auto asLive = [&](unsigned i) {
    return LiveBuffer{result.offsets[i], normalized.buffers[i].size, i};
  };
  while (nextStart < byStart.size() || nextEmpty < empties.size()) {
    int64_t now = INT64_MAX;
    if (nextStart < byStart.size())
      now = startOf(byStart[nextStart]);
    if (nextEmpty < empties.size())
      now = std::min(now, startOf(empties[nextEmpty]));
    for (; nextEnd < byEnd.size() && endOf(byEnd[nextEnd]) <= now; ++nextEnd)
      live.erase(asLive(byEnd[nextEnd]));
    for (; nextEmpty < empties.size() && startOf(empties[nextEmpty]) == now;
         ++nextEmpty) {
      unsigned i = empties[nextEmpty];
      // Buffers starting exactly at `now` are not admitted yet, so `live`
      // holds exactly the buffers strictly containing `now`.
      if (std::optional<unsigned> other = findSpaceOverlap(live, asLive(i)))
        return overlapError(i, *other);
    }
    for (; nextStart < byStart.size() && startOf(byStart[nextStart]) == now;
         ++nextStart) {
      unsigned i = byStart[nextStart];
      LiveBuffer candidate = asLive(i);
      if (std::optional<unsigned> other = findSpaceOverlap(live, candidate))
        return overlapError(i, *other);
      live.insert(candidate);
    }
  }
  return llvm::Error::success();
}
