//===- DispatchResolution.cpp - a dispatch's variants and bindings --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Resolves a `flow.dispatch` against its executable: for every variant, the
// entry point, the interface, each `hal.bindings` entry as a binding or a
// push constant, and the descriptor set layouts it is recorded with. The
// fragment plan resolves each dispatch once; the recorder reads the result.
//
//===----------------------------------------------------------------------===//

#include "FragmentPlan.h"
#include "streamhal/Dialect/HAL/IR/ExecutableFormats.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include <map>
#include <set>

using namespace mlir;

namespace streamhal {

/// Interfaces beyond these limits cannot be recorded: real devices allow a
/// few descriptor sets, and every Vulkan device at least 128 bytes of push
/// constants (maxPushConstantsSize), 32 of our 32-bit values; the lowering
/// materializes one layout list per set and one value per push constant.
static constexpr int64_t kMaxDescriptorSets = 64;
static constexpr int64_t kMaxPushConstants = 32;

//===----------------------------------------------------------------------===//
// Resolution
//===----------------------------------------------------------------------===//

/// The descriptor set layouts a dispatch is recorded with: one list per
/// set (sets without bindings are empty), bindings sorted by ordinal. Only
/// the interface bindings the dispatch's `hal.bindings` names are in it:
/// kernels are opaque, and the program's statement of what a dispatch binds
/// is what it uses; a layout naming a binding the dispatch leaves unbound
/// would let the kernel see whatever an earlier dispatch pushed there
/// (devices require every binding of the layout to be valid).
static ArrayAttr buildSetLayouts(hal::InterfaceOp interface,
                                 ArrayRef<ResolvedBinding> bound) {
  MLIRContext *context = interface.getContext();
  std::set<std::pair<int64_t, int64_t>> named;
  for (const ResolvedBinding &binding : bound)
    named.emplace(binding.set, binding.ordinal);
  std::map<int64_t, std::map<int64_t, hal::InterfaceBindingOp>> bySet;
  for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>())
    if (named.count({binding.getSet().getSExtValue(),
                     binding.getBinding().getSExtValue()}))
      bySet[binding.getSet().getSExtValue()]
           [binding.getBinding().getSExtValue()] = binding;
  SmallVector<Attribute> sets;
  int64_t setCount = bySet.empty() ? 0 : bySet.rbegin()->first + 1;
  for (int64_t set = 0; set < setCount; ++set) {
    SmallVector<Attribute> bindings;
    for (auto &[ordinal, binding] : bySet[set])
      bindings.push_back(hal::DescriptorSetLayoutBindingAttr::get(
          context, ordinal, binding.getType(), binding.getAccess()));
    sets.push_back(ArrayAttr::get(context, bindings));
  }
  return ArrayAttr::get(context, sets);
}

/// Returns the value of an integer attribute of any width when it lies in
/// `[0, bound)`, compared without truncation (an `i128` of 2^64 is not 0).
static std::optional<int64_t> getIndexBelow(IntegerAttr attr, uint64_t bound) {
  if (!attr)
    return std::nullopt;
  const APInt &value = attr.getValue();
  if (value.isNegative() || value.getActiveBits() > 63 ||
      value.getZExtValue() >= bound)
    return std::nullopt;
  return static_cast<int64_t>(value.getZExtValue());
}

/// Prints an integer attribute's value in full, `<none>` when absent.
static std::string formatInteger(IntegerAttr attr) {
  return attr ? llvm::toString(attr.getValue(), /*Radix=*/10, /*Signed=*/true)
              : std::string("<none>");
}

/// Resolves one `hal.bindings` entry against `resolved.interface`.
/// Device rule: a binding's offset is a multiple of the offset alignment.
/// A constant storage range names bytes of a pool laid out for some device;
/// bound where it is, it would break the rule, and a copy would need
/// storage the binding attribute cannot name: the pipelines first read such
/// a range through a constant subspan (flow-read-misaligned-constant-storage),
/// so only a conversion run without that step gets here.
static LogicalResult checkConstantStorageOffset(flow::DispatchOp op,
                                                hal::ExConstantStorageAttr attr,
                                                int64_t offset,
                                                const ErrorReporter &report) {
  int64_t alignment = std::max<int64_t>(hal::getSlabAlignments(op).offset, 1);
  if (offset % alignment == 0)
    return success();
  return report.emitOpError(op)
         << "binds constant storage @" << attr.getStorage().getValue()
         << " at pool offset " << offset
         << ", not a multiple of the binding offset alignment " << alignment
         << " (min_buffer_offset_alignment): a device binds storage buffers "
            "only at aligned offsets; run "
            "flow-read-misaligned-constant-storage "
            "first (the lowering pipelines and prepareFlowToHAL do), which "
            "reads the range as a hal.constant.subspan operand that the "
            "lowering copies into aligned storage, or lay the pool out for "
            "this device";
}

static LogicalResult resolveBinding(flow::DispatchOp op, Attribute entry,
                                    ResolvedVariant &resolved,
                                    const ErrorReporter &report) {
  auto lookupBinding =
      [&](StringAttr name) -> FailureOr<hal::InterfaceBindingOp> {
    auto binding = dyn_cast_or_null<hal::InterfaceBindingOp>(
        SymbolTable::lookupSymbolIn(resolved.interface, name));
    if (!binding)
      return report.emitOpError(op)
             << "hal.bindings entry " << entry << " names unknown binding @"
             << name.getValue() << " of interface @"
             << resolved.interface.getSymName();
    return binding;
  };
  auto checkIndex = [&](IntegerAttr index, size_t count,
                        StringRef what) -> FailureOr<unsigned> {
    std::optional<int64_t> value = getIndexBelow(index, count);
    if (!value)
      return report.emitOpError(op)
             << "hal.bindings entry " << entry << " names " << what
             << " that does not exist";
    return static_cast<unsigned>(*value);
  };
  auto addBuffer = [&](StringAttr name, ResolvedBinding::Kind kind,
                       unsigned index) -> LogicalResult {
    FailureOr<hal::InterfaceBindingOp> binding = lookupBinding(name);
    if (failed(binding))
      return failure();
    ResolvedBinding resolvedBinding{kind, binding->getSet().getSExtValue(),
                                    binding->getBinding().getSExtValue()};
    resolvedBinding.index = index;
    resolved.bindings.push_back(resolvedBinding);
    return success();
  };

  return llvm::TypeSwitch<Attribute, LogicalResult>(entry)
      .Case([&](hal::ExOperandBufferAttr attr) -> LogicalResult {
        FailureOr<unsigned> index = checkIndex(
            attr.getOperand(), op.getArguments().size(), "an operand");
        if (failed(index))
          return failure();
        if (!isa<RankedTensorType>(op.getArguments()[*index].getType()))
          return report.emitOpError(op)
                 << "hal.bindings entry " << entry
                 << " binds an operand that is not a tensor";
        return addBuffer(attr.getBinding(),
                         ResolvedBinding::Kind::OperandBuffer, *index);
      })
      .Case([&](hal::ExResultBufferAttr attr) -> LogicalResult {
        FailureOr<unsigned> index =
            checkIndex(attr.getResult(), op.getNumResults(), "a result");
        if (failed(index))
          return failure();
        if (!isa<RankedTensorType>(op.getResult(*index).getType()))
          return report.emitOpError(op)
                 << "hal.bindings entry " << entry
                 << " binds a result that is not a tensor";
        return addBuffer(attr.getBinding(), ResolvedBinding::Kind::ResultBuffer,
                         *index);
      })
      .Case([&](hal::ExPushConstantAttr attr) -> LogicalResult {
        FailureOr<unsigned> index = checkIndex(
            attr.getOperand(), op.getArguments().size(), "an operand");
        if (failed(index))
          return failure();
        Type type = op.getArguments()[*index].getType();
        if (!type.isIndex() && !type.isInteger(32))
          return report.emitOpError(op)
                 << "push constant operand " << *index << " has type " << type
                 << " but push constants take index or i32 values";
        int64_t count = resolved.pushConstantArguments.size();
        std::optional<int64_t> ordinal =
            getIndexBelow(attr.getOrdinal(), count);
        if (!ordinal)
          return report.emitOpError(op)
                 << "push constant ordinal " << formatInteger(attr.getOrdinal())
                 << " is beyond the " << count
                 << " push constants of interface @"
                 << resolved.interface.getSymName();
        resolved.pushConstantArguments[*ordinal] = *index;
        return success();
      })
      .Case([&](hal::ExConstantStorageAttr attr) -> LogicalResult {
        auto global = SymbolTable::lookupNearestSymbolFrom<util::GlobalOp>(
            op, attr.getStorage());
        if (!global || !isa<hal::BufferType>(global.getType()))
          return report.emitOpError(op)
                 << "hal.bindings entry " << entry
                 << " names constant storage @" << attr.getStorage().getValue()
                 << " that is not a !hal.buffer global";
        std::optional<int64_t> offset =
            getIndexBelow(attr.getOffset(), INT64_MAX);
        std::optional<int64_t> length =
            getIndexBelow(attr.getLength(), INT64_MAX);
        if (!offset || !length)
          return report.emitOpError(op)
                 << "hal.bindings entry " << entry
                 << " needs a byte range of non-negative 64-bit integers";
        if (failed(checkConstantStorageOffset(op, attr, *offset, report)))
          return failure();
        if (failed(addBuffer(attr.getBinding(),
                             ResolvedBinding::Kind::ConstantStorage, 0)))
          return failure();
        ResolvedBinding &binding = resolved.bindings.back();
        binding.storage = attr.getStorage();
        binding.offset = *offset;
        binding.length = *length;
        return success();
      })
      .Default([&](Attribute) {
        return report.emitOpError(op)
               << "has a malformed hal.bindings entry " << entry
               << ": expected #hal.ex.* bindings";
      });
}

/// Whether `variant` carries kernels a device runs against the interface's
/// whole layout: a `vulkan-spirv-fb` variant whose module holds code. Other
/// variants stand for opaque executables (run by the dispatch model here,
/// and often sharing one interface among entry points, as IREE's tests do).
static bool carriesKernels(hal::ExecutableVariantOp variant) {
  if (variant.getTarget().getFormat().getValue() != hal::kVulkanSpirvFormat)
    return false;
  return llvm::any_of(variant.getBody().getOps<ModuleOp>(),
                      [](ModuleOp inner) { return !inner.getBody()->empty(); });
}

/// In a variant that carries kernels, every binding of the interface is
/// named by the dispatch's `hal.bindings`: the interface is the kernel's
/// ABI, and a kernel may touch any binding it declares (device rule
/// unbound-binding), so one left out would be a descriptor no push ever
/// wrote. Elsewhere the layout lists the bound ones (docs/lowering.md,
/// "Bindings").
static LogicalResult checkEveryBindingBound(flow::DispatchOp op,
                                            const ResolvedVariant &resolved,
                                            const ErrorReporter &report) {
  if (!carriesKernels(resolved.variant))
    return success();
  std::set<std::pair<int64_t, int64_t>> named;
  for (const ResolvedBinding &binding : resolved.bindings)
    named.emplace(binding.set, binding.ordinal);
  hal::InterfaceOp interface = resolved.interface;
  for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>()) {
    if (named.count({binding.getSet().getSExtValue(),
                     binding.getBinding().getSExtValue()}))
      continue;
    InFlightDiagnostic diagnostic = report.emitOpError(op);
    diagnostic << "leaves binding @" << binding.getSymName() << " (set "
               << binding.getSet().getSExtValue() << ", binding "
               << binding.getBinding().getSExtValue() << ") of interface @"
               << interface.getSymName()
               << " unbound: hal.bindings must bind every binding the "
                  "interface of "
               << op.getEntryPointAttr()
               << " declares (give the entry point an interface of the "
                  "bindings it uses)";
    if (report.isReporting())
      diagnostic.attachNote(binding.getLoc()) << "the interface binding";
    return diagnostic;
  }
  return success();
}

FailureOr<SmallVector<ResolvedVariant>>
resolveDispatch(flow::DispatchOp op, const ErrorReporter &report) {
  SymbolRefAttr callee = op.getEntryPointAttr();
  if (callee.getNestedReferences().size() != 1)
    return report.emitOpError(op)
           << "callee " << callee << " must have the form @executable::@entry";
  auto executable = SymbolTable::lookupNearestSymbolFrom<hal::ExecutableOp>(
      op, callee.getRootReference());
  if (!executable)
    return report.emitOpError(op)
           << "callee executable @" << callee.getRootReference().getValue()
           << " not found";
  Attribute bindingsAttr = op->getAttr(flow::DispatchOp::getBindingsAttrName());
  if (!bindingsAttr)
    return report.emitOpError(op) << "is missing its hal.bindings attribute";
  auto bindings = dyn_cast<ArrayAttr>(bindingsAttr);
  if (!bindings)
    return report.emitOpError(op) << "has a malformed hal.bindings attribute: "
                                     "expected an array of #hal.ex.* bindings";

  SmallVector<ResolvedVariant> variants;
  StringAttr entryName = callee.getLeafReference();
  for (auto variant : executable.getBody().getOps<hal::ExecutableVariantOp>()) {
    auto entryPoint = dyn_cast_or_null<hal::ExecutableEntryPointOp>(
        SymbolTable::lookupSymbolIn(variant, entryName));
    if (!entryPoint)
      return report.emitOpError(op)
             << "variant @" << variant.getSymName() << " of executable @"
             << executable.getSymName() << " has no entry point @"
             << entryName.getValue();
    hal::InterfaceOp interface = entryPoint.lookupInterface();
    if (!interface)
      return report.emitOpError(op)
             << "entry point " << callee << " has no hal.interface";
    Region &region = entryPoint.getWorkgroupCountRegion();
    if (!region.empty() && region.getNumArguments() != op.getWorkload().size())
      return report.emitOpError(op)
             << "workload has " << op.getWorkload().size()
             << " values but the workgroup count region of variant @"
             << variant.getSymName() << " takes " << region.getNumArguments();
    if (interface.getPushConstantCount() > kMaxPushConstants)
      return report.emitOpError(op)
             << "interface @" << interface.getSymName() << " declares "
             << interface.getPushConstantCount()
             << " push constants; devices guarantee at most "
             << kMaxPushConstants << " (128 bytes)";
    for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>())
      if (binding.getSet().getSExtValue() >= kMaxDescriptorSets)
        return report.emitOpError(op)
               << "interface binding @" << binding.getSymName() << " of @"
               << interface.getSymName() << " is in descriptor set "
               << binding.getSet().getSExtValue() << "; sets 0 to "
               << kMaxDescriptorSets - 1 << " can be recorded";
    ResolvedVariant resolved{variant, entryPoint, interface};
    resolved.pushConstantArguments.resize(interface.getPushConstantCount());
    for (Attribute entry : bindings)
      if (failed(resolveBinding(op, entry, resolved, report)))
        return failure();
    if (failed(checkEveryBindingBound(op, resolved, report)))
      return failure();
    resolved.setLayouts = buildSetLayouts(interface, resolved.bindings);
    variants.push_back(std::move(resolved));
  }
  if (variants.empty())
    return report.emitOpError(op) << "executable @" << executable.getSymName()
                                  << " has no variants to dispatch";
  return variants;
}

} // namespace streamhal
