//===- SlotAliasing.cpp - slots of different classes sharing bytes --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/SlotAliasing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <tuple>

using namespace streamhal;

std::optional<std::pair<unsigned, unsigned>>
streamhal::findCrossClassOverlap(llvm::ArrayRef<SlotRange> ranges) {
  llvm::SmallVector<unsigned> order;
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (ranges[i].end > ranges[i].start)
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::tie(ranges[a].root, ranges[a].start, a) <
           std::tie(ranges[b].root, ranges[b].start, b);
  });
  // The earlier ranges of a root that reach past a range's start all hold
  // the byte before it, so they overlap one another: unless an overlap was
  // already found, they are of one class, and the one reaching furthest
  // stands for them all.
  std::optional<unsigned> furthest;
  for (unsigned index : order) {
    const SlotRange &range = ranges[index];
    if (furthest && ranges[*furthest].root != range.root)
      furthest = std::nullopt;
    if (furthest && ranges[*furthest].end > range.start &&
        ranges[*furthest].aliasClass != range.aliasClass)
      return std::make_pair(*furthest, index);
    if (!furthest || range.end > ranges[*furthest].end)
      furthest = index;
  }
  return std::nullopt;
}
