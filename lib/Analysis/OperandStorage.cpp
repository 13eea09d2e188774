//===- OperandStorage.cpp - which fragment operands share storage ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/OperandStorage.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;

namespace streamhal {
namespace {

/// The storage a value may live in: a function argument (its number, after
/// merging the arguments a call passes one value for), one storage of an
/// earlier fragment, or everything untraced at once.
struct StorageToken {
  enum class Kind { Untraced, Argument, FragmentStorage };
  Kind kind = Kind::Untraced;
  const void *owner = nullptr;
  unsigned index = 0;
  bool operator==(const StorageToken &other) const {
    return kind == other.kind && owner == other.owner && index == other.index;
  }
};

class Tracer {
public:
  StorageToken trace(Value value, unsigned depth = 0);

private:
  /// The argument `argument` is merged with (the smallest one some call
  /// passes the same value for).
  unsigned getArgumentRepresentative(func::FuncOp function, unsigned argument);
  const ValueAliasing &getAliasing(flow::ExStreamFragmentOp fragment) {
    std::unique_ptr<ValueAliasing> &entry = aliasings[fragment];
    if (!entry)
      entry = std::make_unique<ValueAliasing>(fragment);
    return *entry;
  }

  DenseMap<Operation *, std::unique_ptr<ValueAliasing>> aliasings;
  DenseMap<Operation *, llvm::EquivalenceClasses<unsigned>> mergedArguments;
};

unsigned Tracer::getArgumentRepresentative(func::FuncOp function,
                                           unsigned argument) {
  auto [it, inserted] = mergedArguments.try_emplace(function);
  llvm::EquivalenceClasses<unsigned> &merged = it->second;
  if (inserted) {
    // One walk of the module per function asked about (only functions
    // whose arguments reach a fragment with two tensor operands).
    auto module = function->getParentOfType<ModuleOp>();
    std::optional<SymbolTable::UseRange> uses =
        module ? SymbolTable::getSymbolUses(function, module) : std::nullopt;
    if (!uses) {
      // Unknown callers: every argument may be any other.
      for (unsigned i = 1, e = function.getNumArguments(); i < e; ++i)
        merged.unionSets(0, i);
    } else {
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call) {
          // Taken by address: callers unknown.
          for (unsigned i = 1, e = function.getNumArguments(); i < e; ++i)
            merged.unionSets(0, i);
          continue;
        }
        DenseMap<Value, unsigned> firstPosition;
        for (auto [position, operand] : llvm::enumerate(call.getOperands())) {
          auto [found, fresh] = firstPosition.try_emplace(operand, position);
          if (!fresh)
            merged.unionSets(found->second, position);
        }
      }
    }
  }
  auto leader = merged.findLeader(argument);
  if (leader == merged.member_end())
    return argument;
  unsigned smallest = argument;
  for (auto member = leader; member != merged.member_end(); ++member)
    smallest = std::min(smallest, *member);
  return smallest;
}

StorageToken Tracer::trace(Value value, unsigned depth) {
  if (depth > 64)
    return {};
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (!function || !argument.getOwner()->isEntryBlock())
      return {};
    return {StorageToken::Kind::Argument, function.getOperation(),
            getArgumentRepresentative(function, argument.getArgNumber())};
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  if (isa<hal::TensorCastOp>(owner))
    return trace(owner->getOperand(0), depth + 1);
  if (auto store = dyn_cast<flow::TensorStoreOp>(owner))
    return trace(store.getTarget(), depth + 1);
  auto fragment = dyn_cast<flow::ExStreamFragmentOp>(owner);
  if (!fragment || fragment.getBody().empty())
    return {};
  Block &body = fragment.getBody().front();
  auto terminator = dyn_cast<flow::ReturnOp>(body.getTerminator());
  if (!terminator || result.getResultNumber() >= terminator->getNumOperands())
    return {};
  const ValueAliasing &aliasing = getAliasing(fragment);
  Value returned = terminator->getOperand(result.getResultNumber());
  unsigned classIndex = aliasing.getClassIndex(returned);
  if (classIndex >= aliasing.getNumClasses())
    return {};
  // Returned from an operand's storage: that operand's buffer.
  for (BlockArgument argument : body.getArguments())
    if (aliasing.getOrdinal(argument) &&
        aliasing.getClassIndex(argument) == classIndex)
      return trace(fragment.getArguments()[argument.getArgNumber()], depth + 1);
  return {StorageToken::Kind::FragmentStorage, owner, classIndex};
}

} // namespace

SmallVector<unsigned> groupOperandStorage(flow::ExStreamFragmentOp fragment) {
  Tracer tracer;
  SmallVector<StorageToken> tokens;
  SmallVector<unsigned> groups;
  unsigned nextPrivate = fragment.getArguments().size();
  for (Value operand : fragment.getArguments()) {
    if (!ValueAliasing::isTrackedType(operand.getType())) {
      groups.push_back(nextPrivate++);
      continue;
    }
    StorageToken token = tracer.trace(operand);
    auto it = llvm::find(tokens, token);
    groups.push_back(it - tokens.begin());
    if (it == tokens.end())
      tokens.push_back(token);
  }
  return groups;
}

} // namespace streamhal
