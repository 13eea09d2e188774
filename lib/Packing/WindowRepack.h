//===- WindowRepack.h - Local search by window repacking --------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The second phase of the `optimal` strategy: lowers a complete packing by
// taking out the buffers of a window around its peak and placing them again
// around the fixed rest. See WindowRepack.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_PACKING_WINDOWREPACK_H
#define STREAMHAL_LIB_PACKING_WINDOWREPACK_H

#include "PackingInternal.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace streamhal::packing::detail {

/// What one run of `repackWindows` did.
struct RepackStats {
  /// Windows taken out and placed again, and those whose new placement
  /// lowered the packing (sideways moves are not counted).
  uint64_t windowsTried = 0;
  uint64_t windowsImproved = 0;
  /// The slab before and after.
  int64_t startSlab = 0;
  int64_t finalSlab = 0;
  /// Work units spent (one per buffer placed or obstacle inserted).
  uint64_t work = 0;
};

/// Limits of `repackWindows`.
struct RepackLimits {
  std::chrono::steady_clock::time_point deadline;
  /// Work units (one per buffer placed or obstacle inserted); the run stops
  /// before the first window that starts beyond it. With the deadline far
  /// enough, equal limits give equal offsets.
  uint64_t workLimit = UINT64_MAX;
  /// Seed of the window and order choices.
  uint64_t seed = 0x5eed;
  /// The most buffers a window takes out.
  size_t maxWindow = 2048;
};

/// Improves the valid packing `offsets` of `problem` in place: repeatedly
/// takes out a window (the highest buffers whose lifetimes meet a time
/// interval around a buffer at the peak), places them again by first or
/// best fit in one of several orders around every other buffer, and keeps
/// the new placement when the window's tops, highest first, are
/// lexicographically lower (so the height never rises), or, after a run of
/// failures, when it moves buffers without adding any at the peak. Stops at
/// the deadline, at the work limit, after 50,000 windows without progress,
/// or at `slabLowerBound`. Zero-size buffers go to offset 0.
RepackStats repackWindows(const NormalizedProblem &problem,
                          std::vector<int64_t> &offsets, int64_t slabLowerBound,
                          const RepackLimits &limits);

} // namespace streamhal::packing::detail

#endif // STREAMHAL_LIB_PACKING_WINDOWREPACK_H
