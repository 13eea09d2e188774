//===- HALOps.cpp - hal dialect operations --------------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "mlir/IR/Builders.h"
#include "streamhal/Dialect/HAL/IR/HALAsm.h"
#include "streamhal/Dialect/Util/IR/UtilAsm.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::hal;
using streamhal::util::parseSymbolVisibility;
using streamhal::util::printSymbolVisibility;

#define GET_OP_CLASSES
#include "streamhal/Dialect/HAL/IR/HALOps.cpp.inc"

//===----------------------------------------------------------------------===//
// hal.device.switch
//===----------------------------------------------------------------------===//

LogicalResult DeviceSwitchOp::verify() {
  if (getConditions().size() != getConditionRegions().size())
    return emitOpError() << "has " << getConditions().size()
                         << " conditions but " << getConditionRegions().size()
                         << " regions";
  if (getConditionRegions().empty())
    return emitOpError() << "needs at least one case";
  return success();
}

/// Runs after the ops of the cases verified, so every block is known to end
/// with a terminator.
LogicalResult DeviceSwitchOp::verifyRegions() {
  for (Region &region : getConditionRegions()) {
    if (!region.hasOneBlock())
      return emitOpError() << "case regions must have exactly one block";
    auto terminator = dyn_cast<ReturnOp>(region.front().getTerminator());
    if (!terminator)
      return emitOpError() << "case regions must end with hal.return";
    if (terminator.getOperandTypes() != getResultTypes())
      return terminator.emitOpError()
             << "returns " << terminator.getNumOperands()
             << " values whose types do not match the switch results";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// hal.allocator.compute_offset
//===----------------------------------------------------------------------===//

LogicalResult AllocatorComputeOffsetOp::verify() {
  if (getIndices().size() != getShape().size())
    return emitOpError() << "has " << getIndices().size()
                         << " indices for a shape of rank "
                         << getShape().size();
  return success();
}

//===----------------------------------------------------------------------===//
// hal.allocator.pack
//===----------------------------------------------------------------------===//

LogicalResult AllocatorPackOp::verify() {
  size_t sliceCount = getDynamicSliceSizes().size();
  ArrayAttr intervals = getLifetimeIntervals();
  if (intervals.size() != 2 * sliceCount)
    return emitOpError() << "needs two lifetime integers per slice: "
                         << intervals.size() << " integers for " << sliceCount
                         << " slice sizes";
  if (getPackedOffsets().size() != sliceCount)
    return emitOpError() << "must have one result per slice plus the total "
                            "length: "
                         << getNumResults() << " results for " << sliceCount
                         << " slices";
  for (size_t i = 0; i < sliceCount; ++i) {
    int64_t start = cast<IntegerAttr>(intervals[2 * i]).getInt();
    int64_t end = cast<IntegerAttr>(intervals[2 * i + 1]).getInt();
    if (start > end)
      return emitOpError() << "slice " << i << " has lifetime [" << start
                           << ", " << end << "] whose start is after its end";
  }
  return success();
}

SmallVector<AllocatorPackOp::Slice> AllocatorPackOp::getSlices() {
  SmallVector<Slice> slices;
  ArrayAttr intervals = getLifetimeIntervals();
  ValueRange sizes = getDynamicSliceSizes();
  ValueRange offsets = getPackedOffsets();
  if (intervals.size() != 2 * sizes.size() || offsets.size() != sizes.size())
    return slices;
  for (size_t i = 0; i < sizes.size(); ++i)
    slices.push_back({cast<IntegerAttr>(intervals[2 * i]).getInt(),
                      cast<IntegerAttr>(intervals[2 * i + 1]).getInt(),
                      sizes[i], offsets[i]});
  return slices;
}

//===----------------------------------------------------------------------===//
// hal.buffer_view.dim
//===----------------------------------------------------------------------===//

LogicalResult BufferViewDimOp::verify() {
  if (getIndex().getSExtValue() < 0)
    return emitOpError() << "dimension index must be non-negative";
  return success();
}

//===----------------------------------------------------------------------===//
// hal.tensor.cast
//===----------------------------------------------------------------------===//

LogicalResult TensorCastOp::verify() {
  Type sourceType = getSource().getType();
  Type targetType = getTarget().getType();
  bool tensorToView =
      isa<RankedTensorType>(sourceType) && isa<BufferViewType>(targetType);
  bool viewToTensor =
      isa<BufferViewType>(sourceType) && isa<RankedTensorType>(targetType);
  if (!tensorToView && !viewToTensor)
    return emitOpError() << "casts between a !hal.buffer_view and a ranked "
                            "tensor, not "
                         << sourceType << " -> " << targetType;
  if (failed(util::verifyDynamicDimCounts(*this, sourceType, getSourceDims(),
                                          "source")) ||
      failed(util::verifyDynamicDimCounts(*this, targetType, getTargetDims(),
                                          "target")))
    return failure();
  return success();
}

ValueRange TensorCastOp::getOperandDynamicDims(unsigned operandIndex) {
  return operandIndex == 0 ? ValueRange(getSourceDims()) : ValueRange();
}

ValueRange TensorCastOp::getResultDynamicDims(unsigned resultIndex) {
  return resultIndex == 0 ? ValueRange(getTargetDims()) : ValueRange();
}

//===----------------------------------------------------------------------===//
// hal.constant.subspan
//===----------------------------------------------------------------------===//

LogicalResult ConstantSubspanOp::verify() {
  if (failed(util::verifyDynamicDimCounts(*this, getResult().getType(),
                                          getResultDims(), "result")))
    return failure();
  std::optional<int64_t> bytes = util::getStaticByteSize(getResult().getType());
  int64_t length = getRuntimeRange().getLength();
  if (bytes && *bytes > length)
    return emitOpError() << "result type " << getResult().getType() << " ("
                         << *bytes << " bytes) does not fit in the " << length
                         << "-byte range";
  return success();
}

LogicalResult
ConstantSubspanOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto global = symbolTable.lookupNearestSymbolFrom<util::GlobalOp>(
      *this, getRuntimeBufferAttr());
  if (!global)
    return emitOpError() << "references undefined global "
                         << getRuntimeBufferAttr();
  if (!isa<BufferType>(global.getType()))
    return emitOpError() << "references global " << getRuntimeBufferAttr()
                         << " of type " << global.getType()
                         << " but needs a !hal.buffer";
  return success();
}

ValueRange ConstantSubspanOp::getOperandDynamicDims(unsigned) { return {}; }

ValueRange ConstantSubspanOp::getResultDynamicDims(unsigned resultIndex) {
  return resultIndex == 0 ? ValueRange(getResultDims()) : ValueRange();
}

//===----------------------------------------------------------------------===//
// hal.executable_layout.lookup
//===----------------------------------------------------------------------===//

LogicalResult ExecutableLayoutLookupOp::verify() {
  if (getPushConstants().getSExtValue() < 0)
    return emitOpError() << "push constant count must be non-negative";
  for (Attribute set : getSetLayouts()) {
    auto bindings = dyn_cast<ArrayAttr>(set);
    if (!bindings)
      return emitOpError() << "layouts must be a list of lists of "
                              "#hal.descriptor_set_layout_binding";
    for (Attribute binding : bindings)
      if (!isa<DescriptorSetLayoutBindingAttr>(binding))
        return emitOpError() << "layout entry " << binding
                             << " is not a #hal.descriptor_set_layout_binding";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// hal.command_buffer.*
//===----------------------------------------------------------------------===//

LogicalResult CommandBufferPushConstantsOp::verify() {
  if (getOffset().getSExtValue() < 0)
    return emitOpError() << "push constant offset must be non-negative";
  return success();
}

LogicalResult CommandBufferDispatchSymbolOp::verifySymbolUses(
    SymbolTableCollection &symbolTable) {
  // The spec gives this op no symbol rule: a target in an executable that is
  // not in this module (linked later) is accepted. A target inside an
  // executable that is here must be one of its entry points.
  if (!symbolTable.lookupNearestSymbolFrom(
          *this, getEntryPointAttr().getRootReference()))
    return success();
  Operation *target =
      symbolTable.lookupNearestSymbolFrom(*this, getEntryPointAttr());
  if (!isa_and_nonnull<ExecutableEntryPointOp>(target))
    return emitOpError() << "target " << getEntryPointAttr()
                         << " is not a hal.executable.entry_point";
  return success();
}
