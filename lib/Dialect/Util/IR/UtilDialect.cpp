//===- UtilDialect.cpp - util dialect registration and attributes ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace streamhal::util;

#include "streamhal/Dialect/Util/IR/UtilDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "streamhal/Dialect/Util/IR/UtilAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "streamhal/Dialect/Util/IR/UtilTypes.cpp.inc"

void UtilDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "streamhal/Dialect/Util/IR/UtilAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "streamhal/Dialect/Util/IR/UtilTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "streamhal/Dialect/Util/IR/UtilOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ByteRangeAttr
//===----------------------------------------------------------------------===//

LogicalResult
ByteRangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t offset, int64_t length) {
  if (offset < 0 || length < 0)
    return emitError() << "byte range offset and length must be "
                          "non-negative, got <"
                       << offset << ", " << length << ">";
  // Both are non-negative, so the end overflows exactly when it passes
  // INT64_MAX.
  if (offset > std::numeric_limits<int64_t>::max() - length)
    return emitError() << "byte range <" << offset << ", " << length
                       << "> ends past the largest 64-bit offset";
  return success();
}
