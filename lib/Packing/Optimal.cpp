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
// bound and the incumbent (the greedy packing): the lower bound first, since
// it is often reachable, then by bisection. Each attempt gets a share of the
// remaining time so that a hopeless capacity cannot eat the whole budget.
//
//===----------------------------------------------------------------------===//

#include "BranchAndBound.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;
using Clock = std::chrono::steady_clock;

/// Parts larger than this are left to greedy: the explicit conflict lists and
/// per-node sorting do not scale to tens of thousands of buffers.
static constexpr size_t kMaxSearchBuffers = 4000;

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

  std::vector<SearchPart> parts;
  for (std::vector<unsigned> &members : splitIntoParts(problem))
    parts.emplace_back(problem, std::move(members));
  auto heightsOf = [&](const std::vector<int64_t> &offsets) {
    std::vector<int64_t> heights;
    for (const SearchPart &part : parts) {
      int64_t height = 0;
      for (size_t i = 0; i < part.members.size(); ++i)
        height =
            std::max(height, offsets[part.members[i]] + part.buffers[i].size);
      heights.push_back(height);
    }
    return heights;
  };

  SearchBudget budget{deadline,
                      options.nodeLimit ? options.nodeLimit : UINT64_MAX};
  int64_t softLow = proven;
  bool first = true;
  while (proven < incumbent.slabSize && !budget.exhausted()) {
    // First try the lower bound itself (often reachable); then bisect
    // between the lowest capacity not yet given up on and the incumbent.
    int64_t capacity;
    if (first)
      capacity = proven;
    else if (softLow < incumbent.slabSize)
      capacity =
          softLow + alignTo((incumbent.slabSize - softLow) / 2, align) - align;
    else
      capacity = incumbent.slabSize - align;
    capacity = std::max(capacity, proven);

    // Each attempt gets a share of what is left so that a hopeless capacity
    // cannot eat the whole budget.
    SearchBudget attempt = budget;
    attempt.nodesVisited = 0;
    auto remaining = deadline - Clock::now();
    if (softLow < incumbent.slabSize)
      attempt.deadline = Clock::now() + remaining * 2 / 5;
    std::vector<int64_t> offsets = incumbent.offsets;
    SearchOutcome outcome =
        decide(parts, heightsOf(incumbent.offsets), capacity, attempt, offsets);
    budget.nodesVisited += attempt.nodesVisited;
    budget.nodesLeft = budget.nodesLeft == UINT64_MAX
                           ? UINT64_MAX
                           : budget.nodesLeft - std::min(budget.nodesLeft,
                                                         attempt.nodesVisited);
    first = false;
    if (getenv("PACK_TRACE"))
      fprintf(stderr, "cap=%lld outcome=%d nodes=%llu t=%.3f inc=%lld\n",
              (long long)capacity, int(outcome),
              (unsigned long long)attempt.nodesVisited,
              std::chrono::duration<double>(deadline - Clock::now()).count(),
              (long long)incumbent.slabSize);
    switch (outcome) {
    case SearchOutcome::Found:
      incumbent.offsets = std::move(offsets);
      incumbent.slabSize =
          slabFromHeight(problem, packingHeight(problem, incumbent.offsets));
      break;
    case SearchOutcome::Infeasible:
      proven = std::max(proven, capacity + align);
      softLow = std::max(softLow, proven);
      break;
    case SearchOutcome::OutOfBudget:
      // A last-chance attempt had the whole budget (or a part is too big to
      // search): nothing more to try.
      if (softLow >= incumbent.slabSize)
        budget.nodesLeft = 0;
      softLow = std::max(softLow, capacity + align);
      break;
    }
  }
  incumbent.searchNodes = budget.nodesVisited;
  incumbent.provenOptimal = incumbent.slabSize <= proven;
  return incumbent;
}
