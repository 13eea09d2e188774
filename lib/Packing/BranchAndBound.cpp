//===- BranchAndBound.cpp - Decision search of the optimal packer ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A branch-and-bound search in the spirit of MiniMalloc (Moffitt, ASPLOS
// 2023), written from the paper's ideas:
//
// - Canonical solutions. Push every buffer of a packing down until it rests
//   on a conflicting buffer (or on 0). Then each buffer sits at the lowest
//   aligned offset above the conflicting buffers below it, so a packing is
//   fully described by the order in which buffers are placed, and we may
//   place them by non-decreasing (offset, preorder rank). A branch picks the
//   next buffer; its offset is forced.
// - Dominance. If an unplaced buffer would end, at its lowest offset, at or
//   below the offset chosen for the next buffer, it could have been placed
//   first; such branches are skipped.
// - Section inference. Time is cut into sections (between consecutive
//   lifetime end points). The unplaced buffers of a section are pairwise
//   live together, so they stack above the section's floor; if floor + their
//   sizes exceeds the capacity the node fails.
// - Decomposition. Times no lifetime crosses split the problem into parts
//   that are packed independently.
//
// The search answers "is there a packing of height <= C?"; the minimiser
// around it tries capacities between the lower bound and the incumbent.
//
//===----------------------------------------------------------------------===//

#include "BranchAndBound.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

SearchPart::SearchPart(const NormalizedProblem &problem,
                       std::vector<unsigned> indices)
    : members(std::move(indices)) {
  size_t size = members.size();
  for (unsigned global : members)
    buffers.push_back(problem.buffers[global]);

  // Conflicts: scan forward in start order while the next start is inside.
  std::vector<unsigned> byStart(size);
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
    return buffers[a].start < buffers[b].start;
  });
  conflicts.resize(size);
  for (size_t x = 0; x < size; ++x) {
    unsigned i = byStart[x];
    for (size_t y = x + 1; y < size; ++y) {
      unsigned j = byStart[y];
      if (buffers[j].start >= buffers[i].end)
        break;
      if (detail::conflicts(buffers[i], buffers[j])) {
        conflicts[i].push_back(j);
        conflicts[j].push_back(i);
      }
    }
  }

  // Sections between consecutive end points of non-empty lifetimes.
  std::vector<int64_t> points;
  for (const NormalizedBuffer &buffer : buffers) {
    if (buffer.start < buffer.end) {
      points.push_back(buffer.start);
      points.push_back(buffer.end);
    }
  }
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  auto pointOf = [&](int64_t time) {
    return unsigned(std::lower_bound(points.begin(), points.end(), time) -
                    points.begin());
  };
  sectionMembers.resize(points.empty() ? 0 : points.size() - 1);
  std::vector<int64_t> sectionLive(sectionMembers.size(), 0);
  sectionRange.resize(size, {0, 0});
  for (unsigned i = 0; i < size; ++i) {
    if (buffers[i].start >= buffers[i].end)
      continue;
    sectionRange[i] = {pointOf(buffers[i].start), pointOf(buffers[i].end)};
    for (unsigned s = sectionRange[i].first; s < sectionRange[i].second; ++s) {
      sectionMembers[s].push_back(i);
      sectionLive[s] += buffers[i].size;
    }
  }
  peak.assign(size, 0);
  for (unsigned i = 0; i < size; ++i)
    for (unsigned s = sectionRange[i].first; s < sectionRange[i].second; ++s)
      peak[i] = std::max(peak[i], sectionLive[s]);
  for (int64_t live : sectionLive)
    lowerBound = std::max(lowerBound, live);
}

namespace {

//===----------------------------------------------------------------------===//
// Decision search
//===----------------------------------------------------------------------===//

/// The static tie-breaking orders of the search (MiniMalloc calls them
/// preorderings); different instances favour different ones, so the driver
/// round-robins them with growing node limits.
enum class Preorder {
  PeakWidthArea,
  WidthPeakArea,
  WidthAreaPeak,
  PeakAreaWidth
};
constexpr Preorder kPreorders[] = {
    Preorder::PeakWidthArea, Preorder::WidthPeakArea, Preorder::WidthAreaPeak,
    Preorder::PeakAreaWidth};

/// Depth-first search for a packing of `part` of height <= capacity.
class DecisionSearch {
public:
  DecisionSearch(const SearchPart &part, int64_t capacity, Preorder preorder,
                 SearchBudget &budget, uint64_t nodeLimit);

  /// Runs the search; on `Found`, `offsets` holds the packing (local order).
  SearchOutcome run(std::vector<int64_t> &offsets);

private:
  struct Candidate {
    int64_t offset;
    unsigned rank;
  };
  struct Change {
    unsigned index;
    int64_t oldValue;
  };

  /// Unplaced buffers (by increasing rank) no other unplaced buffer crosses
  /// into, with the sections [firstSection, endSection) they live in.
  struct Region {
    std::vector<unsigned> members;
    unsigned firstSection;
    unsigned endSection;
  };

  SearchOutcome solveRegion(const Region &region);
  SearchOutcome search(const Region &region, int64_t lastOffset,
                       unsigned lastRank);
  SearchOutcome searchAfterPlacing(const Region &region, unsigned buffer,
                                   int64_t offset, unsigned rank);
  bool place(unsigned buffer, int64_t offset, const Region &region);
  void unplace(unsigned buffer, size_t minOffsetMark, size_t floorMark);
  bool sectionsFit(int64_t offset, const Region &region) const;

  const SearchPart &part;
  int64_t capacity;
  SearchBudget &budget;
  uint64_t nodesLeft;

  /// rankOf[buffer] in the preorder, and its inverse.
  std::vector<unsigned> rankOf, byRank;
  std::vector<int64_t> offsetOf; // -1 while unplaced
  std::vector<int64_t> solution;
  std::vector<int64_t> minOffset;
  std::vector<int64_t> floor, unplacedBytes;
  std::vector<Change> minOffsetChanges, floorChanges;
  std::vector<unsigned> affectedStamp;
  std::vector<unsigned> affectedSections;
  unsigned stamp = 0;
  std::vector<std::vector<Candidate>> candidatesByDepth;
  /// Per boundary between sections s and s + 1, the unplaced buffers living
  /// on both sides. A zero splits the remaining problem in two.
  std::vector<unsigned> crossings;
  unsigned numPlaced = 0;
};

DecisionSearch::DecisionSearch(const SearchPart &part, int64_t capacity,
                               Preorder preorder, SearchBudget &budget,
                               uint64_t nodeLimit)
    : part(part), capacity(capacity), budget(budget), nodesLeft(nodeLimit) {
  size_t size = part.buffers.size();
  auto width = [&](unsigned i) {
    return part.sectionRange[i].second - part.sectionRange[i].first;
  };
  auto area = [&](unsigned i) {
    return __int128(part.buffers[i].size) *
           (part.buffers[i].end - part.buffers[i].start);
  };
  byRank.resize(size);
  std::iota(byRank.begin(), byRank.end(), 0);
  llvm::stable_sort(byRank, [&](unsigned a, unsigned b) {
    switch (preorder) {
    case Preorder::PeakWidthArea:
      if (part.peak[a] != part.peak[b])
        return part.peak[a] > part.peak[b];
      if (width(a) != width(b))
        return width(a) > width(b);
      return area(a) > area(b);
    case Preorder::WidthPeakArea:
      if (width(a) != width(b))
        return width(a) > width(b);
      if (part.peak[a] != part.peak[b])
        return part.peak[a] > part.peak[b];
      return area(a) > area(b);
    case Preorder::WidthAreaPeak:
      if (width(a) != width(b))
        return width(a) > width(b);
      if (area(a) != area(b))
        return area(a) > area(b);
      return part.peak[a] > part.peak[b];
    case Preorder::PeakAreaWidth:
      if (part.peak[a] != part.peak[b])
        return part.peak[a] > part.peak[b];
      if (area(a) != area(b))
        return area(a) > area(b);
      return width(a) > width(b);
    }
    return false;
  });
  rankOf.resize(size);
  for (unsigned r = 0; r < size; ++r)
    rankOf[byRank[r]] = r;

  offsetOf.assign(size, -1);
  minOffset.assign(size, 0);
  size_t numSections = part.sectionMembers.size();
  floor.assign(numSections, 0);
  unplacedBytes.assign(numSections, 0);
  for (unsigned i = 0; i < size; ++i)
    for (unsigned s = part.sectionRange[i].first;
         s < part.sectionRange[i].second; ++s)
      unplacedBytes[s] += part.buffers[i].size;
  affectedStamp.assign(numSections, 0);
  candidatesByDepth.resize(size + 1);
  crossings.assign(numSections, 0);
  for (unsigned i = 0; i < size; ++i)
    for (unsigned s = part.sectionRange[i].first;
         s + 1 < part.sectionRange[i].second; ++s)
      ++crossings[s];
}

SearchOutcome DecisionSearch::run(std::vector<int64_t> &offsets) {
  Region whole{byRank, 0, unsigned(part.sectionMembers.size())};
  if (!sectionsFit(0, whole))
    return SearchOutcome::Infeasible;
  solution.assign(part.buffers.size(), -1);
  SearchOutcome outcome = solveRegion(whole);
  if (outcome == SearchOutcome::Found)
    offsets = std::move(solution);
  return outcome;
}

SearchOutcome DecisionSearch::solveRegion(const Region &region) {
  // Sub-regions restart the canonical order: their buffers are independent
  // of everything placed outside them.
  return search(region, INT64_MIN, 0);
}

bool DecisionSearch::sectionsFit(int64_t offset, const Region &region) const {
  // Every unplaced buffer will sit at or above `offset` (canonical order) and
  // above its section's floor, stacked with the section's other unplaced
  // buffers.
  for (unsigned s = region.firstSection; s < region.endSection; ++s)
    if (unplacedBytes[s] > 0 &&
        std::max(floor[s], offset) + unplacedBytes[s] > capacity)
      return false;
  return true;
}

bool DecisionSearch::place(unsigned buffer, int64_t offset,
                           const Region &region) {
  const NormalizedBuffer &placed = part.buffers[buffer];
  int64_t top = offset + placed.size;
  offsetOf[buffer] = offset;
  ++numPlaced;

  // The buffer's own sections: it is now their highest byte. (Done first so
  // that `unplace` can always undo it.)
  for (unsigned s = part.sectionRange[buffer].first;
       s < part.sectionRange[buffer].second; ++s) {
    floorChanges.push_back({s, floor[s]});
    floor[s] = std::max(floor[s], top);
    unplacedBytes[s] -= placed.size;
  }
  for (unsigned s = part.sectionRange[buffer].first;
       s + 1 < part.sectionRange[buffer].second; ++s)
    --crossings[s];

  // Conflicting buffers can no longer start below this one's top.
  ++stamp;
  affectedSections.clear();
  for (unsigned other : part.conflicts[buffer]) {
    if (offsetOf[other] >= 0 || minOffset[other] >= top)
      continue;
    minOffsetChanges.push_back({other, minOffset[other]});
    minOffset[other] = alignTo(top, part.buffers[other].alignment);
    if (minOffset[other] + part.buffers[other].size > capacity)
      return false;
    for (unsigned s = part.sectionRange[other].first;
         s < part.sectionRange[other].second; ++s) {
      if (affectedStamp[s] != stamp) {
        affectedStamp[s] = stamp;
        affectedSections.push_back(s);
      }
    }
  }
  // No unplaced buffer of a section can start below the lowest of their
  // minimum offsets, so the section's floor rises to it.
  for (unsigned s : affectedSections) {
    int64_t lowest = INT64_MAX;
    for (unsigned member : part.sectionMembers[s])
      if (offsetOf[member] < 0)
        lowest = std::min(lowest, minOffset[member]);
    if (lowest != INT64_MAX && lowest > floor[s]) {
      floorChanges.push_back({s, floor[s]});
      floor[s] = lowest;
    }
  }
  return sectionsFit(offset, region);
}

void DecisionSearch::unplace(unsigned buffer, size_t minOffsetMark,
                             size_t floorMark) {
  while (floorChanges.size() > floorMark) {
    floor[floorChanges.back().index] = floorChanges.back().oldValue;
    floorChanges.pop_back();
  }
  while (minOffsetChanges.size() > minOffsetMark) {
    minOffset[minOffsetChanges.back().index] = minOffsetChanges.back().oldValue;
    minOffsetChanges.pop_back();
  }
  for (unsigned s = part.sectionRange[buffer].first;
       s < part.sectionRange[buffer].second; ++s)
    unplacedBytes[s] += part.buffers[buffer].size;
  for (unsigned s = part.sectionRange[buffer].first;
       s + 1 < part.sectionRange[buffer].second; ++s)
    ++crossings[s];
  offsetOf[buffer] = -1;
  --numPlaced;
}

SearchOutcome DecisionSearch::search(const Region &region, int64_t lastOffset,
                                     unsigned lastRank) {
  if (nodesLeft == 0)
    return SearchOutcome::OutOfBudget;
  --nodesLeft;
  if (!budget.charge())
    return SearchOutcome::OutOfBudget;

  std::vector<Candidate> &candidates = candidatesByDepth[numPlaced];
  candidates.clear();
  // The two lowest tops of unplaced buffers at their minimum offsets, for the
  // dominance test.
  int64_t lowestTop = INT64_MAX, secondTop = INT64_MAX;
  unsigned lowestTopBuffer = ~0u;
  for (unsigned buffer : region.members) {
    if (offsetOf[buffer] >= 0)
      continue;
    candidates.push_back({minOffset[buffer], rankOf[buffer]});
    int64_t top = minOffset[buffer] + part.buffers[buffer].size;
    if (top < lowestTop) {
      secondTop = lowestTop;
      lowestTop = top;
      lowestTopBuffer = buffer;
    } else if (top < secondTop) {
      secondTop = top;
    }
  }
  if (candidates.empty()) {
    // A leaf: record everything placed so far (the enclosing regions'
    // buffers included; later leaves overwrite with the final values).
    for (size_t i = 0, e = offsetOf.size(); i < e; ++i)
      if (offsetOf[i] >= 0)
        solution[i] = offsetOf[i];
    return SearchOutcome::Found;
  }
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    if (a.offset != b.offset)
      return a.offset < b.offset;
    return a.rank < b.rank;
  });

  // Copy: deeper levels reuse the per-depth vectors.
  for (size_t c = 0; c < candidates.size(); ++c) {
    Candidate candidate = candidatesByDepth[numPlaced][c];
    unsigned buffer = byRank[candidate.rank];
    if (candidate.offset < lastOffset ||
        (candidate.offset == lastOffset && candidate.rank < lastRank))
      continue;
    int64_t otherLowestTop = buffer == lowestTopBuffer ? secondTop : lowestTop;
    // Candidates come by increasing offset; once one is dominated by a buffer
    // other than the lowest-top one, all later ones are too.
    if (candidate.offset >= otherLowestTop) {
      if (candidate.offset >= secondTop)
        break;
      continue;
    }
    if (candidate.offset + part.buffers[buffer].size > capacity)
      continue;
    SearchOutcome outcome =
        searchAfterPlacing(region, buffer, candidate.offset, candidate.rank);
    if (outcome != SearchOutcome::Infeasible)
      return outcome;
  }
  return SearchOutcome::Infeasible;
}

SearchOutcome DecisionSearch::searchAfterPlacing(const Region &region,
                                                 unsigned buffer,
                                                 int64_t offset,
                                                 unsigned rank) {
  size_t minOffsetMark = minOffsetChanges.size();
  size_t floorMark = floorChanges.size();
  SearchOutcome outcome = SearchOutcome::Infeasible;
  if (place(buffer, offset, region)) {
    // Did this buffer hold the last crossing of some boundary? Then the rest
    // of the region falls apart into independent sub-regions.
    llvm::SmallVector<unsigned, 4> cuts;
    unsigned from =
        std::max(part.sectionRange[buffer].first, region.firstSection);
    unsigned to = std::min(part.sectionRange[buffer].second, region.endSection);
    for (unsigned s = from; s + 1 < to; ++s)
      if (crossings[s] == 0)
        cuts.push_back(s + 1);
    bool hasTimelessBuffer = llvm::any_of(region.members, [&](unsigned i) {
      return offsetOf[i] < 0 &&
             part.sectionRange[i].first == part.sectionRange[i].second;
    });
    if (cuts.empty() || hasTimelessBuffer) {
      outcome = search(region, offset, rank);
    } else {
      cuts.push_back(region.endSection);
      unsigned begin = region.firstSection;
      // With no sub-region left to solve, `search` records the leaf.
      outcome = search(Region{{}, region.firstSection, region.firstSection},
                       offset, rank);
      for (unsigned cut : cuts) {
        Region sub{{}, begin, cut};
        for (unsigned i : region.members)
          if (offsetOf[i] < 0 && part.sectionRange[i].first >= begin &&
              part.sectionRange[i].second <= cut)
            sub.members.push_back(i);
        begin = cut;
        if (sub.members.empty())
          continue;
        outcome = solveRegion(sub);
        if (outcome != SearchOutcome::Found)
          break;
      }
    }
  }
  unplace(buffer, minOffsetMark, floorMark);
  return outcome;
}

} // namespace

SearchOutcome detail::searchPart(const SearchPart &part, int64_t capacity,
                                 SearchBudget &budget,
                                 std::vector<int64_t> &offsets) {
  // Round-robin the preorders with doubling node limits, as the instances
  // that are easy for one order are often hard for another.
  SearchOutcome outcome = SearchOutcome::OutOfBudget;
  for (uint64_t limit = 4 * part.buffers.size();
       outcome == SearchOutcome::OutOfBudget && !budget.exhausted();
       limit *= 2) {
    for (Preorder preorder : kPreorders) {
      DecisionSearch search(part, capacity, preorder, budget, limit);
      outcome = search.run(offsets);
      if (outcome != SearchOutcome::OutOfBudget || budget.exhausted())
        break;
    }
  }
  return outcome;
}
