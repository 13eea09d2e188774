//===- StorageAroundFragments.cpp - what copy on write asks of a block ----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StorageAroundFragments.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

using namespace mlir;

namespace streamhal::flow {

bool isGlobalRoundTrip(util::GlobalLoadOp load, ExStreamFragmentOp fragment,
                       unsigned operand) {
  if (load->getBlock() != fragment->getBlock())
    return false;
  StringRef global = load.getGlobal();
  // The result written into the loaded storage.
  Value written;
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i)
    if (fragment.getTiedResultOperandIndex(i) == operand)
      written = fragment->getResult(i);
  if (!written)
    return false;
  // Anything that may read the global (another load of it, its address, a
  // call) before the store would see bytes that change.
  auto readsGlobal = [&](Operation &op) {
    if (auto other = dyn_cast<util::GlobalLoadOp>(op))
      return other != load && other.getGlobal() == global;
    if (auto store = dyn_cast<util::GlobalStoreOp>(op))
      return store.getGlobal() == global;
    return isa<func::CallOp>(op) ||
           op.getName().getStringRef().contains("global.address");
  };
  Block *block = load->getBlock();
  for (Operation &op : *block) {
    if (&op == fragment.getOperation())
      break;
    if (readsGlobal(op))
      return false;
  }
  for (Operation *op = fragment->getNextNode(); op; op = op->getNextNode()) {
    if (auto store = dyn_cast<util::GlobalStoreOp>(op))
      if (store.getGlobal() == global)
        return store.getValue() == written;
    if (readsGlobal(*op))
      return false;
  }
  return false;
}

std::optional<SmallVector<Value>> findDims(Value value, Operation *before) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  if (type.hasStaticShape())
    return SmallVector<Value>();
  auto dominates = [&](ValueRange dims) {
    return dims.size() == static_cast<size_t>(type.getNumDynamicDims()) &&
           llvm::all_of(dims, [&](Value dim) {
             Operation *def = dim.getDefiningOp();
             return !def || (def->getBlock() == before->getBlock() &&
                             def->isBeforeInBlock(before));
           });
  };
  if (auto result = dyn_cast<OpResult>(value))
    if (auto shaped = dyn_cast<util::ShapeAwareOpInterface>(result.getOwner()))
      if (ValueRange dims =
              shaped.getResultDynamicDims(result.getResultNumber());
          dominates(dims))
        return SmallVector<Value>(dims);
  for (OpOperand &use : value.getUses())
    if (auto shaped = dyn_cast<util::ShapeAwareOpInterface>(use.getOwner()))
      if (ValueRange dims =
              shaped.getOperandDynamicDims(use.getOperandNumber());
          dominates(dims))
        return SmallVector<Value>(dims);
  return std::nullopt;
}

} // namespace streamhal::flow
