//===- BoundaryPatterns.cpp - functions, globals, casts, host access ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything around the fragments: tensors in function signatures, globals
// and pointers to globals become buffers, hal.tensor.cast maps buffer views,
// and host element access outside fragments becomes hal.buffer.load/store.
//
//===----------------------------------------------------------------------===//

#include "FragmentBuilder.h"
#include "PatternGroups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

using namespace mlir;

namespace streamhal {
namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The full shape of a tensor as index values: constants for static dims,
/// `dims` in order for dynamic ones.
static SmallVector<Value> buildShape(OpBuilder &builder, Location loc,
                                     ShapedType type, ValueRange dims) {
  SmallVector<Value> shape;
  unsigned dynamicIndex = 0;
  for (int64_t dim : type.getShape()) {
    if (ShapedType::isDynamic(dim))
      shape.push_back(dims[dynamicIndex++]);
    else
      shape.push_back(arith::ConstantIndexOp::create(builder, loc, dim));
  }
  return shape;
}

/// The element type and dense encoding constants of a tensor type.
static std::pair<Value, Value>
buildTypeAndEncoding(OpBuilder &builder, Location loc, ShapedType type) {
  int32_t elementType =
      hal::getElementTypeValue(type.getElementType()).value_or(0);
  return {arith::ConstantIntOp::create(builder, loc,
                                       static_cast<int64_t>(elementType), 32u),
          arith::ConstantIntOp::create(
              builder, loc, static_cast<int64_t>(hal::kDenseRowMajorEncoding),
              32u)};
}

/// checkFlowToHALLowerable reports element types without an encoding; a
/// pattern only declines.
static LogicalResult checkEncodable(ConversionPatternRewriter &rewriter,
                                    Operation *op, ShapedType type) {
  if (hal::getElementTypeValue(type.getElementType()))
    return success();
  return rewriter.notifyMatchFailure(
      op, "element type has no HAL element type encoding");
}

//===----------------------------------------------------------------------===//
// util.global and the ops that read, write and address globals
//===----------------------------------------------------------------------===//

struct GlobalOpConversion : public OpConversionPattern<util::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(util::GlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type converted = getTypeConverter()->convertType(op.getType());
    if (!converted || converted == op.getType())
      return failure();
    // An initial value stays: it is the buffer's initial contents (the util
    // verifier accepts typed contents on handle-typed globals).
    rewriter.modifyOpInPlace(op, [&] { op.setType(converted); });
    return success();
  }
};

/// Ops that only change types (global loads and stores, direct or through
/// pointers, and global addresses): the same op with converted operands and
/// result types, its attributes and properties kept.
struct RetypeOpConversion : public ConversionPattern {
  RetypeOpConversion(const TypeConverter &typeConverter, MLIRContext *context,
                     StringRef opName)
      : ConversionPattern(typeConverter, opName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return rewriter.notifyMatchFailure(op, "a result type does not convert");
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getDiscardableAttrDictionary().getValue());
    state.propertiesAttr = op->getPropertiesAsAttribute();
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// hal.tensor.cast
//===----------------------------------------------------------------------===//

struct TensorCastOpConversion : public OpConversionPattern<hal::TensorCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(hal::TensorCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    if (isa<hal::BufferViewType>(op.getSource().getType())) {
      // Buffer view -> tensor: the tensor is the view's buffer.
      rewriter.replaceOpWithNewOp<hal::BufferViewBufferOp>(
          op, hal::BufferType::get(context), adaptor.getSource());
      return success();
    }
    // Tensor -> buffer view: wrap the buffer with its shape and type.
    auto type = cast<ShapedType>(op.getSource().getType());
    if (failed(checkEncodable(rewriter, op, type)))
      return failure();
    SmallVector<Value> shape =
        buildShape(rewriter, loc, type, adaptor.getSourceDims());
    auto [elementType, encoding] = buildTypeAndEncoding(rewriter, loc, type);
    rewriter.replaceOpWithNewOp<hal::BufferViewCreateOp>(
        op, hal::BufferViewType::get(context), adaptor.getSource(), shape,
        elementType, encoding);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// hal.constant.subspan outside fragments
//===----------------------------------------------------------------------===//

struct ConstantSubspanOpConversion
    : public OpConversionPattern<hal::ConstantSubspanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(hal::ConstantSubspanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ShapedType>(op.getType());
    std::optional<int64_t> bytes = util::getStaticByteSize(type);
    if (!bytes && failed(checkEncodable(rewriter, op, type)))
      return failure();
    Type bufferType = hal::BufferType::get(rewriter.getContext());
    Value pool = util::GlobalLoadOp::create(rewriter, loc, bufferType,
                                            op.getRuntimeBufferAttr());
    util::ByteRangeAttr range = op.getRuntimeRange();
    // The buffer holds the value, not the whole range: the verifier lets a
    // value be shorter than its range, and whoever gets the buffer (a
    // caller, a buffer view) reads its length as the value's size.
    Value length;
    if (bytes) {
      length = arith::ConstantIndexOp::create(rewriter, loc, *bytes);
    } else {
      SmallVector<Value> shape =
          buildShape(rewriter, loc, type, adaptor.getResultDims());
      auto [elementType, encoding] = buildTypeAndEncoding(rewriter, loc, type);
      length = hal::AllocatorComputeSizeOp::create(
          rewriter, loc, rewriter.getIndexType(),
          getOrCreateDeviceAllocator(rewriter, op), shape, elementType,
          encoding);
    }
    rewriter.replaceOpWithNewOp<hal::BufferSubspanOp>(
        op, bufferType, pool,
        arith::ConstantIndexOp::create(rewriter, loc, range.getOffset()),
        length);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// flow.tensor.load / flow.tensor.store outside fragments
//===----------------------------------------------------------------------===//

/// Emits `hal.allocator.compute_offset` of an element of a tensor.
static Value buildElementOffset(ConversionPatternRewriter &rewriter,
                                Operation *op, ShapedType type, ValueRange dims,
                                ValueRange indices) {
  Location loc = op->getLoc();
  Value allocator = getOrCreateDeviceAllocator(rewriter, op);
  SmallVector<Value> shape = buildShape(rewriter, loc, type, dims);
  auto [elementType, encoding] = buildTypeAndEncoding(rewriter, loc, type);
  return hal::AllocatorComputeOffsetOp::create(
      rewriter, loc, rewriter.getIndexType(), allocator, indices, shape,
      elementType, encoding);
}

struct TensorLoadOpConversion : public OpConversionPattern<flow::TensorLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(flow::TensorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getSource().getType());
    if (failed(checkEncodable(rewriter, op, type)))
      return failure();
    Value offset = buildElementOffset(
        rewriter, op, type, adaptor.getSourceDims(), adaptor.getIndices());
    rewriter.replaceOpWithNewOp<hal::BufferLoadOp>(op, op.getResult().getType(),
                                                   adaptor.getSource(), offset);
    return success();
  }
};

struct TensorStoreOpConversion
    : public OpConversionPattern<flow::TensorStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(flow::TensorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getTarget().getType());
    if (failed(checkEncodable(rewriter, op, type)))
      return failure();
    Value offset = buildElementOffset(
        rewriter, op, type, adaptor.getTargetDims(), adaptor.getIndices());
    hal::BufferStoreOp::create(rewriter, op.getLoc(), adaptor.getValue(),
                               adaptor.getTarget(), offset);
    // The result is tied to the target: it is the same buffer.
    rewriter.replaceOp(op, adaptor.getTarget());
    return success();
  }
};

} // namespace

void populateBoundaryPatterns(MLIRContext *context,
                              TypeConverter &typeConverter,
                              RewritePatternSet &patterns) {
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 typeConverter);
  populateCallOpTypeConversionPattern(patterns, typeConverter);
  populateReturnOpTypeConversionPattern(patterns, typeConverter);
  patterns.add<ConstantSubspanOpConversion, GlobalOpConversion,
               TensorCastOpConversion, TensorLoadOpConversion,
               TensorStoreOpConversion>(typeConverter, context);
  for (StringRef opName : {util::GlobalLoadOp::getOperationName(),
                           util::GlobalStoreOp::getOperationName(),
                           util::GlobalAddressOp::getOperationName(),
                           util::GlobalLoadIndirectOp::getOperationName(),
                           util::GlobalStoreIndirectOp::getOperationName()})
    patterns.add<RetypeOpConversion>(typeConverter, context, opName);
}

} // namespace streamhal
