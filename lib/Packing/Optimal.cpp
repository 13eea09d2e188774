//===- Optimal.cpp - The `optimal` strategy: minimise by decisions --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Splits the problem into parts no lifetime crosses, then asks the decision
// search of BranchAndBound.cpp for packings at capacities between the lower
// bound and the incumbent (the greedy packing), in passes: each pass tries
// the lowest capacity not yet ruled out (the lower bound is often reachable),
// then bisects, giving every attempt the same node budget; the budget doubles
// from pass to pass, so easy capacities are found first and a hopeless one
// cannot eat the whole time limit.
//
//===----------------------------------------------------------------------===//

#include "BranchAndBound.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;
using Clock = std::chrono::steady_clock;

/// Parts larger than this are left to greedy: the explicit conflict lists and
/// per-node sorting do not scale to tens of thousands of buffers.
static constexpr size_t kMaxSearchBuffers = 4000;

/// How many times the node budget of a bisection attempt the first attempt
/// of a pass (at the lowest capacity not ruled out) gets.
static constexpr uint64_t kFirstAttemptFactor = 8;

//===----------------------------------------------------------------------===//
// Minimiser
//===----------------------------------------------------------------------===//

/// Splits the searchable buffers into parts no lifetime crosses. Zero-size
/// buffers own no byte and are left out.
static std::vector<std::vector<unsigned>>
splitIntoParts(const NormalizedProblem &problem) {
  std::vector<unsigned> order;
  for (unsigned i = 0, e = problem.buffers.size(); i < e; ++i)
    if (problem.buffers[i].size > 0)
      order.push_back(i);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return problem.buffers[a].start < problem.buffers[b].start;
  });
  std::vector<std::vector<unsigned>> parts;
  int64_t reach = INT64_MIN;
  for (unsigned i : order) {
    const NormalizedBuffer &buffer = problem.buffers[i];
    if (parts.empty() || buffer.start >= reach)
      parts.emplace_back();
    parts.back().push_back(i);
    reach = std::max(reach, buffer.end);
  }
  return parts;
}

bool detail::hasSearchablePart(const NormalizedProblem &problem) {
  return llvm::any_of(splitIntoParts(problem),
                      [](const std::vector<unsigned> &members) {
                        return members.size() <= kMaxSearchBuffers;
                      });
}

/// Tries to pack every part of `parts` whose incumbent height exceeds
/// `capacity` within it. On success updates `offsets`.
static SearchOutcome decide(const std::vector<SearchPart> &parts,
                            const std::vector<int64_t> &partHeights,
                            int64_t capacity, SearchBudget &budget,
                            std::vector<int64_t> &offsets) {
  std::vector<std::pair<size_t, std::vector<int64_t>>> solved;
  for (size_t p = 0; p < parts.size(); ++p) {
    const SearchPart &part = parts[p];
    if (partHeights[p] <= capacity)
      continue;
    if (part.lowerBound > capacity || part.buffers.size() > kMaxSearchBuffers) {
      return part.lowerBound > capacity ? SearchOutcome::Infeasible
                                        : SearchOutcome::OutOfBudget;
    }
    std::vector<int64_t> local;
    SearchOutcome outcome = searchPart(part, capacity, budget, local);
    if (outcome != SearchOutcome::Found)
      return outcome;
    solved.emplace_back(p, std::move(local));
  }
  for (auto &[p, local] : solved)
    for (size_t i = 0; i < local.size(); ++i)
      offsets[parts[p].members[i]] = local[i];
  return SearchOutcome::Found;
}

/// The height of each part's members at `offsets`.
static std::vector<int64_t>
getPartHeights(const std::vector<SearchPart> &parts,
               const std::vector<int64_t> &offsets) {
  std::vector<int64_t> heights;
  for (const SearchPart &part : parts) {
    int64_t height = 0;
    for (size_t i = 0; i < part.members.size(); ++i)
      height =
          std::max(height, offsets[part.members[i]] + part.buffers[i].size);
    heights.push_back(height);
  }
  return heights;
}

/// Every height of a canonical packing is a multiple of the gcd of the
/// sizes and alignments, so capacities only need to step by it.
static int64_t getHeightStep(const NormalizedProblem &problem) {
  int64_t step = 0;
  for (const NormalizedBuffer &buffer : problem.buffers)
    if (buffer.size > 0)
      step = std::gcd(std::gcd(step, buffer.size), buffer.alignment);
  return std::max<int64_t>(step, 1);
}

PackingResult detail::packOptimal(const NormalizedProblem &problem,
                                  PackingResult incumbent, int64_t lowerBound,
                                  const PackingOptions &options,
                                  Clock::time_point deadline) {
  int64_t align = problem.sizeAlignment;
  int64_t proven = alignTo(lowerBound, align);
  if (incumbent.slabSize <= proven) {
    incumbent.provenOptimal = true;
    return incumbent;
  }

  // Zero-size buffers own no byte: offset 0 is always valid for them.
  for (size_t i = 0, e = problem.buffers.size(); i < e; ++i)
    if (problem.buffers[i].size == 0)
      incumbent.offsets[i] = 0;
  incumbent.slabSize =
      slabFromHeight(problem, packingHeight(problem, incumbent.offsets));

  // Parts too large to search keep their greedy placement, so no slab below
  // their height is reachable. They get no SearchPart: its conflict lists
  // cost seconds at 100,000 buffers, time the window repacking that follows
  // can use.
  std::vector<SearchPart> parts;
  int64_t reachable = proven;
  size_t searchable = 0;
  for (std::vector<unsigned> &members : splitIntoParts(problem)) {
    searchable += members.size();
    if (members.size() <= kMaxSearchBuffers) {
      parts.emplace_back(problem, std::move(members));
      continue;
    }
    int64_t height = 0;
    for (unsigned i : members)
      height = std::max(height, incumbent.offsets[i] + problem.buffers[i].size);
    reachable = std::max(reachable, alignTo(height, align));
  }
  int64_t step = getHeightStep(problem);
  // The lowest slab a packing of height > capacity can have.
  auto slabAbove = [&](int64_t capacity) {
    return alignTo(capacity / step * step + step, align);
  };

  // Passes of bisection between the lowest capacity not yet given up on and
  // the incumbent, each starting at that lowest capacity (often reachable).
  // Every attempt of a pass gets the same node budget, doubled from pass to
  // pass, so that easy capacities are found first and hard ones get more
  // effort later; budgets count nodes, which keeps the result reproducible
  // whenever the time limit is not what stops the search.
  SearchBudget budget{deadline,
                      options.nodeLimit ? options.nodeLimit : UINT64_MAX};
  // (`searchable` counts the parts too large to search too, as it always
  // has: the node budgets of mixed instances stay what they were.)
  uint64_t passNodes = std::max<uint64_t>(16384, 64 * searchable);
  int64_t softLow = reachable;
  bool firstOfPass = true, firstPass = true;
  while (std::max(proven, reachable) < incumbent.slabSize &&
         !budget.exhausted()) {
    if (softLow >= incumbent.slabSize) {
      passNodes = std::min<uint64_t>(passNodes * 2, UINT64_MAX / 4);
      softLow = std::max(proven, reachable);
      firstOfPass = true;
      firstPass = false;
    }
    // The pass's first attempt, at the lowest capacity, gets a larger share,
    // except in the first pass, where a good incumbent matters more.
    int64_t capacity = softLow;
    uint64_t attemptNodes =
        firstPass ? passNodes : passNodes * kFirstAttemptFactor;
    if (!firstOfPass) {
      capacity += (incumbent.slabSize - softLow) / 2 / align * align;
      attemptNodes = passNodes;
    }
    firstOfPass = false;

    SearchBudget attempt{deadline, std::min(attemptNodes, budget.nodesLeft)};
    // No attempt may take more than half of what is left.
    attempt.deadline = Clock::now() + (deadline - Clock::now()) / 2;
    std::vector<int64_t> offsets = incumbent.offsets;
    SearchOutcome outcome =
        decide(parts, getPartHeights(parts, incumbent.offsets), capacity,
               attempt, offsets);
    budget.nodesVisited += attempt.nodesVisited;
    if (budget.nodesLeft != UINT64_MAX)
      budget.nodesLeft -= std::min(budget.nodesLeft, attempt.nodesVisited);
    switch (outcome) {
    case SearchOutcome::Found:
      incumbent.offsets = std::move(offsets);
      incumbent.slabSize =
          slabFromHeight(problem, packingHeight(problem, incumbent.offsets));
      break;
    case SearchOutcome::Infeasible:
      proven = std::max(proven, slabAbove(capacity));
      softLow = std::max(softLow, proven);
      break;
    case SearchOutcome::OutOfBudget:
      softLow = std::max(softLow, slabAbove(capacity));
      break;
    }
    if (problem.progress)
      problem.progress->found(incumbent.slabSize);
  }
  incumbent.searchNodes = budget.nodesVisited;
  incumbent.provenOptimal = incumbent.slabSize <= proven;
  return incumbent;
}
