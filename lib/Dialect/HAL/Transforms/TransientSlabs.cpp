//===- TransientSlabs.cpp - Moving a function's slab to its caller --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TransientSlabs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace streamhal {

hal::AllocatorAllocateOp findFunctionSlab(func::FuncOp function) {
  for (auto allocation :
       function.getBody().front().getOps<hal::AllocatorAllocateOp>())
    if (allocation->hasAttr(hal::kFunctionTransientsAttrName))
      return allocation;
  return {};
}

FailureOr<SmallVector<Operation *>>
findSizeComputation(func::FuncOp function, Value size, bool emitErrors) {
  Block &entry = function.getBody().front();
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> worklist{size};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *definition = value.getDefiningOp();
    if (!definition) {
      if (cast<BlockArgument>(value).getOwner() == &entry)
        continue;
      if (emitErrors)
        function.emitError()
            << "has a transient size that depends on a block argument "
               "other than the function's; external transients need a size "
               "the arguments decide";
      return failure();
    }
    if (ops.contains(definition))
      continue;
    if (definition->getBlock() != &entry || definition->getNumRegions() ||
        !isMemoryEffectFree(definition)) {
      if (emitErrors) {
        InFlightDiagnostic diag =
            function.emitError()
            << "has a transient size that depends on a value '"
            << definition->getName()
            << "' computes at run time; external transients need a size "
               "the arguments decide";
        diag.attachNote(definition->getLoc()) << "computed here";
      }
      return failure();
    }
    ops.insert(definition);
    llvm::append_range(worklist, definition->getOperands());
  }
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

LogicalResult takeSlabAsArgument(func::FuncOp function,
                                 hal::AllocatorAllocateOp slab) {
  MLIRContext *context = function.getContext();
  unsigned index = function.getNumArguments();
  auto attrs = DictionaryAttr::get(
      context,
      {NamedAttribute(StringAttr::get(context, hal::kTransientsArgAttrName),
                      UnitAttr::get(context))});
  if (failed(function.insertArgument(index, hal::BufferType::get(context),
                                     attrs, slab.getLoc())))
    return function.emitError() << "cannot take a transient-buffer argument";
  OpBuilder builder(slab);
  Value zero = arith::ConstantIndexOp::create(builder, slab.getLoc(), 0);
  auto subspan = hal::BufferSubspanOp::create(
      builder, slab.getLoc(), slab.getType(), function.getArgument(index), zero,
      slab.getResultSize());
  slab.getResult().replaceAllUsesWith(subspan.getResult());
  slab.erase();
  return success();
}

void passFreshTransients(func::CallOp call, Value bytes) {
  OpBuilder builder(call);
  Location loc = call.getLoc();
  MLIRContext *context = call.getContext();
  Value device = hal::ExSharedDeviceOp::create(builder, loc,
                                               hal::DeviceType::get(context));
  Value allocator = hal::DeviceAllocatorOp::create(
      builder, loc, hal::AllocatorType::get(context), device);
  auto buffer = hal::AllocatorAllocateOp::create(
      builder, loc, hal::BufferType::get(context), allocator,
      hal::MemoryTypeAttr::get(context, hal::MemoryType::DeviceLocal),
      hal::BufferUsageAttr::get(context, hal::BufferUsage::Dispatch |
                                             hal::BufferUsage::Transfer),
      bytes);
  call.getOperandsMutable().append(buffer.getResult());
}

bool lendSlabToCallers(func::FuncOp callee, ArrayRef<func::CallOp> calls) {
  hal::AllocatorAllocateOp slab = findFunctionSlab(callee);
  if (!slab)
    return false;
  Value size = slab.getResultSize();
  FailureOr<SmallVector<Operation *>> ops =
      findSizeComputation(callee, size, /*emitErrors=*/false);
  if (failed(ops))
    return false;
  for (func::CallOp call : calls) {
    OpBuilder builder(call);
    IRMapping mapping;
    mapping.map(callee.getArguments(), call.getOperands());
    for (Operation *op : *ops)
      builder.clone(*op, mapping);
    passFreshTransients(call, mapping.lookupOrDefault(size));
  }
  // Inserting an argument of a private function cannot fail.
  return succeeded(takeSlabAsArgument(callee, slab));
}

/// The functions and initializers of `module`, every callee before its
/// callers; `recursive` gets the functions on a cycle of calls.
SmallVector<Operation *> orderCalleesFirst(ModuleOp module,
                                           DenseSet<Operation *> &recursive) {
  SymbolTable symbols(module);
  SmallVector<Operation *> order;
  DenseMap<Operation *, unsigned> state; // 1: on the path, 2: done
  auto callees = [&](Operation *op) {
    SmallVector<Operation *> found;
    op->walk([&](func::CallOp call) {
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
        found.push_back(callee);
    });
    return found;
  };
  for (Operation &root : module.getOps()) {
    if (!isa<func::FuncOp, util::InitializerOp>(root) || state.count(&root))
      continue;
    // Depth first without recursion: a call chain may be deep.
    SmallVector<std::pair<Operation *, SmallVector<Operation *>>> path;
    state[&root] = 1;
    path.push_back({&root, callees(&root)});
    while (!path.empty()) {
      auto &[op, pending] = path.back();
      if (pending.empty()) {
        state[op] = 2;
        order.push_back(op);
        path.pop_back();
        continue;
      }
      Operation *callee = pending.pop_back_val();
      unsigned &seen = state[callee];
      if (seen == 1) {
        // A cycle: everything on the path from the callee on.
        for (auto &entry : llvm::reverse(path)) {
          recursive.insert(entry.first);
          if (entry.first == callee)
            break;
        }
        continue;
      }
      if (seen == 2)
        continue;
      seen = 1;
      path.push_back({callee, callees(callee)});
    }
  }
  return order;
}

/// The calls of each function of `module`, or none for a function that is
/// also used otherwise (its address taken by a symbol reference): one walk
/// of the module.
DenseMap<StringAttr, std::optional<SmallVector<func::CallOp>>>
collectCalls(ModuleOp module) {
  DenseMap<StringAttr, std::optional<SmallVector<func::CallOp>>> calls;
  module.walk([&](Operation *op) {
    // Executables are symbol tables of their own: their references name
    // their own symbols.
    if (isa<hal::ExecutableOp>(op))
      return WalkResult::skip();
    auto call = dyn_cast<func::CallOp>(op);
    op->getAttrDictionary().walk([&](SymbolRefAttr reference) {
      auto [entry, inserted] = calls.try_emplace(reference.getRootReference(),
                                                 SmallVector<func::CallOp>());
      if (call && call.getCalleeAttr() == reference && entry->second)
        entry->second->push_back(call);
      else
        entry->second = std::nullopt;
    });
    return WalkResult::advance();
  });
  return calls;
}

} // namespace streamhal
