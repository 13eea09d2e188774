//===- VerifyCommandBuffers.cpp - races, uninitialized reads, ranges ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks recorded command buffers against the device model: commands between
// two barriers may run in any order or at once, so any two of them that
// conflict are a race. Knows nothing of the lowering: every access comes from
// CommandAccesses.
//
//===----------------------------------------------------------------------===//

#include "DeviceRules.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/RangeIndex.h"
#include "streamhal/Dialect/HAL/Analysis/SlotAliasing.h"
#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "llvm/Support/MathExtras.h"

namespace streamhal::hal {
#define GEN_PASS_DEF_VERIFYCOMMANDBUFFERSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal::hal {
namespace {

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

/// The constant byte length of a buffer when known.
std::optional<int64_t> getKnownLength(Value buffer) {
  if (auto subspan = buffer.getDefiningOp<BufferSubspanOp>())
    return getConstantIntValue(subspan.getLength());
  if (auto allocate = buffer.getDefiningOp<AllocatorAllocateOp>())
    return getConstantIntValue(allocate.getResultSize());
  return std::nullopt;
}

/// Checks that `[offset, offset + length)` lies in `buffer` and, through its
/// subspans, in every buffer below it, wherever the numbers are constant.
LogicalResult checkRange(Operation *command, StringRef what, Value buffer,
                         Value offsetValue, Value lengthValue) {
  std::optional<int64_t> offset = getConstantIntValue(offsetValue);
  std::optional<int64_t> length = getConstantIntValue(lengthValue);
  if ((offset && *offset < 0) || (length && *length < 0))
    return command->emitOpError() << what << " has a negative offset or length";
  buffer = getSubmittedValue(buffer);
  while (offset && length) {
    int64_t end;
    std::optional<int64_t> known = getKnownLength(buffer);
    if (llvm::AddOverflow(*offset, *length, end) || (known && end > *known)) {
      InFlightDiagnostic diag = command->emitOpError()
                                << what << " range [" << *offset << ", +"
                                << *length << ") is outside its buffer";
      if (known)
        diag << " of " << *known << " bytes";
      diag.attachNote(buffer.getLoc()) << "buffer defined here";
      return failure();
    }
    auto subspan = buffer.getDefiningOp<BufferSubspanOp>();
    if (!subspan)
      break;
    std::optional<int64_t> base =
        getConstantIntValue(subspan.getSourceOffset());
    if (!base || llvm::AddOverflow(*offset, *base, *offset))
      break;
    buffer = subspan.getSourceBuffer();
  }
  return success();
}

/// Checks the ranges a command names directly.
LogicalResult checkCommandRanges(Operation *op) {
  if (auto fill = dyn_cast<CommandBufferFillBufferOp>(op))
    return checkRange(op, "fill", fill.getTargetBuffer(),
                      fill.getTargetOffset(), fill.getLength());
  if (auto copy = dyn_cast<CommandBufferCopyBufferOp>(op))
    return success(
        succeeded(checkRange(op, "copy source", copy.getSourceBuffer(),
                             copy.getSourceOffset(), copy.getLength())) &&
        succeeded(checkRange(op, "copy target", copy.getTargetBuffer(),
                             copy.getTargetOffset(), copy.getLength())));
  if (auto push = dyn_cast<CommandBufferPushDescriptorSetOp>(op)) {
    bool ok = true;
    for (auto [index, buffer, offset, length] :
         llvm::enumerate(push.getBindingBuffers(), push.getBindingOffsets(),
                         push.getBindingLengths()))
      ok &= succeeded(checkRange(op, "binding " + std::to_string(index), buffer,
                                 offset, length));
    return success(ok);
  }
  return success();
}

/// True when two accesses of one root certainly share a byte: constant
/// ranges from one base that intersect, or one start and one length value.
bool provablyOverlap(const BufferAccess &a, const BufferAccess &b) {
  const RootByteRange &x = a.range, &y = b.range;
  if (a.root != b.root || !x.startKnown || !y.startKnown || x.base != y.base)
    return false;
  if (x.length && y.length)
    return *x.length > 0 && *y.length > 0 && x.offset < y.offset + *y.length &&
           y.offset < x.offset + *x.length;
  return x.offset == y.offset && x.lengthValue &&
         x.lengthValue == y.lengthValue;
}

//===----------------------------------------------------------------------===//
// One recording
//===----------------------------------------------------------------------===//

/// Walks one command buffer from its begin to its end.
class RecordingVerifier {
public:
  /// `owners` caches, across the command buffers of a module, the one
  /// command buffer each allocation is recorded into (null: several, or
  /// other uses): a slab every fragment of a function uses is walked once,
  /// not once per command buffer.
  RecordingVerifier(CommandBufferBeginOp begin, BufferResolver &resolver,
                    DenseMap<Value, Value> &owners)
      : begin(begin), commandBuffer(begin.getCommandBuffer()),
        resolver(resolver), owners(owners) {}

  LogicalResult verify();

private:
  /// Reports a race of `access` with the pending commands.
  LogicalResult checkRaces(const BufferAccess &access);
  /// Reports a read of command-buffer-local bytes nothing wrote before.
  LogicalResult checkInitialized(const BufferAccess &access);
  bool isInitialized(const BufferAccess &access);
  void addWrite(const BufferAccess &access);
  bool isLocal(const BufferRoot &root);

  CommandBufferBeginOp begin;
  Value commandBuffer;
  BufferResolver &resolver;
  /// Accesses of the commands recorded since the last barrier.
  AccessBatch pending;
  /// Every write recorded so far; those of allocations indexed per
  /// allocation, those of unknown buffers (which may be any bytes) apart.
  SmallVector<BufferAccess> writes;
  struct RootWrites {
    /// Every write (for reads outside pack slices) and those outside slices.
    RangeIndex all, outsideSlices;
    /// Writes inside a pack slice, per (pack, slice).
    DenseMap<std::pair<Operation *, unsigned>, RangeIndex> bySlice;
    /// Per pack: the earliest end and latest start of its writes' slices.
    DenseMap<Operation *, std::pair<int64_t, int64_t>> sliceLifetimes;
  };
  DenseMap<Value, RootWrites> writesByRoot;
  SmallVector<BufferAccess> unknownRootWrites;
  DenseMap<Value, Value> &owners;
};

bool RecordingVerifier::isLocal(const BufferRoot &root) {
  if (root.kind != BufferRootKind::Allocation)
    return false;
  auto [it, inserted] = owners.try_emplace(root.value, Value());
  if (inserted)
    it->second = getOwningCommandBuffer(root.value);
  return it->second == commandBuffer;
}

LogicalResult RecordingVerifier::checkRaces(const BufferAccess &access) {
  if (const BufferAccess *found = pending.findConflict(access)) {
    const BufferAccess &earlier = *found;
    InFlightDiagnostic diag = access.command->emitOpError()
                              << "races with an earlier command (no barrier "
                                 "between them): ";
    std::string text;
    llvm::raw_string_ostream os(text);
    access.print(os);
    os << " against ";
    earlier.print(os);
    diag << text;
    std::string note;
    llvm::raw_string_ostream noteOs(note);
    earlier.print(noteOs);
    diag.attachNote(earlier.command->getLoc()) << "earlier command: " << note;
    return failure();
  }
  return success();
}

/// Whether the writes in `writes` provably write every byte `read` reads, or
/// one of them cannot be compared with it (then it is assumed to), by
/// comparing the read with each of them. The indexed check below answers the
/// same; this one is kept for the rare reads it leaves to a scan (a negative
/// length, writes of unknown buffers).
bool isInitializedByScan(const BufferAccess &access,
                         ArrayRef<BufferAccess> writes) {
  const RootByteRange &read = access.range;
  // Written byte ranges [begin, end); they may overlap each other, so they
  // are merged by a sweep.
  SmallVector<std::pair<int64_t, int64_t>> written;
  bool comparable = read.startKnown && read.length;
  bool anyOverlap = false;
  for (const BufferAccess &write : writes) {
    if (!write.mayOverlap(access))
      continue;
    anyOverlap = true;
    const RootByteRange &range = write.range;
    if (range.startKnown && read.startKnown && range.base == read.base &&
        range.offset == read.offset && range.lengthValue &&
        range.lengthValue == read.lengthValue)
      return true;
    if (!comparable || !range.startKnown || range.base != read.base ||
        !range.length)
      return true; // cannot decide: assume written
    if (*range.length > 0)
      written.emplace_back(range.offset, range.offset + *range.length);
  }
  countWork(Work::InitializedComparisons, writes.size());
  if (anyOverlap && comparable) {
    llvm::sort(written);
    int64_t covered = read.offset;
    int64_t end = read.offset + *read.length;
    for (auto [begin, stop] : written) {
      if (begin > covered)
        break;
      covered = std::max(covered, stop);
      if (covered >= end)
        return true;
    }
  }
  return false;
}

bool RecordingVerifier::isInitialized(const BufferAccess &access) {
  const RootByteRange &read = access.range;
  uint64_t comparisons = 0;
  auto countAndReturn = [&](bool initialized) {
    countWork(Work::InitializedComparisons, comparisons);
    return initialized;
  };
  // A write of an unknown buffer may be this one's bytes: scan.
  for (const BufferAccess &write : unknownRootWrites) {
    ++comparisons;
    if (write.mayOverlap(access))
      return countAndReturn(isInitializedByScan(access, writes));
  }
  if (read.length && *read.length < 0)
    return countAndReturn(isInitializedByScan(access, writes));
  // Other roots never share bytes with a local allocation.
  auto own = writesByRoot.find(access.root.value);
  if (own == writesByRoot.end())
    return countAndReturn(false);
  const RootWrites &root = own->second;
  // The writes the read may meet: outside pack slices every write; inside
  // one, those outside slices and in its own slice, and any of another slice
  // of its pack whose lifetime is disjoint from its own (those share bytes
  // with it, by an offset the exact test cannot compare).
  // Slices of two packs in one root: compared one by one (the lowering
  // makes one pack per slab).
  if (root.sliceLifetimes.size() > 1 ||
      (read.pack && root.sliceLifetimes.size() == 1 &&
       !root.sliceLifetimes.count(read.pack)))
    return countAndReturn(isInitializedByScan(access, writes));
  SmallVector<const RangeIndex *, 2> indexes;
  bool otherSliceMeets = false;
  if (!read.pack) {
    indexes.push_back(&root.all);
  } else {
    indexes.push_back(&root.outsideSlices);
    auto slice = root.bySlice.find({read.pack, read.slice});
    if (slice != root.bySlice.end())
      indexes.push_back(&slice->second);
    auto lifetimes = root.sliceLifetimes.find(read.pack);
    otherSliceMeets = lifetimes != root.sliceLifetimes.end() &&
                      (lifetimes->second.first < read.sliceStart ||
                       lifetimes->second.second > read.sliceEnd);
  }
  // Without a constant range, any write that may overlap is assumed to
  // write it; with one, any such write the exact test cannot compare with
  // it, or else the exact ranges of the writes covering it.
  bool comparable = read.startKnown && read.length;
  if (otherSliceMeets)
    return countAndReturn(true);
  for (const RangeIndex *index : indexes)
    if (index->findFirstOverlap(access, writes, comparisons,
                                comparable ? RangeQuery::OtherForms
                                           : RangeQuery::All))
      return countAndReturn(true);
  return countAndReturn(comparable && RangeIndex::covers(indexes, access));
}

LogicalResult RecordingVerifier::checkInitialized(const BufferAccess &access) {
  if (!access.reads || !isLocal(access.root) ||
      access.range.length == std::optional<int64_t>(0))
    return success();
  if (isInitialized(access))
    return success();
  std::string text;
  llvm::raw_string_ostream os(text);
  access.root.print(os);
  os << " ";
  access.range.print(os);
  return access.command->emitOpError()
         << "reads bytes of " << text
         << " that no earlier command of the command buffer wrote "
            "(uninitialized read)";
}

void RecordingVerifier::addWrite(const BufferAccess &access) {
  unsigned index = writes.size();
  writes.push_back(access);
  if (access.root.kind == BufferRootKind::Unknown)
    unknownRootWrites.push_back(access);
  if (access.root.kind != BufferRootKind::Allocation ||
      access.range.length == std::optional<int64_t>(0))
    return;
  RootWrites &root = writesByRoot[access.root.value];
  root.all.add(access, index);
  const RootByteRange &range = access.range;
  if (!range.pack) {
    root.outsideSlices.add(access, index);
    return;
  }
  root.bySlice[{range.pack, range.slice}].add(access, index);
  auto [lifetimes, inserted] = root.sliceLifetimes.try_emplace(
      range.pack, range.sliceEnd, range.sliceStart);
  if (!inserted) {
    lifetimes->second.first = std::min(lifetimes->second.first, range.sliceEnd);
    lifetimes->second.second =
        std::max(lifetimes->second.second, range.sliceStart);
  }
}

LogicalResult RecordingVerifier::verify() {
  bool ok = true;
  for (Operation *op = begin->getNextNode(); op; op = op->getNextNode()) {
    if (auto end = dyn_cast<CommandBufferEndOp>(op))
      if (end.getCommandBuffer() == commandBuffer)
        break;
    if (auto barrier = dyn_cast<CommandBufferExecutionBarrierOp>(op)) {
      if (barrier.getCommandBuffer() == commandBuffer)
        pending.clear();
      continue;
    }
    // One top-level op is one command, whatever it nests (a device switch
    // runs one of its cases).
    SmallVector<BufferAccess> accesses;
    op->walk([&](Operation *nested) {
      bool isCommand = isBufferCommand(nested) ||
                       isa<CommandBufferPushDescriptorSetOp>(nested);
      if (!isCommand || nested->getOperand(0) != commandBuffer)
        return;
      ok &= succeeded(checkCommandRanges(nested));
      llvm::append_range(accesses, resolver.getAccesses(nested));
    });
    // Overlapping copies (one onto itself included) are undefined on a
    // device (vkCmdCopyBuffer); the lowering never records one. Only what
    // the ranges prove is reported: doubling copies of a dynamic splat
    // are disjoint by arithmetic the ranges do not keep (hal-exec checks
    // the concrete ranges).
    if (auto copy = dyn_cast<CommandBufferCopyBufferOp>(op)) {
      const BufferAccess *read = nullptr, *written = nullptr;
      for (const BufferAccess &access : accesses)
        (access.writes ? written : read) = &access;
      if (read && written && provablyOverlap(*read, *written)) {
        std::string text;
        llvm::raw_string_ostream os(text);
        read->root.print(os);
        os << " ";
        read->range.print(os);
        os << " onto ";
        written->range.print(os);
        copy.emitOpError() << "copies between overlapping byte ranges of one "
                              "buffer ("
                           << text
                           << "): overlapping copies are undefined on a device";
        ok = false;
      }
    }
    // One race report per command (a switch's cases race alike) and one
    // uninitialized read report per access.
    bool raced = false;
    for (const BufferAccess &access : accesses) {
      if (!raced && failed(checkRaces(access))) {
        raced = true;
        ok = false;
      }
      if (failed(checkInitialized(access)))
        ok = false;
    }
    for (const BufferAccess &access : accesses)
      if (access.writes)
        addWrite(access);
    for (const BufferAccess &access : accesses)
      pending.add(access);
  }
  return success(ok);
}

/// Checks that an indirect submission binds slots of different alias
/// classes to bytes that do not overlap, where the ranges are constant
/// (docs/replay.md; hal-exec checks every replay's concrete ranges).
LogicalResult verifySlotAliasing(DeviceQueueExecuteIndirectOp execute,
                                 BufferResolver &resolver) {
  auto memoize = execute.getCommandBuffer().getDefiningOp<DeviceMemoizeOp>();
  if (!memoize ||
      memoize.getSlotClasses().size() != execute.getBindings().size())
    return success();
  SmallVector<SlotRange> ranges;
  SmallVector<unsigned> slotOfRange;
  SmallVector<BufferRoot> roots;
  DenseMap<std::pair<const void *, const void *>, uint64_t> rootIds;
  for (auto [slot, binding] : llvm::enumerate(execute.getBindings())) {
    auto [root, range] = resolver.resolve(binding);
    std::optional<std::pair<int64_t, int64_t>> bounds =
        range.getConstantBounds();
    if (!bounds)
      continue;
    std::pair<const void *, const void *> key(root.value.getAsOpaquePointer(),
                                              root.global.getAsOpaquePointer());
    auto [it, inserted] = rootIds.try_emplace(key, roots.size());
    if (inserted)
      roots.push_back(root);
    ranges.push_back({it->second, bounds->first, bounds->second,
                      memoize.getSlotClasses()[slot]});
    slotOfRange.push_back(slot);
  }
  std::optional<std::pair<unsigned, unsigned>> overlap =
      findCrossClassOverlap(ranges);
  if (!overlap)
    return success();
  const SlotRange &first = ranges[overlap->first];
  const SlotRange &second = ranges[overlap->second];
  std::string text;
  llvm::raw_string_ostream os(text);
  roots[first.root].print(os);
  return execute.emitOpError()
         << "binds slot " << slotOfRange[overlap->first] << " (alias class "
         << first.aliasClass << ") and slot " << slotOfRange[overlap->second]
         << " (alias class " << second.aliasClass
         << ") to overlapping bytes of " << text << " ([" << first.start << ", "
         << first.end << ") and [" << second.start << ", " << second.end
         << ")): the memoized recording assumed they do not "
            "alias";
}

struct VerifyCommandBuffersPass
    : public impl::VerifyCommandBuffersPassBase<VerifyCommandBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = true;
    BufferResolver resolver;
    DenseMap<Value, Value> owners;
    getOperation().walk([&](CommandBufferBeginOp begin) {
      ok &= succeeded(RecordingVerifier(begin, resolver, owners).verify());
    });
    getOperation().walk([&](DeviceQueueExecuteIndirectOp execute) {
      ok &= succeeded(verifySlotAliasing(execute, resolver));
    });
    if (deviceRules) {
      llvm::StringSet<> skipped;
      SmallVector<StringRef> names;
      StringRef(skipDeviceRules).split(names, ',', -1, /*KeepEmpty=*/false);
      for (StringRef name : names) {
        name = name.trim();
        if (name == "none")
          continue;
        if (!llvm::is_contained(kDeviceRuleNames, name)) {
          getOperation().emitError()
              << "hal-verify-command-buffers: unknown device rule '" << name
              << "' in skip-device-rules";
          return signalPassFailure();
        }
        skipped.insert(name);
      }
      ok &= succeeded(verifyDeviceRules(
          getOperation(), getDeviceLimits(getOperation()), skipped));
    }
    markAllAnalysesPreserved();
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
} // namespace streamhal::hal
