//===- UtilOps.h - util dialect operations ----------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILOPS_H
#define STREAMHAL_DIALECT_UTIL_IR_UTILOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/Util/IR/UtilAsm.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#define GET_OP_CLASSES
#include "streamhal/Dialect/Util/IR/UtilOps.h.inc"

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILOPS_H
