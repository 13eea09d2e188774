//===- InOrderPlacement.cpp - The executor's own slab placement -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/InOrderPlacement.h"
#include <algorithm>

using namespace streamhal::exec;

int64_t streamhal::exec::alignTo(int64_t value, int64_t alignment) {
  if (alignment <= 1)
    return value;
  return (value + alignment - 1) / alignment * alignment;
}

Placement streamhal::exec::placeInOrder(llvm::ArrayRef<PlacementSlice> slices,
                                        int64_t offsetAlignment,
                                        int64_t rangeAlignment) {
  Placement placement;
  llvm::SmallVector<int64_t> sizes;
  for (const PlacementSlice &slice : slices) {
    int64_t size = alignTo(slice.size, rangeAlignment);
    // Candidate offsets: 0 and the aligned end of every conflicting slice;
    // the lowest candidate that collides with none wins.
    llvm::SmallVector<unsigned> conflicts;
    for (unsigned other = 0; other < placement.offsets.size(); ++other)
      if (slices[other].end >= slice.start && slice.end >= slices[other].start)
        conflicts.push_back(other);
    llvm::SmallVector<int64_t> candidates = {0};
    for (unsigned other : conflicts)
      candidates.push_back(
          alignTo(placement.offsets[other] + sizes[other], offsetAlignment));
    llvm::sort(candidates);
    int64_t chosen = candidates.back();
    for (int64_t candidate : candidates) {
      bool collides = llvm::any_of(conflicts, [&](unsigned other) {
        return size > 0 && sizes[other] > 0 &&
               candidate < placement.offsets[other] + sizes[other] &&
               placement.offsets[other] < candidate + size;
      });
      if (!collides) {
        chosen = candidate;
        break;
      }
    }
    placement.offsets.push_back(chosen);
    sizes.push_back(size);
    placement.totalLength = std::max(placement.totalLength, chosen + size);
  }
  placement.totalLength = alignTo(placement.totalLength, rangeAlignment);
  return placement;
}
