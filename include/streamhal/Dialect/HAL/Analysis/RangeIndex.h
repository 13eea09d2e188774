//===- RangeIndex.h - accesses of one root, indexed by range ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Accesses of one root buffer outside pack slices, indexed so that "the
// earliest one that may share a byte with this range" (the access model's
// BufferAccess::mayOverlap) is answered without comparing the range with
// each of them: by pack lane (different lanes of one pack never share a
// byte, so the lanes a query cannot meet are never looked at), then by the
// form of the range. A constant start and length from one symbolic base is
// an interval of that base (IntervalOwners); against another base the model
// compares only lower bounds of starts with ends (FirstBeyond); anything
// else (an unknown start or length) is compared one by one.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_RANGEINDEX_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_RANGEINDEX_H

#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/IntervalIndex.h"
#include "llvm/ADT/DenseMap.h"

namespace streamhal {

/// Which accesses a query considers.
enum class RangeQuery {
  /// Every access.
  All,
  /// Those the exact interval test cannot compare with the query: another
  /// base, or an unknown start or length (a negative length excluded).
  OtherForms,
};

/// Accesses of one root outside pack slices, numbered by the caller in
/// increasing order. Queries take the caller's accesses by number.
class RangeIndex {
public:
  void add(const BufferAccess &access, unsigned index);
  /// The smallest number of an added access that may overlap `query`
  /// (`query` touches at least one byte). `comparisons` counts the accesses
  /// compared one by one.
  std::optional<unsigned>
  findFirstOverlap(const BufferAccess &query,
                   llvm::ArrayRef<BufferAccess> accesses, uint64_t &comparisons,
                   RangeQuery which = RangeQuery::All) const;
  /// With `query` a constant range (start and positive length, no
  /// overflow): whether the accesses of `indexes` of the same base with
  /// constant ranges that may overlap it cover every byte of it together.
  static bool covers(llvm::ArrayRef<const RangeIndex *> indexes,
                     const BufferAccess &query);
  bool empty() const { return outsideLanes.all.empty() && packs.empty(); }

private:
  /// Accesses of one lane (or of no lane), by the form of their range.
  struct Group {
    /// Every number, in order (for queries the forms cannot answer).
    llvm::SmallVector<unsigned> all;
    /// Constant start and length: the intervals per base (null: absolute).
    llvm::DenseMap<mlir::Value, IntervalOwners> byBase;
    /// Constant start and length without a base: their ends.
    FirstBeyond</*Above=*/true> absoluteEnds;
    /// Constant start and length on a base: lower bounds of their starts.
    FirstBeyond</*Above=*/false> basedStartFloors;
    /// The earliest access with a base, and the earliest on another base.
    std::optional<unsigned> firstBased, firstOnOtherBase;
    mlir::Value firstBase;
    /// Anything else, compared one by one.
    llvm::SmallVector<unsigned> others;

    void add(const BufferAccess &access, unsigned index);
    std::optional<unsigned>
    findFirstOverlap(const BufferAccess &query,
                     llvm::ArrayRef<BufferAccess> accesses,
                     uint64_t &comparisons, RangeQuery which) const;
  };
  struct PackLanes {
    /// Every access in a lane of the pack (for queries outside the pack).
    Group all;
    llvm::DenseMap<int64_t, Group> lanes;
  };
  /// The groups a query may meet.
  llvm::SmallVector<const Group *, 4>
  getGroupsMet(const BufferAccess &query) const;

  Group outsideLanes;
  llvm::DenseMap<int64_t, PackLanes> packs;
};

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_RANGEINDEX_H
