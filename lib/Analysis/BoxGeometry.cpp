//===- BoxGeometry.cpp - the boxes slices and updates copy ---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/BoxGeometry.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Building the box
//===----------------------------------------------------------------------===//

/// A value as a constant when one is known (through fragment operands too),
/// otherwise as the looked-up value.
static OpFoldResult foldIndex(Value value, function_ref<Value(Value)> lookup) {
  if (std::optional<int64_t> constant =
          flow::getConstantIntThroughCaptures(value))
    return Builder(value.getContext()).getIndexAttr(*constant);
  return lookup(value);
}

/// The extents of a tensor type, its dynamic dims taken from `dims`.
static SmallVector<OpFoldResult> getExtents(ShapedType type, ValueRange dims,
                                            function_ref<Value(Value)> lookup) {
  SmallVector<OpFoldResult> extents;
  Builder builder(type.getContext());
  unsigned dynamicIndex = 0;
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim))
      extents.push_back(builder.getIndexAttr(dim));
    else if (dynamicIndex < dims.size())
      extents.push_back(foldIndex(dims[dynamicIndex++], lookup));
  }
  return extents;
}

CopyBox getCopyBox(Operation *op, function_ref<Value(Value)> lookup) {
  CopyBox box;
  auto foldAll = [&](ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value value) { return foldIndex(value, lookup); });
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](flow::TensorSliceOp slice) {
        box.outerType = cast<ShapedType>(slice.getSource().getType());
        box.outerExtents =
            getExtents(box.outerType, slice.getSourceDims(), lookup);
        box.starts = foldAll(slice.getStartIndices());
        box.lengths = getExtents(cast<ShapedType>(slice.getType()),
                                 slice.getResultDims(), lookup);
      })
      .Case([&](flow::TensorUpdateOp update) {
        box.outerType = cast<ShapedType>(update.getTarget().getType());
        box.outerExtents =
            getExtents(box.outerType, update.getTargetDims(), lookup);
        box.starts = foldAll(update.getStartIndices());
        box.lengths = getExtents(cast<ShapedType>(update.getUpdate().getType()),
                                 update.getUpdateDims(), lookup);
      });
  return box;
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// True when both extents are provably equal. Values are compared by what
/// the fragment captured, so two operands carrying one value compare equal.
static bool isProvablySame(OpFoldResult a, OpFoldResult b) {
  std::optional<int64_t> constantA = getConstantIntValue(a);
  std::optional<int64_t> constantB = getConstantIntValue(b);
  if (constantA || constantB)
    return constantA == constantB;
  return flow::getCapturedValue(cast<Value>(a)) ==
         flow::getCapturedValue(cast<Value>(b));
}

/// Checks every bound of the box that is known.
static LogicalResult checkBounds(Operation *op, const CopyBox &box,
                                 const ErrorReporter &report) {
  for (int64_t dim = 0, rank = box.outerType.getRank(); dim < rank; ++dim) {
    std::optional<int64_t> start = getConstantIntValue(box.starts[dim]);
    std::optional<int64_t> length = getConstantIntValue(box.lengths[dim]);
    std::optional<int64_t> extent = getConstantIntValue(box.outerExtents[dim]);
    if (start && *start < 0)
      return report.emitOpError(op) << "has start index " << *start
                                    << " in dimension " << dim << ", below 0";
    if (length && *length < 0)
      return report.emitOpError(op) << "has length " << *length
                                    << " in dimension " << dim << ", below 0";
    if (!start || !length || !extent)
      continue;
    // Both are non-negative: the sum cannot overflow 64 unsigned bits.
    uint64_t end =
        static_cast<uint64_t>(*start) + static_cast<uint64_t>(*length);
    if (end > static_cast<uint64_t>(*extent))
      return report.emitOpError(op)
             << "copies a box out of bounds of " << box.outerType
             << ": dimension " << dim << " spans [" << *start << ", " << end
             << ") but has " << *extent << " elements";
  }
  return success();
}

/// A slice's length operands only spell its result type: refuse one that
/// contradicts it.
static LogicalResult checkSliceLengths(Operation *op, const CopyBox &box,
                                       const ErrorReporter &report) {
  auto slice = dyn_cast<flow::TensorSliceOp>(op);
  if (!slice)
    return success();
  for (auto [dim, operand] : llvm::enumerate(slice.getLengths())) {
    std::optional<int64_t> spelled =
        flow::getConstantIntThroughCaptures(operand);
    std::optional<int64_t> typed = getConstantIntValue(box.lengths[dim]);
    if (spelled && typed && *spelled != *typed)
      return report.emitOpError(op)
             << "has length operand " << *spelled << " in dimension " << dim
             << " but its result type " << slice.getType() << " has " << *typed;
  }
  return success();
}

/// Reports a box that is not provably contiguous and has a dynamic size in
/// dimension `dynamicDim`. Calls it non-contiguous only when that is certain
/// whatever the dynamic sizes are.
static LogicalResult emitDynamicBoxError(Operation *op, const CopyBox &box,
                                         int64_t dynamicDim,
                                         const ErrorReporter &report) {
  int64_t rank = box.outerType.getRank();
  // The box is contiguous iff, for some k, every dim before k has length 1
  // and every dim after k is full. It is certainly not when the last dim
  // that is provably not full comes after every k the unknown lengths still
  // allow (k cannot pass the first length that is provably not 1).
  int64_t lastNotFull = -1;
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::optional<int64_t> length = getConstantIntValue(box.lengths[dim]);
    std::optional<int64_t> extent = getConstantIntValue(box.outerExtents[dim]);
    if (length && extent && *length != *extent)
      lastNotFull = dim;
  }
  int64_t largestK = rank - 1;
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::optional<int64_t> length = getConstantIntValue(box.lengths[dim]);
    if (length && *length != 1) {
      largestK = dim;
      break;
    }
  }
  if (lastNotFull > largestK)
    return report.emitOpError(op)
           << "copies a non-contiguous box of " << box.outerType
           << " whose shape is dynamic (dimension " << dynamicDim
           << "); only a static non-contiguous box can be split into one "
              "copy per contiguous run";
  return report.emitOpError(op)
         << "copies a box of " << box.outerType
         << " whose contiguity depends on dynamic sizes (dimension "
         << dynamicDim
         << "); a box is lowered when it is provably contiguous or when its "
            "shape and the outer shape are static";
}

FailureOr<BoxCopyPlan> planBoxCopy(Operation *op, const CopyBox &box,
                                   const ErrorReporter &report) {
  int64_t rank = box.outerType.getRank();
  if (static_cast<int64_t>(box.lengths.size()) != rank ||
      static_cast<int64_t>(box.starts.size()) != rank ||
      static_cast<int64_t>(box.outerExtents.size()) != rank)
    return report.emitOpError(op)
           << "has a malformed box for " << box.outerType;
  if (failed(checkBounds(op, box, report)) ||
      failed(checkSliceLengths(op, box, report)))
    return failure();

  BoxCopyPlan plan;
  // An empty box copies nothing: one copy of length zero.
  if (llvm::any_of(box.lengths, [](OpFoldResult length) {
        return getConstantIntValue(length) == std::optional<int64_t>(0);
      })) {
    plan.contiguous = true;
    return plan;
  }
  // Contiguous when, after the leading unit dims and one more, every dim
  // covers its whole outer dim.
  int64_t firstNonUnit = 0;
  while (firstNonUnit < rank &&
         getConstantIntValue(box.lengths[firstNonUnit]) ==
             std::optional<int64_t>(1))
    ++firstNonUnit;
  bool contiguous = true;
  for (int64_t dim = firstNonUnit + 1; dim < rank; ++dim)
    contiguous &= isProvablySame(box.lengths[dim], box.outerExtents[dim]);
  if (contiguous) {
    plan.contiguous = true;
    return plan;
  }

  // Not provably contiguous: a static shape decides it and gives the runs;
  // a dynamic one cannot be split into a known number of copies.
  SmallVector<int64_t> lengths, shape;
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::optional<int64_t> length = getConstantIntValue(box.lengths[dim]);
    std::optional<int64_t> extent = getConstantIntValue(box.outerExtents[dim]);
    if (!length || !extent)
      return emitDynamicBoxError(op, box, dim, report);
    lengths.push_back(*length);
    shape.push_back(*extent);
  }
  // `runDim` is the last dim that does not cover its outer dim: a run spans
  // it and every full dim after it.
  int64_t runDim = rank - 1;
  while (runDim > 0 && lengths[runDim] == shape[runDim])
    --runDim;
  // The box lies inside the outer tensor (checked above), whose element
  // count fits in 64 bits, so none of these products overflows.
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t dim = rank - 2; dim >= 0; --dim)
    strides[dim] = strides[dim + 1] * shape[dim + 1];
  plan.runElements = lengths[runDim] * strides[runDim];
  int64_t runCount = 1;
  for (int64_t dim = 0; dim < runDim; ++dim)
    runCount *= lengths[dim];
  if (runCount > kMaxCopyRuns)
    return report.emitOpError(op)
           << "would need " << runCount
           << " separate copies for a non-contiguous box of " << box.outerType
           << " (the limit is " << kMaxCopyRuns << ")";
  // Enumerate the run origins in row-major order like an odometer.
  SmallVector<int64_t> position(runDim, 0);
  for (int64_t run = 0; run < runCount; ++run) {
    int64_t delta = 0;
    for (int64_t dim = 0; dim < runDim; ++dim)
      delta += position[dim] * strides[dim];
    plan.runDeltas.push_back(delta);
    for (int64_t dim = runDim - 1; dim >= 0; --dim) {
      if (++position[dim] < lengths[dim])
        break;
      position[dim] = 0;
    }
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Byte offsets
//===----------------------------------------------------------------------===//

namespace {
/// Where the box of a slice or update lies in its outer tensor: the start
/// of each dim and the byte stride of each dim, when the outer shape and
/// element size are static.
struct BoxInOuter {
  OperandRange starts;
  SmallVector<int64_t> byteStrides;
  ArrayRef<int64_t> shape;
};
/// The outer tensor of a slice or update box (a slice's source, an
/// update's target), with the box's starts and the outer element's bytes.
struct BoxOuter {
  OperandRange starts;
  ShapedType type;
  int64_t elementBytes;
};
} // namespace

static std::optional<BoxOuter> getBoxOuter(Operation *op) {
  auto slice = dyn_cast<flow::TensorSliceOp>(op);
  auto update = dyn_cast<flow::TensorUpdateOp>(op);
  if (!slice && !update)
    return std::nullopt;
  Value outer = slice ? slice.getSource() : update.getTarget();
  auto outerType = cast<ShapedType>(outer.getType());
  std::optional<int64_t> elementBytes =
      util::getElementByteCount(outerType.getElementType());
  if (!elementBytes)
    return std::nullopt;
  return BoxOuter{slice ? slice.getStartIndices() : update.getStartIndices(),
                  outerType, *elementBytes};
}

static std::optional<BoxInOuter> getBoxInOuter(Operation *op) {
  std::optional<BoxOuter> outer = getBoxOuter(op);
  if (!outer || !outer->type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides = computeSuffixProduct(outer->type.getShape());
  for (int64_t &stride : strides)
    stride *= outer->elementBytes; // In bounds: the byte size fits in 64 bits.
  return BoxInOuter{outer->starts, std::move(strides), outer->type.getShape()};
}

std::optional<int64_t> getStaticBoxByteOffset(Operation *boxOp) {
  std::optional<BoxInOuter> box = getBoxInOuter(boxOp);
  if (!box)
    return std::nullopt;
  SmallVector<int64_t> starts;
  for (auto [start, extent] : llvm::zip_equal(box->starts, box->shape)) {
    std::optional<int64_t> constant =
        flow::getConstantIntThroughCaptures(start);
    if (!constant || *constant < 0 || *constant >= extent)
      return std::nullopt;
    starts.push_back(*constant);
  }
  // In bounds, so the offset fits in 64 bits.
  return linearize(starts, box->byteStrides);
}

std::optional<uint64_t> getBoxByteOffsetDivisor(Operation *boxOp) {
  std::optional<BoxOuter> outer = getBoxOuter(boxOp);
  if (!outer)
    return std::nullopt;
  ShapedType outerType = outer->type;
  // Byte strides from the innermost dim out; a dynamic dim leaves every
  // stride outside it unknown, which only matters for a start that may be
  // nonzero. The strides of an outer tensor in bounds fit in 64 bits.
  uint64_t divisor = 0;
  std::optional<uint64_t> stride = uint64_t(outer->elementBytes);
  for (int64_t dim = outerType.getRank() - 1; dim >= 0; --dim) {
    std::optional<int64_t> constant =
        flow::getConstantIntThroughCaptures(outer->starts[dim]);
    if (constant != 0) {
      if (!stride)
        return std::nullopt;
      divisor =
          std::gcd(divisor, constant ? uint64_t(*constant) * *stride : *stride);
    }
    if (stride && !outerType.isDynamicDim(dim))
      stride = *stride * uint64_t(outerType.getDimSize(dim));
    else
      stride = std::nullopt;
  }
  return divisor;
}

//===----------------------------------------------------------------------===//
// BoxGeometry
//===----------------------------------------------------------------------===//

BoxGeometry::BoxGeometry(Operation *fragment, const ErrorReporter &report) {
  Region &region = fragment->getRegion(0);
  if (region.empty())
    return;
  for (Operation &op : region.front()) {
    if (!isa<flow::TensorSliceOp, flow::TensorUpdateOp>(op))
      continue;
    // The body's own values: what is known of them is known through the
    // fragment's operands too, so the recorder's plan is the same.
    FailureOr<BoxCopyPlan> plan = planBoxCopy(
        &op, getCopyBox(&op, [](Value value) { return value; }), report);
    if (failed(plan)) {
      valid = false;
      continue;
    }
    boxOps.push_back(&op);
    plans.try_emplace(&op, std::move(*plan));
  }
}

void BoxGeometry::print(llvm::raw_ostream &os) const {
  for (Operation *op : boxOps) {
    const BoxCopyPlan &plan = plans.find(op)->second;
    os << op->getName() << " at " << op->getLoc() << ": ";
    if (plan.contiguous)
      os << "contiguous\n";
    else
      os << plan.runDeltas.size() << " runs of " << plan.runElements
         << " elements\n";
  }
}

void BoxGeometry::dump() const { print(llvm::errs()); }

} // namespace streamhal
