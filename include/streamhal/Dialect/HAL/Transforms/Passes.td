//===- Passes.td - hal transformation passes ---------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PackAllocationsPass : Pass<"hal-pack-allocations", "mlir::ModuleOp"> {
  let summary = "Materializes hal.allocator.pack as index arithmetic";
  let description = [{
    Replaces every `hal.allocator.pack` with `arith` index math. Sizes are
    rounded up to the module's `min_buffer_range_alignment` and offsets to its
    `min_buffer_offset_alignment` (from the `#hal.buffer_constraints` of the
    module's `hal.device.targets`; 16 and 16 when none is given). Slices with
    constant sizes are placed by the packing library and become constants;
    slices with dynamic sizes are grouped by their SSA size value and laid
    after the static part, each group sharing bytes between slices whose
    lifetimes are disjoint. `offset(%base)` is added to every offset.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"strategy", "strategy", "::streamhal::packing::PackingStrategy",
           /*default=*/"::streamhal::packing::PackingStrategy::Greedy",
           "Placement strategy of the static slices (default: greedy)",
           [{::streamhal::packing::getPackingStrategyValues()}]>,
    Option<"timeLimit", "time-limit", "double", /*default=*/"1.0",
           "Seconds the optimal strategy may search per pack (default: 1)">,
  ];
  let statistics = [
    Statistic<"numPacks", "packs", "hal.allocator.pack ops materialized">,
    Statistic<"numStaticSlices", "static-slices",
              "Slices with constant sizes placed by the packer">,
    Statistic<"numDynamicSlices", "dynamic-slices",
              "Slices with dynamic sizes laid after the static part">,
    Statistic<"numSlabBytes", "static-slab-bytes",
              "Bytes of the static parts of all slabs">,
  ];
}

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD
