//===- CompareLevels.h - hal-exec's comparison of two levels ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TOOLS_HAL_EXEC_COMPARELEVELS_H
#define STREAMHAL_TOOLS_HAL_EXEC_COMPARELEVELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Exec/Executor.h"
#include "llvm/ADT/BitVector.h"
#include <optional>
#include <vector>

/// Compares the HAL level's results with the flow level's; emits at
/// `halFunction` on a mismatch. With `haveDispatchTrace` (the reference
/// device) the traces name the first dispatch whose inputs differ; a real
/// device keeps none, so a remark points to --device=reference instead.
mlir::LogicalResult
compareResults(mlir::func::FuncOp halFunction,
               llvm::ArrayRef<streamhal::exec::HostValue> flowResults,
               llvm::ArrayRef<streamhal::exec::HostValue> halResults,
               llvm::ArrayRef<streamhal::exec::DispatchRecord> flowTrace,
               llvm::ArrayRef<streamhal::exec::DispatchRecord> halTrace,
               bool haveDispatchTrace);

/// Inputs count as results: an argument the caller keeps (no tie donates
/// it) must hold its original bytes after the HAL level ran.
mlir::LogicalResult
compareKeptArguments(mlir::func::FuncOp halFunction,
                     const llvm::BitVector &donated,
                     llvm::ArrayRef<streamhal::exec::HostValue> arguments,
                     llvm::ArrayRef<std::optional<std::vector<uint8_t>>> after);

#endif // STREAMHAL_TOOLS_HAL_EXEC_COMPARELEVELS_H
