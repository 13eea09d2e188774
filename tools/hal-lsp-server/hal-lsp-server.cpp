//===- hal-lsp-server.cpp - MLIR language server for streamhal ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mlir-lsp-server` that knows the util, flow and hal dialects, for editors.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  streamhal::util::UtilDialect, streamhal::flow::FlowDialect,
                  streamhal::hal::HALDialect>();
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
