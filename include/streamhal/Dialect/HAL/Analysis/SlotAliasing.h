//===- SlotAliasing.h - slots of two classes sharing bytes ------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A memoized command buffer's barriers assume that binding table slots of
// different alias classes never share bytes (docs/replay.md). Finding two
// that do among n bound ranges takes one sort and one sweep, not a
// comparison of every pair. No IR: plain integers.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_SLOTALIASING_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_SLOTALIASING_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace streamhal {

/// The bytes `[start, end)` of root `root` a slot is bound to.
struct SlotRange {
  /// Identifies the root buffer; ranges of different roots never overlap.
  uint64_t root = 0;
  int64_t start = 0;
  int64_t end = 0;
  /// The slot's alias class.
  int64_t aliasClass = 0;
};

/// Two indices into `ranges`, the first the range that starts first, of
/// slots in different alias classes whose non-empty ranges share a byte;
/// std::nullopt when there are none. O(n log n).
std::optional<std::pair<unsigned, unsigned>>
findCrossClassOverlap(llvm::ArrayRef<SlotRange> ranges);

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_SLOTALIASING_H
