//===- HALOps.h - hal dialect operations ------------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALOPS_H
#define STREAMHAL_DIALECT_HAL_IR_HALOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#define GET_OP_CLASSES
#include "streamhal/Dialect/HAL/IR/HALOps.h.inc"

#endif // STREAMHAL_DIALECT_HAL_IR_HALOPS_H
