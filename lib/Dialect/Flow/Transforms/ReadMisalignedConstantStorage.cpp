//===- ReadMisalignedConstantStorage.cpp - bind constants aligned --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `#hal.ex.constant_storage` binding names bytes of a pool laid out for
// some device. Bound where they are, bytes at an offset the module's
// `min_buffer_offset_alignment` does not divide would break a device rule,
// and the binding attribute has no storage of its own to copy them into.
// Reading the same bytes as a `hal.constant.subspan` operand of the
// dispatch hands the choice to the storage plan, which views an aligned
// constant in place and copies a misaligned one into aligned storage once
// per fragment (docs/lowering.md, "Device rules").
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/SymbolTable.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"
#include <tuple>

#define DEBUG_TYPE "flow-read-misaligned-constant-storage"

namespace streamhal::flow {
#define GEN_PASS_DEF_READMISALIGNEDCONSTANTSTORAGEPASS
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"
} // namespace streamhal::flow

using namespace mlir;

namespace streamhal::flow {

/// The byte range of a constant storage binding when it is well formed (the
/// fragment check reports any other) and starts at a misaligned offset.
static std::optional<std::pair<int64_t, int64_t>>
getMisalignedRange(hal::ExConstantStorageAttr attr, int64_t alignment) {
  IntegerAttr offset = attr.getOffset(), length = attr.getLength();
  if (!offset || !length || offset.getValue().isNegative() ||
      length.getValue().isNegative() ||
      offset.getValue().getActiveBits() > 63 ||
      length.getValue().getActiveBits() > 63)
    return std::nullopt;
  int64_t start = offset.getValue().getSExtValue();
  int64_t size = length.getValue().getSExtValue();
  // A range whose end passes INT64_MAX is no byte range (the check says so).
  if (start % alignment == 0 || start > INT64_MAX - size)
    return std::nullopt;
  return std::make_pair(start, size);
}

/// Rewrites the misaligned constant storage bindings of one dispatch into
/// operand bindings of `hal.constant.subspan` values (one per range and
/// fragment, made before its first dispatch). Returns the bindings
/// rewritten.
static unsigned rewriteDispatch(
    DispatchOp dispatch, int64_t alignment,
    llvm::DenseMap<std::tuple<Attribute, int64_t, int64_t>, Value> &subspans) {
  ArrayAttr bindings = dispatch.getBindings();
  if (!bindings)
    return 0;
  MLIRContext *context = dispatch.getContext();
  OpBuilder builder(dispatch);
  SmallVector<Value> arguments(dispatch.getArguments());
  SmallVector<Value> argumentDims(dispatch.getArgumentDims());
  SmallVector<Attribute> entries(bindings.getValue());
  unsigned rewritten = 0;
  for (Attribute &entry : entries) {
    auto storage = dyn_cast<hal::ExConstantStorageAttr>(entry);
    if (!storage || !storage.getStorage())
      continue;
    // Only a `!hal.buffer` global can be read as a constant subspan; the
    // fragment check reports any other name at the dispatch.
    auto global = SymbolTable::lookupNearestSymbolFrom<util::GlobalOp>(
        dispatch, storage.getStorage());
    if (!global || !isa<hal::BufferType>(global.getType()))
      continue;
    std::optional<std::pair<int64_t, int64_t>> range =
        getMisalignedRange(storage, alignment);
    if (!range)
      continue;
    Value &subspan =
        subspans[{storage.getStorage(), range->first, range->second}];
    if (!subspan) {
      auto type =
          RankedTensorType::get({range->second}, IntegerType::get(context, 8));
      subspan = hal::ConstantSubspanOp::create(
          builder, dispatch.getLoc(), type,
          FlatSymbolRefAttr::get(storage.getStorage()),
          util::ByteRangeAttr::get(context, range->first, range->second),
          ValueRange());
    }
    LLVM_DEBUG(llvm::dbgs()
               << "constant storage @" << storage.getStorage().getValue()
               << " at misaligned pool offset " << range->first << " of "
               << dispatch.getLoc() << " read as a dispatch operand\n");
    entry = hal::ExOperandBufferAttr::get(
        context, storage.getBinding(),
        IntegerAttr::get(IndexType::get(context), arguments.size()));
    arguments.push_back(subspan);
    ++rewritten;
  }
  if (!rewritten)
    return 0;
  // Appended operands leave every tied index as it was.
  auto rebuilt = DispatchOp::create(
      builder, dispatch.getLoc(), dispatch.getResultTypes(),
      dispatch.getEntryPointAttr(), dispatch.getWorkload(), arguments,
      argumentDims, dispatch.getResultDims(), dispatch.getTiedOperandsAttr());
  for (NamedAttribute attr : dispatch->getDiscardableAttrs())
    rebuilt->setAttr(attr.getName(), attr.getValue());
  rebuilt->setAttr(DispatchOp::getBindingsAttrName(),
                   builder.getArrayAttr(entries));
  dispatch->replaceAllUsesWith(rebuilt->getResults());
  dispatch->erase();
  return rewritten;
}

unsigned readMisalignedConstantStorage(ExStreamFragmentOp fragment) {
  if (fragment.getBody().empty())
    return 0;
  int64_t alignment =
      std::max<int64_t>(hal::getSlabAlignments(fragment).offset, 1);
  llvm::DenseMap<std::tuple<Attribute, int64_t, int64_t>, Value> subspans;
  unsigned rewritten = 0;
  // Dispatches are replaced as they are visited: walk a snapshot.
  SmallVector<DispatchOp> dispatches(
      fragment.getBody().front().getOps<DispatchOp>());
  for (DispatchOp dispatch : dispatches)
    rewritten += rewriteDispatch(dispatch, alignment, subspans);
  return rewritten;
}

namespace {
struct ReadMisalignedConstantStoragePass
    : public impl::ReadMisalignedConstantStoragePassBase<
          ReadMisalignedConstantStoragePass> {
  using Base::Base;
  void runOnOperation() override {
    unsigned rewritten = 0;
    getOperation()->walk([&](ExStreamFragmentOp fragment) {
      rewritten += readMisalignedConstantStorage(fragment);
    });
    if (!rewritten)
      markAllAnalysesPreserved();
  }
};
} // namespace

} // namespace streamhal::flow
