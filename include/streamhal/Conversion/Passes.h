//===- Passes.h - streamhal conversion passes -------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_CONVERSION_PASSES_H
#define STREAMHAL_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALCommandLine.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

namespace streamhal {

#define GEN_PASS_DECL
#include "streamhal/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "streamhal/Conversion/Passes.h.inc"

} // namespace streamhal

#endif // STREAMHAL_CONVERSION_PASSES_H
