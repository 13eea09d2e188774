//===- RecordDispatches.cpp - recording a fragment's dispatches -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A dispatch becomes a `hal.device.switch` with one case per resolved
// variant: its descriptor set pushes, push constants and the dispatch with
// the workgroup count of its entry point.
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include <map>
#include <set>

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

void CommandRecorder::recordDispatch(flow::DispatchOp op) {
  ArrayRef<ResolvedVariant> variants = plan.getVariants(op);
  RewriterBase &rewriter = builder.getRewriter();
  MLIRContext *context = rewriter.getContext();
  SmallVector<Attribute> conditions;
  for (const ResolvedVariant &resolved : variants) {
    hal::ExecutableVariantOp variant = resolved.variant;
    conditions.push_back(hal::MatchExecutableFormatAttr::get(
        context, variant.getTarget().getFormat()));
  }
  auto switchOp = hal::DeviceSwitchOp::create(
      rewriter, op.getLoc(), TypeRange(), builder.getDevice(),
      rewriter.getArrayAttr(conditions), variants.size());
  for (auto [resolved, region] :
       llvm::zip_equal(variants, switchOp.getConditionRegions()))
    recordDispatchCase(op, resolved, region);
  finishCommand(switchOp);
}

void CommandRecorder::recordDispatchCase(flow::DispatchOp op,
                                         const ResolvedVariant &resolved,
                                         Region &region) {
  RewriterBase &rewriter = builder.getRewriter();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.createBlock(&region);
  Location loc = op.getLoc();
  int64_t pushConstantCount = resolved.pushConstantArguments.size();
  Value layout = builder.getLayout(pushConstantCount, resolved.setLayouts);

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
      ordinals.push_back(builder.getIndex(binding->ordinal));
      BufferRange range;
      switch (binding->kind) {
      case ResolvedBinding::Kind::OperandBuffer:
        range = storage.getRange(op.getArguments()[binding->index]);
        break;
      case ResolvedBinding::Kind::ResultBuffer:
        range = storage.getRange(op.getResult(binding->index));
        break;
      case ResolvedBinding::Kind::ConstantStorage:
        range = {builder.getGlobalBuffer(binding->storage),
                 builder.getIndex(binding->length)};
        break;
      }
      buffers.push_back(range.buffer);
      offsets.push_back(builder.getIndex(binding->offset));
      lengths.push_back(range.length);
    }
    hal::CommandBufferPushDescriptorSetOp::create(
        rewriter, loc, commandBuffer, layout, builder.getIndex(set), ordinals,
        buffers, offsets, lengths);
  }
  // Every other set of the interface is pushed empty, with this dispatch's
  // layout (which names none of its bindings): a push stays in effect, so
  // a set an earlier dispatch pushed would still hold that dispatch's
  // buffers, which the kernel would reach through its interface bindings
  // in the set (docs/executor.md); and a set nothing pushed would leave
  // the interface's bindings in it unbound (device rule unbound-binding).
  std::set<int64_t> declaredSets;
  hal::ExecutableEntryPointOp declaring = resolved.entryPoint;
  if (hal::InterfaceOp interface = declaring.lookupInterface())
    for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>())
      declaredSets.insert(binding.getSet().getSExtValue());
  for (int64_t set : declaredSets)
    if (!bySet.count(set))
      hal::CommandBufferPushDescriptorSetOp::create(
          rewriter, loc, commandBuffer, layout, builder.getIndex(set),
          ValueRange(), ValueRange(), ValueRange(), ValueRange());

  if (pushConstantCount > 0) {
    SmallVector<Value> values;
    for (std::optional<unsigned> argument : resolved.pushConstantArguments) {
      if (!argument) {
        values.push_back(builder.getI32(0));
        continue;
      }
      values.push_back(builder.getI32PushConstant(
          builder.lookupScalar(op.getArguments()[*argument])));
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
  RewriterBase &rewriter = builder.getRewriter();
  SmallVector<Value> workload = builder.lookupScalars(op.getWorkload());
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
    counts.push_back(dim < workload.size() ? workload[dim]
                                           : builder.getIndex(1));
  for (unsigned dim = 3; dim < workload.size(); ++dim)
    counts[2] =
        builder.createInPrologue<arith::MulIOp>(counts[2], workload[dim]);
  return counts;
}

} // namespace streamhal
