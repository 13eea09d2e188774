//===- PackingSVG.h - A picture of a packing --------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Draws a packing as SVG: time across, address up, one rectangle per buffer.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_PACKING_PACKINGSVG_H
#define STREAMHAL_PACKING_PACKINGSVG_H

#include "streamhal/Packing/Packing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace streamhal::packing {

/// Knobs of `writePackingSVG`.
struct PackingSVGOptions {
  /// Drawn above the plot (e.g. the file and strategy).
  std::string title;
  /// Size of the whole picture in pixels.
  unsigned width = 960;
  unsigned height = 540;
};

/// Writes `result` (a packing of `problem`, which must validate) as a
/// standalone SVG document: time runs left to right, addresses bottom to top;
/// every buffer is one `<rect class="buffer">` spanning its lifetime and its
/// bytes, with a `<title>` tooltip naming it (`names[i]`, or its index when
/// `names` is empty), its size, lifetime and offset. Horizontal lines mark
/// the lower bound and the slab top, and a step curve the live bytes over
/// time (its peak touches the lower bound); the lines' labels (right of the
/// plot) and a legend (below it) stay outside the plot area, so they cover
/// no rectangle and no curve. Rectangles thinner than a pixel
/// are widened to stay visible, and outlines are dropped for large instances,
/// so 10 and 20,000 buffers both read well.
void writePackingSVG(llvm::raw_ostream &os, const PackingProblem &problem,
                     const PackingResult &result,
                     llvm::ArrayRef<std::string> names = {},
                     const PackingSVGOptions &options = {});

} // namespace streamhal::packing

#endif // STREAMHAL_PACKING_PACKINGSVG_H
