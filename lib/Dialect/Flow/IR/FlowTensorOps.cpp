//===- FlowTensorOps.cpp - flow tensor operations -------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Matchers.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::flow;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Returns the constant value of an index operand, if it is one.
static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant.getSExtValue();
}

/// Formats a list of index operands as `[4, 1, ?]` for diagnostics.
static std::string formatIndices(ValueRange indices) {
  std::string text = "[";
  for (auto [i, index] : llvm::enumerate(indices)) {
    if (i > 0)
      text += ", ";
    std::optional<int64_t> constant = getConstantIndex(index);
    text += constant ? std::to_string(*constant) : "?";
  }
  return text + "]";
}

/// Verifies that `count` index operands were given for a tensor of rank
/// `rank`.
static LogicalResult verifyIndexCount(Operation *op, size_t count,
                                      ShapedType type, StringRef what) {
  if (count != static_cast<size_t>(type.getRank()))
    return op->emitOpError() << "has " << count << " " << what << " but "
                             << type << " has rank " << type.getRank();
  return success();
}

/// Verifies, where everything is constant, that the box starting at
/// `starts` with extents `lengths` (std::nullopt = unknown) lies inside
/// `outer`.
static LogicalResult verifyBoxInBounds(Operation *op, ValueRange starts,
                                       ArrayRef<std::optional<int64_t>> lengths,
                                       ShapedType outer, StringRef what) {
  for (auto [dim, start] : llvm::enumerate(starts)) {
    std::optional<int64_t> offset = getConstantIndex(start);
    std::optional<int64_t> length = lengths[dim];
    if (offset && *offset < 0)
      return op->emitOpError() << what << " start index " << *offset
                               << " in dimension " << dim << " is negative";
    if (length && *length < 0)
      return op->emitOpError() << what << " length " << *length
                               << " in dimension " << dim << " is negative";
    if (!offset || !length || outer.isDynamicDim(dim))
      continue;
    // Both values are non-negative here, so their sum fits in 64 unsigned
    // bits; comparing in int64_t could overflow for huge constants.
    uint64_t needed =
        static_cast<uint64_t>(*offset) + static_cast<uint64_t>(*length);
    if (needed > static_cast<uint64_t>(outer.getDimSize(dim)))
      return op->emitOpError() << what << " at " << formatIndices(starts)
                               << " is out of bounds of " << outer
                               << ": dimension " << dim << " needs " << needed
                               << " elements but has " << outer.getDimSize(dim);
  }
  return success();
}

/// Returns the static dims of `type`, std::nullopt for dynamic ones.
static SmallVector<std::optional<int64_t>> getStaticExtents(ShapedType type) {
  SmallVector<std::optional<int64_t>> extents;
  for (int64_t dim : type.getShape())
    extents.push_back(ShapedType::isDynamic(dim) ? std::nullopt
                                                 : std::optional(dim));
  return extents;
}

//===----------------------------------------------------------------------===//
// flow.tensor.splat
//===----------------------------------------------------------------------===//

LogicalResult TensorSplatOp::verify() {
  return util::verifyDynamicDimCounts(*this, getResult().getType(),
                                      getResultDims(), "result");
}

ValueRange TensorSplatOp::getOperandDynamicDims(unsigned) { return {}; }
ValueRange TensorSplatOp::getResultDynamicDims(unsigned) {
  return getResultDims();
}

//===----------------------------------------------------------------------===//
// flow.tensor.clone
//===----------------------------------------------------------------------===//

LogicalResult TensorCloneOp::verify() {
  return util::verifyDynamicDimCounts(*this, getResult().getType(),
                                      getOperandDims(), "operand");
}

ValueRange TensorCloneOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == 0 ? ValueRange(getOperandDims()) : ValueRange();
}
ValueRange TensorCloneOp::getResultDynamicDims(unsigned) {
  return getOperandDims();
}

//===----------------------------------------------------------------------===//
// flow.tensor.slice
//===----------------------------------------------------------------------===//

LogicalResult TensorSliceOp::verify() {
  auto sourceType = cast<ShapedType>(getSource().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(util::verifyDynamicDimCounts(*this, sourceType, getSourceDims(),
                                          "source")) ||
      failed(util::verifyDynamicDimCounts(*this, resultType, getResultDims(),
                                          "result")) ||
      failed(verifyIndexCount(*this, getStartIndices().size(), sourceType,
                              "start indices")) ||
      failed(
          verifyIndexCount(*this, getLengths().size(), sourceType, "lengths")))
    return failure();
  if (resultType.getRank() != sourceType.getRank())
    return emitOpError() << "result rank " << resultType.getRank()
                         << " does not match source rank "
                         << sourceType.getRank();
  if (resultType.getElementType() != sourceType.getElementType())
    return emitOpError() << "result element type "
                         << resultType.getElementType()
                         << " does not match source element type "
                         << sourceType.getElementType();
  SmallVector<std::optional<int64_t>> lengths;
  for (auto [dim, length] : llvm::enumerate(getLengths())) {
    std::optional<int64_t> constant = getConstantIndex(length);
    if (constant && !resultType.isDynamicDim(dim) &&
        resultType.getDimSize(dim) != *constant)
      return emitOpError() << "length " << *constant << " of dimension " << dim
                           << " does not match result type " << resultType;
    // The result type fixes the box whatever the length operands spell.
    if (!resultType.isDynamicDim(dim))
      constant = resultType.getDimSize(dim);
    lengths.push_back(constant);
  }
  return verifyBoxInBounds(*this, getStartIndices(), lengths, sourceType,
                           "slice");
}

ValueRange TensorSliceOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == getSourceMutable().getOperandNumber()
             ? ValueRange(getSourceDims())
             : ValueRange();
}
ValueRange TensorSliceOp::getResultDynamicDims(unsigned) {
  return getResultDims();
}

//===----------------------------------------------------------------------===//
// flow.tensor.update
//===----------------------------------------------------------------------===//

LogicalResult TensorUpdateOp::verify() {
  auto updateType = cast<ShapedType>(getUpdate().getType());
  auto targetType = cast<ShapedType>(getTarget().getType());
  if (failed(util::verifyDynamicDimCounts(*this, updateType, getUpdateDims(),
                                          "update")) ||
      failed(util::verifyDynamicDimCounts(*this, targetType, getTargetDims(),
                                          "target")) ||
      failed(verifyIndexCount(*this, getStartIndices().size(), targetType,
                              "start indices")))
    return failure();
  if (updateType.getRank() != targetType.getRank())
    return emitOpError() << "update rank " << updateType.getRank()
                         << " does not match target rank "
                         << targetType.getRank();
  if (updateType.getElementType() != targetType.getElementType())
    return emitOpError() << "update element type "
                         << updateType.getElementType()
                         << " does not match target element type "
                         << targetType.getElementType();
  return verifyBoxInBounds(*this, getStartIndices(),
                           getStaticExtents(updateType), targetType, "update");
}

std::optional<unsigned> TensorUpdateOp::getTiedResultOperandIndex(unsigned) {
  return getTargetMutable().getOperandNumber();
}

ValueRange TensorUpdateOp::getOperandDynamicDims(unsigned operandIndex) {
  if (operandIndex == getUpdateMutable().getOperandNumber())
    return getUpdateDims();
  if (operandIndex == getTargetMutable().getOperandNumber())
    return getTargetDims();
  return {};
}
ValueRange TensorUpdateOp::getResultDynamicDims(unsigned) {
  return getTargetDims();
}

//===----------------------------------------------------------------------===//
// flow.tensor.reshape
//===----------------------------------------------------------------------===//

LogicalResult TensorReshapeOp::verify() {
  if (failed(util::verifyDynamicDimCounts(*this, getSource().getType(),
                                          getSourceDims(), "source")) ||
      failed(util::verifyDynamicDimCounts(*this, getResult().getType(),
                                          getResultDims(), "result")))
    return failure();
  return util::verifyTiedTypes(*this, getSource().getType(),
                               getResult().getType());
}

std::optional<unsigned> TensorReshapeOp::getTiedResultOperandIndex(unsigned) {
  return getSourceMutable().getOperandNumber();
}

ValueRange TensorReshapeOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == getSourceMutable().getOperandNumber()
             ? ValueRange(getSourceDims())
             : ValueRange();
}
ValueRange TensorReshapeOp::getResultDynamicDims(unsigned) {
  return getResultDims();
}

//===----------------------------------------------------------------------===//
// flow.tensor.load / flow.tensor.store
//===----------------------------------------------------------------------===//

/// Verifies the indices of a host element access.
static LogicalResult verifyElementAccess(Operation *op, ShapedType type,
                                         ValueRange dims, ValueRange indices) {
  if (failed(util::verifyDynamicDimCounts(op, type, dims, "tensor")) ||
      failed(verifyIndexCount(op, indices.size(), type, "indices")))
    return failure();
  SmallVector<std::optional<int64_t>> ones(indices.size(), 1);
  return verifyBoxInBounds(op, indices, ones, type, "element");
}

LogicalResult TensorLoadOp::verify() {
  return verifyElementAccess(*this, cast<ShapedType>(getSource().getType()),
                             getSourceDims(), getIndices());
}

ValueRange TensorLoadOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == getSourceMutable().getOperandNumber()
             ? ValueRange(getSourceDims())
             : ValueRange();
}
ValueRange TensorLoadOp::getResultDynamicDims(unsigned) { return {}; }

LogicalResult TensorStoreOp::verify() {
  return verifyElementAccess(*this, cast<ShapedType>(getTarget().getType()),
                             getTargetDims(), getIndices());
}

std::optional<unsigned> TensorStoreOp::getTiedResultOperandIndex(unsigned) {
  return getTargetMutable().getOperandNumber();
}

ValueRange TensorStoreOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == getTargetMutable().getOperandNumber()
             ? ValueRange(getTargetDims())
             : ValueRange();
}
ValueRange TensorStoreOp::getResultDynamicDims(unsigned) {
  return getTargetDims();
}
