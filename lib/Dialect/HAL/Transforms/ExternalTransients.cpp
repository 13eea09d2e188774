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

#include "TransientSlabs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"

namespace streamhal::hal {
#define GEN_PASS_DEF_EXTERNALTRANSIENTSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal {
namespace {

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
  FailureOr<SmallVector<Operation *>> ops =
      findSizeComputation(function, size, /*emitErrors=*/true);
  if (failed(ops))
    return failure();
  FailureOr<func::FuncOp> query =
      createSizeQuery(function, size, *ops, symbols);
  if (failed(query))
    return failure();

  function->setAttr(hal::kTransientSizeAttrName,
                    FlatSymbolRefAttr::get(*query));
  return takeSlabAsArgument(function, slab);
}

/// Makes a call of an externalized function pass a fresh buffer of the
/// queried size.
void passTransients(func::CallOp call, func::FuncOp query) {
  OpBuilder builder(call);
  auto size =
      func::CallOp::create(builder, call.getLoc(), query, call.getOperands());
  passFreshTransients(call, size.getResult(0));
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
