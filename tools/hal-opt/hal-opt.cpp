//===- hal-opt.cpp - streamhal optimizer driver ---------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mlir-opt` for the util, flow and hal dialects and the streamhal passes.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "streamhal/TestPasses/TestPasses.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

/// Runs MlirOptMain writing to a temporary file next to `outputFilename`,
/// renamed over it only on success: a failing run leaves an existing output
/// file untouched.
static mlir::LogicalResult runToOutputFile(int argc, char **argv,
                                           llvm::StringRef inputFilename,
                                           llvm::StringRef outputFilename,
                                           mlir::DialectRegistry &registry) {
  llvm::SmallString<128> temporary;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(
          outputFilename + ".hal-opt-%%%%%%", temporary)) {
    llvm::errs() << "hal-opt: cannot create a file next to '" << outputFilename
                 << "': " << error.message() << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(argc, argv, inputFilename, temporary, registry))) {
    llvm::sys::fs::remove(temporary);
    return mlir::failure();
  }
  if (std::error_code error =
          llvm::sys::fs::rename(temporary, outputFilename)) {
    llvm::errs() << "hal-opt: cannot write '" << outputFilename
                 << "': " << error.message() << "\n";
    llvm::sys::fs::remove(temporary);
    return mlir::failure();
  }
  return mlir::success();
}

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  streamhal::registerConvertFlowToHALPass();
  streamhal::flow::registerFlowPasses();
  streamhal::hal::registerHALPasses();
  streamhal::registerTestPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  streamhal::util::UtilDialect, streamhal::flow::FlowDialect,
                  streamhal::hal::HALDialect>();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "streamhal optimizer driver\n", registry);
  if (outputFilename == "-")
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  return mlir::asMainReturnCode(
      runToOutputFile(argc, argv, inputFilename, outputFilename, registry));
}
