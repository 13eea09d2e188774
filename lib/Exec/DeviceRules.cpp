//===- DeviceRules.cpp - Reference executor: what a device refuses --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device rules of docs/executor.md on the concrete values of a run: a
// Vulkan device refuses a program that breaks one, whatever it computes.
// The limits come from the module's `#hal.buffer_constraints`, read here
// independently of the lowering and the verifier, or from --device-limits.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

std::string exec::parseDeviceLimits(StringRef text,
                                    DeviceLimitOverrides &overrides) {
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, value] = item.trim().split('=');
    int64_t number = 0;
    if (value.getAsInteger(10, number) || number <= 0)
      return ("device limit '" + item.trim() +
              "' needs a positive integer value")
          .str();
    bool alignment = key == "offset-alignment" || key == "range-alignment";
    if (alignment && !llvm::isPowerOf2_64(static_cast<uint64_t>(number)))
      return ("device limit " + key + " must be a power of two, got " + value)
          .str();
    if (key == "offset-alignment")
      overrides.offsetAlignment = number;
    else if (key == "range-alignment")
      overrides.rangeAlignment = number;
    else if (key == "max-allocation")
      overrides.maxAllocation = number;
    else if (key == "max-range")
      overrides.maxRange = number;
    else if (key == "push-constants")
      overrides.maxPushConstants = number;
    else
      return ("unknown device limit '" + key +
              "' (offset-alignment, range-alignment, max-allocation, "
              "max-range, push-constants)")
          .str();
  }
  return "";
}

void ExecutorImpl::initDeviceLimits() {
  // The program must run on every target the module names: the largest
  // alignments and the smallest sizes among their constraints apply.
  bool found = false;
  if (auto targets = module->getAttrOfType<ArrayAttr>("hal.device.targets")) {
    for (Attribute target : targets) {
      auto device = dyn_cast<hal::DeviceTargetAttr>(target);
      auto constraints =
          device ? device.getBufferConstraints() : hal::BufferConstraintsAttr();
      if (!constraints)
        continue;
      int64_t offset = constraints.getMinBufferOffsetAlignment();
      int64_t range = constraints.getMinBufferRangeAlignment();
      int64_t allocation = constraints.getMaxAllocationSize();
      int64_t bufferRange = constraints.getMaxBufferRange();
      offsetAlignment = found ? std::max(offsetAlignment, offset) : offset;
      rangeAlignment = found ? std::max(rangeAlignment, range) : range;
      maxAllocation = found ? std::min(maxAllocation, allocation) : allocation;
      maxRange = found ? std::min(maxRange, bufferRange) : bufferRange;
      found = true;
    }
  }
  const DeviceLimitOverrides &overrides = options.deviceLimits;
  offsetAlignment = overrides.offsetAlignment.value_or(offsetAlignment);
  rangeAlignment = overrides.rangeAlignment.value_or(rangeAlignment);
  maxAllocation = overrides.maxAllocation.value_or(maxAllocation);
  maxRange = overrides.maxRange.value_or(maxRange);
  maxPushConstants = overrides.maxPushConstants.value_or(maxPushConstants);
}

bool ExecutorImpl::checksDeviceRule(StringRef name) const {
  return !llvm::is_contained(options.skippedDeviceRules, name);
}

LogicalResult ExecutorImpl::checkAllocationRule(Operation *op, int64_t size) {
  if (size <= maxAllocation || !checksDeviceRule("allocation-size"))
    return success();
  return op->emitError() << "breaks device rule allocation-size: allocates "
                         << size << " bytes, more than max_allocation_size "
                         << maxAllocation;
}

LogicalResult ExecutorImpl::checkFillRule(Operation *op,
                                          const BufferRef &range) {
  // vkCmdFillBuffer writes whole 32-bit words: dstOffset (from the start of
  // the buffer) and size are multiples of 4.
  if (!checksDeviceRule("fill-alignment") ||
      (range.offset % 4 == 0 && range.length % 4 == 0))
    return success();
  return op->emitError() << "breaks device rule fill-alignment: fills ["
                         << range.offset << ", +" << range.length << ") of "
                         << range.root->getName()
                         << "; offset and length must be multiples of 4 (the "
                            "32-bit pattern)";
}

LogicalResult ExecutorImpl::checkBindingRule(Operation *op, int64_t ordinal,
                                             const BufferRef &range) {
  if (checksDeviceRule("binding-offset-alignment") &&
      range.offset % offsetAlignment != 0)
    return op->emitError()
           << "breaks device rule binding-offset-alignment: binding ordinal "
           << ordinal << " starts at byte " << range.offset << " of "
           << range.root->getName()
           << ", not a multiple of min_buffer_offset_alignment "
           << offsetAlignment;
  if (checksDeviceRule("binding-range") && range.length > maxRange)
    return op->emitError() << "breaks device rule binding-range: binding "
                              "ordinal "
                           << ordinal << " binds " << range.length
                           << " bytes of " << range.root->getName()
                           << ", more than max_buffer_range " << maxRange;
  return success();
}

LogicalResult ExecutorImpl::checkBindingAliasingRule(const Command &dispatch) {
  if (!checksDeviceRule("binding-aliasing"))
    return success();
  // By root and start: each binding meets only the ones starting inside it.
  SmallVector<const Command::Binding *> sorted;
  for (const Command::Binding &binding : dispatch.bindings)
    if (binding.range.length > 0)
      sorted.push_back(&binding);
  llvm::sort(sorted, [](const Command::Binding *a, const Command::Binding *b) {
    return std::make_pair(a->range.root.get(), a->range.offset) <
           std::make_pair(b->range.root.get(), b->range.offset);
  });
  for (size_t i = 0; i < sorted.size(); ++i) {
    const Command::Binding &first = *sorted[i];
    int64_t end = first.range.offset + first.range.length;
    for (size_t j = i + 1;
         j < sorted.size() && sorted[j]->range.root == first.range.root &&
         sorted[j]->range.offset < end;
         ++j) {
      const Command::Binding &second = *sorted[j];
      if (!(first.writes || second.writes) ||
          (first.mayAlias && second.mayAlias))
        continue;
      const Command::Binding &written = first.writes ? first : second;
      const Command::Binding &other = first.writes ? second : first;
      return dispatch.op->emitError()
             << "breaks device rule binding-aliasing: binding (set "
             << written.set << ", binding " << written.binding
             << "), which the kernel writes, and binding (set " << other.set
             << ", binding " << other.binding << ") share bytes ["
             << second.range.offset << ", "
             << std::min(end, second.range.offset + second.range.length)
             << ") of " << first.range.root->getName()
             << "; a kernel may assume its bindings do not alias unless both "
                "are declared MayAlias";
    }
  }
  return success();
}

LogicalResult ExecutorImpl::checkPushConstantRule(Operation *op, StringRef what,
                                                  int64_t first,
                                                  int64_t count) {
  int64_t end;
  if (llvm::AddOverflow(first, count, end))
    end = std::numeric_limits<int64_t>::max();
  if (end <= maxPushConstants || !checksDeviceRule("push-constants"))
    return success();
  return op->emitError() << "breaks device rule push-constants: " << what << " "
                         << end << " push constant values, more than "
                         << "the " << maxPushConstants << " ("
                         << 4 * maxPushConstants
                         << " bytes, maxPushConstantsSize) of the device";
}

LogicalResult ExecutorImpl::reportUnboundBinding(Operation *op, StringRef name,
                                                 int64_t set, int64_t ordinal,
                                                 bool setPushed) {
  if (!checksDeviceRule("unbound-binding"))
    return success();
  InFlightDiagnostic diag = op->emitError()
                            << "breaks device rule unbound-binding: the "
                               "interface declares binding @"
                            << name << " (set " << set << ", binding "
                            << ordinal << ") and ";
  if (setPushed)
    diag << "the push_descriptor_set of set " << set
         << " in effect does not bind it";
  else
    diag << "no push_descriptor_set of set " << set
         << " is in effect in the command buffer";
  return failure();
}
