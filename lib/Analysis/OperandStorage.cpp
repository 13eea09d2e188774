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

/// The longest chain of casts, stores and fragments a value is traced
/// through; a longer one is untraced (and a cycle in a graph region ends).
constexpr unsigned kMaxTraceSteps = 64;

} // namespace

/// A traced storage and the steps it took: a value's token does not depend
/// on where its trace started, except that a chain longer than
/// kMaxTraceSteps in all is untraced, so the steps are kept with it.
struct OperandStorage::TraceResult {
  StorageToken token;
  unsigned steps = 0;
};

/// Traces values to their storage, remembering each value's trace, each
/// fragment's alias classes and each function's merged arguments: the
/// fragments of a function trace through each other, and one walk per
/// function finds its callers.
class OperandStorage::Tracer {
public:
  Tracer() = default;
  explicit Tracer(AnalysisManager analyses) : analyses(analyses) {}

  StorageToken trace(Value value) {
    TraceResult result = traceSteps(value, 0);
    return result.steps > kMaxTraceSteps ? StorageToken() : result.token;
  }

private:
  TraceResult traceSteps(Value value, unsigned depth);
  TraceResult traceUncached(Value value, unsigned depth);
  /// The argument `argument` is merged with (the smallest one some call
  /// passes the same value for).
  unsigned getArgumentRepresentative(func::FuncOp function, unsigned argument);
  /// From the analysis manager when there is one (shared with every other
  /// user of the fragment's alias classes), else made once here.
  const ValueAliasing &getAliasing(flow::ExStreamFragmentOp fragment) {
    if (analyses)
      return analyses->getChildAnalysis<ValueAliasing>(fragment);
    std::unique_ptr<ValueAliasing> &entry = aliasings[fragment];
    if (!entry)
      entry = std::make_unique<ValueAliasing>(fragment);
    return *entry;
  }

  std::optional<AnalysisManager> analyses;
  DenseMap<Value, TraceResult> traced;
  DenseMap<Operation *, std::unique_ptr<ValueAliasing>> aliasings;
  DenseMap<Operation *, llvm::EquivalenceClasses<unsigned>> mergedArguments;
};

unsigned
OperandStorage::Tracer::getArgumentRepresentative(func::FuncOp function,
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

OperandStorage::TraceResult OperandStorage::Tracer::traceSteps(Value value,
                                                               unsigned depth) {
  auto known = traced.find(value);
  if (known != traced.end())
    return known->second;
  // Deeper than any chain that is traced: untraced from wherever it began.
  // Not remembered: the same value reached from nearer is traced in full.
  if (depth > kMaxTraceSteps)
    return {{}, kMaxTraceSteps + 1};
  TraceResult result = traceUncached(value, depth);
  if (result.steps > kMaxTraceSteps)
    result = {{}, kMaxTraceSteps + 1};
  traced[value] = result;
  return result;
}

OperandStorage::TraceResult
OperandStorage::Tracer::traceUncached(Value value, unsigned depth) {
  // One step further than what `next` traces to.
  auto through = [&](Value next) {
    TraceResult result = traceSteps(next, depth + 1);
    ++result.steps;
    return result;
  };
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (!function || !argument.getOwner()->isEntryBlock())
      return {};
    return {{StorageToken::Kind::Argument, function.getOperation(),
             getArgumentRepresentative(function, argument.getArgNumber())},
            0};
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  if (isa<hal::TensorCastOp>(owner))
    return through(owner->getOperand(0));
  if (auto store = dyn_cast<flow::TensorStoreOp>(owner))
    return through(store.getTarget());
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
      return through(fragment.getArguments()[argument.getArgNumber()]);
  return {{StorageToken::Kind::FragmentStorage, owner, classIndex}, 0};
}

OperandStorage::OperandStorage() : tracer(std::make_unique<Tracer>()) {}
OperandStorage::OperandStorage(Operation *) : OperandStorage() {}
OperandStorage::OperandStorage(Operation *, AnalysisManager &analyses)
    : tracer(std::make_unique<Tracer>(analyses)) {}
OperandStorage::~OperandStorage() = default;
OperandStorage::OperandStorage(OperandStorage &&) = default;
OperandStorage &OperandStorage::operator=(OperandStorage &&) = default;

SmallVector<unsigned>
OperandStorage::groupOperands(flow::ExStreamFragmentOp fragment) {
  SmallVector<StorageToken> tokens;
  SmallVector<unsigned> groups;
  unsigned nextPrivate = fragment.getArguments().size();
  for (Value operand : fragment.getArguments()) {
    if (!ValueAliasing::isTrackedType(operand.getType())) {
      groups.push_back(nextPrivate++);
      continue;
    }
    StorageToken token = tracer->trace(operand);
    auto it = llvm::find(tokens, token);
    groups.push_back(it - tokens.begin());
    if (it == tokens.end())
      tokens.push_back(token);
  }
  return groups;
}

SmallVector<unsigned> groupOperandStorage(flow::ExStreamFragmentOp fragment) {
  return OperandStorage().groupOperands(fragment);
}

} // namespace streamhal
