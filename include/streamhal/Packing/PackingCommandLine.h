//===- PackingCommandLine.h - command-line values of the packer -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `llvm::cl::values` of the packer's enums, shared by every typed option
// that takes them (the `--hal-pack-allocations` pass option and the
// `--streamhal-lower-to-hal` pipeline option), so the spellings and their help
// text are written once.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_PACKING_PACKINGCOMMANDLINE_H
#define STREAMHAL_PACKING_PACKINGCOMMANDLINE_H

#include "streamhal/Packing/Packing.h"
#include "llvm/Support/CommandLine.h"

namespace streamhal::packing {

/// `in-order|greedy|optimal`, for `llvm::cl::opt<PackingStrategy>` and pass
/// options of that type.
inline llvm::cl::ValuesClass getPackingStrategyValues() {
  return llvm::cl::values(
      clEnumValN(PackingStrategy::InOrder, "in-order",
                 "place slices in order, each at the lowest free offset"),
      clEnumValN(PackingStrategy::Greedy, "greedy",
                 "best of several greedy orders (default)"),
      clEnumValN(PackingStrategy::Optimal, "optimal",
                 "branch and bound down to the lower bound, within "
                 "time-limit"));
}

} // namespace streamhal::packing

#endif // STREAMHAL_PACKING_PACKINGCOMMANDLINE_H
