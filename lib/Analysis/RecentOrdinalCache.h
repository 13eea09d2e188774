//===- RecentOrdinalCache.h - cache of recently numbered values -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Analysis.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_ANALYSIS_RECENTORDINALCACHE_H
#define STREAMHAL_LIB_ANALYSIS_RECENTORDINALCACHE_H

#include "mlir/IR/Value.h"
#include <cstdint>
#include <memory>
#include <optional>

namespace streamhal::detail {

/// A small direct-mapped cache from values to ordinals, filled while scanning
/// a block forward. Most operands in a stream fragment were defined a few ops
/// earlier, so their ordinal is found here, in a table that stays in cache,
/// instead of by a probe into the full (and, for large fragments, cold)
/// value-to-ordinal map. A miss only means "ask the map": the cache affects
/// speed, never results.
class RecentOrdinalCache {
public:
  RecentOrdinalCache() : entries(new Entry[kSize]()) {}

  void insert(mlir::Value value, unsigned ordinal) {
    entries[slot(value)] = {value.getAsOpaquePointer(), ordinal};
  }

  /// Returns the cached ordinal of `value`, or std::nullopt on a miss.
  std::optional<unsigned> lookup(mlir::Value value) const {
    const Entry &entry = entries[slot(value)];
    if (entry.key != value.getAsOpaquePointer() || !entry.key)
      return std::nullopt;
    return entry.ordinal;
  }

private:
  struct Entry {
    const void *key;
    unsigned ordinal;
  };
  static constexpr unsigned kSize = 4096;

  static unsigned slot(mlir::Value value) {
    auto bits = reinterpret_cast<uintptr_t>(value.getAsOpaquePointer());
    return static_cast<unsigned>((bits >> 4) ^ (bits >> 16)) & (kSize - 1);
  }

  std::unique_ptr<Entry[]> entries;
};

} // namespace streamhal::detail

#endif // STREAMHAL_LIB_ANALYSIS_RECENTORDINALCACHE_H
