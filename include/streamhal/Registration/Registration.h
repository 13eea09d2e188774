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

/// Adds the util, flow and hal dialects to `registry`, and the upstream
/// dialects streamhal's IR is written with (func, arith). Loading the flow
/// dialect (parsing any flow op) also loads what its lowering creates (hal,
/// util, arith), so both the passes and populateFlowToHALPatterns work in a
/// fresh MLIRContext built from this registry.
void registerStreamHALDialects(mlir::DialectRegistry &registry);

/// Registers streamhal's passes (`--convert-flow-to-hal-patterns`,
/// `--hal-pack-allocations`, ...) and pipelines (`--convert-flow-to-hal`,
/// `--streamhal-lower-to-hal`) for
/// `mlir-opt`-style command lines and textual pipelines. Test-only passes are
/// not included. Safe to call more than once.
void registerStreamHALPasses();

} // namespace streamhal

#endif // STREAMHAL_REGISTRATION_REGISTRATION_H
