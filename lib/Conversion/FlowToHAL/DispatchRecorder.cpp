//===- DispatchRecorder.cpp - resolving and recording dispatches ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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
static LogicalResult resolveBinding(flow::DispatchOp op, Attribute entry,
                                    ResolvedVariant &resolved) {
  auto lookupBinding =
      [&](StringAttr name) -> FailureOr<hal::InterfaceBindingOp> {
    auto binding = dyn_cast_or_null<hal::InterfaceBindingOp>(
        SymbolTable::lookupSymbolIn(resolved.interface, name));
    if (!binding)
      return op.emitOpError()
             << "hal.bindings entry " << entry << " names unknown binding @"
             << name.getValue() << " of interface @"
             << resolved.interface.getSymName();
    return binding;
  };
  auto checkIndex = [&](IntegerAttr index, size_t count,
                        StringRef what) -> FailureOr<unsigned> {
    std::optional<int64_t> value = getIndexBelow(index, count);
    if (!value)
      return op.emitOpError() << "hal.bindings entry " << entry << " names "
                              << what << " that does not exist";
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
          return op.emitOpError() << "hal.bindings entry " << entry
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
          return op.emitOpError() << "hal.bindings entry " << entry
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
          return op.emitOpError()
                 << "push constant operand " << *index << " has type " << type
                 << " but push constants take index or i32 values";
        int64_t count = resolved.pushConstantArguments.size();
        std::optional<int64_t> ordinal =
            getIndexBelow(attr.getOrdinal(), count);
        if (!ordinal)
          return op.emitOpError()
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
          return op.emitOpError()
                 << "hal.bindings entry " << entry
                 << " names constant storage @" << attr.getStorage().getValue()
                 << " that is not a !hal.buffer global";
        std::optional<int64_t> offset =
            getIndexBelow(attr.getOffset(), INT64_MAX);
        std::optional<int64_t> length =
            getIndexBelow(attr.getLength(), INT64_MAX);
        if (!offset || !length)
          return op.emitOpError()
                 << "hal.bindings entry " << entry
                 << " needs a byte range of non-negative 64-bit integers";
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
        return op.emitOpError() << "has a malformed hal.bindings entry "
                                << entry << ": expected #hal.ex.* bindings";
      });
}

FailureOr<SmallVector<ResolvedVariant>> resolveDispatch(flow::DispatchOp op) {
  SymbolRefAttr callee = op.getEntryPointAttr();
  if (callee.getNestedReferences().size() != 1)
    return op.emitOpError()
           << "callee " << callee << " must have the form @executable::@entry";
  auto executable = SymbolTable::lookupNearestSymbolFrom<hal::ExecutableOp>(
      op, callee.getRootReference());
  if (!executable)
    return op.emitOpError()
           << "callee executable @" << callee.getRootReference().getValue()
           << " not found";
  Attribute bindingsAttr = op->getAttr(flow::DispatchOp::getBindingsAttrName());
  if (!bindingsAttr)
    return op.emitOpError() << "is missing its hal.bindings attribute";
  auto bindings = dyn_cast<ArrayAttr>(bindingsAttr);
  if (!bindings)
    return op.emitOpError() << "has a malformed hal.bindings attribute: "
                               "expected an array of #hal.ex.* bindings";

  SmallVector<ResolvedVariant> variants;
  StringAttr entryName = callee.getLeafReference();
  for (auto variant : executable.getBody().getOps<hal::ExecutableVariantOp>()) {
    auto entryPoint = dyn_cast_or_null<hal::ExecutableEntryPointOp>(
        SymbolTable::lookupSymbolIn(variant, entryName));
    if (!entryPoint)
      return op.emitOpError()
             << "variant @" << variant.getSymName() << " of executable @"
             << executable.getSymName() << " has no entry point @"
             << entryName.getValue();
    hal::InterfaceOp interface = entryPoint.lookupInterface();
    if (!interface)
      return op.emitOpError()
             << "entry point " << callee << " has no hal.interface";
    Region &region = entryPoint.getWorkgroupCountRegion();
    if (!region.empty() && region.getNumArguments() != op.getWorkload().size())
      return op.emitOpError()
             << "workload has " << op.getWorkload().size()
             << " values but the workgroup count region of variant @"
             << variant.getSymName() << " takes " << region.getNumArguments();
    if (interface.getPushConstantCount() > kMaxPushConstants)
      return op.emitOpError()
             << "interface @" << interface.getSymName() << " declares "
             << interface.getPushConstantCount()
             << " push constants; devices guarantee at most "
             << kMaxPushConstants << " (128 bytes)";
    for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>())
      if (binding.getSet().getSExtValue() >= kMaxDescriptorSets)
        return op.emitOpError()
               << "interface binding @" << binding.getSymName() << " of @"
               << interface.getSymName() << " is in descriptor set "
               << binding.getSet().getSExtValue() << "; sets 0 to "
               << kMaxDescriptorSets - 1 << " can be recorded";
    ResolvedVariant resolved{variant, entryPoint, interface};
    resolved.pushConstantArguments.resize(interface.getPushConstantCount());
    for (Attribute entry : bindings)
      if (failed(resolveBinding(op, entry, resolved)))
        return failure();
    resolved.setLayouts = buildSetLayouts(interface, resolved.bindings);
    variants.push_back(std::move(resolved));
  }
  if (variants.empty())
    return op.emitOpError() << "executable @" << executable.getSymName()
                            << " has no variants to dispatch";
  return variants;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

void CommandRecorder::recordDispatch(flow::DispatchOp op) {
  // Dispatches of one callee with the same bindings resolve alike (the
  // per-op checks already passed), so resolve each such pair once.
  std::pair<Attribute, Attribute> key{
      op.getEntryPointAttr(),
      op->getAttr(flow::DispatchOp::getBindingsAttrName())};
  auto cached = resolvedDispatches.find(key);
  if (cached == resolvedDispatches.end()) {
    FailureOr<SmallVector<ResolvedVariant>> resolved = resolveDispatch(op);
    assert(succeeded(resolved) && "dispatches are resolved by the check");
    cached = resolvedDispatches.try_emplace(key, std::move(*resolved)).first;
  }
  SmallVector<ResolvedVariant> &variants = cached->second;
  RewriterBase &rewriter = state.getRewriter();
  MLIRContext *context = rewriter.getContext();
  SmallVector<Attribute> conditions;
  for (ResolvedVariant &resolved : variants)
    conditions.push_back(hal::MatchExecutableFormatAttr::get(
        context, resolved.variant.getTarget().getFormat()));
  auto switchOp = hal::DeviceSwitchOp::create(
      rewriter, op.getLoc(), TypeRange(), state.getDevice(),
      rewriter.getArrayAttr(conditions), variants.size());
  for (auto [resolved, region] :
       llvm::zip_equal(variants, switchOp.getConditionRegions()))
    recordDispatchCase(op, resolved, region);
  finishCommand(switchOp);
}

void CommandRecorder::recordDispatchCase(flow::DispatchOp op,
                                         const ResolvedVariant &resolved,
                                         Region &region) {
  RewriterBase &rewriter = state.getRewriter();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.createBlock(&region);
  Location loc = op.getLoc();
  int64_t pushConstantCount = resolved.pushConstantArguments.size();
  Value layout = state.getLayout(pushConstantCount, resolved.setLayouts);

  // One descriptor set push per set, bindings in hal.bindings order.
  std::map<int64_t, SmallVector<const ResolvedBinding *>> bySet;
  for (const ResolvedBinding &binding : resolved.bindings)
    bySet[binding.set].push_back(&binding);
  for (auto &[set, bindings] : bySet) {
    SmallVector<Value> ordinals, buffers, offsets, lengths;
    std::set<int64_t> pushed;
    for (const ResolvedBinding *binding : bindings) {
      // A tied operand and its result may name one binding (one storage,
      // checked by the dispatch verifier): it is bound once.
      if (!pushed.insert(binding->ordinal).second)
        continue;
      ordinals.push_back(state.getIndex(binding->ordinal));
      BufferRange range;
      switch (binding->kind) {
      case ResolvedBinding::Kind::OperandBuffer:
        range = state.getRange(op.getArguments()[binding->index]);
        break;
      case ResolvedBinding::Kind::ResultBuffer:
        range = state.getRange(op.getResult(binding->index));
        break;
      case ResolvedBinding::Kind::ConstantStorage:
        range = {state.getGlobalBuffer(binding->storage),
                 state.getIndex(binding->length)};
        break;
      }
      buffers.push_back(range.buffer);
      offsets.push_back(state.getIndex(binding->offset));
      lengths.push_back(range.length);
    }
    hal::CommandBufferPushDescriptorSetOp::create(
        rewriter, loc, commandBuffer, layout, state.getIndex(set), ordinals,
        buffers, offsets, lengths);
  }

  if (pushConstantCount > 0) {
    SmallVector<Value> values;
    for (std::optional<unsigned> argument : resolved.pushConstantArguments) {
      if (!argument) {
        values.push_back(state.getI32(0));
        continue;
      }
      values.push_back(state.getI32PushConstant(
          state.lookupScalar(op.getArguments()[*argument])));
    }
    hal::CommandBufferPushConstantsOp::create(
        rewriter, loc, commandBuffer, layout, rewriter.getIndexAttr(0), values);
  }

  SmallVector<Value, 3> workgroups =
      buildWorkgroupCount(op, resolved.entryPoint);
  hal::ExecutableVariantOp variant = resolved.variant;
  hal::ExecutableEntryPointOp entryPoint = resolved.entryPoint;
  auto target =
      SymbolRefAttr::get(op.getEntryPointAttr().getRootReference(),
                         {FlatSymbolRefAttr::get(variant.getSymNameAttr()),
                          FlatSymbolRefAttr::get(entryPoint.getSymNameAttr())});
  hal::CommandBufferDispatchSymbolOp::create(rewriter, loc, commandBuffer,
                                             target, workgroups[0],
                                             workgroups[1], workgroups[2]);
  hal::ReturnOp::create(rewriter, loc);
}

SmallVector<Value, 3>
CommandRecorder::buildWorkgroupCount(flow::DispatchOp op,
                                     hal::ExecutableEntryPointOp entryPoint) {
  RewriterBase &rewriter = state.getRewriter();
  SmallVector<Value> workload = state.lookupScalars(op.getWorkload());
  Region &region = entryPoint.getWorkgroupCountRegion();
  if (!region.empty()) {
    // The entry point computes the count: inline its region here.
    IRMapping mapping;
    for (auto [argument, value] :
         llvm::zip_equal(region.getArguments(), workload))
      mapping.map(argument, value);
    Block &block = region.front();
    for (Operation &inner : block.without_terminator())
      rewriter.clone(inner, mapping);
    SmallVector<Value, 3> counts;
    for (Value count : block.getTerminator()->getOperands())
      counts.push_back(mapping.lookupOrDefault(count));
    return counts;
  }
  // Workgroup size 1x1x1: the workload is the count. Missing dims are 1;
  // dims past the third fold into z so that x*y*z covers the workload.
  SmallVector<Value, 3> counts;
  for (unsigned dim = 0; dim < 3; ++dim)
    counts.push_back(dim < workload.size() ? workload[dim] : state.getIndex(1));
  for (unsigned dim = 3; dim < workload.size(); ++dim)
    counts[2] = state.createInPrologue<arith::MulIOp>(counts[2], workload[dim]);
  return counts;
}

} // namespace streamhal
