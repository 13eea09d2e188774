//===- UtilInterfaces.cpp - tied and shape-aware interfaces ---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace streamhal::util {

#include "streamhal/Dialect/Util/IR/UtilOpInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Dynamic dims
//===----------------------------------------------------------------------===//

unsigned getDynamicDimCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return 0;
  return shaped.getNumDynamicDims();
}

ValueRange findDynamicDimsInList(unsigned index, TypeRange types,
                                 ValueRange dims) {
  if (index >= types.size())
    return {};
  unsigned start = 0;
  for (unsigned i = 0; i < index; ++i)
    start += getDynamicDimCount(types[i]);
  unsigned count = getDynamicDimCount(types[index]);
  if (start + count > dims.size())
    return {};
  return dims.slice(start, count);
}

LogicalResult verifyDynamicDimCounts(Operation *op, TypeRange types,
                                     ValueRange dims, StringRef what) {
  unsigned expected = 0;
  for (Type type : types)
    expected += getDynamicDimCount(type);
  if (expected != dims.size())
    return op->emitOpError()
           << what << " dims count mismatch: the " << what << " types have "
           << expected << " dynamic dimensions but " << dims.size()
           << " dims were given";
  return success();
}

//===----------------------------------------------------------------------===//
// Element and byte sizes
//===----------------------------------------------------------------------===//

std::optional<int64_t> getElementByteCount(Type elementType) {
  if (!elementType.isIntOrFloat())
    return std::nullopt;
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

std::optional<int64_t> getStaticByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes =
      getElementByteCount(shaped.getElementType());
  if (!elementBytes)
    return std::nullopt;
  // Huge shapes are legal types; a byte size that does not fit int64_t is
  // unknown rather than wrapped around.
  int64_t bytes = *elementBytes;
  for (int64_t dim : shaped.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  return bytes;
}

//===----------------------------------------------------------------------===//
// Ties
//===----------------------------------------------------------------------===//

std::optional<unsigned> getStoredTiedOperandIndex(ArrayAttr tiedOperands,
                                                  unsigned resultIndex) {
  if (!tiedOperands || resultIndex >= tiedOperands.size())
    return std::nullopt;
  auto value = dyn_cast<IntegerAttr>(tiedOperands[resultIndex]);
  if (!value || value.getInt() < 0)
    return std::nullopt;
  return static_cast<unsigned>(value.getInt());
}

LogicalResult verifyTiedTypes(Operation *op, Type operandType,
                              Type resultType) {
  auto operandShaped = dyn_cast<ShapedType>(operandType);
  auto resultShaped = dyn_cast<ShapedType>(resultType);
  if (!operandShaped || !resultShaped)
    return op->emitOpError()
           << "tied result type " << resultType << " and operand type "
           << operandType << " must both be tensors";
  if (operandShaped.getElementType() != resultShaped.getElementType())
    return op->emitOpError()
           << "tied result type " << resultType
           << " must have the same element type as operand type "
           << operandType;
  std::optional<int64_t> operandBytes = getStaticByteSize(operandType);
  std::optional<int64_t> resultBytes = getStaticByteSize(resultType);
  if (operandBytes && resultBytes && *operandBytes != *resultBytes)
    return op->emitOpError() << "tied result type " << resultType << " ("
                             << *resultBytes << " bytes) must have the same "
                             << "byte size as operand type " << operandType
                             << " (" << *operandBytes << " bytes)";
  return success();
}

LogicalResult verifyTiedOperands(Operation *op, ArrayAttr tiedOperands,
                                 TypeRange candidateOperandTypes,
                                 TypeRange resultTypes) {
  if (!tiedOperands)
    return success();
  if (tiedOperands.size() != resultTypes.size())
    return op->emitOpError()
           << "tied_operands has " << tiedOperands.size()
           << " entries but the op has " << resultTypes.size() << " results";
  for (auto [resultIndex, entry] : llvm::enumerate(tiedOperands)) {
    auto index = dyn_cast<IntegerAttr>(entry);
    if (!index)
      return op->emitOpError() << "tied_operands entries must be integers";
    int64_t operandIndex = index.getInt();
    if (operandIndex == kUntiedIndex)
      continue;
    if (operandIndex < 0 ||
        operandIndex >= static_cast<int64_t>(candidateOperandTypes.size()))
      return op->emitOpError()
             << "result " << resultIndex << " is tied to operand "
             << operandIndex << " which does not exist";
    if (failed(verifyTiedTypes(op, candidateOperandTypes[operandIndex],
                               resultTypes[resultIndex])))
      return failure();
  }
  return success();
}

} // namespace streamhal::util
