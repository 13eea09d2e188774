//===- BranchAndBound.cpp - Decision search of the optimal packer ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A branch-and-bound search following MiniMalloc (Moffitt, ASPLOS 2023):
//
// - Canonical solutions. Push every buffer of a packing down until it rests
//   on a conflicting buffer (or on 0). Then each buffer sits at the lowest
//   aligned offset above the conflicting buffers below it, so a packing is
//   fully described by the order in which buffers are placed, and we may
//   place them by non-decreasing (offset, preorder index). A branch picks
//   the next buffer; its offset is forced (its "minimum offset", maintained
//   incrementally). Candidates are tried by increasing minimum offset, ties
//   broken by a static preorder.
// - Dominance. If an unplaced buffer would end, at its minimum offset, at or
//   below the offset of the candidate, it could have gone first; since
//   candidates come by increasing offset, the node stops there.
// - Hatless pruning. If the placed buffer conflicts with no unplaced buffer
//   and its subtree fails, no other choice at this node can succeed (the
//   buffer could be placed first in any solution).
// - Section inference. The unplaced buffers of a section are pairwise live
//   together, so they stack above max(section floor, current offset); the
//   floor also rises to the lowest minimum offset of the section's unplaced
//   buffers. If floor + unplaced bytes exceeds the capacity the node fails.
// - Decomposition. When a placement removes the last unplaced buffer
//   crossing a section boundary, the rest of the region splits into
//   sub-regions solved independently, each with its own preorder computed
//   from the bytes still unplaced in its sections.
//
// The search answers "is there a packing of height <= C?"; the minimiser
// around it (Optimal.cpp) tries capacities between the lower bound and the
// incumbent. The per-node work allocates nothing: candidate lists live on
// one stack and are merged from the parent's sorted list.
//
//===----------------------------------------------------------------------===//

#include "BranchAndBound.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

SearchPart::SearchPart(const NormalizedProblem &problem,
                       std::vector<unsigned> indices)
    : members(std::move(indices)) {
  unsigned size = members.size();
  for (unsigned global : members)
    buffers.push_back(problem.buffers[global]);

  // Conflicts: scan forward in start order while the next start is inside.
  std::vector<unsigned> byStart(size);
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
    return buffers[a].start < buffers[b].start;
  });
  std::vector<std::vector<unsigned>> conflicts(size);
  for (unsigned x = 0; x < size; ++x) {
    unsigned i = byStart[x];
    for (unsigned y = x + 1; y < size; ++y) {
      unsigned j = byStart[y];
      if (buffers[j].start >= buffers[i].end)
        break;
      if (detail::conflicts(buffers[i], buffers[j])) {
        conflicts[i].push_back(j);
        conflicts[j].push_back(i);
      }
    }
  }
  conflictBegin.push_back(0);
  for (const std::vector<unsigned> &list : conflicts) {
    conflictList.insert(conflictList.end(), list.begin(), list.end());
    conflictBegin.push_back(conflictList.size());
  }

  // One section per distinct end time of a non-empty lifetime.
  std::vector<int64_t> ends;
  for (const NormalizedBuffer &buffer : buffers)
    if (buffer.start < buffer.end)
      ends.push_back(buffer.end);
  llvm::sort(ends);
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  numSections = ends.size();
  sectionRange.resize(size, {0, 0});
  sectionTotal.assign(numSections, 0);
  std::vector<unsigned> counts(numSections + 1, 0);
  for (unsigned i = 0; i < size; ++i) {
    const NormalizedBuffer &buffer = buffers[i];
    if (buffer.start >= buffer.end) {
      hasTimelessBuffer = true;
      continue;
    }
    unsigned first =
        std::upper_bound(ends.begin(), ends.end(), buffer.start) - ends.begin();
    unsigned last =
        std::lower_bound(ends.begin(), ends.end(), buffer.end) - ends.begin();
    sectionRange[i] = {first, last + 1};
    for (unsigned s = first; s <= last; ++s) {
      sectionTotal[s] += buffer.size;
      ++counts[s + 1];
    }
  }
  sectionBegin.assign(numSections + 1, 0);
  for (unsigned s = 0; s < numSections; ++s)
    sectionBegin[s + 1] = sectionBegin[s] + counts[s + 1];
  sectionList.resize(sectionBegin[numSections]);
  std::vector<unsigned> fill(sectionBegin.begin(), sectionBegin.end() - 1);
  for (unsigned i = 0; i < size; ++i)
    for (unsigned s = sectionRange[i].first; s < sectionRange[i].second; ++s)
      sectionList[fill[s]++] = i;
  for (int64_t total : sectionTotal)
    lowerBound = std::max(lowerBound, total);
}

namespace {

//===----------------------------------------------------------------------===//
// Decision search
//===----------------------------------------------------------------------===//

/// The static tie-breaking orders of the search (MiniMalloc's preorderings,
/// named by their keys, all descending): W = lifetime width, A = area
/// (bytes x time), T = the most unplaced bytes in any of the buffer's
/// sections when its region is created. Different instances favour different
/// ones, so the driver round-robins them with growing node limits.
enum class Preorder { WAT, TAW, TWA };
constexpr Preorder kPreorders[] = {Preorder::WAT, Preorder::TAW, Preorder::TWA};

/// Depth-first search for a packing of `part` of height <= capacity.
class DecisionSearch {
public:
  DecisionSearch(const SearchPart &part, int64_t capacity, Preorder preorder,
                 SearchBudget &budget, uint64_t nodeLimit);

  /// Runs the search; on `Found`, `offsets` holds the packing (local order).
  SearchOutcome run(std::vector<int64_t> &offsets);

private:
  /// An unplaced buffer of a node's candidate list: its minimum offset and
  /// its index in the region's preorder.
  struct Candidate {
    int64_t offset;
    unsigned index;
    bool operator<(const Candidate &other) const {
      return offset != other.offset ? offset < other.offset
                                    : index < other.index;
    }
  };
  struct Change {
    unsigned index;
    int64_t oldValue;
  };
  struct LowestChange {
    unsigned section;
    unsigned oldCount;
    int64_t oldLowest;
  };
  /// Trail positions to undo a placement.
  struct Marks {
    size_t minOffsets, floors, lowests;
  };

  /// Unplaced buffers no other unplaced buffer crosses into, by preorder,
  /// with the sections [firstSection, endSection) they live in.
  struct Region {
    std::vector<unsigned> order;
    unsigned firstSection;
    unsigned endSection;
  };

  SearchOutcome solveRegion(std::vector<unsigned> members,
                            unsigned firstSection, unsigned endSection);
  SearchOutcome search(const Region &region, size_t parentBegin,
                       size_t parentEnd, int64_t lastOffset,
                       unsigned lastIndex);
  SearchOutcome descend(const Region &region, size_t begin, size_t end,
                        unsigned buffer, int64_t offset, unsigned index,
                        bool &hatless);
  bool place(unsigned buffer, int64_t offset, bool &hatless);
  void unplace(unsigned buffer, const Marks &marks);
  bool leaveLowest(unsigned buffer, int64_t oldMinOffset, int64_t offset);
  bool sectionsFit(int64_t offset, unsigned first, unsigned end) const;
  bool sectionFits(unsigned s, int64_t offset) const {
    return unplacedBytes[s] == 0 ||
           std::max({floor[s], lowest[s], offset}) + unplacedBytes[s] <=
               capacity;
  }

  llvm::ArrayRef<unsigned> conflictsOf(unsigned buffer) const {
    return llvm::ArrayRef<unsigned>(part.conflictList)
        .slice(part.conflictBegin[buffer],
               part.conflictBegin[buffer + 1] - part.conflictBegin[buffer]);
  }

  const SearchPart &part;
  int64_t capacity;
  Preorder preorder;
  SearchBudget &budget;
  uint64_t nodesLeft;

  std::vector<int64_t> offsetOf; // -1 while unplaced
  std::vector<int64_t> solution;
  std::vector<int64_t> minOffset;
  /// Per section: the highest top of its placed buffers, and the bytes of
  /// its unplaced buffers.
  std::vector<int64_t> floor, unplacedBytes;
  /// Per section, the lowest minimum offset of its unplaced buffers
  /// (INT64_MAX when none is left) and how many of them have it; no unplaced
  /// buffer of the section can start below it. Only a count falling to zero
  /// forces a rescan of the section.
  std::vector<int64_t> lowest;
  std::vector<unsigned> lowestCount;
  std::vector<Change> minOffsetChanges, floorChanges;
  std::vector<LowestChange> lowestChanges;
  /// The candidate lists of the current path, one after the other.
  std::vector<Candidate> stack;
  /// Scratch: candidates whose minimum offset changed since the parent.
  std::vector<Candidate> moved;
  /// Per boundary between sections s and s + 1, the unplaced buffers living
  /// on both sides. A zero splits the remaining problem in two.
  std::vector<unsigned> crossings;
  /// Unplaced buffers with zero-length lifetimes (no section); they block
  /// decomposition.
  unsigned unplacedTimeless = 0;
};

DecisionSearch::DecisionSearch(const SearchPart &part, int64_t capacity,
                               Preorder preorder, SearchBudget &budget,
                               uint64_t nodeLimit)
    : part(part), capacity(capacity), preorder(preorder), budget(budget),
      nodesLeft(nodeLimit) {
  size_t size = part.buffers.size();
  offsetOf.assign(size, -1);
  minOffset.assign(size, 0);
  floor.assign(part.numSections, 0);
  unplacedBytes = part.sectionTotal;
  lowest.assign(part.numSections, 0);
  lowestCount.assign(part.numSections, 0);
  for (unsigned s = 0; s < part.numSections; ++s)
    lowestCount[s] = part.sectionBegin[s + 1] - part.sectionBegin[s];
  crossings.assign(part.numSections, 0);
  for (unsigned i = 0; i < size; ++i) {
    for (unsigned s = part.sectionRange[i].first;
         s + 1 < part.sectionRange[i].second; ++s)
      ++crossings[s];
    if (part.sectionRange[i].first == part.sectionRange[i].second)
      ++unplacedTimeless;
  }
  stack.reserve(4 * size + 16);
  moved.reserve(size);
}

SearchOutcome DecisionSearch::run(std::vector<int64_t> &offsets) {
  if (!sectionsFit(0, 0, part.numSections))
    return SearchOutcome::Infeasible;
  solution.assign(part.buffers.size(), -1);
  std::vector<unsigned> all(part.buffers.size());
  std::iota(all.begin(), all.end(), 0);
  SearchOutcome outcome = solveRegion(std::move(all), 0, part.numSections);
  if (outcome == SearchOutcome::Found)
    offsets = std::move(solution);
  return outcome;
}

SearchOutcome DecisionSearch::solveRegion(std::vector<unsigned> members,
                                          unsigned firstSection,
                                          unsigned endSection) {
  // Rank the region's buffers by the preorder, with T taken from the bytes
  // still unplaced (MiniMalloc's SubSolve).
  struct Key {
    int64_t width;
    __int128 area;
    int64_t total;
  };
  std::vector<Key> keys(part.buffers.size());
  for (unsigned i : members) {
    const NormalizedBuffer &buffer = part.buffers[i];
    int64_t total = 0;
    for (unsigned s = part.sectionRange[i].first;
         s < part.sectionRange[i].second; ++s)
      total = std::max(total, unplacedBytes[s]);
    int64_t width = buffer.end - buffer.start;
    keys[i] = {width, __int128(width) * buffer.size, total};
  }
  llvm::sort(members, [&](unsigned a, unsigned b) {
    const Key &x = keys[a], &y = keys[b];
    switch (preorder) {
    case Preorder::WAT:
      if (x.width != y.width)
        return x.width > y.width;
      if (x.area != y.area)
        return x.area > y.area;
      if (x.total != y.total)
        return x.total > y.total;
      break;
    case Preorder::TAW:
      if (x.total != y.total)
        return x.total > y.total;
      if (x.area != y.area)
        return x.area > y.area;
      if (x.width != y.width)
        return x.width > y.width;
      break;
    case Preorder::TWA:
      if (x.total != y.total)
        return x.total > y.total;
      if (x.width != y.width)
        return x.width > y.width;
      if (x.area != y.area)
        return x.area > y.area;
      break;
    }
    return part.members[a] < part.members[b];
  });
  Region region{std::move(members), firstSection, endSection};

  size_t begin = stack.size();
  for (unsigned index = 0, e = region.order.size(); index < e; ++index)
    stack.push_back({minOffset[region.order[index]], index});
  std::sort(stack.begin() + begin, stack.end());
  SearchOutcome outcome =
      search(region, begin, stack.size(), INT64_MIN, /*lastIndex=*/0);
  stack.resize(begin);
  return outcome;
}

bool DecisionSearch::sectionsFit(int64_t offset, unsigned first,
                                 unsigned end) const {
  // Every unplaced buffer will sit at or above `offset` (canonical order) and
  // above its section's floor, stacked with the section's other unplaced
  // buffers.
  for (unsigned s = first; s < end; ++s)
    if (!sectionFits(s, offset))
      return false;
  return true;
}

bool DecisionSearch::leaveLowest(unsigned buffer, int64_t oldMinOffset,
                                 int64_t offset) {
  // `buffer` was placed at `offset`, or its minimum offset rose from
  // `oldMinOffset` because of that placement. Returns false if a section
  // whose `lowest` rose no longer fits (values only rise from here on).
  for (unsigned s = part.sectionRange[buffer].first;
       s < part.sectionRange[buffer].second; ++s) {
    if (oldMinOffset != lowest[s])
      continue;
    lowestChanges.push_back({s, lowestCount[s], lowest[s]});
    if (--lowestCount[s] > 0)
      continue;
    int64_t low = INT64_MAX;
    unsigned count = 0;
    for (unsigned k = part.sectionBegin[s], e = part.sectionBegin[s + 1]; k < e;
         ++k) {
      unsigned member = part.sectionList[k];
      if (offsetOf[member] >= 0)
        continue;
      if (minOffset[member] < low) {
        low = minOffset[member];
        count = 1;
      } else if (minOffset[member] == low) {
        ++count;
      }
    }
    bool raised = low > lowest[s];
    lowest[s] = low;
    lowestCount[s] = count;
    if (raised && !sectionFits(s, offset))
      return false;
  }
  return true;
}

bool DecisionSearch::place(unsigned buffer, int64_t offset, bool &hatless) {
  const NormalizedBuffer &placed = part.buffers[buffer];
  int64_t top = offset + placed.size;
  offsetOf[buffer] = offset;
  solution[buffer] = offset;
  auto [first, end] = part.sectionRange[buffer];
  if (first == end)
    --unplacedTimeless;

  // The buffer's own sections: it is now their highest byte. (Done first so
  // that `unplace` can always undo it.)
  for (unsigned s = first; s < end; ++s) {
    floorChanges.push_back({s, floor[s]});
    floor[s] = std::max(floor[s], top);
    unplacedBytes[s] -= placed.size;
  }
  for (unsigned s = first; s + 1 < end; ++s)
    --crossings[s];

  // Section inference, checked as soon as a section's values change (they
  // only rise during a placement, so a failure is final). The caller made
  // sure that offset + unplaced bytes fits in every section of the region,
  // and the parent's state passed the test, so the sections whose values do
  // not change pass too.
  for (unsigned s = first; s < end; ++s)
    if (!sectionFits(s, offset))
      return false;
  if (!leaveLowest(buffer, minOffset[buffer], offset))
    return false;

  // Conflicting buffers can no longer start below this one's top.
  hatless = true;
  for (unsigned other : conflictsOf(buffer)) {
    if (offsetOf[other] >= 0)
      continue;
    hatless = false;
    int64_t old = minOffset[other];
    if (old >= top)
      continue;
    minOffsetChanges.push_back({other, old});
    minOffset[other] = alignUp(top, part.buffers[other].alignment);
    if (minOffset[other] + part.buffers[other].size > capacity)
      return false;
    if (!leaveLowest(other, old, offset))
      return false;
  }
  return true;
}

void DecisionSearch::unplace(unsigned buffer, const Marks &marks) {
  while (lowestChanges.size() > marks.lowests) {
    const LowestChange &change = lowestChanges.back();
    lowest[change.section] = change.oldLowest;
    lowestCount[change.section] = change.oldCount;
    lowestChanges.pop_back();
  }
  while (floorChanges.size() > marks.floors) {
    floor[floorChanges.back().index] = floorChanges.back().oldValue;
    floorChanges.pop_back();
  }
  while (minOffsetChanges.size() > marks.minOffsets) {
    minOffset[minOffsetChanges.back().index] = minOffsetChanges.back().oldValue;
    minOffsetChanges.pop_back();
  }
  auto [first, end] = part.sectionRange[buffer];
  for (unsigned s = first; s < end; ++s)
    unplacedBytes[s] += part.buffers[buffer].size;
  for (unsigned s = first; s + 1 < end; ++s)
    ++crossings[s];
  if (first == end)
    ++unplacedTimeless;
  offsetOf[buffer] = -1;
}

SearchOutcome DecisionSearch::search(const Region &region, size_t parentBegin,
                                     size_t parentEnd, int64_t lastOffset,
                                     unsigned lastIndex) {
  if (nodesLeft == 0)
    return SearchOutcome::OutOfBudget;
  --nodesLeft;
  if (!budget.charge())
    return SearchOutcome::OutOfBudget;

  // The parent's list is sorted; minimum offsets only grow, so the entries
  // that kept theirs stay sorted and the moved ones are merged back in.
  size_t begin = stack.size();
  moved.clear();
  for (size_t k = parentBegin; k < parentEnd; ++k) {
    Candidate candidate = stack[k];
    unsigned buffer = region.order[candidate.index];
    if (offsetOf[buffer] >= 0)
      continue;
    if (minOffset[buffer] == candidate.offset) {
      stack.push_back(candidate);
    } else {
      moved.push_back({minOffset[buffer], candidate.index});
    }
  }
  if (!moved.empty()) {
    std::sort(moved.begin(), moved.end());
    size_t kept = stack.size();
    stack.resize(kept + moved.size());
    // Merge from the back.
    size_t out = stack.size(), from = kept, take = moved.size();
    while (take > 0) {
      if (from > begin && moved[take - 1] < stack[from - 1])
        stack[--out] = stack[--from];
      else
        stack[--out] = moved[--take];
    }
  }
  size_t end = stack.size();
  if (begin == end)
    return SearchOutcome::Found; // A leaf: every offset is in `solution`.

  int64_t lowestTop = INT64_MAX;
  for (size_t k = begin; k < end; ++k)
    lowestTop = std::min(lowestTop,
                         stack[k].offset +
                             part.buffers[region.order[stack[k].index]].size);

  // Every unplaced buffer will sit at or above the next offset, so it must
  // leave room for the most unplaced bytes of any section.
  int64_t mostUnplaced = 0;
  for (unsigned s = region.firstSection; s < region.endSection; ++s)
    mostUnplaced = std::max(mostUnplaced, unplacedBytes[s]);
  int64_t highestOffset = capacity - mostUnplaced;

  SearchOutcome outcome = SearchOutcome::Infeasible;
  for (size_t k = begin; k < end; ++k) {
    Candidate candidate = stack[k];
    // Dominance: some buffer fits entirely below this offset.
    if (candidate.offset >= lowestTop || candidate.offset > highestOffset)
      break;
    if (candidate.offset < lastOffset ||
        (candidate.offset == lastOffset && candidate.index < lastIndex))
      continue;
    unsigned buffer = region.order[candidate.index];
    if (candidate.offset + part.buffers[buffer].size > capacity)
      continue;
    bool hatless = false;
    outcome = descend(region, begin, end, buffer, candidate.offset,
                      candidate.index, hatless);
    if (outcome != SearchOutcome::Infeasible || hatless)
      break;
  }
  stack.resize(begin);
  return outcome;
}

SearchOutcome DecisionSearch::descend(const Region &region, size_t begin,
                                      size_t end, unsigned buffer,
                                      int64_t offset, unsigned index,
                                      bool &hatless) {
  Marks marks{minOffsetChanges.size(), floorChanges.size(),
              lowestChanges.size()};
  SearchOutcome outcome = SearchOutcome::Infeasible;
  if (place(buffer, offset, hatless)) {
    // Did this buffer hold the last crossing of some boundary? Then the rest
    // of the region falls apart into independent sub-regions.
    llvm::SmallVector<unsigned, 8> cuts;
    if (unplacedTimeless == 0) {
      unsigned from =
          std::max(part.sectionRange[buffer].first, region.firstSection);
      unsigned to =
          std::min(part.sectionRange[buffer].second, region.endSection);
      for (unsigned s = from; s + 1 < to; ++s)
        if (crossings[s] == 0)
          cuts.push_back(s + 1);
    }
    if (cuts.empty()) {
      outcome = search(region, begin, end, offset, index);
    } else {
      cuts.push_back(region.endSection);
      unsigned first = region.firstSection;
      outcome = SearchOutcome::Found;
      for (unsigned cut : cuts) {
        std::vector<unsigned> members;
        for (size_t k = begin; k < end; ++k) {
          unsigned other = region.order[stack[k].index];
          if (offsetOf[other] < 0 && part.sectionRange[other].first >= first &&
              part.sectionRange[other].second <= cut)
            members.push_back(other);
        }
        unsigned last = first;
        first = cut;
        if (members.empty())
          continue;
        outcome = solveRegion(std::move(members), last, cut);
        if (outcome != SearchOutcome::Found)
          break;
      }
    }
  }
  unplace(buffer, marks);
  return outcome;
}

} // namespace

SearchOutcome detail::searchPart(const SearchPart &part, int64_t capacity,
                                 SearchBudget &budget,
                                 std::vector<int64_t> &offsets) {
  // Round-robin the preorders with doubling node limits, as the instances
  // that are easy for one order are often hard for another.
  SearchOutcome outcome = SearchOutcome::OutOfBudget;
  for (uint64_t limit = 2 * part.buffers.size() + 2;
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
