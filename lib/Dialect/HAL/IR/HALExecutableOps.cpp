//===- HALExecutableOps.cpp - hal executables and interfaces --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Builders.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include <set>

using namespace mlir;
using namespace streamhal::hal;

//===----------------------------------------------------------------------===//
// hal.executable
//===----------------------------------------------------------------------===//

void ExecutableOp::build(OpBuilder &builder, OperationState &state,
                         StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

//===----------------------------------------------------------------------===//
// hal.interface / hal.interface.binding
//===----------------------------------------------------------------------===//

LogicalResult InterfaceOp::verify() {
  if (getPushConstantCount() < 0)
    return emitOpError() << "push_constants must be non-negative";
  return success();
}

/// Runs after the bindings verified: each has its `set` and `binding`.
LogicalResult InterfaceOp::verifyRegions() {
  // std::set, not DenseSet: every int64_t pair is a valid key (DenseSet
  // reserves INT64_MAX and INT64_MIN pairs).
  std::set<std::pair<int64_t, int64_t>> seen;
  for (auto binding : getBody().getOps<InterfaceBindingOp>()) {
    std::pair<int64_t, int64_t> key{binding.getSet().getSExtValue(),
                                    binding.getBinding().getSExtValue()};
    if (!seen.insert(key).second)
      return binding.emitOpError()
             << "duplicates set=" << key.first << ", binding=" << key.second;
  }
  return success();
}

LogicalResult InterfaceBindingOp::verify() {
  if (getSet().getSExtValue() < 0 || getBinding().getSExtValue() < 0)
    return emitOpError() << "set and binding must be non-negative";
  return success();
}

//===----------------------------------------------------------------------===//
// hal.executable.entry_point
//===----------------------------------------------------------------------===//

LogicalResult ExecutableEntryPointOp::verifyRegions() {
  if (getOrdinal().isNegative())
    return emitOpError() << "ordinal must be non-negative";
  Region &region = getWorkgroupCountRegion();
  if (region.empty())
    return success();
  Block &block = region.front();
  for (BlockArgument argument : block.getArguments())
    if (!argument.getType().isIndex())
      return emitOpError() << "workgroup count region arguments must be "
                              "index values, got "
                           << argument.getType();
  if (block.getNumArguments() == 0)
    return emitOpError() << "workgroup count region must take the workload "
                            "as at least one index argument";
  auto terminator = dyn_cast<ReturnOp>(block.getTerminator());
  if (!terminator)
    return emitOpError() << "workgroup count region must end with hal.return";
  if (terminator.getNumOperands() != 3 ||
      !llvm::all_of(terminator.getOperandTypes(),
                    [](Type type) { return type.isIndex(); }))
    return emitOpError() << "workgroup count region must return exactly "
                            "three index values (x, y, z), got "
                         << terminator.getNumOperands();
  return success();
}

InterfaceOp ExecutableEntryPointOp::lookupInterface() {
  auto executable = (*this)->getParentOfType<ExecutableOp>();
  if (!executable)
    return {};
  return dyn_cast_or_null<InterfaceOp>(
      SymbolTable::lookupSymbolIn(executable, getInterfaceAttr()));
}

LogicalResult
ExecutableEntryPointOp::verifySymbolUses(SymbolTableCollection &) {
  if (!lookupInterface())
    return emitOpError() << "interface " << getInterfaceAttr()
                         << " is not a hal.interface of the executable";
  return success();
}
