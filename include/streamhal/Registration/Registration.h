//===- Registration.h - register streamhal with an MLIR tool ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calls a downstream tool makes to know streamhal's dialects, passes and
// pipelines. See examples/downstream for a complete program.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_REGISTRATION_REGISTRATION_H
#define STREAMHAL_REGISTRATION_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace streamhal {

/// Adds to `registry` exactly these dialects: streamhal's util, flow and hal;
/// the upstream func and arith, which streamhal's IR is written with; and
/// the upstream spirv, which holds the kernels of `vulkan-spirv-fb`
/// variants (docs/device.md; a tool registering the others by hand cannot
/// parse a module with kernels). Loading the flow dialect (parsing any flow
/// op) also loads what its lowering creates (hal, util, arith), so both the
/// passes and populateFlowToHALPatterns work in a fresh MLIRContext built
/// from this registry.
void registerStreamHALDialects(mlir::DialectRegistry &registry);

/// Registers streamhal's passes (`--flow-materialize-copy-on-write`,
/// `--flow-emplace-update-targets`,
/// `--flow-read-misaligned-constant-storage`, `--flow-schedule-fragments`,
/// `--convert-flow-to-hal-patterns`, `--hal-pack-allocations`,
/// `--hal-place-barriers`, `--hal-schedule-submissions`, the HAL checks and
/// reports) and pipelines (`--convert-flow-to-hal`,
/// `--streamhal-lower-to-hal`) for `mlir-opt`-style command lines and
/// textual pipelines. Test-only passes are not included, and no upstream
/// pass is: `--streamhal-lower-to-hal` runs `canonicalize`, which a pass
/// manager finds without registration, but a textual pipeline naming an
/// upstream pass itself (`cse`, `canonicalize`) needs
/// `mlir::registerTransformsPasses()` (mlir/Transforms/Passes.h) or that
/// pass's own registration. Safe to call more than once.
void registerStreamHALPasses();

} // namespace streamhal

#endif // STREAMHAL_REGISTRATION_REGISTRATION_H
