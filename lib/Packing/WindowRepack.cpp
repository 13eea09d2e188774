//===- WindowRepack.cpp - Local search by window repacking ----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Local search in the manner of TelaMalloc's and idealloc's repacking: the
// height of a packing is set by the few buffers at its peak, and a small
// change around them can lower it where no global order would. Each step
// picks a buffer at the peak, a time interval around its lifetime and the
// highest buffers whose lifetimes meet that interval (the window, a
// rectangle of time x address under the peak, its floor the lowest offset
// in it), and places the window again above the floor by first or best fit
// in one of several orders, through an OccupancyIndex that holds the other
// buffers reaching above the floor whose lifetimes can meet a window
// buffer's, plus one block for everything under the floor. One window in 16
// has no floor and may use any hole.
//
// A placement is kept when the window's tops, highest first, compare
// lexicographically below the old ones: the height never rises, and it
// drops once the last buffer at the peak leaves it. Since nothing outside
// the window moves, the tops of the whole packing decrease in the same order
// and the descent cannot cycle. After a run of failures, sideways moves
// (nothing lower, no more buffers at the peak) are kept too, as a kick out
// of the local minimum.
//
// Windows start small (cheap, and most improvements are local) and grow
// with every run of failures, up to `RepackLimits::maxWindow` buffers; an
// improvement shrinks them again. All choices come from a seeded generator,
// and the work limit counts buffers placed, so with the same work limit the
// run is reproducible; the deadline may only cut it short.
//
//===----------------------------------------------------------------------===//

#include "WindowRepack.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;
using Clock = std::chrono::steady_clock;

/// The smallest window a step takes out; every run of failures doubles it.
static constexpr size_t kMinWindow = 32;
/// Failed windows at one size before the size doubles.
static constexpr uint64_t kFailuresPerLevel = 8;
/// One window in this many drops its floor (see `chooseWindow`).
static constexpr uint64_t kOpenFloorShare = 16;
/// Consecutive failed windows after which the search counts as stalled and
/// stops: without it, `--time-limit=inf` would never return.
static constexpr uint64_t kMaxFailures = 50000;
/// Failed windows in a row before sideways moves are kept: a kick out of a
/// local minimum, not a random walk that undoes the descent.
static constexpr uint64_t kSidewaysAfter = 256;
/// Placement steps between two reads of the clock.
static constexpr uint64_t kClockStride = 64;

namespace {

/// SplitMix64: tiny, and its sequence is the same on every platform (the
/// standard distributions are not), which keeps results reproducible.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, bound) (0 when bound is 0); the modulo bias is harmless.
  uint64_t below(uint64_t bound) { return bound ? next() % bound : 0; }

private:
  uint64_t state;
};

/// The buffers of non-zero size by lifetime, to find those near a time
/// interval: one start-sorted list per power-of-two class of duration, so a
/// query scans only starts within twice the class's duration of its answer.
class LifetimeIndex {
public:
  explicit LifetimeIndex(const NormalizedProblem &problem) {
    for (unsigned i = 0, e = problem.buffers.size(); i < e; ++i) {
      const NormalizedBuffer &buffer = problem.buffers[i];
      if (buffer.size == 0)
        continue;
      classes[classOf(buffer)].push_back({buffer.start, buffer.end, i});
    }
    for (std::vector<Entry> &entries : classes)
      llvm::sort(entries, [](const Entry &a, const Entry &b) {
        return std::tie(a.start, a.index) < std::tie(b.start, b.index);
      });
  }

  /// Appends every buffer of non-zero size with start <= hi and end >= lo, in
  /// a fixed order: a superset of those whose lifetimes intersect a lifetime
  /// lying within [lo, hi].
  void collect(int64_t lo, int64_t hi, std::vector<unsigned> &out) const {
    for (unsigned c = 0; c < kNumClasses; ++c) {
      const std::vector<Entry> &entries = classes[c];
      if (entries.empty())
        continue;
      // Durations of class c are below 2^c: earlier starts end before lo.
      int64_t from = c == 0 ? lo : lo - ((int64_t(1) << c) - 1);
      auto it = std::lower_bound(entries.begin(), entries.end(), from,
                                 [](const Entry &entry, int64_t start) {
                                   return entry.start < start;
                                 });
      for (; it != entries.end() && it->start <= hi; ++it)
        if (it->end >= lo)
          out.push_back(it->index);
    }
  }

private:
  struct Entry {
    int64_t start, end;
    unsigned index;
  };
  /// Durations are below 2^62 (verifyProblem bounds times by 2^60).
  static constexpr unsigned kNumClasses = 63;
  /// 0 for a zero-length lifetime, else the bit width of the duration.
  static unsigned classOf(const NormalizedBuffer &buffer) {
    uint64_t duration =
        uint64_t(std::max<int64_t>(buffer.end - buffer.start, 0));
    return duration == 0 ? 0 : 64 - llvm::countl_zero(duration);
  }
  std::vector<Entry> classes[kNumClasses];
};

/// The orders a window is placed in again; `Kind::Count` of them, chosen at
/// random per window.
enum class Order {
  /// The buffers at the peak first (largest first), then the others from
  /// the lowest: the rest then never rises above where it was, and the peak
  /// buffers get the holes first.
  PeakFirst,
  /// Largest first.
  Size,
  /// Longest-lived first.
  Duration,
  /// Largest area first.
  Area,
  /// By current offset, each moved by up to the largest window buffer's
  /// size: a perturbed compaction.
  PerturbedOffset,
  /// Largest first, by best fit.
  SizeBestFit,
  /// A random permutation.
  Shuffled,
  /// The peak buffers first, then by start, by best fit.
  PeakFirstBestFit,
  Count
};

/// The search state: the packing, its height and the buffers at the peak.
class Repacker {
public:
  Repacker(const NormalizedProblem &problem, std::vector<int64_t> &offsets,
           const RepackLimits &limits)
      : problem(problem), buffers(problem.buffers), offsets(offsets),
        limits(limits), lifetimes(problem), random(limits.seed),
        windowMark(problem.buffers.size(), 0) {}

  RepackStats run(int64_t slabLowerBound);

  /// Drops every buffer, from the lowest, to its lowest fit above the ones
  /// already dropped (see the definition).
  void compact();

private:
  int64_t topOf(unsigned i) const { return offsets[i] + buffers[i].size; }
  /// Recomputes the height and the buffers at it.
  void refreshPeak();
  /// Fills `window` and `obstacles` around a random buffer at the peak.
  void chooseWindow();
  /// Sorts `localOrder` (positions into `window`) by `order`.
  void orderWindow(Order order);
  /// What became of a window's new placement.
  enum class Outcome { Rejected, Sideways, Lower };
  /// Places the window again and keeps the placement unless it is
  /// rejected. Sets `timedOut` when the deadline stopped it.
  Outcome placeWindow();

  const NormalizedProblem &problem;
  const std::vector<NormalizedBuffer> &buffers;
  std::vector<int64_t> &offsets;
  RepackLimits limits;
  LifetimeIndex lifetimes;
  Random random;
  RepackStats stats;
  bool timedOut = false;

  int64_t height = 0;
  std::vector<unsigned> atPeak;
  /// Failed windows since the last kept one (sets the window size).
  uint64_t failures = 0;

  std::vector<unsigned> candidates, window, obstacles, localOrder;
  /// The window's time span and the lowest offset of its buffers.
  int64_t windowStart = 0, windowEnd = 0, floor = 0;
  std::vector<int64_t> newOffsets, newTops, sortKey;
  /// Epoch marks of the window's buffers, to leave them out of the
  /// obstacles in O(1).
  std::vector<uint32_t> windowMark;
  uint32_t epoch = 0;
};

} // namespace

void Repacker::refreshPeak() {
  height = 0;
  atPeak.clear();
  for (unsigned i = 0, e = buffers.size(); i < e; ++i) {
    if (buffers[i].size == 0)
      continue;
    int64_t top = topOf(i);
    if (top > height) {
      height = top;
      atPeak.clear();
    }
    if (top == height)
      atPeak.push_back(i);
  }
}

void Repacker::chooseWindow() {
  unsigned peak = atPeak[random.below(atPeak.size())];
  const NormalizedBuffer &center = buffers[peak];
  unsigned level = std::min<unsigned>(
      llvm::Log2_64(1 + failures / kFailuresPerLevel),
      llvm::Log2_64(std::max<size_t>(limits.maxWindow / kMinWindow, 1)) + 1);
  size_t target = std::min(limits.maxWindow, kMinWindow << level);
  target = std::max<size_t>(target / 2 + random.below(target / 2 + 1), 1);

  // The interval: the peak buffer's lifetime, widened on each side by a
  // random share of up to 2^level - 1 times its duration (saturated: times
  // are below 2^60 in magnitude, so the ends stay far from overflow).
  int64_t duration = std::max<int64_t>(center.end - center.start, 1);
  int64_t reach = int64_t(std::min<__int128>(
      __int128(duration) * ((int64_t(1) << level) - 1), int64_t(1) << 61));
  int64_t lo = center.start - int64_t(random.below(uint64_t(reach) + 1));
  int64_t hi = center.end + int64_t(random.below(uint64_t(reach) + 1));

  // The highest `target` buffers meeting it (the peak buffers sort first).
  candidates.clear();
  lifetimes.collect(lo, hi, candidates);
  auto higher = [&](unsigned a, unsigned b) {
    int64_t topA = topOf(a), topB = topOf(b);
    return topA != topB ? topA > topB : a < b;
  };
  size_t count = std::min(target, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + count,
                    candidates.end(), higher);
  window.assign(candidates.begin(), candidates.begin() + count);

  // The window is a rectangle: its buffers go back above the lowest of
  // them (the floor), where they all were. Every other buffer that can meet
  // a window buffer's lifetime and reaches above the floor is an obstacle;
  // one block under the floor stands for the rest, which on large instances
  // makes a window cost its neighbourhood rather than its whole time span.
  if (++epoch == 0) {
    std::fill(windowMark.begin(), windowMark.end(), 0);
    epoch = 1;
  }
  windowStart = INT64_MAX;
  windowEnd = INT64_MIN;
  floor = INT64_MAX;
  for (unsigned i : window) {
    windowMark[i] = epoch;
    windowStart = std::min(windowStart, buffers[i].start);
    windowEnd = std::max(windowEnd, buffers[i].end);
    floor = std::min(floor, offsets[i]);
  }
  // One window in kOpenFloorShare may use every hole below the floor too:
  // costlier, but it reaches moves the rectangles cannot. (Lowering the
  // floor by a few window depths instead lost on every 10k-30k instance
  // tried.)
  if (random.below(kOpenFloorShare) == 0)
    floor = 0;
  obstacles.clear();
  lifetimes.collect(windowStart, windowEnd, obstacles);
  llvm::erase_if(obstacles, [&](unsigned i) {
    return windowMark[i] == epoch || topOf(i) <= floor;
  });
  // Inserted from the lowest, every interval joins the end of its address
  // sets instead of shifting them.
  llvm::sort(obstacles, [&](unsigned a, unsigned b) {
    return offsets[a] != offsets[b] ? offsets[a] < offsets[b] : a < b;
  });
}

void Repacker::orderWindow(Order order) {
  size_t count = window.size();
  localOrder.resize(count);
  std::iota(localOrder.begin(), localOrder.end(), 0);
  auto buffer = [&](unsigned local) -> const NormalizedBuffer & {
    return buffers[window[local]];
  };
  auto duration = [&](unsigned local) {
    return std::max<int64_t>(buffer(local).end - buffer(local).start, 0);
  };
  auto atTop = [&](unsigned local) { return topOf(window[local]) == height; };
  // Each comparison ends on the position, so every order is total.
  switch (order) {
  case Order::PeakFirst:
  case Order::PeakFirstBestFit:
    llvm::sort(localOrder, [&](unsigned a, unsigned b) {
      if (atTop(a) != atTop(b))
        return atTop(a);
      if (atTop(a) && buffer(a).size != buffer(b).size)
        return buffer(a).size > buffer(b).size;
      int64_t keyA =
          order == Order::PeakFirst ? offsets[window[a]] : buffer(a).start;
      int64_t keyB =
          order == Order::PeakFirst ? offsets[window[b]] : buffer(b).start;
      return keyA != keyB ? keyA < keyB : a < b;
    });
    break;
  case Order::Size:
  case Order::SizeBestFit:
    llvm::sort(localOrder, [&](unsigned a, unsigned b) {
      if (buffer(a).size != buffer(b).size)
        return buffer(a).size > buffer(b).size;
      return duration(a) != duration(b) ? duration(a) > duration(b) : a < b;
    });
    break;
  case Order::Duration:
    llvm::sort(localOrder, [&](unsigned a, unsigned b) {
      if (duration(a) != duration(b))
        return duration(a) > duration(b);
      return buffer(a).size != buffer(b).size ? buffer(a).size > buffer(b).size
                                              : a < b;
    });
    break;
  case Order::Area:
    llvm::sort(localOrder, [&](unsigned a, unsigned b) {
      __int128 areaA = __int128(buffer(a).size) * duration(a);
      __int128 areaB = __int128(buffer(b).size) * duration(b);
      return areaA != areaB ? areaA > areaB : a < b;
    });
    break;
  case Order::PerturbedOffset: {
    int64_t largest = 1;
    for (unsigned local = 0; local < count; ++local)
      largest = std::max(largest, buffer(local).size);
    sortKey.resize(count);
    for (unsigned local = 0; local < count; ++local)
      sortKey[local] =
          offsets[window[local]] + int64_t(random.below(uint64_t(largest)));
    llvm::sort(localOrder, [&](unsigned a, unsigned b) {
      return sortKey[a] != sortKey[b] ? sortKey[a] < sortKey[b] : a < b;
    });
    break;
  }
  case Order::Shuffled:
    for (size_t k = count; k > 1; --k)
      std::swap(localOrder[k - 1], localOrder[random.below(k)]);
    break;
  case Order::Count:
    break;
  }
}

Repacker::Outcome Repacker::placeWindow() {
  Order order = Order(random.below(uint64_t(Order::Count)));
  orderWindow(order);
  bool bestFit =
      order == Order::SizeBestFit || order == Order::PeakFirstBestFit;

  // The window and its obstacles as a problem of their own: an index over
  // them costs O(m log m), where one over every buffer would cost O(n) to
  // reset per window.
  NormalizedProblem local;
  local.sizeAlignment = problem.sizeAlignment;
  local.buffers.reserve(window.size() + obstacles.size());
  for (unsigned i : window)
    local.buffers.push_back(buffers[i]);
  for (unsigned i : obstacles)
    local.buffers.push_back(buffers[i]);
  // The block under the floor: its lifetime strictly contains every window
  // buffer's, zero-length ones included.
  if (floor > 0)
    local.buffers.push_back({windowStart - 1, windowEnd + 1, floor, 1});
  OccupancyIndex occupancy(local);
  for (size_t k = 0; k < obstacles.size(); ++k)
    occupancy.insert(unsigned(window.size() + k), offsets[obstacles[k]]);
  if (floor > 0)
    occupancy.insert(unsigned(local.buffers.size() - 1), 0);
  stats.work += obstacles.size() + 1;

  // Kept only when the window's tops, highest first, compare
  // lexicographically below the old ones: the height never rises, fewer
  // buffers stay at it, and otherwise the window settles lower, which gives
  // later windows room. No buffer outside the window moves, so the tops of
  // the whole packing decrease the same way and the search cannot cycle.
  newOffsets.resize(window.size());
  newTops.clear();
  for (size_t step = 0; step < localOrder.size(); ++step) {
    if (step % kClockStride == kClockStride - 1 &&
        Clock::now() >= limits.deadline) {
      timedOut = true;
      return Outcome::Rejected;
    }
    unsigned k = localOrder[step];
    int64_t offset = bestFit ? occupancy.bestFit(k) : occupancy.lowestFit(k);
    int64_t top = offset + local.buffers[k].size;
    ++stats.work;
    if (top > height)
      return Outcome::Rejected;
    occupancy.insert(k, offset);
    newOffsets[k] = offset;
    newTops.push_back(top);
  }
  // `window` is sorted by decreasing top.
  llvm::sort(newTops, std::greater<int64_t>());
  bool lower = false;
  for (size_t k = 0; k < window.size(); ++k) {
    int64_t before = topOf(window[k]);
    if (newTops[k] != before) {
      lower = newTops[k] < before;
      break;
    }
  }
  int64_t newHeight = newTops.front();
  if (!lower) {
    // A sideways move: no more buffers at the peak, some moved. It lowers
    // nothing, but changes the ground the next windows stand on, which is
    // how the search leaves a local minimum of the order above.
    size_t peakBefore = 0, peakAfter = 0;
    for (size_t k = 0; k < window.size(); ++k) {
      peakBefore += topOf(window[k]) == height;
      peakAfter += newTops[k] == height;
    }
    bool moved = false;
    for (size_t k = 0; k < window.size() && !moved; ++k)
      moved = newOffsets[k] != offsets[window[k]];
    if (peakAfter > peakBefore || !moved || failures < kSidewaysAfter)
      return Outcome::Rejected;
  }

  for (size_t k = 0; k < window.size(); ++k)
    offsets[window[k]] = newOffsets[k];
  if (newHeight < height) {
    // Buffers outside the window may still be at the peak.
    llvm::erase_if(atPeak, [&](unsigned i) { return windowMark[i] == epoch; });
    if (atPeak.empty())
      refreshPeak();
  } else {
    llvm::erase_if(atPeak, [&](unsigned i) { return windowMark[i] == epoch; });
    for (unsigned i : window)
      if (topOf(i) == height)
        atPeak.push_back(i);
  }
  return lower ? Outcome::Lower : Outcome::Sideways;
}

void Repacker::compact() {
  // In order of offset, each buffer's old place stays free: a conflicting
  // buffer dropped before it lay wholly below that place and only went
  // down. So no buffer rises, and the ones greedy stacked in a band on top
  // of the large buffers (60,000 of the 100,000 synthetic ones) fall into
  // the holes below, which windows, whose floor is the band, cannot reach.
  if (Clock::now() >= limits.deadline || stats.work >= limits.workLimit)
    return;
  std::vector<unsigned> order;
  for (unsigned i = 0, e = buffers.size(); i < e; ++i)
    if (buffers[i].size > 0)
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return offsets[a] != offsets[b] ? offsets[a] < offsets[b] : a < b;
  });
  OccupancyIndex occupancy(problem);
  std::vector<int64_t> dropped(offsets);
  for (size_t step = 0; step < order.size(); ++step) {
    if (step % kClockStride == kClockStride - 1 &&
        Clock::now() >= limits.deadline)
      return;
    unsigned i = order[step];
    dropped[i] = occupancy.lowestFit(i);
    // Cannot happen (see above); if it did, the old packing stays.
    if (dropped[i] > offsets[i])
      return;
    occupancy.insert(i, dropped[i]);
  }
  stats.work += order.size();
  offsets.swap(dropped);
  int64_t before = height;
  refreshPeak();
  ++stats.windowsTried;
  if (height < before) {
    ++stats.windowsImproved;
    if (problem.progress)
      problem.progress->found(slabFromHeight(problem, height));
  }
}

RepackStats Repacker::run(int64_t slabLowerBound) {
  // Zero-size buffers own no byte: offset 0 is valid for them and keeps them
  // out of the height.
  for (size_t i = 0, e = buffers.size(); i < e; ++i)
    if (buffers[i].size == 0)
      offsets[i] = 0;
  refreshPeak();
  stats.startSlab = slabFromHeight(problem, height);
  compact();
  while (!atPeak.empty() && slabFromHeight(problem, height) > slabLowerBound &&
         stats.work < limits.workLimit && failures < kMaxFailures &&
         Clock::now() < limits.deadline) {
    chooseWindow();
    Outcome outcome = placeWindow();
    if (timedOut)
      break;
    ++stats.windowsTried;
    // Sideways moves leave the window size growing and count towards the
    // stall: they cannot go on forever.
    if (outcome != Outcome::Lower) {
      // A stall: drop everything once more before the sideways kicks.
      if (++failures == kSidewaysAfter)
        compact();
      continue;
    }
    ++stats.windowsImproved;
    failures = 0;
    int64_t slab = slabFromHeight(problem, height);
    if (problem.progress && slab < stats.startSlab)
      problem.progress->found(slab);
  }
  stats.finalSlab = slabFromHeight(problem, height);
  return stats;
}

RepackStats detail::repackWindows(const NormalizedProblem &problem,
                                  std::vector<int64_t> &offsets,
                                  int64_t slabLowerBound,
                                  const RepackLimits &limits) {
  Repacker repacker(problem, offsets, limits);
  return repacker.run(slabLowerBound);
}
