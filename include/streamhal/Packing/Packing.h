//===- Packing.h - Slab packing of buffers with lifetimes -------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pure C++ packer for the problem behind `hal.allocator.pack`: give every
// buffer an offset inside one slab so that buffers whose lifetimes intersect
// never share a byte, and keep the slab small. See docs/packing.md.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_PACKING_PACKING_H
#define STREAMHAL_PACKING_PACKING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace streamhal::packing {

//===----------------------------------------------------------------------===//
// Problem and result
//===----------------------------------------------------------------------===//

/// How the `[lower, upper]` pair of a buffer is read.
enum class LifetimeConvention {
  /// `[lower, upper]`: both ends are live (IREE, `hal.allocator.pack`).
  Closed,
  /// `[lower, upper)`: `upper` is the first step the buffer is dead
  /// (MiniMalloc, SOMAS).
  HalfOpen,
};

/// One buffer to place.
struct Buffer {
  /// First live step.
  int64_t lower = 0;
  /// Last live step (closed) or first dead step (half-open).
  int64_t upper = 0;
  /// Size in bytes before rounding to the problem's size alignment.
  int64_t size = 0;
  /// The buffer's own offset alignment; the effective alignment is the least
  /// common multiple of this and the problem's offset alignment.
  int64_t alignment = 1;
};

/// A packing problem. Alignments live here rather than in the options because
/// the lower bound and the validator depend on them too.
struct PackingProblem {
  std::vector<Buffer> buffers;
  LifetimeConvention lifetimes = LifetimeConvention::Closed;
  /// Every offset is a multiple of this.
  int64_t offsetAlignment = 1;
  /// Every size, and the slab, is rounded up to a multiple of this.
  int64_t sizeAlignment = 1;
};

/// The outcome of `pack`.
struct PackingResult {
  /// One offset per buffer, in input order.
  std::vector<int64_t> offsets;
  /// max(offset + aligned size), rounded up to the size alignment.
  int64_t slabSize = 0;
  /// True when the slab is known to be the smallest possible.
  bool provenOptimal = false;
  /// Search nodes visited by the `optimal` strategy (0 for the others).
  uint64_t searchNodes = 0;
  /// The window repacking of the `optimal` strategy (docs/packing.md):
  /// windows taken out and placed again, those whose new placement lowered
  /// the packing (a lower peak, fewer buffers at it, or lower buffers under
  /// it), and the slab it started from (0 when it did not run). 0 for the
  /// other strategies.
  uint64_t windowsTried = 0;
  uint64_t windowsImproved = 0;
  int64_t repackStartSlab = 0;
};

/// The placement strategies, selectable by name.
enum class PackingStrategy { InOrder, Greedy, Optimal };

/// Parses `in-order`, `greedy` or `optimal`.
std::optional<PackingStrategy> parseStrategy(llvm::StringRef name);

/// The command-line spelling of `strategy`.
llvm::StringRef toString(PackingStrategy strategy);

/// Parses `closed` or `half-open`.
std::optional<LifetimeConvention> parseLifetimeConvention(llvm::StringRef name);

/// The command-line spelling of `convention`.
llvm::StringRef toString(LifetimeConvention convention);

/// A snapshot of a running `pack`, for progress displays.
struct PackingProgress {
  /// The running strategy's name.
  llvm::StringRef strategy;
  /// The smallest slab of a complete packing so far (0 before the first).
  int64_t bestSlab = 0;
  /// The slab lower bound (peak live bytes, rounded to the size alignment).
  int64_t lowerBound = 0;
  /// Buffers placed by the current placement pass, out of `numBuffers`.
  size_t placed = 0;
  size_t numBuffers = 0;
  /// Wall time since `pack` started.
  double elapsedSeconds = 0;
};

/// Knobs of `pack`.
struct PackingOptions {
  PackingStrategy strategy = PackingStrategy::Greedy;
  /// Wall-clock budget of the `optimal` search, in seconds. The library's
  /// default is the offline one (`hal-pack`'s); inside a compiler,
  /// `--hal-pack-allocations` and `--streamhal-lower-to-hal` pass their
  /// `time-limit`, 1 second by default, per pack.
  double timeLimitSeconds = 10.0;
  /// Node budget of the `optimal` search; 0 means unlimited.
  uint64_t nodeLimit = 0;
  /// When set, called from time to time while packing (every few thousand
  /// buffers placed, after every ordering and every search attempt), on the
  /// calling thread. It should be cheap; throttling is the caller's business.
  std::function<void(const PackingProgress &)> progress;
};

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Checks that `problem` is well formed: positive alignments, non-negative
/// sizes, `upper >= lower`, and values small enough that no arithmetic of the
/// packer overflows. `pack`, `computeLowerBound` and `validatePacking` expect
/// a problem that passes this check.
llvm::Error verifyProblem(const PackingProblem &problem);

/// Rounds `value` up to a multiple of `alignment` (> 0).
int64_t alignTo(int64_t value, int64_t alignment);

/// The size of buffer `index` after rounding to the size alignment.
int64_t alignedSize(const PackingProblem &problem, size_t index);

/// The offset alignment buffer `index` must honour.
int64_t effectiveAlignment(const PackingProblem &problem, size_t index);

/// Whether the lifetimes of buffers `a` and `b` intersect.
bool lifetimesConflict(const PackingProblem &problem, size_t a, size_t b);

/// The peak, over time, of the summed aligned sizes of live buffers. No
/// packing has a smaller slab. O(n log n).
int64_t computeLowerBound(const PackingProblem &problem);

/// Checks `result` against `problem`: one offset per buffer, offsets
/// non-negative and aligned, the slab covers every buffer and is a multiple of
/// the size alignment, and no two buffers with intersecting lifetimes share a
/// byte. O(n log n) (a sweep over time with an offset-ordered set).
llvm::Error validatePacking(const PackingProblem &problem,
                            const PackingResult &result);

/// Packs `problem` with `options.strategy`. `problem` must pass
/// `verifyProblem`.
PackingResult pack(const PackingProblem &problem,
                   const PackingOptions &options = {});

} // namespace streamhal::packing

#endif // STREAMHAL_PACKING_PACKING_H
