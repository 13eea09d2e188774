//===- HALDialect.h - hal dialect, types, enums, attributes -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALDIALECT_H
#define STREAMHAL_DIALECT_HAL_IR_HALDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

#include "streamhal/Dialect/HAL/IR/HALDialect.h.inc"
#include "streamhal/Dialect/HAL/IR/HALEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "streamhal/Dialect/HAL/IR/HALTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "streamhal/Dialect/HAL/IR/HALAttrs.h.inc"

#endif // STREAMHAL_DIALECT_HAL_IR_HALDIALECT_H
