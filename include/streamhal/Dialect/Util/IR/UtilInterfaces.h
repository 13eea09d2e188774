//===- UtilInterfaces.h - tied and shape-aware interfaces -------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `TiedOpInterface` (results that reuse an operand's storage) and
// `ShapeAwareOpInterface` (ops that carry the dynamic dims of their tensors),
// plus the helpers ops use to implement and verify them.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_H
#define STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include <optional>

#include "streamhal/Dialect/Util/IR/UtilOpInterfaces.h.inc"

namespace streamhal::util {

/// Value stored in a `tied_operands` array for a result that is not tied.
constexpr int64_t kUntiedIndex = -1;

/// Returns the number of dynamic dimensions of `type`: its `?` count when it
/// is a ranked shaped type, 0 otherwise.
unsigned getDynamicDimCount(mlir::Type type);

/// Returns the slice of `dims` that holds the dynamic dims of `types[index]`,
/// where `dims` holds the dynamic dims of every type of `types` in order.
/// Returns an empty range when `dims` is too short (an unverified op).
mlir::ValueRange findDynamicDimsInList(unsigned index, mlir::TypeRange types,
                                       mlir::ValueRange dims);

/// Verifies that `dims` holds exactly one value per `?` across `types`;
/// `what` names the list in the diagnostic ("operand", "result").
mlir::LogicalResult verifyDynamicDimCounts(mlir::Operation *op,
                                           mlir::TypeRange types,
                                           mlir::ValueRange dims,
                                           llvm::StringRef what);

/// Returns the bytes one element of `type` occupies (ceil(bits / 8)), or
/// std::nullopt for element types without a fixed width (index, opaque).
std::optional<int64_t> getElementByteCount(mlir::Type elementType);

/// Returns the byte size of a statically shaped tensor, or std::nullopt (also
/// when the size does not fit in int64_t).
std::optional<int64_t> getStaticByteSize(mlir::Type type);

/// Returns the tied operand index stored at `resultIndex` of a
/// `tied_operands` array, or std::nullopt for untied results and absent
/// arrays.
std::optional<unsigned> getStoredTiedOperandIndex(mlir::ArrayAttr tiedOperands,
                                                  unsigned resultIndex);

/// Verifies a `tied_operands` array: one entry per result, each -1 or the
/// index of a candidate operand, and a tied result has the same element type
/// as its operand and the same byte size when both are static.
mlir::LogicalResult verifyTiedOperands(mlir::Operation *op,
                                       mlir::ArrayAttr tiedOperands,
                                       mlir::TypeRange candidateOperandTypes,
                                       mlir::TypeRange resultTypes);

/// Verifies that the tensor `resultType` may be stored in place of the tensor
/// `operandType`: same element type, same byte size when both are static.
mlir::LogicalResult verifyTiedTypes(mlir::Operation *op, mlir::Type operandType,
                                    mlir::Type resultType);

} // namespace streamhal::util

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_H
