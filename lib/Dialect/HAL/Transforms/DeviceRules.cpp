//===- DeviceRules.cpp - offsets, ranges, fills, sizes a device takes -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device rules of docs/concurrency.md: what a Vulkan device refuses
// whatever the order of commands. Only what the IR proves is reported (the
// reference executor checks the concrete values of a run).
//
//===----------------------------------------------------------------------===//

#include "DeviceRules.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;

namespace streamhal::hal {
namespace {

/// Where a range starts inside its root, as far as alignment is concerned:
/// the constant term, and the alignment the symbolic term is known to have
/// (0: no symbolic term; -1: nothing known).
struct RootStart {
  BufferRoot root;
  int64_t offset = 0;
  int64_t baseAlignment = 0;
};

/// The alignment a symbolic start term is known to have: a pack places each
/// slice at a multiple of the offset alignment from its base.
int64_t getKnownAlignment(Value base, const DeviceLimits &limits) {
  auto result = dyn_cast<OpResult>(base);
  auto pack =
      result ? dyn_cast<AllocatorPackOp>(result.getOwner()) : AllocatorPackOp();
  if (!pack || result.getResultNumber() == 0)
    return -1;
  if (Value packBase = pack.getOffset()) {
    std::optional<int64_t> constant = getConstantIntValue(packBase);
    if (!constant || *constant % limits.minBufferOffsetAlignment != 0)
      return -1;
  }
  return limits.minBufferOffsetAlignment;
}

/// Resolves `buffer` at `offset` to its root, looking through a buffer view
/// created in the same function (its buffer is the view's bytes). Returns
/// std::nullopt when the start is not provable.
std::optional<RootStart> resolveStart(BufferResolver &resolver, Value buffer,
                                      Value offset,
                                      const DeviceLimits &limits) {
  std::optional<int64_t> constantOffset = getConstantIntValue(offset);
  if (!constantOffset)
    return std::nullopt;
  RootStart start;
  start.offset = *constantOffset;
  // A view of a view of ... is a chain; each link adds its subspans.
  for (unsigned depth = 0; depth < 16; ++depth) {
    auto [root, range] = resolver.resolve(buffer);
    if (!range.startKnown ||
        llvm::AddOverflow(start.offset, range.offset, start.offset))
      return std::nullopt;
    if (range.base) {
      int64_t alignment = getKnownAlignment(range.base, limits);
      // Two symbolic terms, or one of unknown alignment: unprovable.
      if (alignment < 0 || start.baseAlignment != 0)
        return std::nullopt;
      start.baseAlignment = alignment;
    }
    start.root = root;
    if (root.kind == BufferRootKind::BufferView) {
      if (auto create = root.value.getDefiningOp<BufferViewCreateOp>()) {
        buffer = create.getBuffer();
        continue;
      }
    }
    if (root.kind == BufferRootKind::Unknown)
      return std::nullopt;
    return start;
  }
  return std::nullopt;
}

/// True when `start` is provably a multiple of `alignment` (a power of two)
/// or provably not; returns the proof in `aligned`.
bool decideAlignment(const RootStart &start, int64_t alignment, bool &aligned) {
  if (start.baseAlignment != 0 &&
      (start.baseAlignment < alignment || start.baseAlignment % alignment != 0))
    return false;
  aligned = start.offset % alignment == 0;
  return true;
}

std::string describeRoot(const BufferRoot &root) {
  std::string text;
  llvm::raw_string_ostream os(text);
  root.print(os);
  return text;
}

std::string describeStart(const RootStart &start) {
  std::string text = std::to_string(start.offset);
  if (start.baseAlignment != 0)
    text =
        "(a multiple of " + std::to_string(start.baseAlignment) + ") + " + text;
  return text;
}

LogicalResult checkPush(BufferResolver &resolver,
                        CommandBufferPushDescriptorSetOp push,
                        const DeviceLimits &limits,
                        const llvm::StringSet<> &skipped) {
  bool checkOffsets = !skipped.contains("binding-offset-alignment");
  bool checkRanges = !skipped.contains("binding-range");
  bool ok = true;
  for (auto [index, ordinal, buffer, offset, length] :
       llvm::enumerate(push.getBindingOrdinals(), push.getBindingBuffers(),
                       push.getBindingOffsets(), push.getBindingLengths())) {
    std::string name = "binding " + std::to_string(index);
    if (std::optional<int64_t> constant = getConstantIntValue(ordinal))
      name += " (ordinal " + std::to_string(*constant) + ")";
    bool aligned = true;
    std::optional<RootStart> start =
        checkOffsets ? resolveStart(resolver, buffer, offset, limits)
                     : std::nullopt;
    if (start &&
        decideAlignment(*start, limits.minBufferOffsetAlignment, aligned) &&
        !aligned) {
      push.emitOpError() << "breaks device rule binding-offset-alignment: "
                         << name << " starts at byte " << describeStart(*start)
                         << " of " << describeRoot(start->root)
                         << ", not a multiple of min_buffer_offset_alignment "
                         << limits.minBufferOffsetAlignment;
      ok = false;
    }
    std::optional<int64_t> bytes = getConstantIntValue(length);
    if (checkRanges && bytes && *bytes > limits.maxBufferRange) {
      push.emitOpError() << "breaks device rule binding-range: " << name
                         << " binds " << *bytes
                         << " bytes, more than max_buffer_range "
                         << limits.maxBufferRange;
      ok = false;
    }
  }
  return success(ok);
}

LogicalResult checkFill(BufferResolver &resolver,
                        CommandBufferFillBufferOp fill,
                        const DeviceLimits &limits) {
  // vkCmdFillBuffer writes 32-bit words: dstOffset (from the start of the
  // VkBuffer, the root here) and size are multiples of 4.
  bool ok = true;
  bool aligned = true;
  std::optional<RootStart> start = resolveStart(
      resolver, fill.getTargetBuffer(), fill.getTargetOffset(), limits);
  if (start && decideAlignment(*start, 4, aligned) && !aligned) {
    fill.emitOpError() << "breaks device rule fill-alignment: the fill starts "
                          "at byte "
                       << describeStart(*start) << " of "
                       << describeRoot(start->root)
                       << ", not a multiple of 4 (the 32-bit pattern)";
    ok = false;
  }
  std::optional<int64_t> length = getConstantIntValue(fill.getLength());
  if (length && *length % 4 != 0) {
    fill.emitOpError() << "breaks device rule fill-alignment: the fill length "
                       << *length << " is not a multiple of 4 (the 32-bit "
                       << "pattern)";
    ok = false;
  }
  return success(ok);
}

LogicalResult checkAllocation(AllocatorAllocateOp allocate,
                              const DeviceLimits &limits) {
  std::optional<int64_t> size = getConstantIntValue(allocate.getResultSize());
  if (!size || (*size >= 0 && *size <= limits.maxAllocationSize))
    return success();
  InFlightDiagnostic diag = allocate.emitOpError()
                            << "breaks device rule allocation-size: allocates ";
  if (*size < 0)
    diag << static_cast<uint64_t>(*size) << " bytes (" << *size
         << " as a signed index)";
  else
    diag << *size << " bytes";
  diag << ", more than max_allocation_size " << limits.maxAllocationSize;
  return failure();
}

LogicalResult reportPushConstants(Operation *op, StringRef what, int64_t count,
                                  const DeviceLimits &limits) {
  if (count <= limits.maxPushConstants)
    return success();
  return op->emitOpError() << "breaks device rule push-constants: " << what
                           << " " << count << " push constant values, more "
                           << "than the " << limits.maxPushConstants << " ("
                           << 4 * limits.maxPushConstants
                           << " bytes, maxPushConstantsSize) a device has";
}

/// Every binding the dispatched entry point's interface declares is bound
/// by the push of its set in effect; a binding of an earlier push of that
/// set is not (a push replaces the set).
LogicalResult checkBound(BufferResolver &resolver,
                         CommandBufferDispatchSymbolOp dispatch) {
  const BufferResolver::EntryInterface &entry =
      resolver.getEntryInterface(dispatch);
  InterfaceOp interface = entry.interface;
  if (!interface)
    return success();
  const std::set<int64_t> &sets = entry.sets;
  bool unknownSetPushed = false;
  std::map<int64_t, CommandBufferPushDescriptorSetOp> pushes =
      findPushesInEffect(dispatch, &sets, unknownSetPushed);
  // A push of a computed set may be the one in effect: nothing is proven.
  if (unknownSetPushed)
    return success();
  // The layout a push is recorded with names the bindings the dispatch's
  // kernel uses (the lowering gives it exactly the bound ones): interface
  // bindings outside the layout of the push in effect are not part of the
  // dispatch. Without a visible layout, every interface binding is.
  auto declaredByLayout = [&](CommandBufferPushDescriptorSetOp push,
                              int64_t set, int64_t ordinal) {
    auto lookup =
        push.getExecutableLayout().getDefiningOp<ExecutableLayoutLookupOp>();
    if (!lookup)
      return true;
    ArrayAttr sets = lookup.getSetLayoutsAttr();
    auto setLayout = set >= 0 && set < static_cast<int64_t>(sets.size())
                         ? dyn_cast<ArrayAttr>(sets[set])
                         : ArrayAttr();
    if (!setLayout)
      return false;
    return llvm::any_of(setLayout, [&](Attribute entry) {
      auto binding = dyn_cast<DescriptorSetLayoutBindingAttr>(entry);
      return binding && binding.getOrdinal() == ordinal;
    });
  };
  for (auto binding : interface.getBody().getOps<InterfaceBindingOp>()) {
    int64_t set = binding.getSet().getSExtValue();
    int64_t ordinal = binding.getBinding().getSExtValue();
    auto it = pushes.find(set);
    // Only the push of the binding's own set excuses it: with no push of
    // the set in effect, the kernel may still reach the binding (as the
    // executor and a device see it), whatever other sets' layouts say.
    if (it != pushes.end() && !declaredByLayout(it->second, set, ordinal))
      continue;
    if (it == pushes.end())
      return dispatch.emitOpError()
             << "breaks device rule unbound-binding: binding @"
             << binding.getSymName() << " (set " << set << ", binding "
             << ordinal << ") of interface @" << interface.getSymName()
             << " is not bound: no push_descriptor_set of set " << set
             << " since the command buffer began";
    SmallVector<int64_t> bound;
    bool covered = false;
    for (Value value : it->second.getBindingOrdinals()) {
      std::optional<int64_t> constant = getConstantIntValue(value);
      if (!constant)
        covered = true; // may be this one
      else if (*constant == ordinal)
        covered = true;
      else
        bound.push_back(*constant);
    }
    if (covered)
      continue;
    InFlightDiagnostic diag =
        dispatch.emitOpError()
        << "breaks device rule unbound-binding: binding @"
        << binding.getSymName() << " (set " << set << ", binding " << ordinal
        << ") of interface @" << interface.getSymName()
        << " is not bound by the push_descriptor_set of set " << set
        << " in effect, which binds ordinals [";
    llvm::interleaveComma(bound, diag);
    diag << "]";
    diag.attachNote(it->second.getLoc()) << "push in effect";
    return failure();
  }
  return success();
}

/// No binding the dispatch writes provably shares bytes with another of its
/// bindings, unless both are `MayAlias`: a kernel may assume its bindings do
/// not alias (SPIR-V storage buffers without `Aliased`).
LogicalResult checkBindingAliasing(BufferResolver &resolver,
                                   CommandBufferDispatchSymbolOp dispatch,
                                   const DeviceLimits &limits) {
  const BufferResolver::EntryInterface &entry =
      resolver.getEntryInterface(dispatch);
  if (!entry.interface)
    return success();
  bool unknownSetPushed = false;
  std::map<int64_t, CommandBufferPushDescriptorSetOp> pushes =
      findPushesInEffect(dispatch, &entry.sets, unknownSetPushed);
  if (unknownSetPushed)
    return success();
  struct Bound {
    int64_t set, ordinal, begin, end;
    MemoryAccess access;
    RootStart start;
  };
  SmallVector<Bound> bound;
  for (auto [key, access] : entry.declared) {
    auto it = pushes.find(key.first);
    if (it == pushes.end())
      continue;
    CommandBufferPushDescriptorSetOp push = it->second;
    for (auto [ordinal, buffer, offset, length] :
         llvm::zip(push.getBindingOrdinals(), push.getBindingBuffers(),
                   push.getBindingOffsets(), push.getBindingLengths())) {
      if (getConstantIntValue(ordinal) != key.second)
        continue;
      std::optional<RootStart> start =
          resolveStart(resolver, buffer, offset, limits);
      std::optional<int64_t> bytes = getConstantIntValue(length);
      // Only exact constant starts prove an overlap.
      if (start && start->baseAlignment == 0 && bytes && *bytes > 0)
        bound.push_back({key.first, key.second, start->offset,
                         start->offset + *bytes, access, *start});
    }
  }
  auto rootKey = [](const Bound &b) {
    return std::make_tuple(static_cast<int>(b.start.root.kind),
                           b.start.root.value.getAsOpaquePointer(),
                           b.start.root.global.getAsOpaquePointer());
  };
  llvm::sort(bound, [&](const Bound &a, const Bound &b) {
    return std::make_pair(rootKey(a), a.begin) <
           std::make_pair(rootKey(b), b.begin);
  });
  auto writes = [](const Bound &b) {
    return bitEnumContainsAny(b.access, MemoryAccess::Write);
  };
  auto mayAlias = [](const Bound &b) {
    return bitEnumContainsAny(b.access, MemoryAccess::MayAlias);
  };
  for (size_t i = 0; i < bound.size(); ++i) {
    for (size_t j = i + 1;
         j < bound.size() && rootKey(bound[j]) == rootKey(bound[i]) &&
         bound[j].begin < bound[i].end;
         ++j) {
      const Bound &a = bound[i], &b = bound[j];
      if (!(writes(a) || writes(b)) || (mayAlias(a) && mayAlias(b)))
        continue;
      const Bound &written = writes(a) ? a : b;
      const Bound &other = writes(a) ? b : a;
      return dispatch.emitOpError()
             << "breaks device rule binding-aliasing: binding (set "
             << written.set << ", binding " << written.ordinal
             << "), which the kernel writes, and binding (set " << other.set
             << ", binding " << other.ordinal << ") share bytes [" << b.begin
             << ", " << std::min(a.end, b.end) << ") of "
             << describeRoot(a.start.root)
             << "; a kernel may assume its bindings do not alias unless both "
                "are declared MayAlias";
    }
  }
  return success();
}

} // namespace

LogicalResult verifyDeviceRules(ModuleOp module, const DeviceLimits &limits,
                                const llvm::StringSet<> &skipped) {
  bool ok = true;
  bool pushConstants = !skipped.contains("push-constants");
  BufferResolver resolver;
  module.walk([&](Operation *op) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](CommandBufferPushDescriptorSetOp push) {
              return checkPush(resolver, push, limits, skipped);
            })
            .Case([&](CommandBufferFillBufferOp fill) {
              if (skipped.contains("fill-alignment"))
                return success();
              return checkFill(resolver, fill, limits);
            })
            .Case([&](AllocatorAllocateOp allocate) {
              if (skipped.contains("allocation-size"))
                return success();
              return checkAllocation(allocate, limits);
            })
            .Case([&](CommandBufferDispatchSymbolOp dispatch) {
              bool ok = true;
              if (!skipped.contains("unbound-binding"))
                ok &= succeeded(checkBound(resolver, dispatch));
              if (!skipped.contains("binding-aliasing"))
                ok &=
                    succeeded(checkBindingAliasing(resolver, dispatch, limits));
              return success(ok);
            })
            .Case([&](CommandBufferPushConstantsOp push) {
              if (!pushConstants)
                return success();
              int64_t end;
              if (llvm::AddOverflow(
                      push.getOffset().getSExtValue(),
                      static_cast<int64_t>(push.getValues().size()), end))
                end = std::numeric_limits<int64_t>::max();
              return reportPushConstants(push, "sets up to", end, limits);
            })
            .Case([&](ExecutableLayoutLookupOp lookup) {
              if (!pushConstants)
                return success();
              return reportPushConstants(
                  lookup, "declares", lookup.getPushConstants().getSExtValue(),
                  limits);
            })
            .Case([&](InterfaceOp interface) {
              if (!pushConstants)
                return success();
              return reportPushConstants(interface, "declares",
                                         interface.getPushConstantCount(),
                                         limits);
            })
            .Default([](Operation *) { return success(); });
    ok &= succeeded(result);
  });
  return success(ok);
}

} // namespace streamhal::hal
