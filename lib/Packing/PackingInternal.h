//===- PackingInternal.h - Shared internals of the packer -------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The strategies work on a normalised copy of the problem: half-open
// lifetimes, sizes already rounded, one effective alignment per buffer.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_PACKING_PACKINGINTERNAL_H
#define STREAMHAL_LIB_PACKING_PACKINGINTERNAL_H

#include "streamhal/Packing/Packing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory_resource>
#include <optional>
#include <set>
#include <vector>

namespace streamhal::packing::detail {

//===----------------------------------------------------------------------===//
// Normalised problem
//===----------------------------------------------------------------------===//

/// A buffer with a half-open lifetime `[start, end)`, its size rounded to the
/// size alignment and the alignment its offset must honour.
struct NormalizedBuffer {
  int64_t start = 0;
  int64_t end = 0;
  int64_t size = 0;
  int64_t alignment = 1;
};

/// Forwards progress to `PackingOptions::progress`, remembering the best slab.
class ProgressTracker {
public:
  ProgressTracker(const PackingOptions &options, size_t numBuffers,
                  int64_t slabLowerBound,
                  std::chrono::steady_clock::time_point startTime)
      : callback(options.progress), strategy(toString(options.strategy)),
        numBuffers(numBuffers), slabLowerBound(slabLowerBound),
        startTime(startTime) {}

  /// How many buffers a placement pass places between two reports.
  static constexpr size_t kPlacementStride = 1 << 14;

  /// Reports `placed` buffers of the current pass.
  void placing(size_t placed) { report(placed); }
  /// Records a complete packing of `slab` bytes and reports.
  void found(int64_t slab) {
    if (bestSlab == 0 || slab < bestSlab)
      bestSlab = slab;
    report(numBuffers);
  }

private:
  void report(size_t placed) const {
    if (!callback)
      return;
    PackingProgress progress;
    progress.strategy = strategy;
    progress.bestSlab = bestSlab;
    progress.lowerBound = slabLowerBound;
    progress.placed = placed;
    progress.numBuffers = numBuffers;
    progress.elapsedSeconds = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - startTime)
                                  .count();
    callback(progress);
  }

  const std::function<void(const PackingProgress &)> &callback;
  llvm::StringRef strategy;
  size_t numBuffers;
  int64_t slabLowerBound;
  std::chrono::steady_clock::time_point startTime;
  int64_t bestSlab = 0;
};

/// The problem every strategy works on.
struct NormalizedProblem {
  std::vector<NormalizedBuffer> buffers;
  int64_t sizeAlignment = 1;
  /// Where to report progress; null when nobody listens.
  ProgressTracker *progress = nullptr;
};

/// Converts closed lifetimes `[l, u]` to `[l, u + 1)`; this keeps the
/// intersection test exact for both conventions.
NormalizedProblem normalize(const PackingProblem &problem);

/// The half-open intersection test. A zero-length lifetime `[t, t)` follows
/// the formula literally: it conflicts with lifetimes strictly containing t.
inline bool conflicts(const NormalizedBuffer &a, const NormalizedBuffer &b) {
  return a.start < b.end && b.start < a.end;
}

/// `alignTo` for non-negative values, without a division in the common
/// unaligned case; the best-fit loop calls it once per reservation.
inline int64_t alignUp(int64_t value, int64_t alignment) {
  if (alignment == 1)
    return value;
  return (value + alignment - 1) / alignment * alignment;
}

/// The slab of a packing whose highest byte ends at `height`.
inline int64_t slabFromHeight(const NormalizedProblem &problem,
                              int64_t height) {
  return alignTo(height, problem.sizeAlignment);
}

/// max(offset + size) over all buffers.
int64_t packingHeight(const NormalizedProblem &problem,
                      llvm::ArrayRef<int64_t> offsets);

//===----------------------------------------------------------------------===//
// Conflict index
//===----------------------------------------------------------------------===//

/// Enumerates, for a buffer about to be placed, the already placed buffers
/// whose lifetimes intersect it, without an O(n^2) pass. A conflicting buffer
/// either contains the query's start (a stabbing query on a segment tree over
/// the start times, whose nodes list the placed buffers covering them) or
/// starts strictly inside the query (a range of the start-sorted order, kept
/// as a bitset of placed positions). Each conflicting buffer is reported
/// once; a query costs O(log n + range / 64 + reported buffers).
class ConflictIndex {
public:
  explicit ConflictIndex(const NormalizedProblem &problem);

  /// Forgets every placement.
  void reset();

  /// Records that buffer `i` is placed, with `payload` (what the visitor of
  /// `forEachPlacedConflict` gets back for it: its index, or a sort key).
  void markPlaced(unsigned i, uint64_t payload);

  /// Calls `visit(payload)` for every placed buffer j != i whose lifetime
  /// conflicts with buffer i's. The payloads are stored next to the
  /// structure, so the walk reads memory in order instead of looking up every
  /// neighbour: every listed buffer is known to conflict, except for a
  /// zero-length query, which checks the buffers listed next to them.
  template <typename Visitor>
  void forEachPlacedConflict(unsigned i, Visitor visit) const {
    const NormalizedBuffer &query = buffers[i];
    bool zeroLength = query.start >= query.end;
    // Placed buffers containing the query's start: walk root to leaf. Each
    // has start <= query.start < end, so it conflicts unless the query is
    // empty and starts with it.
    size_t leaf = pointIndex[i];
    size_t node = 1, lo = 0, hi = numPoints;
    while (true) {
      const std::vector<uint64_t> &payloads = nodeLists[node];
      if (!zeroLength) {
        for (uint64_t payload : payloads)
          visit(payload);
      } else {
        const std::vector<unsigned> &listed = nodeBuffers[node];
        for (size_t k = 0, e = payloads.size(); k < e; ++k)
          if (conflicts(query, buffers[listed[k]]))
            visit(payloads[k]);
      }
      if (hi - lo == 1)
        break;
      size_t mid = (lo + hi) / 2;
      if (leaf < mid) {
        node = 2 * node;
        hi = mid;
      } else {
        node = 2 * node + 1;
        lo = mid;
      }
    }
    // Placed buffers starting strictly inside the query: they all conflict
    // (they end after they start, which is after the query's start).
    size_t from = firstStartAfter[i], to = firstStartAtEnd[i];
    for (size_t word = from / 64; from < to; ++word) {
      uint64_t bits = placedByStart[word];
      size_t wordBegin = word * 64;
      if (from > wordBegin)
        bits &= ~uint64_t(0) << (from - wordBegin);
      if (to < wordBegin + 64)
        bits &= (uint64_t(1) << (to - wordBegin)) - 1;
      while (bits) {
        visit(payloadByStart[wordBegin + __builtin_ctzll(bits)]);
        bits &= bits - 1;
      }
      from = wordBegin + 64;
    }
  }

private:
  void collectNodes(size_t node, size_t lo, size_t hi, size_t from, size_t to,
                    std::vector<unsigned> &out);

  llvm::ArrayRef<NormalizedBuffer> buffers;
  /// Number of distinct start times (segment tree leaves).
  size_t numPoints = 0;
  /// Per segment-tree node, the payloads of the placed buffers whose
  /// lifetime covers it, and the buffers themselves (read only by
  /// zero-length queries, which must check every one).
  std::vector<std::vector<uint64_t>> nodeLists;
  std::vector<std::vector<unsigned>> nodeBuffers;
  /// Per buffer, the segment-tree nodes its lifetime decomposes into.
  std::vector<std::vector<unsigned>> nodesOf;
  /// Leaf index of each buffer's start.
  std::vector<size_t> pointIndex;
  /// Buffers sorted by start, each buffer's position in it, and a bitset of
  /// the placed positions.
  std::vector<unsigned> byStart;
  std::vector<size_t> positionByStart;
  std::vector<uint64_t> placedByStart;
  /// The payload of the placed buffer at each position of `byStart`.
  std::vector<uint64_t> payloadByStart;
  /// Per buffer, the first position in `byStart` with a start after its
  /// start, and the first with a start at or after its end.
  std::vector<size_t> firstStartAfter, firstStartAtEnd;
};

//===----------------------------------------------------------------------===//
// Placement in any order: the occupancy index
//===----------------------------------------------------------------------===//

/// A half-open address interval [begin, end).
struct AddressInterval {
  int64_t begin, end;
};

/// A union of address intervals, kept merged (touching intervals become one)
/// and sorted.
class AddressSet {
public:
  /// Adds [begin, end), merging it with every interval it overlaps or
  /// touches. Returns false when the set already covered it.
  bool insert(int64_t begin, int64_t end);
  bool empty() const { return intervals.empty(); }
  /// The disjoint intervals in address order (no two touch).
  llvm::ArrayRef<AddressInterval> getIntervals() const { return intervals; }

private:
  /// Most sets, low in the tree, hold an interval or two: inline, they cost
  /// no pointer chase.
  llvm::SmallVector<AddressInterval, 1> intervals;
};

/// The placed buffers as rectangles of time x address, for placements in any
/// order: a segment tree over time holds merged address sets (see
/// FirstFit.cpp), so a query costs O(log n) set operations per step over the
/// free space instead of a walk over every conflicting placed buffer.
/// Zero-size buffers must not be queried or inserted (they own no byte).
class OccupancyIndex {
public:
  explicit OccupancyIndex(const NormalizedProblem &problem);

  /// Forgets every placement.
  void reset();
  /// The lowest multiple of the buffer's alignment where it meets no placed
  /// buffer whose lifetime intersects its own (first fit).
  int64_t lowestFit(unsigned buffer);
  /// The classic best-fit loop's choice among the placed buffers whose
  /// lifetimes intersect the buffer's: the smallest gap between them (by
  /// unaligned length, the first of equal gaps) whose aligned start leaves
  /// room, else the aligned top. Same offsets as
  /// `BestFitPlacer::placeByConflicts`.
  int64_t bestFit(unsigned buffer);
  /// Records that `buffer` occupies [offset, offset + size) over its life.
  void insert(unsigned buffer, int64_t offset);

private:
  /// Fills `canonical` and `ancestors` for `buffer`'s lifetime.
  void collect(unsigned buffer);
  /// Where a query stands in one address set: the first interval ending
  /// above the candidate, and its neighbours' bounds, kept next to each other
  /// so that checking every set once per gap reads one small array.
  struct SetCursor {
    const AddressInterval *intervals;
    size_t count;
    size_t position;
    /// The end of the interval before `position` (0 when none), and the
    /// bounds of the one at it (INT64_MAX when none).
    int64_t previousEnd, nextBegin, nextEnd;
  };
  /// Collects the buffer's nodes and a cursor on every non-empty address set
  /// holding placed buffers it conflicts with into `cursors`.
  void gatherSets(unsigned buffer);
  /// The lowest aligned offset at or above the aligned `candidate` where
  /// `size` bytes are free in every set; leaves each cursor at its first
  /// interval ending above it.
  int64_t leapfrog(int64_t candidate, int64_t size, int64_t alignment);
  /// Moves `cursor` to its first interval ending above `candidate`.
  static void seek(SetCursor &cursor, int64_t candidate);

  const NormalizedProblem &problem;
  size_t numLeaves = 1;
  /// Per buffer, its leaves [first, last) of the time tree.
  std::vector<std::pair<unsigned, unsigned>> leafRange;
  /// Per node (bottom-up layout, root 1): see FirstFit.cpp.
  std::vector<AddressSet> cover, subtree;
  /// No insertion since the sets were made.
  bool empty = false;
  /// Scratch of `collect` and the queries; `collected` is the buffer whose
  /// nodes `canonical` and `ancestors` hold.
  std::vector<unsigned> canonical, ancestors;
  unsigned collected = ~0u;
  std::vector<SetCursor> cursors;
  std::vector<uint32_t> visitedEpoch;
  uint32_t epoch = 0;
};

/// First fit in any order: each buffer goes to the lowest offset (a multiple
/// of its alignment) where it meets no placed buffer whose lifetime
/// intersects its own, found through an `OccupancyIndex`. Zero-size buffers
/// go to 0 and hinder nobody.
class FirstFitPlacer {
public:
  explicit FirstFitPlacer(const NormalizedProblem &problem)
      : problem(problem), occupancy(problem) {}

  /// Places the buffers in `order` and writes their offsets. Gives up and
  /// returns std::nullopt as soon as the height exceeds `heightCutoff`;
  /// otherwise returns the height (max offset + size).
  std::optional<int64_t> place(llvm::ArrayRef<unsigned> order,
                               std::vector<int64_t> &offsets,
                               int64_t heightCutoff = INT64_MAX);

private:
  const NormalizedProblem &problem;
  OccupancyIndex occupancy;
};

//===----------------------------------------------------------------------===//
// Best-fit placement
//===----------------------------------------------------------------------===//

/// Whether the starts of `order` never decrease (the sweep's precondition),
/// or with `reverse`, never increase.
bool isStartOrdered(const NormalizedProblem &problem,
                    llvm::ArrayRef<unsigned> order, bool reverse = false);

/// Disjoint address intervals of live buffers and the free gaps between them,
/// the gaps also kept ordered by (length, address) for best-fit queries.
/// Every operation is O(log n).
class LiveGaps {
public:
  void clear();
  /// Adds the live interval [offset, end), which must lie in a gap or on top.
  void insert(int64_t offset, int64_t end);
  /// Removes the live interval starting at `offset`.
  void erase(int64_t offset);
  /// The classic loop's choice for a buffer of `size` > 0 when gaps start
  /// aligned: the start of the smallest gap that fits it (the lowest of
  /// equal gaps), else the aligned top.
  int64_t bestFit(int64_t size, int64_t alignment) const;
  /// The classic loop's choice in every case, by a walk over the live
  /// intervals: O(live).
  int64_t bestFitByWalk(int64_t size, int64_t alignment) const;
  /// The end of the highest live interval (0 when none).
  int64_t top() const;

private:
  void addGap(int64_t begin, int64_t end);
  void removeGap(int64_t begin, int64_t end);

  /// Recycles the tree nodes: the sweep inserts and erases one interval per
  /// buffer, and the general-purpose allocator dominated the profile.
  std::pmr::unsynchronized_pool_resource pool;
  /// offset -> end of each live interval.
  std::pmr::map<int64_t, int64_t> occupied{&pool};
  /// (length, begin) of each non-empty gap below the top.
  std::pmr::set<std::pair<int64_t, int64_t>> gaps{&pool};
};

/// Best fit for orders of non-decreasing start, by a sweep over time: the
/// conflicting placed buffers are the live ones, kept in `LiveGaps`.
/// O(n log n); gives the same offsets as the conflict walk.
class SweepPlacer {
public:
  explicit SweepPlacer(const NormalizedProblem &problem) : problem(problem) {}

  /// As `BestFitPlacer::place`; `order` must be start ordered.
  std::optional<int64_t> place(llvm::ArrayRef<unsigned> order,
                               std::vector<int64_t> &offsets,
                               int64_t heightCutoff = INT64_MAX);

private:
  const NormalizedProblem &problem;
  LiveGaps live;
};

/// The classic best-fit placement loop, generalised to any order: each buffer
/// goes into the smallest gap between already placed conflicting buffers
/// (sorted by offset) that fits it, or on top of them all. Zero-size buffers
/// own no byte: they go to offset 0 and hinder nobody. Orders of
/// non-decreasing start are placed by the O(n log n) sweep; other orders walk
/// the conflicting placed buffers of each buffer (O(E log d) for E conflicting
/// pairs and d conflicts per buffer).
class BestFitPlacer {
public:
  explicit BestFitPlacer(const NormalizedProblem &problem);

  /// Places the buffers in `order` and writes their offsets. Gives up and
  /// returns std::nullopt as soon as the height exceeds `heightCutoff`;
  /// otherwise returns the height (max offset + size).
  std::optional<int64_t> place(llvm::ArrayRef<unsigned> order,
                               std::vector<int64_t> &offsets,
                               int64_t heightCutoff = INT64_MAX);

  /// `place` through an `OccupancyIndex` whatever the order.
  std::optional<int64_t> placeByOccupancy(llvm::ArrayRef<unsigned> order,
                                          std::vector<int64_t> &offsets,
                                          int64_t heightCutoff = INT64_MAX);

  /// `place` by the conflict walk whatever the order (the reference the
  /// sweep is tested against).
  std::optional<int64_t> placeByConflicts(llvm::ArrayRef<unsigned> order,
                                          std::vector<int64_t> &offsets,
                                          int64_t heightCutoff = INT64_MAX);

private:
  enum class Engine { Conflicts, Occupancy };
  std::optional<int64_t> placeWith(Engine engine,
                                   llvm::ArrayRef<unsigned> order,
                                   std::vector<int64_t> &offsets,
                                   int64_t heightCutoff);
  /// The conflict walk's choice for `current`, the next buffer of `order`.
  int64_t bestFitByConflicts(unsigned current, llvm::ArrayRef<unsigned> order,
                             llvm::ArrayRef<int64_t> offsets);
  bool usePackedKeys = false;

  struct Reservation {
    int64_t offset;
    int64_t end;
    /// Placement step; among equal offsets the most recent comes first, the
    /// order IREE's insertion into its offset-sorted list produces.
    unsigned step;
  };

  const NormalizedProblem &problem;
  /// Built on the first order that is not start ordered.
  std::optional<OccupancyIndex> occupancy;
  std::optional<ConflictIndex> index;
  SweepPlacer sweep;
  std::vector<unsigned> placedStep;
  /// How many low bits of a packed key hold the buffer's size (the high
  /// bits hold its offset).
  unsigned sizeBits = 0;
  std::vector<Reservation> scratch;
  std::vector<uint64_t> packedScratch, radixScratch;
};

/// The number of pairs of buffers whose lifetimes intersect, counted in
/// O(n log n) (zero-length lifetimes may be over-counted).
uint64_t countConflictingPairs(const NormalizedProblem &problem);

//===----------------------------------------------------------------------===//
// Strategies
//===----------------------------------------------------------------------===//

/// Best fit in input order (parity with IREE's placement loop).
PackingResult packInOrder(const NormalizedProblem &problem);

/// The rows sorted by (lower, upper, size, alignment) of the original
/// problem, ties by index: an order that depends only on the multiset of rows
/// and is start ordered.
std::vector<unsigned> canonicalOrder(const PackingProblem &problem);

/// Best of several orderings (largest first by first fit, then best fit in
/// several orders), all derived from `canonical` (a `canonicalOrder`), so
/// the result does not depend on the order of the rows; never worse than
/// in-order on the canonically sorted rows. Without `firstFit`, only the
/// best-fit orderings run (the packing `optimal` starts its search from).
/// With `tryGivenOrder`, `tryInOrderOnGivenRows` follows.
PackingResult packGreedy(const NormalizedProblem &problem,
                         llvm::ArrayRef<unsigned> canonical,
                         bool firstFit = true, bool tryGivenOrder = true);

/// Replaces `result` by in-order on the rows as given when that is at least
/// as good, unless running it would cost more than greedy itself (rows that
/// are not start ordered, and not `withinPairBudget`: more than greedy's
/// budget of conflicting pairs).
void tryInOrderOnGivenRows(const NormalizedProblem &problem,
                           bool withinPairBudget, PackingResult &result);

/// Whether some part of the problem (buffers no lifetime separates) is small
/// enough for `packOptimal` to search; when none is, it can only return its
/// incumbent.
bool hasSearchablePart(const NormalizedProblem &problem);

/// Branch and bound starting from `incumbent` (a greedy packing).
PackingResult packOptimal(const NormalizedProblem &problem,
                          PackingResult incumbent, int64_t lowerBound,
                          const PackingOptions &options,
                          std::chrono::steady_clock::time_point deadline);

} // namespace streamhal::packing::detail

#endif // STREAMHAL_LIB_PACKING_PACKINGINTERNAL_H
