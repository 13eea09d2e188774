//===- BranchAndBound.h - Decision search of the optimal packer -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_PACKING_BRANCHANDBOUND_H
#define STREAMHAL_LIB_PACKING_BRANCHANDBOUND_H

#include "PackingInternal.h"

#include <chrono>
#include <utility>
#include <vector>

namespace streamhal::packing::detail {

//===----------------------------------------------------------------------===//
// SearchBudget
//===----------------------------------------------------------------------===//

/// Shared wall-clock and node budget.
struct SearchBudget {
  std::chrono::steady_clock::time_point deadline;
  uint64_t nodesLeft;
  uint64_t nodesVisited = 0;

  /// Charges one node; false once the budget is spent.
  bool charge() {
    if (nodesLeft == 0)
      return false;
    --nodesLeft;
    ++nodesVisited;
    // Reading the clock is far costlier than a node's bookkeeping.
    if ((nodesVisited & 255) == 0 &&
        std::chrono::steady_clock::now() >= deadline) {
      nodesLeft = 0;
      return false;
    }
    return true;
  }
  bool exhausted() const {
    return nodesLeft == 0 || std::chrono::steady_clock::now() >= deadline;
  }
};

//===----------------------------------------------------------------------===//
// SearchPart
//===----------------------------------------------------------------------===//

/// An independent part of the problem with everything the search needs.
///
/// Sections follow MiniMalloc: one per distinct end time e of a non-empty
/// lifetime, holding the buffers live just before e (start < e <= end). Two
/// non-empty lifetimes intersect iff they share a section (the last instant
/// both are live is just before the earlier end), and each buffer covers a
/// contiguous range of sections. Only cross sections that can be maximal are
/// kept, so there are at most as many sections as buffers.
struct SearchPart {
  /// Indices into the full problem.
  std::vector<unsigned> members;
  std::vector<NormalizedBuffer> buffers;
  /// Per local buffer i, the local buffers whose lifetimes conflict with it:
  /// conflictList[conflictBegin[i] .. conflictBegin[i + 1]).
  std::vector<unsigned> conflictBegin, conflictList;
  /// Per local buffer, its sections [first, second) (empty for zero-length
  /// lifetimes, which live in no section).
  std::vector<std::pair<unsigned, unsigned>> sectionRange;
  /// Per section s, the local buffers live in it:
  /// sectionList[sectionBegin[s] .. sectionBegin[s + 1]).
  std::vector<unsigned> sectionBegin, sectionList;
  /// Number of sections.
  unsigned numSections = 0;
  /// Per section, the summed sizes of its buffers.
  std::vector<int64_t> sectionTotal;
  /// Whether some buffer has a zero-length lifetime (no section).
  bool hasTimelessBuffer = false;
  /// Peak live bytes of the part.
  int64_t lowerBound = 0;

  SearchPart(const NormalizedProblem &problem, std::vector<unsigned> indices);
};

/// The answer of a decision search.
enum class SearchOutcome { Found, Infeasible, OutOfBudget };

/// Searches for a packing of `part` whose height is at most `capacity`,
/// round-robining several static orders with doubling node limits. On
/// `Found`, `offsets` holds the packing in the part's local order.
SearchOutcome searchPart(const SearchPart &part, int64_t capacity,
                         SearchBudget &budget, std::vector<int64_t> &offsets);

} // namespace streamhal::packing::detail

#endif // STREAMHAL_LIB_PACKING_BRANCHANDBOUND_H
