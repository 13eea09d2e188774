//===- HALLevel.cpp - Reference executor: buffers and recording -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HAL-level semantics of the host-side ops: allocations (poison until
// written), subspans as views, buffer views, size and offset arithmetic,
// packs placed by the executor's own in-order placement, device switches,
// and command recording (commands capture their concrete operands and the
// descriptor sets and push constants in effect; they run at submission).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Exec/InOrderPlacement.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

std::string streamhal::exec::formatRange(int64_t offset, int64_t length) {
  // Both non-negative: the end is exact as an unsigned number, also past
  // INT64_MAX.
  if (offset >= 0 && length >= 0)
    return "[" + std::to_string(offset) + ", " +
           std::to_string(static_cast<uint64_t>(offset) +
                          static_cast<uint64_t>(length)) +
           ")";
  return "[" + std::to_string(offset) + ", +" + std::to_string(length) + ")";
}

LogicalResult ExecutorImpl::checkRange(Operation *user, const BufferRef &ref,
                                       StringRef what) {
  if (ref.offset < 0 || ref.length < 0)
    return user->emitError() << "has a " << what << " with negative offset "
                             << ref.offset << " or length " << ref.length;
  // Subtractions, not additions: no overflow.
  if (ref.root->isGrowable() && (ref.offset > kMaxGrowableLength ||
                                 ref.length > kMaxGrowableLength - ref.offset))
    return user->emitError()
           << "has a " << what << " " << formatRange(ref.offset, ref.length)
           << " of " << ref.root->getName()
           << " beyond the 4 GiB the executor materializes";
  if (!ref.root->contains(ref.offset, ref.length))
    return user->emitError()
           << "has a " << what << " " << formatRange(ref.offset, ref.length)
           << " outside buffer " << ref.root->getName() << " of "
           << ref.root->getLength() << " bytes";
  return success();
}

LogicalResult ExecutorImpl::reserveMemory(Operation *user, int64_t bytes,
                                          const Twine &what) {
  if (memory->fits(bytes))
    return success();
  return user->emitError() << what << " needs " << bytes
                           << " more bytes of memory, beyond --max-memory="
                           << memory->limit << " (" << memory->used
                           << " bytes in use)";
}

LogicalResult ExecutorImpl::checkHostAccess(Operation *user,
                                            const BufferRef &ref,
                                            const Twine &what) {
  if (failed(checkNotReleased(user, ref)))
    return failure();
  Operation *allocation = ref.root->getDeviceOnlyAllocation();
  if (!allocation)
    return success();
  InFlightDiagnostic diag = user->emitError()
                            << what << " " << ref.root->getName()
                            << ", device memory the host cannot access "
                               "(allocated without HostVisible)";
  diag.attachNote(allocation->getLoc()) << "allocated here";
  return failure();
}

/// Returns the sub-range [offset, offset + length) of `buffer`, checked
/// against the buffer's own length. A view (a subspan) may be as long as its
/// buffer; a range the device or the host `access`es must also be bytes
/// the executor runs (checkRange).
FailureOr<BufferRef> streamhal::exec::subrange(ExecutorImpl &exec,
                                               Operation *user,
                                               const BufferRef &buffer,
                                               int64_t offset, int64_t length,
                                               StringRef what, bool access) {
  // Every buffer lies inside its root, so a range inside the buffer needs
  // no further check to lie inside the root, and its root offset cannot
  // overflow.
  if (offset < 0 || length < 0 || offset > buffer.length ||
      length > buffer.length - offset)
    return user->emitError()
           << "has a " << what << " " << formatRange(offset, length)
           << " outside its " << buffer.length << "-byte buffer (of root "
           << buffer.root->getName() << ")";
  BufferRef ref{buffer.root, buffer.offset + offset, length};
  if (access && failed(exec.checkRange(user, ref, what)))
    return failure();
  return ref;
}

static FailureOr<int64_t> computeSize(ExecutorImpl &exec, Frame &frame,
                                      Operation *op, ValueRange shapeValues,
                                      Value elementType) {
  FailureOr<SmallVector<int64_t>> shape =
      exec.getIndices(frame, shapeValues, op);
  FailureOr<int64_t> type = exec.getIndex(frame, elementType, op);
  if (failed(shape) || failed(type))
    return failure();
  if (llvm::any_of(*shape, [](int64_t dim) { return dim < 0; }))
    return op->emitError() << "computes the size of a shape with a negative "
                              "dim";
  int64_t size = getByteSize(
      *shape, hal::getElementByteCount(static_cast<int32_t>(*type)));
  if (size < 0)
    return op->emitError() << "computes a size that overflows 64 bits";
  return size;
}

FailureOr<BufferRef> ExecutorImpl::allocateBuffer(Operation *op, Frame &frame,
                                                  Value sizeValue,
                                                  hal::MemoryType memoryTypes) {
  FailureOr<int64_t> size = getIndex(frame, sizeValue, op);
  if (failed(size) || failed(checkAllocationRule(op, *size)))
    return failure();
  if (*size < 0 || *size > kMaxBufferBytes)
    return op->emitError() << "allocates " << *size
                           << " bytes; the executor allocates 0 to 4 GiB";
  // Nothing is materialized yet: pages come with the first writes.
  auto root = std::make_shared<RootBuffer>(RootBuffer::allocate(
      "allocation " + std::to_string(nextAllocation++), *size));
  root->setAccount(memory);
  ++memoryCounts.allocations;
  memoryCounts.allocatedBytes += *size;
  allocatedRoots.insert(root->getSerial());
  if (!hal::bitEnumContainsAll(memoryTypes, hal::MemoryType::HostVisible)) {
    root->setDeviceOnly(op);
    liveBytes.track(root->getSerial(), *size);
  }
  return BufferRef{root, 0, *size};
}

/// hal.allocator.compute_offset: the byte offset of an element.
static LogicalResult runComputeOffset(ExecutorImpl &exec, Frame &frame,
                                      hal::AllocatorComputeOffsetOp offset) {
  Operation *opPtr = offset.getOperation();
  FailureOr<SmallVector<int64_t>> indices =
      exec.getIndices(frame, offset.getIndices(), opPtr);
  FailureOr<SmallVector<int64_t>> shape =
      exec.getIndices(frame, offset.getShape(), opPtr);
  FailureOr<int64_t> type =
      exec.getIndex(frame, offset.getElementType(), opPtr);
  if (failed(indices) || failed(shape) || failed(type))
    return failure();
  int64_t linear = 0;
  bool overflow = false;
  for (size_t d = 0; d < indices->size() && d < shape->size(); ++d)
    overflow |= llvm::MulOverflow(linear, (*shape)[d], linear) ||
                llvm::AddOverflow(linear, (*indices)[d], linear);
  overflow |= llvm::MulOverflow(
      linear, int64_t(hal::getElementByteCount(static_cast<int32_t>(*type))),
      linear);
  if (overflow)
    return offset.emitError() << "computes an offset that overflows 64 bits";
  frame[offset.getOffset()] = ScalarValue{static_cast<uint64_t>(linear)};
  return success();
}

/// hal.allocator.pack: slice offsets from the executor's in-order placement.
static LogicalResult runPack(ExecutorImpl &exec, Frame &frame,
                             hal::AllocatorPackOp pack) {
  Operation *opPtr = pack.getOperation();
  ArrayRef<int64_t> intervals;
  SmallVector<int64_t> flat;
  for (Attribute attr : pack.getLifetimeIntervals())
    flat.push_back(cast<IntegerAttr>(attr).getInt());
  ValueRange sizes = pack.getDynamicSliceSizes();
  if (flat.size() != 2 * sizes.size())
    return pack.emitError() << "has malformed lifetime intervals";
  // Bounded sizes and alignments keep every offset of the placement
  // far from overflowing.
  for (int64_t alignment : {exec.offsetAlignment, exec.rangeAlignment})
    if (alignment < 1 || alignment > kMaxBufferBytes)
      return pack.emitError()
             << "is placed with buffer alignment " << alignment
             << "; the executor places with alignments of 1 to 4 GiB";
  SmallVector<PlacementSlice> slices;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    FailureOr<int64_t> bytes = exec.getIndex(frame, size, opPtr);
    if (failed(bytes))
      return failure();
    if (*bytes < 0 || *bytes > kMaxBufferBytes)
      return pack.emitError()
             << "packs a slice of " << *bytes
             << " bytes; the executor places slices of 0 to 4 GiB";
    slices.push_back({flat[2 * index], flat[2 * index + 1], *bytes});
  }
  int64_t base = 0;
  if (Value offset = pack.getOffset()) {
    FailureOr<int64_t> value = exec.getIndex(frame, offset, opPtr);
    if (failed(value))
      return failure();
    base = *value;
  }
  Placement placement =
      placeInOrder(slices, exec.offsetAlignment, exec.rangeAlignment);
  frame[pack.getTotalLength()] =
      ScalarValue{static_cast<uint64_t>(placement.totalLength)};
  for (auto [result, offset] :
       llvm::zip(pack.getPackedOffsets(), placement.offsets)) {
    int64_t packed;
    if (llvm::AddOverflow(base, offset, packed))
      return pack.emitError() << "places a slice at " << base << " + " << offset
                              << ", which overflows 64 bits";
    frame[result] = ScalarValue{static_cast<uint64_t>(packed)};
  }
  (void)intervals;
  return success();
}

/// The hal.allocator ops (sizes, offsets, allocations, packs); std::nullopt
/// for any other op.
static std::optional<LogicalResult>
runAllocatorOp(ExecutorImpl &exec, Operation &op, Frame &frame) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case([&](hal::AllocatorComputeSizeOp size) -> LogicalResult {
        FailureOr<int64_t> bytes = computeSize(
            exec, frame, opPtr, size.getShape(), size.getElementType());
        if (failed(bytes))
          return failure();
        frame[size.getResult()] = ScalarValue{static_cast<uint64_t>(*bytes)};
        return success();
      })
      .Case([&](hal::AllocatorComputeOffsetOp offset) {
        return runComputeOffset(exec, frame, offset);
      })
      .Case([&](hal::AllocatorAllocateOp allocate) -> LogicalResult {
        FailureOr<BufferRef> buffer = exec.allocateBuffer(
            opPtr, frame, allocate.getResultSize(), allocate.getMemoryTypes());
        if (failed(buffer))
          return failure();
        frame[allocate.getResult()] = *buffer;
        return success();
      })
      .Case(
          [&](hal::AllocatorPackOp pack) { return runPack(exec, frame, pack); })
      .Default([](Operation *) { return std::nullopt; });
}

/// hal.buffer.load: a scalar the host reads from a buffer.
static LogicalResult runBufferLoad(ExecutorImpl &exec, Frame &frame,
                                   hal::BufferLoadOp load) {
  Operation *opPtr = load.getOperation();
  FailureOr<BufferRef> source =
      exec.get<BufferRef>(frame, load.getSourceBuffer(), opPtr);
  FailureOr<int64_t> offset =
      exec.getIndex(frame, load.getSourceOffset(), opPtr);
  if (failed(source) || failed(offset))
    return failure();
  int64_t bytes = getElementBytes(load.getType());
  FailureOr<BufferRef> ref =
      subrange(exec, opPtr, *source, *offset, bytes, "load");
  if (failed(ref) || failed(exec.checkHostAccess(opPtr, *ref, "reads")) ||
      failed(exec.checkHostAgainstPending(opPtr, *ref, /*writes=*/false)))
    return failure();
  if (std::optional<int64_t> poison =
          ref->root->findUninitialized(ref->offset, ref->length))
    return load.emitError() << "reads uninitialized byte " << *poison << " of "
                            << ref->root->getName();
  uint64_t bits = 0;
  std::vector<uint8_t> data = ref->root->readBytes(ref->offset, ref->length);
  for (int64_t i = 0; i < bytes && i < 8; ++i)
    bits |= uint64_t(data[i]) << (8 * i);
  unsigned width = getScalarWidth(load.getType());
  if (width < 64)
    bits &= (uint64_t(1) << width) - 1;
  frame[load.getResult()] = ScalarValue{bits};
  return success();
}

/// hal.buffer.store: a scalar the host writes into a buffer.
static LogicalResult runBufferStore(ExecutorImpl &exec, Frame &frame,
                                    hal::BufferStoreOp store) {
  Operation *opPtr = store.getOperation();
  FailureOr<BufferRef> target =
      exec.get<BufferRef>(frame, store.getTargetBuffer(), opPtr);
  FailureOr<int64_t> offset =
      exec.getIndex(frame, store.getTargetOffset(), opPtr);
  FailureOr<ScalarValue> value =
      exec.get<ScalarValue>(frame, store.getValue(), opPtr);
  if (failed(target) || failed(offset) || failed(value))
    return failure();
  int64_t bytes = getElementBytes(store.getValue().getType());
  FailureOr<BufferRef> ref =
      subrange(exec, opPtr, *target, *offset, bytes, "store");
  if (failed(ref) || failed(exec.checkHostAccess(opPtr, *ref, "writes")) ||
      failed(exec.checkHostAgainstPending(opPtr, *ref, /*writes=*/true)))
    return failure();
  if (ref->root->isReadOnly())
    return store.emitError() << "stores into " << ref->root->getName()
                             << ", constant storage that is read-only";
  if (failed(exec.reserveMemory(
          opPtr, ref->root->getUnmaterializedBytes(ref->offset, ref->length),
          "the store")))
    return failure();
  SmallVector<uint8_t> data;
  for (int64_t i = 0; i < bytes; ++i)
    data.push_back(i < 8 ? static_cast<uint8_t>(value->bits >> (8 * i)) : 0);
  ref->root->write(ref->offset, data, opPtr);
  return success();
}

/// The hal.buffer ops (subspans, host loads and stores); std::nullopt for
/// any other op.
static std::optional<LogicalResult> runBufferOp(ExecutorImpl &exec,
                                                Operation &op, Frame &frame) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case([&](hal::BufferSubspanOp subspan) -> LogicalResult {
        FailureOr<BufferRef> source =
            exec.get<BufferRef>(frame, subspan.getSourceBuffer(), opPtr);
        FailureOr<int64_t> offset =
            exec.getIndex(frame, subspan.getSourceOffset(), opPtr);
        FailureOr<int64_t> length =
            exec.getIndex(frame, subspan.getLength(), opPtr);
        if (failed(source) || failed(offset) || failed(length))
          return failure();
        FailureOr<BufferRef> ref =
            subrange(exec, opPtr, *source, *offset, *length, "subspan",
                     /*access=*/false);
        if (failed(ref))
          return failure();
        frame[subspan.getResult()] = *ref;
        return success();
      })
      .Case([&](hal::BufferLoadOp load) {
        return runBufferLoad(exec, frame, load);
      })
      .Case([&](hal::BufferStoreOp store) {
        return runBufferStore(exec, frame, store);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The hal.buffer_view ops (create, buffer, dim); std::nullopt for any
/// other op.
static std::optional<LogicalResult>
runBufferViewOp(ExecutorImpl &exec, Operation &op, Frame &frame) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case([&](hal::BufferViewCreateOp create) -> LogicalResult {
        FailureOr<BufferRef> buffer =
            exec.get<BufferRef>(frame, create.getBuffer(), opPtr);
        FailureOr<SmallVector<int64_t>> shape =
            exec.getIndices(frame, create.getShape(), opPtr);
        FailureOr<int64_t> type =
            exec.getIndex(frame, create.getElementType(), opPtr);
        FailureOr<int64_t> encoding =
            exec.getIndex(frame, create.getEncodingType(), opPtr);
        if (failed(buffer) || failed(shape) || failed(type) || failed(encoding))
          return failure();
        int64_t size = getByteSize(
            *shape, hal::getElementByteCount(static_cast<int32_t>(*type)));
        if (size < 0)
          return create.emitError() << "views a shape with a negative dim or "
                                       "a byte size that overflows 64 bits";
        if (size > buffer->length)
          return create.emitError() << "views " << size << " bytes of a "
                                    << buffer->length << "-byte buffer";
        BufferRef viewed{buffer->root, buffer->offset, size};
        frame[create.getResult()] =
            BufferViewValue{viewed, *shape, static_cast<int32_t>(*type),
                            static_cast<int32_t>(*encoding)};
        return success();
      })
      .Case([&](hal::BufferViewBufferOp buffer) -> LogicalResult {
        FailureOr<BufferViewValue> view =
            exec.get<BufferViewValue>(frame, buffer.getBufferView(), opPtr);
        if (failed(view))
          return failure();
        frame[buffer.getResult()] = view->buffer;
        return success();
      })
      .Case([&](hal::BufferViewDimOp dim) -> LogicalResult {
        FailureOr<BufferViewValue> view =
            exec.get<BufferViewValue>(frame, dim.getBufferView(), opPtr);
        if (failed(view))
          return failure();
        uint64_t index = dim.getIndex().getZExtValue();
        if (index >= view->shape.size())
          return dim.emitError() << "reads dim " << index << " of a rank-"
                                 << view->shape.size() << " buffer view";
        frame[dim.getResult()] =
            ScalarValue{static_cast<uint64_t>(view->shape[index])};
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<Block *>
ExecutorImpl::selectSwitchCase(hal::DeviceSwitchOp switchOp) {
  for (auto [condition, region] :
       llvm::zip(switchOp.getConditions(), switchOp.getConditionRegions())) {
    auto match = dyn_cast<hal::MatchExecutableFormatAttr>(condition);
    if (!match)
      return switchOp.emitError() << "has condition " << condition
                                  << " which the executor cannot evaluate";
    if (supportsFormat(match.getFormat().getValue()))
      return &region.front();
  }
  return switchOp.emitError()
         << "has no case for the formats the device supports";
}

/// hal.device.switch: runs the region of the first condition the device
/// supports.
static LogicalResult runDeviceSwitch(ExecutorImpl &exec, Frame &frame,
                                     hal::DeviceSwitchOp switchOp,
                                     unsigned depth) {
  FailureOr<Block *> block = exec.selectSwitchCase(switchOp);
  if (failed(block))
    return failure();
  SmallVector<RuntimeValue> results;
  if (failed(exec.runBlock(**block, frame, results, depth)))
    return failure();
  for (auto [result, value] : llvm::zip(switchOp.getResults(), results))
    frame[result] = value;
  return success();
}

/// The device-level ops: handles, hal.device.switch, command buffer
/// creation and blocking submission; std::nullopt for any other op.
static std::optional<LogicalResult>
runDeviceOp(ExecutorImpl &exec, Operation &op, Frame &frame, unsigned depth) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case<hal::ExSharedDeviceOp, hal::DeviceAllocatorOp,
            hal::ExecutableLayoutLookupOp>([&](Operation *handle) {
        frame[handle->getResult(0)] = HandleValue{};
        return success();
      })
      .Case([&](hal::CommandBufferCreateOp create) {
        auto state = std::make_shared<CommandBufferState>();
        state->oneShot = hal::bitEnumContainsAll(
            create.getModes(), hal::CommandBufferMode::OneShot);
        frame[create.getResult()] = std::move(state);
        return success();
      })
      .Case([&](hal::DeviceSwitchOp switchOp) {
        return runDeviceSwitch(exec, frame, switchOp, depth);
      })
      .Case([&](hal::DeviceMemoizeOp memoize) {
        return exec.runMemoize(memoize, frame, depth);
      })
      .Case([&](hal::ExSubmitAndWaitOp submitOp) -> LogicalResult {
        FailureOr<std::shared_ptr<CommandBufferState>> state =
            exec.get<std::shared_ptr<CommandBufferState>>(
                frame, submitOp.getCommandBuffer(), opPtr);
        if (failed(state) ||
            failed(exec.checkBlockingSubmission(opPtr, **state)))
          return failure();
        return exec.submit(opPtr, **state);
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<LogicalResult> ExecutorImpl::runHALOp(Operation &op, Frame &frame,
                                                    unsigned depth) {
  if (std::optional<LogicalResult> result = runAllocatorOp(*this, op, frame))
    return result;
  if (std::optional<LogicalResult> result = runBufferOp(*this, op, frame))
    return result;
  if (std::optional<LogicalResult> result = runBufferViewOp(*this, op, frame))
    return result;
  if (std::optional<LogicalResult> result =
          runDeviceOp(*this, op, frame, depth))
    return result;
  if (isa<hal::FenceCreateOp, hal::FenceJoinOp, hal::FenceAwaitOp,
          hal::DeviceQueueExecuteOp, hal::DeviceQueueExecuteIndirectOp,
          hal::DeviceQueueAllocaOp, hal::DeviceQueueDeallocaOp>(op))
    return runTimelineOp(op, frame, depth);
  return recordCommand(op, frame);
}
