//===- Registration.cpp - register streamhal with an MLIR tool ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Registration/Registration.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "streamhal/Registration/Pipelines.h"

void streamhal::registerStreamHALDialects(mlir::DialectRegistry &registry) {
  // SPIR-V: the kernels of `vulkan-spirv-fb` variants (docs/device.md).
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::spirv::SPIRVDialect, util::UtilDialect,
                  flow::FlowDialect, hal::HALDialect>();
}

void streamhal::registerStreamHALPasses() {
  registerConvertFlowToHALPatternsPass();
  flow::registerFlowPasses();
  hal::registerHALPasses();
  registerLowerToHALPipeline();
}
