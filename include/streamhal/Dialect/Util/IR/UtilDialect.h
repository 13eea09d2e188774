//===- UtilDialect.h - util dialect and attributes --------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `util` dialect: globals, byte ranges and the interfaces shared by the
// flow and hal dialects.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILDIALECT_H
#define STREAMHAL_DIALECT_UTIL_IR_UTILDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "streamhal/Dialect/Util/IR/UtilDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "streamhal/Dialect/Util/IR/UtilAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "streamhal/Dialect/Util/IR/UtilTypes.h.inc"

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILDIALECT_H
