//===- ValueAliasing.cpp - tied-value alias classes of a fragment ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/ValueAliasing.h"
#include "RecentOrdinalCache.h"
#include "mlir/IR/BuiltinTypes.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace streamhal;

/// Marks a block argument the analysis does not track.
static constexpr unsigned kUntracked = ~0u;

bool ValueAliasing::isTrackedType(Type type) { return isa<TensorType>(type); }

ValueAliasing::ValueAliasing(flow::ExStreamFragmentOp fragment) {
  // Every query works on an empty analysis too.
  classOffsets.push_back(0);
  Region &region = fragment.getBody();
  if (region.empty())
    return;
  body = &region.front();

  // One forward scan: ordinals in IR order (block arguments, then op results
  // in op order), and the op-level ties. A tied operand was usually defined
  // shortly before and is found in a small cache; the other ties are kept as
  // (result ordinal, operand) pairs and resolved after the scan. The hash map
  // is probed in a tight loop, where the cache misses of a large fragment
  // overlap instead of stalling the scan.
  argumentOrdinals.assign(body->getNumArguments(), kUntracked);
  for (BlockArgument argument : body->getArguments()) {
    if (!isTrackedType(argument.getType()))
      continue;
    argumentOrdinals[argument.getArgNumber()] = values.size();
    values.push_back(argument);
  }
  detail::RecentOrdinalCache recent;
  SmallVector<std::pair<unsigned, unsigned>> ties;
  SmallVector<std::pair<unsigned, Value>> deferredTies;
  for (Operation &op : *body) {
    auto tiedOp = dyn_cast<util::TiedOpInterface>(&op);
    for (OpResult result : op.getResults()) {
      if (!isTrackedType(result.getType()))
        continue;
      unsigned ordinal = values.size();
      // Ops are keyed by pointer with a locality-preserving hash, so these
      // inserts in IR order stay close together in the table.
      firstResultOrdinals.try_emplace(&op, ordinal);
      values.push_back(result);
      recent.insert(result, ordinal);
      if (!tiedOp)
        continue;
      std::optional<unsigned> operandIndex =
          tiedOp.getTiedResultOperandIndex(result.getResultNumber());
      if (!operandIndex || *operandIndex >= op.getNumOperands())
        continue;
      Value operand = op.getOperand(*operandIndex);
      std::optional<unsigned> operandOrdinal = recent.lookup(operand);
      if (!operandOrdinal && isa<BlockArgument>(operand))
        operandOrdinal = getOrdinal(operand);
      if (operandOrdinal)
        ties.emplace_back(ordinal, *operandOrdinal);
      else
        deferredTies.emplace_back(ordinal, operand);
    }
  }
  unsigned numValues = values.size();

  for (auto [ordinal, operand] : deferredTies)
    if (std::optional<unsigned> operandOrdinal = getOrdinal(operand))
      ties.emplace_back(ordinal, *operandOrdinal);

  // Fragment-level ties: the value returned at position `i` aliases the
  // block argument of the operand result `i` is tied to.
  auto terminator =
      body->empty() ? nullptr : dyn_cast<flow::ReturnOp>(&body->back());
  if (terminator) {
    unsigned argumentBegin = fragment.getArgumentsBeginIndex();
    unsigned numResults = std::min<unsigned>(fragment->getNumResults(),
                                             terminator->getNumOperands());
    for (unsigned i = 0; i < numResults; ++i) {
      std::optional<unsigned> operandIndex =
          fragment.getTiedResultOperandIndex(i);
      if (!operandIndex || *operandIndex < argumentBegin)
        continue;
      unsigned argumentIndex = *operandIndex - argumentBegin;
      if (argumentIndex >= body->getNumArguments())
        continue;
      std::optional<unsigned> returned = getOrdinal(terminator->getOperand(i));
      std::optional<unsigned> argument =
          getOrdinal(body->getArgument(argumentIndex));
      if (returned && argument)
        ties.emplace_back(*returned, *argument);
    }
  }

  // Union-find on ordinals (not Values), so nothing depends on pointers.
  llvm::EquivalenceClasses<unsigned> classes;
  for (auto [a, b] : ties)
    classes.unionSets(a, b);

  // Number the classes in IR order of their first member and lay the members
  // out grouped by class (a counting sort, which keeps IR order in a group).
  constexpr unsigned kUnassigned = ~0u;
  SmallVector<unsigned> classOfRoot(numValues, kUnassigned);
  classOfOrdinal.resize(numValues);
  SmallVector<unsigned> classSizes;
  classSizes.reserve(numValues);
  for (unsigned ordinal = 0; ordinal < numValues; ++ordinal) {
    // Values in no tie are absent from `classes`: their own leader.
    auto leader = classes.findLeader(ordinal);
    unsigned &classIndex =
        classOfRoot[leader == classes.member_end() ? ordinal : *leader];
    if (classIndex == kUnassigned) {
      classIndex = classSizes.size();
      classSizes.push_back(0);
    }
    classOfOrdinal[ordinal] = classIndex;
    ++classSizes[classIndex];
  }
  classOffsets.resize(classSizes.size() + 1);
  classOffsets[0] = 0;
  for (unsigned c = 0, e = classSizes.size(); c < e; ++c)
    classOffsets[c + 1] = classOffsets[c] + classSizes[c];
  SmallVector<unsigned> next(classOffsets.begin(), classOffsets.end() - 1);
  classMembers.resize(numValues);
  for (unsigned ordinal = 0; ordinal < numValues; ++ordinal)
    classMembers[next[classOfOrdinal[ordinal]]++] = values[ordinal];
}

std::optional<unsigned> ValueAliasing::getOrdinal(Value value) const {
  if (!value || !body)
    return std::nullopt;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != body ||
        argument.getArgNumber() >= argumentOrdinals.size() ||
        argumentOrdinals[argument.getArgNumber()] == kUntracked)
      return std::nullopt;
    return argumentOrdinals[argument.getArgNumber()];
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  if (owner->getBlock() != body || !isTrackedType(result.getType()))
    return std::nullopt;
  auto it = firstResultOrdinals.find(owner);
  if (it == firstResultOrdinals.end())
    return std::nullopt;
  // Tracked results of one op have consecutive ordinals.
  unsigned ordinal = it->second;
  for (unsigned i = 0, e = result.getResultNumber(); i < e; ++i)
    ordinal += isTrackedType(owner->getResult(i).getType());
  return ordinal;
}

unsigned ValueAliasing::getClassIndex(Value value) const {
  std::optional<unsigned> ordinal = getOrdinal(value);
  if (!ordinal)
    return getNumClasses();
  return classOfOrdinal[*ordinal];
}

ArrayRef<Value> ValueAliasing::getClassMembers(unsigned classIndex) const {
  if (classIndex >= getNumClasses())
    return {};
  return ArrayRef<Value>(classMembers)
      .slice(classOffsets[classIndex],
             classOffsets[classIndex + 1] - classOffsets[classIndex]);
}

Value ValueAliasing::getLeader(Value value) const {
  ArrayRef<Value> members = getClassMembers(getClassIndex(value));
  return members.empty() ? Value() : members.front();
}

bool ValueAliasing::isAliased(Value a, Value b) const {
  std::optional<unsigned> ordinalA = getOrdinal(a);
  std::optional<unsigned> ordinalB = getOrdinal(b);
  return ordinalA && ordinalB &&
         classOfOrdinal[*ordinalA] == classOfOrdinal[*ordinalB];
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void ValueAliasing::printValue(llvm::raw_ostream &os, Value value) const {
  std::optional<unsigned> ordinal = getOrdinal(value);
  os << (ordinal ? std::to_string(*ordinal) : std::string("?")) << " ";
  if (auto argument = dyn_cast<BlockArgument>(value))
    os << "arg" << argument.getArgNumber();
  else
    os << value.getDefiningOp()->getName();
}

void ValueAliasing::print(llvm::raw_ostream &os) const {
  for (unsigned classIndex = 0, e = getNumClasses(); classIndex < e;
       ++classIndex) {
    os << "class " << classIndex << ":";
    llvm::ListSeparator separator(",");
    for (Value member : getClassMembers(classIndex)) {
      os << separator << " ";
      printValue(os, member);
    }
    os << "\n";
  }
}

void ValueAliasing::dump() const { print(llvm::errs()); }
