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
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#ifdef HAVE_STREAMHALCONVERSION
#include "streamhal/Conversion/Passes.h"
#endif
#ifdef HAVE_STREAMHALHALTRANSFORMS
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#endif
#ifdef HAVE_STREAMHALTESTPASSES
#include "streamhal/TestPasses/TestPasses.h"
#endif

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
#ifdef HAVE_STREAMHALCONVERSION
  streamhal::registerConvertFlowToHALPass();
#endif
#ifdef HAVE_STREAMHALHALTRANSFORMS
  streamhal::hal::registerHALPasses();
#endif
#ifdef HAVE_STREAMHALTESTPASSES
  streamhal::registerTestPasses();
#endif

  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  streamhal::util::UtilDialect, streamhal::flow::FlowDialect,
                  streamhal::hal::HALDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "streamhal optimizer driver\n", registry));
}
