//===- HALFolders.cpp - folds and canonicalizations of hal ops ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal::hal;

/// Returns the constant integers of `attrs`, or std::nullopt if any is not a
/// constant integer.
static std::optional<SmallVector<int64_t>>
getConstantInts(ArrayRef<Attribute> attrs) {
  SmallVector<int64_t> values;
  for (Attribute attr : attrs) {
    auto intAttr = dyn_cast_or_null<IntegerAttr>(attr);
    if (!intAttr)
      return std::nullopt;
    values.push_back(intAttr.getValue().getSExtValue());
  }
  return values;
}

/// Returns `lhs * rhs`, or std::nullopt when it overflows int64_t.
static std::optional<int64_t> checkedMul(int64_t lhs, int64_t rhs) {
  int64_t result = 0;
  if (llvm::MulOverflow(lhs, rhs, result))
    return std::nullopt;
  return result;
}

/// Returns `lhs + rhs`, or std::nullopt when it overflows int64_t.
static std::optional<int64_t> checkedAdd(int64_t lhs, int64_t rhs) {
  int64_t result = 0;
  if (llvm::AddOverflow(lhs, rhs, result))
    return std::nullopt;
  return result;
}

/// Returns the element byte count of a constant element type operand.
static std::optional<int64_t> getConstantElementBytes(Value elementType) {
  APInt value;
  if (!matchPattern(elementType, m_ConstantInt(&value)))
    return std::nullopt;
  return getElementByteCount(static_cast<int32_t>(value.getSExtValue()));
}

//===----------------------------------------------------------------------===//
// hal.allocator.compute_size
//===----------------------------------------------------------------------===//

OpFoldResult AllocatorComputeSizeOp::fold(FoldAdaptor adaptor) {
  auto dims = getConstantInts(adaptor.getShape());
  auto elementType = dyn_cast_or_null<IntegerAttr>(adaptor.getElementType());
  if (!dims || !elementType)
    return {};
  std::optional<int64_t> size = getElementByteCount(
      static_cast<int32_t>(elementType.getValue().getSExtValue()));
  // Negative dims and sizes that overflow are left for the runtime to reject.
  for (int64_t dim : *dims) {
    if (dim < 0 || !(size = checkedMul(*size, dim)))
      return {};
  }
  return IntegerAttr::get(IndexType::get(getContext()), *size);
}

namespace {
/// Expands a compute_size with dynamic dims into `static * d0 * d1 ...`: the
/// static dims and the element size fold into one constant.
struct ExpandDynamicComputeSize
    : public OpRewritePattern<AllocatorComputeSizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllocatorComputeSizeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> elementBytes =
        getConstantElementBytes(op.getElementType());
    if (!elementBytes)
      return failure();
    int64_t staticProduct = *elementBytes;
    SmallVector<Value> dynamicDims;
    for (Value dim : op.getShape()) {
      APInt value;
      if (matchPattern(dim, m_ConstantInt(&value))) {
        std::optional<int64_t> product =
            checkedMul(staticProduct, value.getSExtValue());
        if (!product)
          return failure();
        staticProduct = *product;
      } else
        dynamicDims.push_back(dim);
    }
    if (dynamicDims.empty())
      return failure(); // the folder handles the all-constant case
    Location loc = op.getLoc();
    Value size = dynamicDims.front();
    for (Value dim : ArrayRef<Value>(dynamicDims).drop_front())
      size = arith::MulIOp::create(rewriter, loc, size, dim);
    if (staticProduct != 1) {
      Value constant =
          arith::ConstantIndexOp::create(rewriter, loc, staticProduct);
      size = arith::MulIOp::create(rewriter, loc, size, constant);
    }
    rewriter.replaceOp(op, size);
    return success();
  }
};
} // namespace

void AllocatorComputeSizeOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<ExpandDynamicComputeSize>(context);
}

//===----------------------------------------------------------------------===//
// hal.allocator.compute_offset
//===----------------------------------------------------------------------===//

OpFoldResult AllocatorComputeOffsetOp::fold(FoldAdaptor adaptor) {
  auto indices = getConstantInts(adaptor.getIndices());
  auto dims = getConstantInts(adaptor.getShape());
  auto elementType = dyn_cast_or_null<IntegerAttr>(adaptor.getElementType());
  if (!indices || !dims || !elementType || indices->size() != dims->size())
    return {};
  std::optional<int64_t> linear = 0;
  for (auto [index, dim] : llvm::zip_equal(*indices, *dims)) {
    linear = checkedMul(*linear, dim);
    if (!linear || !(linear = checkedAdd(*linear, index)))
      return {};
  }
  int64_t bytes = getElementByteCount(
      static_cast<int32_t>(elementType.getValue().getSExtValue()));
  std::optional<int64_t> offset = checkedMul(*linear, bytes);
  if (!offset)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), *offset);
}

namespace {
/// Expands a non-constant compute_offset into row-major index math:
/// `((i0 * d1 + i1) * d2 + i2) * element_bytes`.
struct ExpandComputeOffset : public OpRewritePattern<AllocatorComputeOffsetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllocatorComputeOffsetOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> elementBytes =
        getConstantElementBytes(op.getElementType());
    if (!elementBytes || op.getIndices().size() != op.getShape().size())
      return failure();
    Location loc = op.getLoc();
    Value linear;
    for (auto [index, dim] : llvm::zip_equal(op.getIndices(), op.getShape())) {
      linear =
          linear ? arith::AddIOp::create(
                       rewriter, loc,
                       arith::MulIOp::create(rewriter, loc, linear, dim), index)
                 : index;
    }
    if (!linear)
      linear = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value bytes = arith::ConstantIndexOp::create(rewriter, loc, *elementBytes);
    rewriter.replaceOp(op, arith::MulIOp::create(rewriter, loc, linear, bytes));
    return success();
  }
};
} // namespace

void AllocatorComputeOffsetOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<ExpandComputeOffset>(context);
}

//===----------------------------------------------------------------------===//
// hal.buffer_view.buffer
//===----------------------------------------------------------------------===//

OpFoldResult BufferViewBufferOp::fold(FoldAdaptor) {
  if (auto create = getBufferView().getDefiningOp<BufferViewCreateOp>())
    return create.getBuffer();
  return {};
}

//===----------------------------------------------------------------------===//
// hal.allocator.pack
//===----------------------------------------------------------------------===//

SlabAlignments streamhal::hal::getSlabAlignments(Operation *op) {
  // Alignments are powers of two: the strictest one satisfies every target.
  DeviceLimits limits = getDeviceLimits(op);
  return {limits.minBufferOffsetAlignment, limits.minBufferRangeAlignment};
}

namespace {

/// A pack of one slice needs no placement: the slice sits at the base and
/// the slab is its size rounded up to the range alignment.
struct FoldSingleSlicePack : public OpRewritePattern<AllocatorPackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllocatorPackOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<AllocatorPackOp::Slice> slices = op.getSlices();
    if (slices.size() != 1)
      return rewriter.notifyMatchFailure(op, "not a pack of one slice");
    int64_t alignment = getSlabAlignments(op).range;
    if (alignment < 1)
      return rewriter.notifyMatchFailure(op, "unusable range alignment");
    Location loc = op.getLoc();
    Value size = slices.front().size;
    Value total;
    APInt constant;
    if (matchPattern(size, m_ConstantInt(&constant))) {
      int64_t bytes = constant.getSExtValue();
      std::optional<int64_t> bumped = checkedAdd(bytes, alignment - 1);
      if (bytes < 0 || !bumped)
        return rewriter.notifyMatchFailure(op, "size out of range");
      total = arith::ConstantIndexOp::create(rewriter, loc,
                                             *bumped / alignment * alignment);
    } else if (alignment == 1) {
      total = size;
    } else {
      Value bumped = arith::AddIOp::create(
          rewriter, loc, size,
          arith::ConstantIndexOp::create(rewriter, loc, alignment - 1));
      Value step = arith::ConstantIndexOp::create(rewriter, loc, alignment);
      total = arith::MulIOp::create(
          rewriter, loc, arith::DivUIOp::create(rewriter, loc, bumped, step),
          step);
    }
    Value offset = op.getOffset();
    if (!offset)
      offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    rewriter.replaceOp(op, {total, offset});
    return success();
  }
};

} // namespace

void AllocatorPackOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldSingleSlicePack>(context);
}

//===----------------------------------------------------------------------===//
// hal.buffer.subspan
//===----------------------------------------------------------------------===//

namespace {

/// A subspan of a subspan is a subspan of the outer buffer at the sum of the
/// offsets: views of views (slices of slices, slices of constant pools) then
/// name their real storage directly. A subspan at a packed offset is left
/// alone until the pack is materialized: it names a pack slice, which is
/// what tells analyses that its bytes are disjoint from those of slices
/// live at the same time.
struct ComposeNestedSubspans : public OpRewritePattern<BufferSubspanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BufferSubspanOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSourceBuffer().getDefiningOp<BufferSubspanOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "source is not a subspan");
    if (inner.getSourceOffset().getDefiningOp<AllocatorPackOp>())
      return rewriter.notifyMatchFailure(op, "source is a pack slice");
    Value offset = op.getSourceOffset();
    if (!matchPattern(offset, m_Zero()))
      offset = arith::AddIOp::create(rewriter, op.getLoc(),
                                     inner.getSourceOffset(), offset);
    else
      offset = inner.getSourceOffset();
    auto composed = rewriter.replaceOpWithNewOp<BufferSubspanOp>(
        op, op.getType(), inner.getSourceBuffer(), offset, op.getLength());
    // A range inside a range inside a pack lane is inside that lane: what
    // the pack proved must outlive the subspan it was attached to.
    if (std::optional<PackLane> lane = PackLane::get(inner))
      lane->set(composed);
    return success();
  }
};

} // namespace

std::optional<PackLane> PackLane::get(BufferSubspanOp subspan) {
  auto dictionary = subspan->getAttrOfType<DictionaryAttr>(kAttrName);
  if (!dictionary)
    return std::nullopt;
  auto field = [&](StringRef name) -> std::optional<int64_t> {
    auto attr = dictionary.getAs<IntegerAttr>(name);
    if (!attr || !attr.getType().isSignlessInteger(64))
      return std::nullopt;
    return attr.getInt();
  };
  std::optional<int64_t> pack = field("pack"), lane = field("lane"),
                         minOffset = field("min_offset");
  if (!pack || !lane || !minOffset || *minOffset < 0)
    return std::nullopt;
  return PackLane{*pack, *lane, *minOffset};
}

void PackLane::set(BufferSubspanOp subspan) const {
  Builder builder(subspan.getContext());
  subspan->setAttr(
      kAttrName,
      builder.getDictionaryAttr(
          {builder.getNamedAttr("lane", builder.getI64IntegerAttr(lane)),
           builder.getNamedAttr("min_offset",
                                builder.getI64IntegerAttr(minOffset)),
           builder.getNamedAttr("pack", builder.getI64IntegerAttr(pack))}));
}

void BufferSubspanOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<ComposeNestedSubspans>(context);
}
