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

/// Returns true when no member of class `classIndex` is used after `op`
/// (a use in `op` itself is fine).
static bool isDeadAfter(const ValueAliasing &aliasing, unsigned classIndex,
                        Operation *op) {
  Block *block = op->getBlock();
  return llvm::all_of(aliasing.getClassMembers(classIndex), [&](Value member) {
    return llvm::all_of(member.getUsers(), [&](Operation *user) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      return ancestor && (ancestor == op || ancestor->isBeforeInBlock(op)) &&
             !isa<ReturnOp>(ancestor);
    });
  });
}

/// The block argument number (= fragment argument index) whose clone
/// `returned`'s class holds, directly or through clones of values dead
/// right after them (`redundantClones` gets those: a clone of a value no
/// one uses again copies nothing anyone can tell apart), when every class
/// on the way holds no block argument and the first is returned only once.
static std::optional<unsigned>
getClonedArgument(const ValueAliasing &aliasing, Block &body, Value returned,
                  ValueRange returnedValues,
                  SmallVectorImpl<Operation *> &redundantClones) {
  if (!aliasing.getOrdinal(returned))
    return std::nullopt;
  unsigned classIndex = aliasing.getClassIndex(returned);
  if (llvm::count_if(returnedValues, [&](Value other) {
        return aliasing.getOrdinal(other) &&
               aliasing.getClassIndex(other) == classIndex;
      }) != 1)
    return std::nullopt;
  // Each step leaves a class for an earlier one, so the walk ends.
  for (unsigned steps = 0; steps < aliasing.getNumClasses(); ++steps) {
    TensorCloneOp clone;
    for (Value member : aliasing.getClassMembers(classIndex)) {
      if (isa<BlockArgument>(member))
        return std::nullopt;
      if (auto memberClone = member.getDefiningOp<TensorCloneOp>()) {
        // Two clones in one class: their order is not worth following.
        if (clone)
          return std::nullopt;
        clone = memberClone;
      }
    }
    if (!clone)
      return std::nullopt;
    Value source = clone.getOperand();
    if (auto argument = dyn_cast<BlockArgument>(source))
      return argument.getOwner() == &body
                 ? std::optional<unsigned>(argument.getArgNumber())
                 : std::nullopt;
    if (!aliasing.getOrdinal(source))
      return std::nullopt;
    unsigned sourceClass = aliasing.getClassIndex(source);
    if (sourceClass == classIndex || !isDeadAfter(aliasing, sourceClass, clone))
      return std::nullopt;
    redundantClones.push_back(clone);
    classIndex = sourceClass;
  }
  return std::nullopt;
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
    SmallVector<Operation *> redundantClones;
    std::optional<unsigned> argument =
        getClonedArgument(*aliasing, body, terminator->getOperand(i),
                          terminator->getOperands(), redundantClones);
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
    moves.push_back({i, *argument, functionArgument.getArgNumber(),
                     std::move(redundantClones)});
  }
  return moves;
}

} // namespace streamhal::flow
