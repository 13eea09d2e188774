//===- FlowDialect.cpp - flow dialect registration ------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"

using namespace mlir;
using namespace streamhal::flow;

#include "streamhal/Dialect/Flow/IR/FlowDialect.cpp.inc"

void FlowDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "streamhal/Dialect/Flow/IR/FlowOps.cpp.inc"
      >();
}
