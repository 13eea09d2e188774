//===- FlowLevel.cpp - Reference executor: tensors and fragments ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Flow-level semantics: a tensor is its row-major bytes (values are
// immutable, so a tied result is simply a new value), fragments run their
// body, and dispatches run the model of DispatchModel.h over the bindings of
// `hal.bindings`.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// Little-endian bytes of a scalar's bits.
static void appendScalar(uint64_t bits, int64_t bytes,
                         std::vector<uint8_t> &out) {
  for (int64_t i = 0; i < bytes; ++i)
    out.push_back(i < 8 ? static_cast<uint8_t>(bits >> (8 * i)) : 0);
}

/// The concrete shape of a tensor result: static dims of the type, dynamic
/// ones from `dims` in order.
static FailureOr<SmallVector<int64_t>> resolveShape(ExecutorImpl &exec,
                                                    Frame &frame, Operation *op,
                                                    Type type,
                                                    ValueRange dims) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return op->emitError() << "has a result of type " << type
                           << " that is not a ranked tensor";
  SmallVector<int64_t> shape;
  unsigned next = 0;
  for (int64_t dim : tensorType.getShape()) {
    if (!ShapedType::isDynamic(dim)) {
      shape.push_back(dim);
      continue;
    }
    if (next >= dims.size())
      return op->emitError() << "is missing a dynamic dim of " << type;
    FailureOr<int64_t> value = exec.getIndex(frame, dims[next++], op);
    if (failed(value))
      return failure();
    if (*value < 0)
      return op->emitError() << "has a negative dynamic dim " << *value;
    shape.push_back(*value);
  }
  int64_t size =
      getByteSize(shape, getElementBytes(tensorType.getElementType()));
  if (size < 0 || size > kMaxTensorBytes)
    return op->emitError() << "has a " << type
                           << " too large for the executor (4 GiB at most)";
  return shape;
}

static FailureOr<SmallVector<int64_t>> resolveResultShape(ExecutorImpl &exec,
                                                          Frame &frame,
                                                          Operation *op,
                                                          unsigned index) {
  ValueRange dims;
  if (auto shaped = dyn_cast<util::ShapeAwareOpInterface>(op))
    dims = shaped.getResultDynamicDims(index);
  return resolveShape(exec, frame, op, op->getResult(index).getType(), dims);
}

/// Checks that `value`, a tensor that `op` uses or defines, has the shape
/// its type and `dims` declare. The dims operands of shape-aware ops are
/// claims the program makes: the lowering sizes buffers, copies and
/// bindings by them, not by the value, so a value of another shape would
/// run differently at the two levels. It is the program's error, reported
/// here.
static LogicalResult checkDeclaredShape(ExecutorImpl &exec, Frame &frame,
                                        Operation *op, Value value,
                                        ValueRange dims, StringRef what,
                                        unsigned index) {
  auto it = frame.find(value);
  if (it == frame.end())
    return success();
  const auto *tensor = std::get_if<TensorValue>(&it->second);
  if (!tensor)
    return success();
  FailureOr<SmallVector<int64_t>> declared =
      resolveShape(exec, frame, op, value.getType(), dims);
  if (failed(declared))
    return failure();
  if (*declared == tensor->shape)
    return success();
  auto printShape = [](InFlightDiagnostic &diag, ArrayRef<int64_t> shape) {
    if (shape.empty())
      diag << "[]";
    llvm::interleave(
        shape, [&](int64_t dim) { diag << dim; }, [&] { diag << "x"; });
  };
  InFlightDiagnostic diag = op->emitError()
                            << what << " " << index << " has shape ";
  printShape(diag, tensor->shape);
  diag << " but its type " << value.getType() << " and dims declare ";
  printShape(diag, *declared);
  return diag;
}

/// checkDeclaredShape for every tensor operand of a shape-aware op.
static LogicalResult checkOperandShapes(ExecutorImpl &exec, Frame &frame,
                                        Operation *op) {
  auto shaped = dyn_cast<util::ShapeAwareOpInterface>(op);
  if (!shaped)
    return success();
  for (OpOperand &operand : op->getOpOperands())
    if (isa<RankedTensorType>(operand.get().getType()) &&
        failed(checkDeclaredShape(
            exec, frame, op, operand.get(),
            shaped.getOperandDynamicDims(operand.getOperandNumber()), "operand",
            operand.getOperandNumber())))
      return failure();
  return success();
}

static int64_t tensorByteSize(const TensorValue &tensor) {
  return getByteSize(tensor.shape, getElementBytes(tensor.elementType));
}

/// Copies the box `boxShape` from `source` at `sourceStart` into `target` at
/// `targetStart` (row-major, elements of `elementBytes`).
static void copyBox(ArrayRef<uint8_t> source, ArrayRef<int64_t> sourceShape,
                    ArrayRef<int64_t> sourceStart,
                    MutableArrayRef<uint8_t> target,
                    ArrayRef<int64_t> targetShape,
                    ArrayRef<int64_t> targetStart, ArrayRef<int64_t> boxShape,
                    int64_t elementBytes) {
  size_t rank = boxShape.size();
  if (llvm::is_contained(boxShape, 0))
    return;
  if (rank == 0) {
    std::copy_n(source.begin(), elementBytes, target.begin());
    return;
  }
  SmallVector<int64_t> position(rank, 0);
  int64_t rowBytes = boxShape.back() * elementBytes;
  while (true) {
    int64_t sourceOffset = 0, targetOffset = 0;
    for (size_t d = 0; d < rank; ++d) {
      sourceOffset =
          sourceOffset * sourceShape[d] + sourceStart[d] + position[d];
      targetOffset =
          targetOffset * targetShape[d] + targetStart[d] + position[d];
    }
    std::copy_n(source.begin() + sourceOffset * elementBytes, rowBytes,
                target.begin() + targetOffset * elementBytes);
    // Next row: increment the position over all dims but the last.
    int d = static_cast<int>(rank) - 2;
    for (; d >= 0; --d) {
      if (++position[d] < boxShape[d])
        break;
      position[d] = 0;
    }
    if (d < 0)
      return;
  }
}

static LogicalResult checkBox(Operation *op, ArrayRef<int64_t> outer,
                              ArrayRef<int64_t> start, ArrayRef<int64_t> box,
                              StringRef what) {
  if (outer.size() != start.size() || outer.size() != box.size())
    return op->emitError() << "has " << start.size()
                           << " start indices for a rank-" << outer.size()
                           << " " << what;
  // outer and box are extents (non-negative): the subtraction cannot
  // overflow, and formatRange prints the end without adding in int64_t.
  for (size_t d = 0; d < outer.size(); ++d)
    if (start[d] < 0 || box[d] < 0 || start[d] > outer[d] - box[d])
      return op->emitError() << "is out of bounds: dim " << d << " covers "
                             << formatRange(start[d], box[d]) << " of a "
                             << what << " of extent " << outer[d];
  return success();
}

/// True when the storage of `value` is returned by its stream fragment:
/// following results that reuse an operand's storage (updates, reshapes,
/// tied dispatch results) from `value` reaches `flow.return`. The lowering's
/// contract gives a returned constant its own storage of exactly the
/// value's size instead of the pool's whole byte range.
static bool isStorageReturned(Value value) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (isa<flow::ReturnOp>(user))
        return true;
      auto tied = dyn_cast<util::TiedOpInterface>(user);
      if (!tied)
        continue;
      for (OpResult result : user->getResults())
        if (tied.getTiedResultOperandIndex(result.getResultNumber()) ==
                std::optional<unsigned>(use.getOperandNumber()) &&
            seen.insert(result).second)
          worklist.push_back(result);
    }
  }
  return false;
}

static TensorValue makeTensor(std::vector<uint8_t> bytes,
                              SmallVector<int64_t> shape, Type elementType) {
  return TensorValue{std::make_shared<std::vector<uint8_t>>(std::move(bytes)),
                     std::move(shape), elementType};
}

//===----------------------------------------------------------------------===//
// Flow-level op handlers
//===----------------------------------------------------------------------===//

/// flow.ex.stream.fragment: runs its body on the captured values.
static LogicalResult runStreamFragment(ExecutorImpl &exec, Frame &frame,
                                       flow::ExStreamFragmentOp fragment,
                                       unsigned depth) {
  Operation *op = fragment;
  Frame inner;
  Block &body = fragment.getBody().front();
  for (auto [argument, operand] :
       llvm::zip(body.getArguments(), fragment.getArguments())) {
    auto it = frame.find(operand);
    if (it == frame.end())
      return fragment.emitError() << "captures a value with no value";
    inner[argument] = it->second;
  }
  SmallVector<RuntimeValue> results;
  if (failed(exec.runBlock(body, inner, results, depth)))
    return failure();
  for (auto [result, value] : llvm::zip(fragment.getResults(), results))
    frame[result] = value;
  for (OpResult result : fragment.getResults())
    if (isa<RankedTensorType>(result.getType()) &&
        failed(checkDeclaredShape(
            exec, frame, op, result,
            fragment.getResultDynamicDims(result.getResultNumber()), "result",
            result.getResultNumber())))
      return failure();
  return success();
}

/// flow.tensor.splat: a tensor of one repeated scalar.
static LogicalResult runTensorSplat(ExecutorImpl &exec, Frame &frame,
                                    flow::TensorSplatOp splat) {
  Operation *op = splat;
  FailureOr<ScalarValue> value =
      exec.get<ScalarValue>(frame, splat.getValue(), op);
  FailureOr<SmallVector<int64_t>> shape =
      resolveResultShape(exec, frame, op, 0);
  if (failed(value) || failed(shape))
    return failure();
  Type elementType = splat.getType().getElementType();
  int64_t elementBytes = getElementBytes(elementType);
  int64_t count = getByteSize(*shape, 1);
  std::vector<uint8_t> bytes;
  bytes.reserve(count * elementBytes);
  for (int64_t i = 0; i < count; ++i)
    appendScalar(value->bits, elementBytes, bytes);
  frame[splat.getResult()] = makeTensor(std::move(bytes), *shape, elementType);
  return success();
}

/// flow.tensor.clone: a copy of the value's bytes in storage of its own.
static LogicalResult runTensorClone(ExecutorImpl &exec, Frame &frame,
                                    flow::TensorCloneOp clone) {
  Operation *op = clone;
  FailureOr<TensorValue> source =
      exec.get<TensorValue>(frame, clone.getOperand(), op);
  if (failed(source))
    return failure();
  int64_t size = tensorByteSize(*source);
  frame[clone.getResult()] =
      makeTensor(std::vector<uint8_t>(source->bytes->begin(),
                                      source->bytes->begin() + size),
                 source->shape, source->elementType);
  return success();
}

/// flow.tensor.slice: a box of the source.
static LogicalResult runTensorSlice(ExecutorImpl &exec, Frame &frame,
                                    flow::TensorSliceOp slice) {
  Operation *op = slice;
  FailureOr<TensorValue> source =
      exec.get<TensorValue>(frame, slice.getSource(), op);
  FailureOr<SmallVector<int64_t>> start =
      exec.getIndices(frame, slice.getStartIndices(), op);
  FailureOr<SmallVector<int64_t>> shape =
      resolveResultShape(exec, frame, op, 0);
  if (failed(source) || failed(start) || failed(shape) ||
      failed(checkBox(op, source->shape, *start, *shape, "source")))
    return failure();
  int64_t elementBytes = getElementBytes(source->elementType);
  std::vector<uint8_t> bytes(getByteSize(*shape, elementBytes));
  SmallVector<int64_t> zero(shape->size(), 0);
  copyBox(*source->bytes, source->shape, *start, bytes, *shape, zero, *shape,
          elementBytes);
  frame[slice.getResult()] =
      makeTensor(std::move(bytes), *shape, source->elementType);
  return success();
}

/// flow.tensor.update: the target with a box replaced by the update.
static LogicalResult runTensorUpdate(ExecutorImpl &exec, Frame &frame,
                                     flow::TensorUpdateOp update) {
  Operation *op = update;
  FailureOr<TensorValue> value =
      exec.get<TensorValue>(frame, update.getUpdate(), op);
  FailureOr<TensorValue> target =
      exec.get<TensorValue>(frame, update.getTarget(), op);
  FailureOr<SmallVector<int64_t>> start =
      exec.getIndices(frame, update.getStartIndices(), op);
  if (failed(value) || failed(target) || failed(start) ||
      failed(checkBox(op, target->shape, *start, value->shape, "target")))
    return failure();
  int64_t elementBytes = getElementBytes(target->elementType);
  SmallVector<int64_t> zero(value->shape.size(), 0);
  // A target this update is the only user of, defined in its block
  // (each run of the block defines it again), whose bytes nothing else
  // holds, is updated in its own storage: a chain of updates into one
  // concatenation then costs its pieces, not a copy of the whole
  // target per piece.
  Value targetValue = update.getTarget();
  std::shared_ptr<const std::vector<uint8_t>> storage =
      std::move(target->bytes);
  if (targetValue.hasOneUse() &&
      targetValue.getParentBlock() == update->getBlock() && !target->identity) {
    frame.erase(targetValue);
    if (storage.use_count() == 1) {
      // Made non-const by makeTensor; only this value refers to it.
      auto &bytes = const_cast<std::vector<uint8_t> &>(*storage);
      copyBox(*value->bytes, value->shape, zero, bytes, target->shape, *start,
              value->shape, elementBytes);
      frame[update.getResult()] =
          TensorValue{std::move(storage), target->shape, target->elementType};
      return success();
    }
  }
  // Otherwise the target's whole storage carries over into a copy.
  std::vector<uint8_t> bytes(*storage);
  copyBox(*value->bytes, value->shape, zero, bytes, target->shape, *start,
          value->shape, elementBytes);
  frame[update.getResult()] =
      makeTensor(std::move(bytes), target->shape, target->elementType);
  return success();
}

/// flow.tensor.reshape: the same storage with another shape.
static LogicalResult runTensorReshape(ExecutorImpl &exec, Frame &frame,
                                      flow::TensorReshapeOp reshape) {
  Operation *op = reshape;
  FailureOr<TensorValue> source =
      exec.get<TensorValue>(frame, reshape.getSource(), op);
  FailureOr<SmallVector<int64_t>> shape =
      resolveResultShape(exec, frame, op, 0);
  if (failed(source) || failed(shape))
    return failure();
  Type elementType = reshape.getType().getElementType();
  if (getByteSize(*shape, getElementBytes(elementType)) !=
      tensorByteSize(*source))
    return reshape.emitError()
           << "reshapes " << tensorByteSize(*source) << " bytes into "
           << getByteSize(*shape, getElementBytes(elementType));
  frame[reshape.getResult()] = TensorValue{source->bytes, *shape, elementType};
  return success();
}

/// flow.tensor.load: one element as a scalar.
static LogicalResult runTensorLoad(ExecutorImpl &exec, Frame &frame,
                                   flow::TensorLoadOp load) {
  Operation *op = load;
  FailureOr<TensorValue> source =
      exec.get<TensorValue>(frame, load.getSource(), op);
  FailureOr<SmallVector<int64_t>> indices =
      exec.getIndices(frame, load.getIndices(), op);
  if (failed(source) || failed(indices))
    return failure();
  SmallVector<int64_t> one(source->shape.size(), 1);
  if (failed(checkBox(op, source->shape, *indices, one, "tensor")))
    return failure();
  int64_t elementBytes = getElementBytes(source->elementType);
  int64_t offset = 0;
  for (size_t d = 0; d < indices->size(); ++d)
    offset = offset * source->shape[d] + (*indices)[d];
  uint64_t bits = 0;
  for (int64_t i = 0; i < elementBytes && i < 8; ++i)
    bits |= uint64_t((*source->bytes)[offset * elementBytes + i]) << (8 * i);
  unsigned width = getScalarWidth(load.getType());
  if (width < 64)
    bits &= (uint64_t(1) << width) - 1;
  frame[load.getResult()] = ScalarValue{bits};
  return success();
}

/// flow.tensor.store: a copy of the target with one element replaced.
static LogicalResult runTensorStore(ExecutorImpl &exec, Frame &frame,
                                    flow::TensorStoreOp store) {
  Operation *op = store;
  FailureOr<TensorValue> target =
      exec.get<TensorValue>(frame, store.getTarget(), op);
  FailureOr<ScalarValue> value =
      exec.get<ScalarValue>(frame, store.getValue(), op);
  FailureOr<SmallVector<int64_t>> indices =
      exec.getIndices(frame, store.getIndices(), op);
  if (failed(target) || failed(value) || failed(indices))
    return failure();
  SmallVector<int64_t> one(target->shape.size(), 1);
  if (failed(checkBox(op, target->shape, *indices, one, "tensor")))
    return failure();
  int64_t elementBytes = getElementBytes(target->elementType);
  int64_t offset = 0;
  for (size_t d = 0; d < indices->size(); ++d)
    offset = offset * target->shape[d] + (*indices)[d];
  std::vector<uint8_t> bytes(*target->bytes);
  std::vector<uint8_t> element;
  appendScalar(value->bits, elementBytes, element);
  std::copy(element.begin(), element.end(),
            bytes.begin() + offset * elementBytes);
  frame[store.getResult()] =
      makeTensor(std::move(bytes), target->shape, target->elementType);
  return success();
}

/// hal.constant.subspan: a tensor of a constant pool's byte range.
static LogicalResult runConstantSubspan(ExecutorImpl &exec, Frame &frame,
                                        hal::ConstantSubspanOp subspan) {
  Operation *op = subspan;
  auto range = subspan.getRuntimeRange();
  FailureOr<SmallVector<int64_t>> shape =
      resolveResultShape(exec, frame, op, 0);
  if (failed(shape))
    return failure();
  Type elementType = subspan.getType().getElementType();
  int64_t size = getByteSize(*shape, getElementBytes(elementType));
  if (size > range.getLength())
    return subspan.emitError()
           << "views " << size << " bytes but its byte range holds "
           << range.getLength();
  // The value's storage is the whole byte range (when it can be
  // materialized): what the lowering binds for it and its aliases,
  // unless the fragment returns that storage (then it is an output of
  // exactly the value's size).
  int64_t storageSize = range.getLength() <= kMaxTensorBytes &&
                                !isStorageReturned(subspan.getResult())
                            ? range.getLength()
                            : size;
  FailureOr<BufferRef> ref = exec.getGlobalBufferRange(
      op, subspan.getRuntimeBuffer(), range.getOffset(), storageSize);
  if (failed(ref))
    return failure();
  frame[subspan.getResult()] = makeTensor(
      ref->root->readBytes(ref->offset, storageSize), *shape, elementType);
  return success();
}

/// hal.tensor.cast: a buffer view as a tensor, or a tensor as a buffer view.
static LogicalResult runTensorCast(ExecutorImpl &exec, Frame &frame,
                                   hal::TensorCastOp castOp) {
  Operation *op = castOp;
  if (isa<hal::BufferViewType>(castOp.getSource().getType())) {
    FailureOr<BufferViewValue> view =
        exec.get<BufferViewValue>(frame, castOp.getSource(), op);
    FailureOr<SmallVector<int64_t>> shape =
        resolveShape(exec, frame, op, castOp.getType(), castOp.getTargetDims());
    if (failed(view) || failed(shape) ||
        failed(exec.checkRange(op, view->buffer, "buffer view")))
      return failure();
    Type elementType =
        cast<RankedTensorType>(castOp.getType()).getElementType();
    int64_t size = getByteSize(*shape, getElementBytes(elementType));
    if (size > view->buffer.length)
      return castOp.emitError() << "views " << size << " bytes of a "
                                << view->buffer.length << "-byte buffer";
    TensorValue result =
        makeTensor(view->buffer.root->readBytes(view->buffer.offset, size),
                   *shape, elementType);
    // A cast changes the type, not the value.
    result.identity = view->identity ? view->identity : view->buffer.root.get();
    frame[castOp.getResult()] = std::move(result);
    return success();
  }
  FailureOr<TensorValue> tensor =
      exec.get<TensorValue>(frame, castOp.getSource(), op);
  if (failed(tensor))
    return failure();
  std::optional<int32_t> encoded =
      hal::getElementTypeValue(tensor->elementType);
  if (!encoded)
    return castOp.emitError() << "has no element type encoding";
  int64_t size = tensorByteSize(*tensor);
  auto root = std::make_shared<RootBuffer>(RootBuffer::withContents(
      "buffer view", ArrayRef<uint8_t>(*tensor->bytes).take_front(size)));
  frame[castOp.getResult()] =
      BufferViewValue{BufferRef{root, 0, size}, tensor->shape, *encoded,
                      hal::kDenseRowMajorEncoding, tensor->getIdentity()};
  return success();
}

std::optional<LogicalResult>
ExecutorImpl::runFlowOp(Operation &op, Frame &frame, unsigned depth) {
  Operation *opPtr = &op;
  if (failed(checkOperandShapes(*this, frame, opPtr)))
    return failure();
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case([&](flow::ExStreamFragmentOp fragment) {
        return runStreamFragment(*this, frame, fragment, depth);
      })
      .Case([&](flow::DispatchOp) { return runFlowDispatch(opPtr, frame); })
      .Case([&](flow::TensorSplatOp splat) {
        return runTensorSplat(*this, frame, splat);
      })
      .Case([&](flow::TensorCloneOp clone) {
        return runTensorClone(*this, frame, clone);
      })
      .Case([&](flow::TensorSliceOp slice) {
        return runTensorSlice(*this, frame, slice);
      })
      .Case([&](flow::TensorUpdateOp update) {
        return runTensorUpdate(*this, frame, update);
      })
      .Case([&](flow::TensorReshapeOp reshape) {
        return runTensorReshape(*this, frame, reshape);
      })
      .Case([&](flow::TensorLoadOp load) {
        return runTensorLoad(*this, frame, load);
      })
      .Case([&](flow::TensorStoreOp store) {
        return runTensorStore(*this, frame, store);
      })
      .Case([&](hal::ConstantSubspanOp subspan) {
        return runConstantSubspan(*this, frame, subspan);
      })
      .Case([&](hal::TensorCastOp castOp) {
        return runTensorCast(*this, frame, castOp);
      })
      .Default([](Operation *) { return std::nullopt; });
}
