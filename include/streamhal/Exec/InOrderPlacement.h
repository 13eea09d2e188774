//===- InOrderPlacement.h - The executor's own slab placement ---*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// When a `hal.allocator.pack` survives into the program the executor runs,
// it places the slices itself with this deliberately simple first-fit,
// in-order placement (it shares no code with the project's packer: an oracle
// must not reuse what it checks).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_INORDERPLACEMENT_H
#define STREAMHAL_EXEC_INORDERPLACEMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace streamhal::exec {

/// One slice to place: a closed lifetime interval and a byte size.
struct PlacementSlice {
  int64_t start = 0;
  int64_t end = 0;
  int64_t size = 0;
};

/// The placement: one offset per slice and the slab length.
struct Placement {
  llvm::SmallVector<int64_t> offsets;
  int64_t totalLength = 0;
};

/// Rounds `value` up to a multiple of `alignment` (alignment >= 1).
int64_t alignTo(int64_t value, int64_t alignment);

/// Places the slices in order: each at the lowest offset (a multiple of
/// `offsetAlignment`) where it shares no byte with an earlier slice whose
/// lifetime intersects its own. Sizes are rounded up to `rangeAlignment`,
/// and so is the total.
Placement placeInOrder(llvm::ArrayRef<PlacementSlice> slices,
                       int64_t offsetAlignment, int64_t rangeAlignment);

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_INORDERPLACEMENT_H
