//===- ArgumentMoves.cpp - arguments a private callee takes over ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ArgumentMoves.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace streamhal::flow {

DenseSet<Operation *> getModuleOnlyFunctions(ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(module.getOperation());
  // Uses that cannot be listed: any function may be reached from outside.
  if (!uses)
    return {};
  DenseSet<StringAttr> escaping;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call || use.getSymbolRef() != call.getCalleeAttr())
      escaping.insert(use.getSymbolRef().getRootReference());
  }
  DenseSet<Operation *> moduleOnly;
  for (auto function : module.getOps<func::FuncOp>())
    if (function.isPrivate() && !function.isExternal() &&
        !escaping.contains(function.getSymNameAttr()))
      moduleOnly.insert(function);
  return moduleOnly;
}

/// The block argument number (= fragment argument index) whose clone
/// `returned`'s class holds, when that class holds no block argument and is
/// returned only once.
static std::optional<unsigned> getClonedArgument(const ValueAliasing &aliasing,
                                                 Block &body, Value returned,
                                                 ValueRange returnedValues) {
  if (!aliasing.getOrdinal(returned))
    return std::nullopt;
  unsigned classIndex = aliasing.getClassIndex(returned);
  if (llvm::count_if(returnedValues, [&](Value other) {
        return aliasing.getOrdinal(other) &&
               aliasing.getClassIndex(other) == classIndex;
      }) != 1)
    return std::nullopt;
  std::optional<unsigned> source;
  for (Value member : aliasing.getClassMembers(classIndex)) {
    if (isa<BlockArgument>(member))
      return std::nullopt;
    auto clone = member.getDefiningOp<TensorCloneOp>();
    if (!clone)
      continue;
    auto argument = dyn_cast<BlockArgument>(clone.getOperand());
    if (!argument || argument.getOwner() != &body)
      continue;
    if (source && *source != argument.getArgNumber())
      return std::nullopt;
    source = argument.getArgNumber();
  }
  return source;
}

SmallVector<ArgumentMove>
findArgumentMoves(ExStreamFragmentOp fragment, Block &functionEntry,
                  function_ref<bool(unsigned)> mayOverwrite) {
  SmallVector<ArgumentMove> moves;
  if (fragment.getBody().empty())
    return moves;
  Block &body = fragment.getBody().front();
  auto terminator = dyn_cast<ReturnOp>(body.getTerminator());
  ValueRange arguments = fragment.getArguments();
  if (!terminator ||
      terminator->getNumOperands() != fragment->getNumResults() ||
      body.getNumArguments() != arguments.size())
    return moves;
  unsigned begin = fragment.getArgumentsBeginIndex();
  llvm::SmallBitVector taken(arguments.size());
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i)
    if (std::optional<unsigned> operand = fragment.getTiedResultOperandIndex(i))
      taken.set(*operand - begin);
  std::optional<ValueAliasing> aliasing;
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i) {
    if (fragment.getTiedResultOperandIndex(i))
      continue;
    if (!aliasing)
      aliasing.emplace(fragment);
    std::optional<unsigned> argument = getClonedArgument(
        *aliasing, body, terminator->getOperand(i), terminator->getOperands());
    if (!argument || taken.test(*argument))
      continue;
    // Only the function's own arguments: the caller copies what it keeps
    // (any other value is this function's to manage already). Static
    // shapes only, since such a copy needs the value's dims.
    auto functionArgument = dyn_cast<BlockArgument>(arguments[*argument]);
    auto type = dyn_cast<RankedTensorType>(arguments[*argument].getType());
    if (!functionArgument || functionArgument.getOwner() != &functionEntry ||
        !type || !type.hasStaticShape() ||
        type != fragment->getResult(i).getType() ||
        !mayOverwrite(begin + *argument))
      continue;
    taken.set(*argument);
    moves.push_back({i, *argument, functionArgument.getArgNumber()});
  }
  return moves;
}

} // namespace streamhal::flow
