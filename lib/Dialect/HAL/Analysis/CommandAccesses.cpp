//===- CommandAccesses.cpp - bytes each recorded command touches ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <map>
#include <set>

#define DEBUG_TYPE "command-accesses"

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Roots and ranges
//===----------------------------------------------------------------------===//

bool BufferRoot::mayAlias(const BufferRoot &other) const {
  if (*this == other)
    return true;
  if (kind == BufferRootKind::Unknown || other.kind == BufferRootKind::Unknown)
    return true;
  // An allocation stored into a global is what a later load of a global
  // returns.
  auto escapesInto = [](const BufferRoot &allocation,
                        const BufferRoot &global) {
    return allocation.kind == BufferRootKind::Allocation &&
           allocation.escapes && global.kind == BufferRootKind::Global;
  };
  if (escapesInto(*this, other) || escapesInto(other, *this))
    return true;
  // Fresh allocations share bytes with nothing else; arguments, buffer view
  // buffers and globals may all be the same bytes.
  return kind != BufferRootKind::Allocation &&
         other.kind != BufferRootKind::Allocation;
}

/// Prints a value as its SSA name in the enclosing function.
static void printValueName(llvm::raw_ostream &os, Value value) {
  Operation *scope = value.getParentRegion()
                         ? value.getParentRegion()->getParentOp()
                         : nullptr;
  while (scope && !isa<FunctionOpInterface>(scope) && scope->getParentOp())
    scope = scope->getParentOp();
  if (!scope) {
    os << "<value>";
    return;
  }
  AsmState state(scope);
  value.printAsOperand(os, state);
}

void BufferRoot::print(llvm::raw_ostream &os) const {
  switch (kind) {
  case BufferRootKind::Allocation:
    os << "allocation ";
    printValueName(os, value);
    return;
  case BufferRootKind::Argument:
    os << "argument ";
    printValueName(os, value);
    return;
  case BufferRootKind::BufferView:
    os << "the buffer of buffer view ";
    printValueName(os, value);
    return;
  case BufferRootKind::Global:
    os << "global @" << global.getValue();
    return;
  case BufferRootKind::Unknown:
    os << "unknown buffer";
    if (value) {
      os << " ";
      printValueName(os, value);
    }
    return;
  }
}

std::optional<std::pair<int64_t, int64_t>>
RootByteRange::getConstantBounds() const {
  if (!startKnown || base || !length)
    return std::nullopt;
  int64_t end;
  if (llvm::AddOverflow(offset, *length, end))
    return std::nullopt;
  return std::make_pair(offset, end);
}

void RootByteRange::print(llvm::raw_ostream &os) const {
  if (std::optional<std::pair<int64_t, int64_t>> bounds = getConstantBounds()) {
    os << "[" << bounds->first << ", " << bounds->second << ")";
    return;
  }
  os << "[";
  if (!startKnown) {
    os << "?";
  } else if (base) {
    printValueName(os, base);
    if (offset)
      os << " + " << offset;
  } else {
    os << offset;
  }
  os << ", +";
  if (length)
    os << *length;
  else if (lengthValue)
    printValueName(os, lengthValue);
  else
    os << "?";
  os << ")";
}

/// Adds `value` to the start of `range`: constants and `x + constant` fold
/// into the constant term, one other value becomes the symbolic term.
static void addToStart(RootByteRange &range, Value value) {
  value = getSubmittedValue(value);
  if (std::optional<int64_t> constant = getConstantIntValue(value)) {
    if (llvm::AddOverflow(range.offset, *constant, range.offset))
      range.startKnown = false;
    return;
  }
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    for (auto [term, other] : {std::pair(add.getLhs(), add.getRhs()),
                               std::pair(add.getRhs(), add.getLhs())}) {
      if (std::optional<int64_t> constant = getConstantIntValue(other)) {
        addToStart(range, term);
        if (llvm::AddOverflow(range.offset, *constant, range.offset))
          range.startKnown = false;
        return;
      }
    }
  }
  if (!range.base)
    range.base = value;
  else
    range.startKnown = false;
}

static void setLength(RootByteRange &range, Value length) {
  length = getSubmittedValue(length);
  range.lengthValue = length;
  range.length = getConstantIntValue(length);
}

/// Returns true when a subspan of `length` bytes fits in a pack slice of
/// `size` bytes.
static bool fitsInSlice(Value length, Value size) {
  if (length == size)
    return true;
  std::optional<int64_t> constantLength = getConstantIntValue(length);
  std::optional<int64_t> constantSize = getConstantIntValue(size);
  return constantLength && constantSize && *constantLength >= 0 &&
         *constantLength <= *constantSize;
}

/// Returns true when `buffer` (or a subspan of it) is stored into a global,
/// directly or through a pointer, or passed to a call (which may store it).
static bool escapesIntoGlobal(Value buffer) {
  SmallVector<Value> worklist = {buffer};
  uint64_t visits = 0;
  bool escapes = false;
  while (!worklist.empty() && !escapes) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      ++visits;
      if (auto subspan = dyn_cast<hal::BufferSubspanOp>(user)) {
        if (subspan.getSourceBuffer() == value)
          worklist.push_back(subspan.getResult());
        continue;
      }
      if (isa<util::GlobalStoreOp, util::GlobalStoreIndirectOp,
              CallOpInterface>(user)) {
        escapes = true;
        break;
      }
    }
  }
  countWork(Work::EscapeUseVisits, visits);
  return escapes;
}

BufferRoot BufferResolver::getRoot(Value buffer) {
  BufferRoot root;
  root.value = buffer;
  if (auto argument = dyn_cast<BlockArgument>(buffer)) {
    Operation *owner = argument.getOwner()->getParentOp();
    auto function = dyn_cast_if_present<FunctionOpInterface>(owner);
    if (function && argument.getOwner()->isEntryBlock()) {
      root.kind = BufferRootKind::Argument;
      // The caller's transient buffer shares bytes with nothing else (the
      // calling convention, docs/lowering.md): a fresh allocation.
      if (function.getArgAttr(argument.getArgNumber(),
                              hal::kTransientsArgAttrName))
        root.kind = BufferRootKind::Allocation;
    }
    return root;
  }
  Operation *def = buffer.getDefiningOp();
  if (isa<hal::AllocatorAllocateOp>(def)) {
    root.kind = BufferRootKind::Allocation;
    auto [it, inserted] = escapes.try_emplace(buffer, false);
    if (inserted)
      it->second = escapesIntoGlobal(buffer);
    root.escapes = it->second;
  } else if (auto view = dyn_cast<hal::BufferViewBufferOp>(def)) {
    root.kind = BufferRootKind::BufferView;
    root.value = view.getBufferView();
  } else if (auto load = dyn_cast<util::GlobalLoadOp>(def)) {
    root.kind = BufferRootKind::Global;
    root.value = nullptr;
    root.global = load.getGlobalAttr().getAttr();
  }
  return root;
}

std::pair<BufferRoot, RootByteRange> resolveBuffer(Value buffer) {
  return BufferResolver().resolve(buffer);
}

Value getSubmittedValue(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return value;
  auto memoize = dyn_cast_if_present<hal::DeviceMemoizeOp>(
      argument.getOwner()->getParentOp());
  if (!memoize)
    return value;
  Value submitted = memoize.getSoleSubmittedValue(argument);
  return submitted ? submitted : value;
}

std::pair<BufferRoot, RootByteRange> BufferResolver::resolve(Value buffer) {
  buffer = getSubmittedValue(buffer);
  // Walk the subspan chain down to the root, then apply it root first.
  SmallVector<hal::BufferSubspanOp> chain;
  while (auto subspan = buffer.getDefiningOp<hal::BufferSubspanOp>()) {
    chain.push_back(subspan);
    buffer = subspan.getSourceBuffer();
  }
  BufferRoot root = getRoot(buffer);
  RootByteRange range;
  if (auto allocate = buffer.getDefiningOp<hal::AllocatorAllocateOp>())
    setLength(range, allocate.getResultSize());
  for (hal::BufferSubspanOp subspan : llvm::reverse(chain)) {
    // A subspan of the root itself at offset `i` of a pack lies in slice `i`
    // when it is no longer than the slice; anything inside it stays there.
    if (!range.pack && subspan.getSourceBuffer() == buffer &&
        root.kind == BufferRootKind::Allocation) {
      auto result = dyn_cast<OpResult>(subspan.getSourceOffset());
      auto pack = result ? dyn_cast<hal::AllocatorPackOp>(result.getOwner())
                         : hal::AllocatorPackOp();
      if (pack && result.getResultNumber() > 0) {
        unsigned slice = result.getResultNumber() - 1;
        ArrayAttr intervals = pack.getLifetimeIntervals();
        ValueRange sizes = pack.getDynamicSliceSizes();
        auto start = slice < sizes.size() && 2 * slice + 1 < intervals.size()
                         ? dyn_cast<IntegerAttr>(intervals[2 * slice])
                         : IntegerAttr();
        auto end = start ? dyn_cast<IntegerAttr>(intervals[2 * slice + 1])
                         : IntegerAttr();
        if (end && fitsInSlice(subspan.getLength(), sizes[slice])) {
          range.pack = pack;
          range.slice = slice;
          range.sliceStart = start.getInt();
          range.sliceEnd = end.getInt();
        }
      }
    }
    addToStart(range, subspan.getSourceOffset());
    setLength(range, subspan.getLength());
    // A subspan of the root in a pack lane starts at minOffset or later, so
    // its symbolic term is at least minOffset less its constant term.
    if (range.lanePack < 0 && subspan.getSourceBuffer() == buffer &&
        root.kind == BufferRootKind::Allocation) {
      if (std::optional<hal::PackLane> lane = hal::PackLane::get(subspan)) {
        range.lanePack = lane->pack;
        range.lane = lane->lane;
        int64_t floor;
        if (range.startKnown && range.base &&
            !llvm::SubOverflow(lane->minOffset, range.offset, floor))
          range.baseFloor = std::max<int64_t>(0, floor);
      }
    }
  }
  return {root, range};
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

/// True when `first` provably ends at or before `second` starts. A symbolic
/// start term is a buffer offset, never negative, so a range with one starts
/// at or after its constant term; that term alone bounds it from below.
static bool endsBefore(const RootByteRange &first,
                       const RootByteRange &second) {
  if (!first.startKnown || !second.startKnown || !first.length)
    return false;
  // Only an absolute end, or one with the same symbolic term, compares.
  if (first.base && first.base != second.base)
    return false;
  int64_t end;
  if (llvm::AddOverflow(first.offset, *first.length, end))
    return false;
  // Against an absolute end, the symbolic term counts by its lower bound.
  int64_t start = second.offset;
  if (!first.base && second.base &&
      llvm::AddOverflow(second.offset, second.baseFloor, start))
    return false;
  return end <= start;
}

bool BufferAccess::mayOverlap(const BufferAccess &other) const {
  if (range.length == std::optional<int64_t>(0) ||
      other.range.length == std::optional<int64_t>(0))
    return false;
  if (!root.mayAlias(other.root))
    return false;
  if (root != other.root)
    return true;
  // Slices of one pack whose lifetimes intersect never share a byte.
  if (range.pack && range.pack == other.range.pack &&
      range.slice != other.range.slice &&
      range.sliceEnd >= other.range.sliceStart &&
      other.range.sliceEnd >= range.sliceStart)
    return false;
  // Different lanes of one materialized pack never share a byte.
  if (range.lanePack >= 0 && range.lanePack == other.range.lanePack &&
      range.lane != other.range.lane)
    return false;
  // Same start symbol (or none) and constant terms: the exact test.
  if (range.startKnown && other.range.startKnown &&
      range.base == other.range.base && range.length && other.range.length) {
    int64_t end, otherEnd;
    if (llvm::AddOverflow(range.offset, *range.length, end) ||
        llvm::AddOverflow(other.range.offset, *other.range.length, otherEnd))
      return true;
    return range.offset < otherEnd && other.range.offset < end;
  }
  // One side's length or start symbol unknown: still disjoint when one
  // range provably ends before the other begins.
  return !endsBefore(range, other.range) && !endsBefore(other.range, range);
}

bool BufferAccess::conflictsWith(const BufferAccess &other) const {
  return (writes || other.writes) && mayOverlap(other);
}

void BufferAccess::print(llvm::raw_ostream &os) const {
  os << (reads && writes ? "read-write" : writes ? "write" : "read") << " of ";
  root.print(os);
  os << " ";
  range.print(os);
  if (range.pack)
    os << " (pack slice " << range.slice << ")";
  if (range.lanePack >= 0)
    os << " (pack lane " << range.lane << ")";
}

bool isBufferCommand(Operation *op) {
  return isa<hal::CommandBufferFillBufferOp, hal::CommandBufferCopyBufferOp,
             hal::CommandBufferDispatchSymbolOp>(op);
}

/// An access of `length` bytes at `offset` of `buffer`.
static BufferAccess makeAccess(BufferResolver &resolver, Operation *command,
                               Value buffer, Value offset, Value length,
                               bool reads, bool writes) {
  BufferAccess access;
  access.command = command;
  access.reads = reads;
  access.writes = writes;
  std::tie(access.root, access.range) = resolver.resolve(buffer);
  addToStart(access.range, offset);
  setLength(access.range, length);
  return access;
}

std::map<int64_t, hal::CommandBufferPushDescriptorSetOp>
findPushesInEffect(hal::CommandBufferDispatchSymbolOp dispatch,
                   const std::set<int64_t> *sets, bool &unknownSetPushed) {
  Value commandBuffer = dispatch.getCommandBuffer();
  // The latest push per set before the dispatch, in its block and then in
  // the enclosing ones, back to the command buffer's begin.
  std::map<int64_t, hal::CommandBufferPushDescriptorSetOp> pushes;
  unknownSetPushed = false;
  // Without a set list every set pushed so far counts: walk to the begin.
  // With one, stop once each listed set was found.
  bool reachedBegin = false;
  uint64_t steps = 0;
  auto done = [&]() {
    return sets && !unknownSetPushed && pushes.size() >= sets->size();
  };
  for (Operation *cursor = dispatch; cursor && !reachedBegin && !done();
       cursor = cursor->getParentOp()) {
    if (isa<FunctionOpInterface, ModuleOp>(cursor))
      break;
    for (Operation *previous = cursor->getPrevNode(); previous;
         previous = previous->getPrevNode()) {
      ++steps;
      if (auto begin = dyn_cast<hal::CommandBufferBeginOp>(previous)) {
        if (begin.getCommandBuffer() == commandBuffer) {
          reachedBegin = true;
          break;
        }
      }
      auto push = dyn_cast<hal::CommandBufferPushDescriptorSetOp>(previous);
      if (!push || push.getCommandBuffer() != commandBuffer)
        continue;
      std::optional<int64_t> set = getConstantIntValue(push.getSet());
      if (!set)
        unknownSetPushed = true;
      else if (!sets || sets->count(*set))
        pushes.try_emplace(*set, push);
      if (done())
        break;
    }
  }
  countWork(Work::PushSearchSteps, steps);
  return pushes;
}

/// Appends the accesses of a dispatch through the descriptor sets in effect.
static void appendDispatchAccesses(BufferResolver &resolver,
                                   hal::CommandBufferDispatchSymbolOp dispatch,
                                   SmallVectorImpl<BufferAccess> &accesses) {
  // The declared access of each (set, binding) of the entry's interface.
  const BufferResolver::EntryInterface &entry =
      resolver.getEntryInterface(dispatch);
  hal::InterfaceOp interface = entry.interface;
  const std::map<std::pair<int64_t, int64_t>, hal::MemoryAccess> &declared =
      entry.declared;
  const std::set<int64_t> &neededSets = entry.sets;
  bool unknownSetPushed = false;
  std::map<int64_t, hal::CommandBufferPushDescriptorSetOp> pushes =
      findPushesInEffect(dispatch, interface ? &neededSets : nullptr,
                         unknownSetPushed);

  auto unknownAccess = [&]() {
    BufferAccess access;
    access.command = dispatch;
    access.reads = access.writes = true;
    access.range.startKnown = false;
    accesses.push_back(access);
  };
  if (unknownSetPushed)
    unknownAccess();
  // A set the interface uses that nothing pushed: the bytes are unknown.
  for (auto &[key, access] : declared)
    if (!pushes.count(key.first)) {
      unknownAccess();
      break;
    }

  for (auto &[set, push] : pushes) {
    for (auto [ordinal, buffer, offset, length] :
         llvm::zip_equal(push.getBindingOrdinals(), push.getBindingBuffers(),
                         push.getBindingOffsets(), push.getBindingLengths())) {
      bool reads = true, writes = true;
      std::optional<int64_t> constantOrdinal = getConstantIntValue(ordinal);
      if (interface && constantOrdinal) {
        auto it = declared.find({set, *constantOrdinal});
        // A binding the interface does not declare is out of the kernel's
        // reach.
        if (it == declared.end())
          continue;
        hal::MemoryAccess bits = it->second;
        bool declaresRead =
            hal::bitEnumContainsAny(bits, hal::MemoryAccess::Read);
        bool declaresWrite = hal::bitEnumContainsAny(
            bits, hal::MemoryAccess::Write | hal::MemoryAccess::Discard);
        if (declaresRead || declaresWrite) {
          reads = declaresRead;
          writes = declaresWrite;
        }
      }
      accesses.push_back(makeAccess(resolver, dispatch, buffer, offset, length,
                                    reads, writes));
    }
  }
}

const BufferResolver::EntryInterface &
BufferResolver::getEntryInterface(hal::CommandBufferDispatchSymbolOp dispatch) {
  // One lookup per entry point and symbol table: every dispatch of a
  // fragment names the same few.
  Operation *table = SymbolTable::getNearestSymbolTable(dispatch);
  auto [it, inserted] = entryInterfaces.try_emplace(
      {table, dispatch.getEntryPointAttr()}, EntryInterface());
  if (!inserted)
    return it->second;
  EntryInterface &entry = it->second;
  auto entryPoint =
      SymbolTable::lookupNearestSymbolFrom<hal::ExecutableEntryPointOp>(
          dispatch, dispatch.getEntryPointAttr());
  entry.interface =
      entryPoint ? entryPoint.lookupInterface() : hal::InterfaceOp();
  if (entry.interface)
    for (auto binding :
         entry.interface.getBody().getOps<hal::InterfaceBindingOp>())
      entry.declared[{binding.getSet().getSExtValue(),
                      binding.getBinding().getSExtValue()}] =
          binding.getAccess();
  for (auto &declared : entry.declared)
    entry.sets.insert(declared.first.first);
  return entry;
}

SmallVector<BufferAccess> computeCommandAccesses(Operation *op,
                                                 BufferResolver *resolver) {
  if (resolver)
    return resolver->getAccesses(op);
  return BufferResolver().getAccesses(op);
}

SmallVector<BufferAccess> BufferResolver::getAccesses(Operation *op) {
  BufferResolver &resolver = *this;
  SmallVector<BufferAccess> accesses;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](hal::CommandBufferFillBufferOp fill) {
        accesses.push_back(makeAccess(resolver, fill, fill.getTargetBuffer(),
                                      fill.getTargetOffset(), fill.getLength(),
                                      /*reads=*/false, /*writes=*/true));
      })
      .Case([&](hal::CommandBufferCopyBufferOp copy) {
        accesses.push_back(makeAccess(resolver, copy, copy.getSourceBuffer(),
                                      copy.getSourceOffset(), copy.getLength(),
                                      /*reads=*/true, /*writes=*/false));
        accesses.push_back(makeAccess(resolver, copy, copy.getTargetBuffer(),
                                      copy.getTargetOffset(), copy.getLength(),
                                      /*reads=*/false, /*writes=*/true));
      })
      .Case([&](hal::CommandBufferDispatchSymbolOp dispatch) {
        appendDispatchAccesses(resolver, dispatch, accesses);
      });
  return accesses;
}

bool forEachRecordingUse(Value buffer,
                         llvm::function_ref<bool(Operation *)> callback) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      countWork(Work::RecordingUseVisits, 1);
      Operation *user = use.getOwner();
      if (auto subspan = dyn_cast<hal::BufferSubspanOp>(user)) {
        if (use.getOperandNumber() != 0)
          return false;
        worklist.push_back(subspan.getResult());
        continue;
      }
      if (!isa<hal::CommandBufferFillBufferOp, hal::CommandBufferCopyBufferOp,
               hal::CommandBufferPushDescriptorSetOp>(user) ||
          !callback(user))
        return false;
    }
  }
  return true;
}

Value getOwningCommandBuffer(Value buffer) {
  Value owner;
  bool owned = forEachRecordingUse(buffer, [&](Operation *user) {
    Value commandBuffer = user->getOperand(0);
    if (owner && owner != commandBuffer)
      return false;
    owner = commandBuffer;
    return true;
  });
  return owned ? owner : Value();
}

//===----------------------------------------------------------------------===//
// CommandAccesses
//===----------------------------------------------------------------------===//

CommandAccesses::CommandAccesses(Operation *scope) {
  BufferResolver resolver;
  *this = CommandAccesses(scope, resolver);
}

CommandAccesses::CommandAccesses(Operation *scope, BufferResolver &resolver) {
  scope->walk([&](Operation *op) {
    if (!isBufferCommand(op))
      return;
    commands.push_back(op);
    accesses[op] = resolver.getAccesses(op);
  });
}

ArrayRef<BufferAccess> CommandAccesses::getAccesses(Operation *command) const {
  auto it = accesses.find(command);
  if (it == accesses.end())
    return {};
  return it->second;
}

std::optional<std::pair<const BufferAccess *, const BufferAccess *>>
CommandAccesses::findConflict(Operation *later, Operation *earlier) const {
  for (const BufferAccess &a : getAccesses(later))
    for (const BufferAccess &b : getAccesses(earlier))
      if (a.conflictsWith(b))
        return std::make_pair(&a, &b);
  return std::nullopt;
}

void CommandAccesses::print(llvm::raw_ostream &os) const {
  for (Operation *command : commands) {
    os << command->getName() << " at " << command->getLoc() << "\n";
    for (const BufferAccess &access : getAccesses(command)) {
      os << "  ";
      access.print(os);
      os << "\n";
    }
  }
}

void CommandAccesses::dump() const { print(llvm::errs()); }

} // namespace streamhal
