//===- ResultChecks.h - hal-exec's checks of what it prints -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --expect and --tolerance (results compared with a reference file), and the
// warnings that say when printed values are the dispatch model's rather
// than a device's kernels' (docs/executor.md, "Honest output").
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TOOLS_HAL_EXEC_RESULTCHECKS_H
#define STREAMHAL_TOOLS_HAL_EXEC_RESULTCHECKS_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Exec/Executor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

/// Warns on stderr, once per module, where the values hal-exec is about to
/// print come from the dispatch model although the module has real kernels
/// and the device is a real one: `--device=vulkan` on a flow-level module
/// without `--lower` (its dispatches run on the host), and an executable
/// whose chosen variant (the first of `formats`, or the first) has no
/// kernels while a later supported one has. `onDevice`: the device is a
/// real one; `lowering`: a lowered copy runs.
void warnAboutModelResults(mlir::ModuleOp module, bool onDevice, bool lowering,
                           llvm::ArrayRef<std::string> formats);

/// With --expect: compares the elements of `results` (concatenated in
/// order) with the file's raw little-endian elements, floats within
/// --tolerance (relative), other types exactly; emits an error at
/// `function` naming the first differing element and fails on a
/// difference. Succeeds without --expect.
mlir::LogicalResult
checkExpectedResults(mlir::Operation *function,
                     llvm::ArrayRef<streamhal::exec::HostValue> results);

#endif // STREAMHAL_TOOLS_HAL_EXEC_RESULTCHECKS_H
