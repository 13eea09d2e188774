//===- FragmentBuilder.cpp - values outside a fragment, made once --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FragmentBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Per-function device and allocator
//===----------------------------------------------------------------------===//

/// Returns the block holding per-function values: the entry block of the
/// enclosing function or util.initializer (whichever is closer), or the op's
/// own block outside both.
static Block *getFunctionEntryBlock(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    Region *body = nullptr;
    if (auto function = dyn_cast<FunctionOpInterface>(parent))
      body = &function.getFunctionBody();
    else if (auto initializer = dyn_cast<util::InitializerOp>(parent))
      body = &initializer.getBody();
    else
      continue;
    if (!body->empty())
      return &body->front();
    break;
  }
  return op->getBlock();
}

Value getOrCreateSharedDevice(RewriterBase &rewriter, Operation *op) {
  Block *entry = getFunctionEntryBlock(op);
  if (!entry->empty())
    if (auto device = dyn_cast<hal::ExSharedDeviceOp>(entry->front()))
      return device.getResult();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(entry);
  return hal::ExSharedDeviceOp::create(rewriter, op->getLoc(),
                                       hal::DeviceType::get(op->getContext()))
      .getResult();
}

Value getOrCreateDeviceAllocator(RewriterBase &rewriter, Operation *op) {
  Value device = getOrCreateSharedDevice(rewriter, op);
  Operation *deviceOp = device.getDefiningOp();
  if (Operation *next = deviceOp->getNextNode())
    if (auto allocator = dyn_cast<hal::DeviceAllocatorOp>(next))
      if (allocator.getDevice() == device)
        return allocator.getResult();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(deviceOp);
  return hal::DeviceAllocatorOp::create(
             rewriter, op->getLoc(), hal::AllocatorType::get(op->getContext()),
             device)
      .getResult();
}

//===----------------------------------------------------------------------===//
// FragmentBuilder
//===----------------------------------------------------------------------===//

FragmentBuilder::FragmentBuilder(RewriterBase &rewriter,
                                 flow::ExStreamFragmentOp fragment)
    : rewriter(rewriter), fragment(fragment), prologueAnchor(fragment) {}

Value FragmentBuilder::getDevice() {
  if (!device)
    device = getOrCreateSharedDevice(rewriter, fragment);
  return device;
}

Value FragmentBuilder::getAllocator() {
  if (!allocator)
    allocator = getOrCreateDeviceAllocator(rewriter, fragment);
  return allocator;
}

Value FragmentBuilder::getIndex(int64_t value) {
  Value &constant = indexConstants[value];
  if (!constant)
    constant = createInPrologue<arith::ConstantIndexOp>(value);
  return constant;
}

Value FragmentBuilder::getI32(int32_t value) {
  Value &constant = i32Constants[value];
  if (!constant)
    constant = createInPrologue<arith::ConstantIntOp>(
        static_cast<int64_t>(value), 32u);
  return constant;
}

Value FragmentBuilder::hoistConstant(arith::ConstantOp constant) {
  if (auto value = dyn_cast<IntegerAttr>(constant.getValue())) {
    if (value.getType().isIndex())
      return getIndex(value.getValue().getSExtValue());
    if (value.getType().isSignlessInteger(32))
      return getI32(static_cast<int32_t>(value.getValue().getSExtValue()));
  }
  return createInPrologue<arith::ConstantOp>(constant.getValue());
}

Value FragmentBuilder::getElementType(Type elementType) {
  return getI32(hal::getElementTypeValue(elementType).value_or(0));
}

Value FragmentBuilder::getI32PushConstant(Value value) {
  if (!value.getType().isIndex())
    return value;
  Value &cast = i32PushConstants[value];
  if (!cast)
    cast = createInPrologue<arith::IndexCastOp>(rewriter.getI32Type(), value);
  return cast;
}

Value FragmentBuilder::getGlobalBuffer(StringAttr name) {
  Value &buffer = globalBuffers[name];
  if (!buffer)
    buffer = createInPrologue<util::GlobalLoadOp>(
        hal::BufferType::get(rewriter.getContext()),
        FlatSymbolRefAttr::get(name));
  return buffer;
}

Value FragmentBuilder::getLayout(int64_t pushConstants, ArrayAttr setLayouts) {
  Value &layout = layouts[{pushConstants, setLayouts}];
  if (!layout)
    layout = createInPrologue<hal::ExecutableLayoutLookupOp>(
        hal::ExecutableLayoutType::get(rewriter.getContext()), getDevice(),
        rewriter.getIndexAttr(pushConstants), setLayouts);
  return layout;
}

Value FragmentBuilder::getSize(ShapedType type, ValueRange dims) {
  std::vector<const void *> dimKey;
  for (Value dim : dims)
    dimKey.push_back(dim.getAsOpaquePointer());
  Value &size = sizes[{type.getAsOpaquePointer(), std::move(dimKey)}];
  if (size)
    return size;
  // Static sizes are constants from the start, so that the pack sees them
  // as such whatever runs in between (the check refused overflowing ones).
  if (std::optional<int64_t> bytes = util::getStaticByteSize(type)) {
    size = getIndex(*bytes);
    return size;
  }
  SmallVector<Value> shape;
  unsigned dynamicIndex = 0;
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim))
      shape.push_back(getIndex(dim));
    else if (dynamicIndex < dims.size())
      shape.push_back(dims[dynamicIndex++]);
  }
  Value elementType = getElementType(type.getElementType());
  size = createInPrologue<hal::AllocatorComputeSizeOp>(
      rewriter.getIndexType(), getAllocator(), shape, elementType,
      getEncoding());
  return size;
}

Value FragmentBuilder::getBoxOffset(const CopyBox &box,
                                    std::optional<int64_t> *staticOffset) {
  ShapedType outerType = box.outerType;
  std::optional<SmallVector<int64_t>> staticStarts =
      getConstantIntValues(box.starts);
  std::optional<SmallVector<int64_t>> staticShape =
      getConstantIntValues(box.outerExtents);
  if (staticStarts && staticShape) {
    int64_t elementBytes =
        util::getElementByteCount(outerType.getElementType()).value_or(1);
    // In bounds (checked), so the offset fits in 64 bits.
    int64_t offset =
        linearize(*staticStarts, computeSuffixProduct(*staticShape)) *
        elementBytes;
    if (staticOffset)
      *staticOffset = offset;
    return getIndex(offset);
  }
  if (staticOffset)
    *staticOffset = std::nullopt;
  auto toValue = [&](OpFoldResult ofr) -> Value {
    if (auto value = dyn_cast<Value>(ofr))
      return value;
    return getIndex(*getConstantIntValue(ofr));
  };
  return createInPrologue<hal::AllocatorComputeOffsetOp>(
      rewriter.getIndexType(), getAllocator(),
      llvm::map_to_vector(box.starts, toValue),
      llvm::map_to_vector(box.outerExtents, toValue),
      getElementType(outerType.getElementType()), getEncoding());
}

SmallVector<Value> FragmentBuilder::getOuterDims(Value tensor) {
  FailureOr<SmallVector<Value>> dims = flow::findDynamicDims(tensor);
  assert(succeeded(dims) && "dims are found by the fragment check");
  return lookupScalars(*dims);
}

Value FragmentBuilder::getValueSize(Value tensor) {
  return getSize(cast<ShapedType>(tensor.getType()), getOuterDims(tensor));
}

SmallVector<Value> FragmentBuilder::lookupScalars(ValueRange inner) const {
  return llvm::map_to_vector(inner,
                             [&](Value value) { return lookupScalar(value); });
}

} // namespace streamhal
