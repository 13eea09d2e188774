//===- FlowDialect.h - flow dialect -----------------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_IR_FLOWDIALECT_H
#define STREAMHAL_DIALECT_FLOW_IR_FLOWDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

#include "streamhal/Dialect/Flow/IR/FlowDialect.h.inc"

#endif // STREAMHAL_DIALECT_FLOW_IR_FLOWDIALECT_H
