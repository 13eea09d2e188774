//===- Greedy.cpp - Best of several best-fit orderings --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places the buffers by best fit in several orders and keeps the lowest
// packing. Every order is derived from the canonical order of the rows (not
// from the order they come in), which is itself one of them: the result does
// not depend on the row order and is never worse than in-order on the
// canonically sorted rows. An ordering is abandoned as soon as it exceeds the
// best height seen so far, which makes the losers cheap.
//
// Orders of non-decreasing start are placed by the O(n log n) sweep; the
// others walk every conflicting pair, so they only run while the instance has
// at most kClassicPairBudget conflicting pairs. Beyond it, sweeps in both
// directions of time with several tie-breaks replace them.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

#define DEBUG_TYPE "streamhal-packing"

/// The most conflicting pairs for which the orderings that are not start
/// ordered (and cost O(E log d) each) are run. The largest real instance
/// (somas_pangu_2.6B, 12.2 million pairs) stays below it.
static constexpr uint64_t kClassicPairBudget = 16'000'000;

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
/// the live bytes of each elementary section, a segment tree answers the
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

  // A bottom-up segment tree over the sections answers the range maxima in
  // O(log n) with O(n) memory.
  std::vector<int64_t> tree(2 * numSections);
  std::copy(live.begin(), live.end() - 1, tree.begin() + numSections);
  for (size_t node = numSections - 1; node > 0; --node)
    tree[node] = std::max(tree[2 * node], tree[2 * node + 1]);
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].start >= buffers[i].end)
      continue;
    int64_t peak = 0;
    for (size_t lo = pointOf(buffers[i].start) + numSections,
                hi = pointOf(buffers[i].end) + numSections;
         lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1)
        peak = std::max(peak, tree[lo++]);
      if (hi & 1)
        peak = std::max(peak, tree[--hi]);
    }
    peaks[i] = peak;
  }
  return peaks;
}

/// On instances too large for the classic orderings: best fit sweeping time
/// backwards (latest end first; the mirror image of a start sweep, and just
/// as valid since reversing time keeps every conflict), ties longest or
/// largest first, plus a forward sweep whose ties go largest first.
static void runReverseSweeps(const NormalizedProblem &problem,
                             llvm::ArrayRef<BufferKeys> keys,
                             PackingResult &best, int64_t &bestHeight) {
  NormalizedProblem reversed = problem;
  for (NormalizedBuffer &buffer : reversed.buffers)
    std::tie(buffer.start, buffer.end) =
        std::make_pair(-buffer.end, -buffer.start);
  auto bySize = [](const BufferKeys &a, const BufferKeys &b) {
    return a.size > b.size;
  };
  auto byDuration = [](const BufferKeys &a, const BufferKeys &b) {
    return a.duration > b.duration;
  };
  using TieBreak = bool (*)(const BufferKeys &, const BufferKeys &);
  struct Sweep {
    const NormalizedProblem *problem;
    TieBreak tieBreak;
  };
  Sweep sweeps[] = {
      {&reversed, byDuration}, {&reversed, bySize}, {&problem, bySize}};
  std::vector<unsigned> order(problem.buffers.size());
  std::vector<int64_t> offsets;
  for (const Sweep &sweep : sweeps) {
    const std::vector<NormalizedBuffer> &buffers = sweep.problem->buffers;
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      if (buffers[a].start != buffers[b].start)
        return buffers[a].start < buffers[b].start;
      return sweep.tieBreak(keys[a], keys[b]);
    });
    SweepPlacer placer(*sweep.problem);
    int64_t cutoff = bestHeight == INT64_MAX ? bestHeight : bestHeight - 1;
    std::optional<int64_t> height = placer.place(order, offsets, cutoff);
    if (height && *height < bestHeight) {
      bestHeight = *height;
      best.offsets.swap(offsets);
      if (problem.progress)
        problem.progress->found(slabFromHeight(problem, bestHeight));
    }
  }
}

/// The share of the lower bound that the buffers placed on top by
/// `placeLargestFirst` may hold at their peak, at most.
static constexpr double kSmallBufferShare = 0.005;

/// The buffers whose size is below the returned threshold together hold at
/// most `share` of the lower bound at any instant (bounded by the sum of the
/// peaks of the power-of-two size classes below it); 0 when none do.
static int64_t smallSizeThreshold(const NormalizedProblem &problem,
                                  double share) {
  struct Event {
    int64_t time;
    int64_t delta;
    unsigned sizeClass;
  };
  std::vector<Event> events;
  for (const NormalizedBuffer &buffer : problem.buffers) {
    if (buffer.start >= buffer.end || buffer.size == 0)
      continue;
    unsigned sizeClass = llvm::Log2_64(uint64_t(buffer.size));
    events.push_back({buffer.start, buffer.size, sizeClass});
    events.push_back({buffer.end, -buffer.size, sizeClass});
  }
  // Ends before starts at equal times, as in computeLowerBound.
  llvm::sort(events, [](const Event &a, const Event &b) {
    return std::tie(a.time, a.delta) < std::tie(b.time, b.delta);
  });
  constexpr unsigned kNumClasses = 64;
  int64_t live[kNumClasses] = {}, peak[kNumClasses] = {};
  int64_t liveTotal = 0, peakTotal = 0;
  for (const Event &event : events) {
    int64_t &classLive = live[event.sizeClass];
    classLive += event.delta;
    peak[event.sizeClass] = std::max(peak[event.sizeClass], classLive);
    liveTotal += event.delta;
    peakTotal = std::max(peakTotal, liveTotal);
  }
  double budget = share * double(peakTotal);
  int64_t threshold = 0;
  double held = 0;
  for (unsigned sizeClass = 0; sizeClass + 1 < kNumClasses; ++sizeClass) {
    held += double(peak[sizeClass]);
    if (held > budget)
      break;
    threshold = int64_t(1) << (sizeClass + 1);
  }
  return threshold;
}

/// The orders `placeLargestFirst` places in.
enum class LargestFirst {
  /// Power-of-two size classes, largest first; the longest-lived first
  /// within a class, then the largest, then by start. Long buffers of a
  /// class go down first and the shorter ones fill the slots between them:
  /// 1.022 of the lower bound against 1.041 by size alone on the 100,000
  /// synthetic buffers (1.034 against 1.041 at 50,000).
  SizeClassThenDuration,
  /// Sizes descending, equal sizes by start (wins on some instances).
  Size,
};

/// Largest first by first fit, which packs large random instances far
/// tighter than any start-ordered sweep (1.02-1.05 against 1.14-1.19 of the
/// lower bound at 100,000 buffers). With `smallShare` > 0, the
/// buffers too small to matter (together at most that share of the lower
/// bound at their peak, see `smallSizeThreshold`) skip the first fit, whose
/// cost per buffer grows with the fragmentation below it, and are swept in
/// start order into a band above the large ones instead.
static std::optional<int64_t>
placeLargestFirst(const NormalizedProblem &problem,
                  llvm::ArrayRef<BufferKeys> keys, LargestFirst kind,
                  double smallShare, int64_t heightCutoff,
                  std::vector<int64_t> &offsets) {
  size_t numBuffers = problem.buffers.size();
  std::vector<unsigned> order(numBuffers);
  std::iota(order.begin(), order.end(), 0);
  auto sizeClass = [&](unsigned i) {
    return keys[i].size == 0 ? -1 : int(llvm::Log2_64(uint64_t(keys[i].size)));
  };
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    if (kind == LargestFirst::SizeClassThenDuration) {
      if (sizeClass(a) != sizeClass(b))
        return sizeClass(a) > sizeClass(b);
      if (keys[a].duration != keys[b].duration)
        return keys[a].duration > keys[b].duration;
    }
    if (keys[a].size != keys[b].size)
      return keys[a].size > keys[b].size;
    return keys[a].start < keys[b].start;
  });
  int64_t threshold =
      smallShare > 0 ? smallSizeThreshold(problem, smallShare) : 0;
  // The band's base is aligned for every small buffer; with alignments
  // whose common multiple is huge, nothing goes to the band.
  // (Each alignment is at most 2^30, so stopping there keeps the lcm from
  // overflowing.)
  int64_t bandAlignment = 1;
  for (const NormalizedBuffer &buffer : problem.buffers) {
    if (buffer.size > 0 && buffer.size < threshold)
      bandAlignment = std::lcm(bandAlignment, buffer.alignment);
    if (bandAlignment > (int64_t(1) << 30)) {
      threshold = 0;
      break;
    }
  }
  auto isSmall = [&](unsigned i) {
    return problem.buffers[i].size > 0 && problem.buffers[i].size < threshold;
  };
  std::vector<unsigned> small;
  if (threshold > 0) {
    // In index order, which is start ordered (the problem is canonical).
    for (unsigned i = 0; i < numBuffers; ++i)
      if (isSmall(i))
        small.push_back(i);
    llvm::erase_if(order, isSmall);
  }

  FirstFitPlacer firstFit(problem);
  std::optional<int64_t> height = firstFit.place(order, offsets, heightCutoff);
  if (!height || small.empty())
    return height;

  NormalizedProblem band;
  band.sizeAlignment = problem.sizeAlignment;
  band.buffers.reserve(small.size());
  for (unsigned i : small)
    band.buffers.push_back(problem.buffers[i]);
  std::vector<unsigned> bandOrder(small.size());
  std::iota(bandOrder.begin(), bandOrder.end(), 0);
  int64_t base = alignUp(*height, bandAlignment);
  std::vector<int64_t> bandOffsets;
  SweepPlacer sweep(band);
  std::optional<int64_t> bandHeight =
      sweep.place(bandOrder, bandOffsets,
                  heightCutoff == INT64_MAX ? INT64_MAX : heightCutoff - base);
  if (!bandHeight)
    return std::nullopt;
  for (size_t k = 0; k < small.size(); ++k)
    offsets[small[k]] = base + bandOffsets[k];
  return std::max(*height, base + *bandHeight);
}

/// A strict weak order on buffer keys (ties keep the input order).
using GreedyOrdering =
    std::function<bool(const BufferKeys &, const BufferKeys &)>;

/// The keys every ordering sorts by; only the classic orderings look at
/// lifetime peaks.
static std::vector<BufferKeys>
computeBufferKeys(const NormalizedProblem &problem, bool runClassic) {
  size_t numBuffers = problem.buffers.size();
  std::vector<int64_t> peaks = runClassic ? computeLifetimePeaks(problem)
                                          : std::vector<int64_t>(numBuffers);
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

  return keys;
}

/// The orderings greedy tries, best first (the input order comes after).
static std::vector<GreedyOrdering> getGreedyOrderings() {
  // Each ordering is a strict weak order on buffer keys; ties keep the input
  // order (stable sort).
  return {
      // Largest first, equal sizes in time order: buffers of one size then
      // reuse the same slots one after the other. Models repeat sizes, and
      // the tie-break matters: somas_pangu_2.6B packs to 1.0076 this way,
      // 1.0334 with the longest first among equal sizes. It often wins, so
      // it goes first: a low height early makes the cutoff stop losers
      // sooner.
      [](const BufferKeys &a, const BufferKeys &b) {
        if (a.size != b.size)
          return a.size > b.size;
        return a.start < b.start;
      },
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
}

/// Greedy on a problem whose buffers are in canonical order (see
/// `packGreedy`); the input order is one of the orderings.
static PackingResult packCanonical(const NormalizedProblem &problem,
                                   bool firstFit, bool runClassic) {
  size_t numBuffers = problem.buffers.size();
  std::vector<BufferKeys> keys = computeBufferKeys(problem, runClassic);
  using Less = GreedyOrdering;
  std::vector<Less> orderings = getGreedyOrderings();

  // The (canonical) input order goes last: it rarely wins, and by then the
  // cutoff usually stops it early. It wins ties, so that whenever in-order
  // on the rows sorted canonically is as good as any ordering, its offsets
  // are the ones kept.
  size_t startOrdering = orderings.size() - 1;
  orderings.push_back(nullptr);

  BestFitPlacer placer(problem);
  PackingResult best;
  int64_t bestHeight = INT64_MAX;
  std::vector<unsigned> order(numBuffers);
  std::vector<int64_t> offsets;
  // Largest first by first fit goes first: it usually wins, and its height
  // is the cutoff that stops the others early. Beyond the classic budget
  // only the size-class order runs (a second pass would double the time,
  // its height rising too late for the cutoff to stop it early), and the
  // smallest buffers go to a band on top (see `placeLargestFirst`).
  for (LargestFirst kind :
       {LargestFirst::SizeClassThenDuration, LargestFirst::Size}) {
    if (!firstFit ||
        (!runClassic && kind != LargestFirst::SizeClassThenDuration))
      continue;
    int64_t cutoff = bestHeight == INT64_MAX ? bestHeight : bestHeight - 1;
    std::optional<int64_t> height = placeLargestFirst(
        problem, keys, kind, runClassic ? 0.0 : kSmallBufferShare, cutoff,
        offsets);
    if (!height || *height >= bestHeight)
      continue;
    bestHeight = *height;
    best.offsets.swap(offsets);
    if (problem.progress)
      problem.progress->found(slabFromHeight(problem, bestHeight));
  }
  if (!runClassic)
    runReverseSweeps(problem, keys, best, bestHeight);
  for (size_t k = 0; k < orderings.size(); ++k) {
    const Less &less = orderings[k];
    // Too many conflicting pairs for the conflict walk: only the start
    // ordering (a sweep) and the input order run.
    if (!runClassic && less && k != startOrdering)
      continue;
    std::iota(order.begin(), order.end(), 0);
    if (less) {
      llvm::stable_sort(order, [&](unsigned a, unsigned b) {
        return less(keys[a], keys[b]);
      });
      // The input order runs last, wins ties and would give the same
      // packing.
      if (llvm::all_of(llvm::enumerate(order), [](auto entry) {
            return entry.index() == entry.value();
          }))
        continue;
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
      if (problem.progress)
        problem.progress->found(slabFromHeight(problem, bestHeight));
    }
  }
  best.slabSize = slabFromHeight(problem, bestHeight);
  if (numBuffers == 0)
    best.slabSize = 0;
  return best;
}

PackingResult detail::packGreedy(const NormalizedProblem &problem,
                                 llvm::ArrayRef<unsigned> canonical,
                                 bool firstFit, bool tryGivenOrder) {
  // Greedy chooses its own orders, so the order of the rows must not matter:
  // it packs the rows in canonical order (see `canonicalOrder`), and every
  // ordering below is a stable sort of that order. The slab and each row's
  // offset then depend only on the multiset of rows (equal rows are
  // interchangeable). It also keeps the start ordering and the canonical
  // order itself on the O(n log n) sweep for any input.
  size_t numBuffers = problem.buffers.size();
  assert(canonical.size() == numBuffers && "one position per buffer");
  NormalizedProblem sorted;
  sorted.sizeAlignment = problem.sizeAlignment;
  sorted.progress = problem.progress;
  sorted.buffers.reserve(numBuffers);
  for (unsigned i : canonical)
    sorted.buffers.push_back(problem.buffers[i]);
  // The same for every row order; both packCanonical and the in-order run
  // decide by it.
  bool withinBudget = countConflictingPairs(problem) <= kClassicPairBudget;
  PackingResult result = packCanonical(sorted, firstFit, withinBudget);
  std::vector<int64_t> offsets(numBuffers, 0);
  for (size_t position = 0; position < numBuffers; ++position)
    offsets[canonical[position]] = result.offsets[position];
  result.offsets = std::move(offsets);
  if (tryGivenOrder)
    tryInOrderOnGivenRows(problem, withinBudget, result);
  return result;
}

void detail::tryInOrderOnGivenRows(const NormalizedProblem &problem,
                                   bool withinPairBudget,
                                   PackingResult &result) {
  // Greedy is never worse than in-order on the rows as given, and returns
  // in-order's offsets when they tie (a compiler's pack in op order then
  // gets the classic loop's offsets whenever they are as good). The run is
  // skipped where it would cost more than all of greedy (rows neither start
  // ordered nor small), so that greedy's time never depends on the row
  // order; there in-order is far behind greedy anyway. Rows in canonical
  // order are run too: greedy's own run of them loses a tie of slabs (the
  // aligned total) to a lower height.
  size_t numBuffers = problem.buffers.size();
  std::vector<unsigned> given(numBuffers);
  std::iota(given.begin(), given.end(), 0);
  if (numBuffers == 0)
    return;
  if (!isStartOrdered(problem, given) && !withinPairBudget)
    return;
  BestFitPlacer placer(problem);
  std::vector<int64_t> offsets;
  // A height at or below the slab rounds to at most the slab.
  std::optional<int64_t> height =
      placer.place(given, offsets, /*heightCutoff=*/result.slabSize);
  if (!height)
    return;
  LLVM_DEBUG(llvm::dbgs() << "greedy: in-order on the given rows reaches "
                          << slabFromHeight(problem, *height) << " against "
                          << result.slabSize << "\n");
  result.slabSize = slabFromHeight(problem, *height);
  result.offsets = std::move(offsets);
  if (problem.progress)
    problem.progress->found(result.slabSize);
}
