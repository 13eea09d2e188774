//===- ExternalTransients.cpp - transient memory the caller owns ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A runtime that calls a function many times wants to own its scratch
// memory: allocate it once, reuse it between calls, keep it in a pool. This
// pass turns each public function's one transient slab into a trailing
// `!hal.buffer` argument and adds a query that sizes it from the other
// arguments (docs/lowering.md, "Caller-owned transients"). Calls inside the
// module pass a buffer of the queried size.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "llvm/ADT/SetVector.h"

namespace streamhal::hal {
#define GEN_PASS_DEF_EXTERNALTRANSIENTSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal {
namespace {

/// The function slab of the entry block of `function`, if any.
hal::AllocatorAllocateOp findFunctionSlab(func::FuncOp function) {
  for (auto allocation :
       function.getBody().front().getOps<hal::AllocatorAllocateOp>())
    if (allocation->hasAttr(hal::kFunctionTransientsAttrName))
      return allocation;
  return {};
}

/// The ops that compute `size` from the function's arguments, in block
/// order; an error at the function (with a note at the culprit) when one
/// has effects, regions or lies in another block.
FailureOr<SmallVector<Operation *>> findSizeComputation(func::FuncOp function,
                                                        Value size) {
  Block &entry = function.getBody().front();
  SetVector<Operation *> ops;
  SmallVector<Value> worklist{size};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *definition = value.getDefiningOp();
    if (!definition) {
      if (cast<BlockArgument>(value).getOwner() == &entry)
        continue;
      return function.emitError()
             << "has a transient size that depends on a block argument "
                "other than the function's; external transients need a size "
                "the arguments decide";
    }
    if (ops.contains(definition))
      continue;
    if (definition->getBlock() != &entry || definition->getNumRegions() ||
        !isMemoryEffectFree(definition)) {
      InFlightDiagnostic diag =
          function.emitError()
          << "has a transient size that depends on a value '"
          << definition->getName()
          << "' computes at run time; external transients need a size "
             "the arguments decide";
      diag.attachNote(definition->getLoc()) << "computed here";
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

/// Adds `@<name>_transient_size` returning `size`, computed by `ops`.
FailureOr<func::FuncOp> createSizeQuery(func::FuncOp function, Value size,
                                        ArrayRef<Operation *> ops,
                                        SymbolTable &symbols) {
  std::string name = (function.getSymName() + hal::kTransientSizeSuffix).str();
  if (symbols.lookup(name))
    return function.emitError()
           << "needs a query @" << name
           << " for its external transients, but the module already has a "
              "symbol of that name";
  OpBuilder builder(function);
  auto query =
      func::FuncOp::create(builder, function.getLoc(), name,
                           builder.getFunctionType(function.getArgumentTypes(),
                                                   {builder.getIndexType()}));
  Block *body = query.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(function.getArguments(), body->getArguments());
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  func::ReturnOp::create(builder, function.getLoc(),
                         mapping.lookupOrDefault(size));
  symbols.insert(query);
  return query;
}

/// Makes `function` take its slab as a trailing argument.
LogicalResult externalize(func::FuncOp function, hal::AllocatorAllocateOp slab,
                          SymbolTable &symbols) {
  Value size = slab.getResultSize();
  FailureOr<SmallVector<Operation *>> ops = findSizeComputation(function, size);
  if (failed(ops))
    return failure();
  FailureOr<func::FuncOp> query =
      createSizeQuery(function, size, *ops, symbols);
  if (failed(query))
    return failure();

  MLIRContext *context = function.getContext();
  unsigned index = function.getNumArguments();
  auto attrs = DictionaryAttr::get(
      context,
      {NamedAttribute(StringAttr::get(context, hal::kTransientsArgAttrName),
                      UnitAttr::get(context))});
  if (failed(function.insertArgument(index, hal::BufferType::get(context),
                                     attrs, slab.getLoc())))
    return function.emitError() << "cannot take a transient-buffer argument";
  function->setAttr(hal::kTransientSizeAttrName,
                    FlatSymbolRefAttr::get(*query));

  OpBuilder builder(slab);
  Value zero = arith::ConstantIndexOp::create(builder, slab.getLoc(), 0);
  auto subspan =
      hal::BufferSubspanOp::create(builder, slab.getLoc(), slab.getType(),
                                   function.getArgument(index), zero, size);
  slab.getResult().replaceAllUsesWith(subspan.getResult());
  slab.erase();
  return success();
}

/// Makes a call of an externalized function pass a fresh buffer of the
/// queried size.
void passTransients(func::CallOp call, func::FuncOp query) {
  OpBuilder builder(call);
  Location loc = call.getLoc();
  MLIRContext *context = call.getContext();
  Value device = hal::ExSharedDeviceOp::create(builder, loc,
                                               hal::DeviceType::get(context));
  Value allocator = hal::DeviceAllocatorOp::create(
      builder, loc, hal::AllocatorType::get(context), device);
  auto size = func::CallOp::create(builder, loc, query, call.getOperands());
  auto buffer = hal::AllocatorAllocateOp::create(
      builder, loc, hal::BufferType::get(context), allocator,
      hal::MemoryTypeAttr::get(context, hal::MemoryType::DeviceLocal),
      hal::BufferUsageAttr::get(context, hal::BufferUsage::Dispatch |
                                             hal::BufferUsage::Transfer),
      size.getResult(0));
  call.getOperandsMutable().append(buffer.getResult());
}

/// Warns when `function` still allocates device-only memory of its own
/// (a slab in a nested block, a value whose size comes late, or no function
/// plan at all): the caller then does not own all of it.
void warnAboutOwnTransients(func::FuncOp function) {
  unsigned count = 0;
  function.walk([&](hal::AllocatorAllocateOp allocation) {
    if (hal::isDeviceOnlyTransient(allocation))
      ++count;
  });
  if (count)
    function.emitWarning()
        << "keeps " << count
        << " device-only allocation(s) of its own besides the transients "
           "its caller provides (slabs of nested blocks, sizes known only "
           "later, or no per-function plan: transients=fragment)";
}

struct ExternalTransientsPass
    : public hal::impl::ExternalTransientsPassBase<ExternalTransientsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    DenseMap<StringAttr, func::FuncOp> queries;
    bool failed = false;
    for (auto function :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (!function.isPublic() || function.isExternal() ||
          function->hasAttr(hal::kTransientSizeAttrName))
        continue;
      hal::AllocatorAllocateOp slab = findFunctionSlab(function);
      if (slab && mlir::failed(externalize(function, slab, symbols))) {
        failed = true;
        continue;
      }
      warnAboutOwnTransients(function);
      if (!slab)
        continue;
      auto name = function->getAttrOfType<FlatSymbolRefAttr>(
          hal::kTransientSizeAttrName);
      queries[function.getSymNameAttr()] =
          symbols.lookup<func::FuncOp>(name.getValue());
    }
    if (failed)
      return signalPassFailure();
    module.walk([&](func::CallOp call) {
      auto query = queries.find(call.getCalleeAttr().getAttr());
      if (query != queries.end())
        passTransients(call, query->second);
    });
  }
};

} // namespace
} // namespace streamhal
