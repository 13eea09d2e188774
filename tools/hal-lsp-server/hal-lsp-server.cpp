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

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "streamhal/Registration/Registration.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  streamhal::registerStreamHALDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
