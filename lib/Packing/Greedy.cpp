//===- Greedy.cpp - Best of several best-fit orderings --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places the buffers by best fit in several orders and keeps the lowest
// packing. The input order is always one of them, so the result is never worse
// than in-order. An ordering is abandoned as soon as it exceeds the best
// height seen so far, which makes the losers cheap.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

namespace {
/// Per-buffer keys the orderings sort by.
struct BufferKeys {
  int64_t size;
  int64_t duration;
  int64_t start;
  int64_t end;
  __int128 area;
  /// The largest number of live bytes at any instant of the buffer's life:
  /// buffers in the most crowded moments are the hardest to fit.
  int64_t peak;
};
} // namespace

/// For every buffer, the peak of live bytes over its lifetime: a sweep gives
/// the live bytes of each elementary section, a sparse table answers the
/// range maxima.
static std::vector<int64_t>
computeLifetimePeaks(const NormalizedProblem &problem) {
  const std::vector<NormalizedBuffer> &buffers = problem.buffers;
  std::vector<int64_t> points;
  for (const NormalizedBuffer &buffer : buffers) {
    if (buffer.start >= buffer.end)
      continue;
    points.push_back(buffer.start);
    points.push_back(buffer.end);
  }
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<int64_t> peaks(buffers.size(), 0);
  if (points.size() < 2)
    return peaks;
  auto pointOf = [&](int64_t time) {
    return size_t(std::lower_bound(points.begin(), points.end(), time) -
                  points.begin());
  };
  size_t numSections = points.size() - 1;
  std::vector<int64_t> live(numSections + 1, 0);
  for (const NormalizedBuffer &buffer : buffers) {
    if (buffer.start >= buffer.end)
      continue;
    live[pointOf(buffer.start)] += buffer.size;
    live[pointOf(buffer.end)] -= buffer.size;
  }
  for (size_t s = 1; s < numSections; ++s)
    live[s] += live[s - 1];

  // table[k][s] = max(live[s .. s + 2^k)).
  std::vector<std::vector<int64_t>> table(
      1, std::vector<int64_t>(live.begin(), live.end() - 1));
  for (size_t width = 2; width <= numSections; width *= 2) {
    const std::vector<int64_t> &previous = table.back();
    std::vector<int64_t> next(numSections - width + 1);
    for (size_t s = 0; s < next.size(); ++s)
      next[s] = std::max(previous[s], previous[s + width / 2]);
    table.push_back(std::move(next));
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].start >= buffers[i].end)
      continue;
    size_t from = pointOf(buffers[i].start), to = pointOf(buffers[i].end);
    size_t level = 0;
    while ((size_t(2) << level) <= to - from)
      ++level;
    peaks[i] =
        std::max(table[level][from], table[level][to - (size_t(1) << level)]);
  }
  return peaks;
}

PackingResult detail::packGreedy(const NormalizedProblem &problem,
                                 ConflictIndex &index) {
  size_t numBuffers = problem.buffers.size();
  std::vector<int64_t> peaks = computeLifetimePeaks(problem);
  std::vector<BufferKeys> keys(numBuffers);
  for (size_t i = 0; i < numBuffers; ++i) {
    const NormalizedBuffer &buffer = problem.buffers[i];
    int64_t duration = std::max<int64_t>(buffer.end - buffer.start, 0);
    keys[i] = {buffer.size,
               duration,
               buffer.start,
               buffer.end,
               __int128(buffer.size) * duration,
               peaks[i]};
  }

  // Each ordering is a strict weak order on buffer keys; ties keep the input
  // order (stable sort).
  using Less = std::function<bool(const BufferKeys &, const BufferKeys &)>;
  std::vector<Less> orderings = {
      // Largest first (TFLite / XLA).
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.size != b.size)
          return a.size > b.size;
        return a.duration > b.duration;
      },
      // Most crowded lifetime first, then largest.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.peak != b.peak)
          return a.peak > b.peak;
        if (a.size != b.size)
          return a.size > b.size;
        return a.duration > b.duration;
      },
      // Longest-lived first.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.duration != b.duration)
          return a.duration > b.duration;
        return a.size > b.size;
      },
      // Largest area (bytes x time) first.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.area != b.area)
          return a.area > b.area;
        return a.size > b.size;
      },
      // Most crowded lifetime first, then longest.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.peak != b.peak)
          return a.peak > b.peak;
        if (a.duration != b.duration)
          return a.duration > b.duration;
        return a.size > b.size;
      },
      // Earliest start first, longest first among equal starts.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.start != b.start)
          return a.start < b.start;
        if (a.duration != b.duration)
          return a.duration > b.duration;
        return a.size > b.size;
      },
  };

  // The input order goes last: it rarely wins, and by then the cutoff
  // usually stops it early. It wins ties, so that whenever the classic
  // in-order loop is as good as any ordering, its offsets are the ones kept
  // (the reference packings of lowering.md are in-order ones).
  orderings.push_back(nullptr);

  BestFitPlacer placer(problem, index);
  PackingResult best;
  int64_t bestHeight = INT64_MAX;
  std::vector<unsigned> order(numBuffers);
  std::vector<int64_t> offsets;
  for (const Less &less : orderings) {
    std::iota(order.begin(), order.end(), 0);
    if (less) {
      llvm::stable_sort(order, [&](unsigned a, unsigned b) {
        return less(keys[a], keys[b]);
      });
    }
    // Only a strictly lower packing can replace the incumbent, except for
    // the input order, which also replaces an equal one.
    bool winsTies = !less;
    int64_t cutoff =
        bestHeight == INT64_MAX || winsTies ? bestHeight : bestHeight - 1;
    std::optional<int64_t> height = placer.place(order, offsets, cutoff);
    if (height &&
        (*height < bestHeight || (winsTies && *height == bestHeight))) {
      bestHeight = *height;
      best.offsets.swap(offsets);
    }
  }
  best.slabSize = slabFromHeight(problem, bestHeight);
  if (numBuffers == 0)
    best.slabSize = 0;
  return best;
}
