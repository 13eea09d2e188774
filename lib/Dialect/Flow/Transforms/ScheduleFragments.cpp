//===- ScheduleFragments.cpp - reorder fragment bodies into waves ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Independent work interleaved with dependent work forces barriers in
// program order. Grouping a fragment's commands into dependency waves lets
// the hazard policy put one barrier per wave boundary.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/OperandStorage.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"

#define DEBUG_TYPE "flow-schedule-fragments"

namespace streamhal::flow {
#define GEN_PASS_DEF_SCHEDULEFRAGMENTSPASS
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"
} // namespace streamhal::flow

using namespace mlir;

namespace streamhal::flow {
namespace {

/// Ops the lowering records as commands; every other op is free.
bool isCommandOp(Operation *op) {
  return isa<DispatchOp, TensorSplatOp, TensorCloneOp, TensorSliceOp,
             TensorUpdateOp>(op);
}

/// Returns false when a box of type `box` is certainly not one contiguous
/// byte range of a tensor of type `outer` (then no view or sink can share
/// their bytes): some dim after the first one longer than 1 is shorter than
/// the outer dim. Dynamic dims may be anything.
bool mayBeContiguousBox(Type box, Type outer) {
  auto boxType = dyn_cast<RankedTensorType>(box);
  auto outerType = dyn_cast<RankedTensorType>(outer);
  if (!boxType || !outerType || boxType.getRank() != outerType.getRank())
    return true;
  bool spanning = false;
  for (auto [length, extent] :
       llvm::zip(boxType.getShape(), outerType.getShape())) {
    if (ShapedType::isDynamic(length) || ShapedType::isDynamic(extent))
      return true;
    if (spanning && length != extent)
      return false;
    spanning |= length > 1;
  }
  return true;
}

/// Schedules one fragment body; returns the number of waves.
int64_t scheduleFragment(ExStreamFragmentOp fragment) {
  if (fragment.getBody().empty())
    return 0;
  Block &body = fragment.getBody().front();
  ValueAliasing aliasing(fragment);

  // Level of each op: commands count 1 + their deepest dependency, other
  // ops the deepest dependency itself. Wave = level - 1 for commands.
  DenseMap<Operation *, int64_t> levels;
  struct ClassState {
    SmallVector<Operation *> readersSinceWrite;
    Operation *lastInPlaceWrite = nullptr; // Last op writing the storage.
  };
  SmallVector<ClassState> classes(aliasing.getNumClasses());
  // The storage each class orders on. Fragment operands the program shows
  // may be one buffer (groupOperandStorage: an argument passed twice, say)
  // order on one storage. A clone or slice and its source, and an update
  // value and its target, order on one storage too: the lowering may make
  // them share bytes (views, update sinks), and keeping the relative order
  // of everything touching either keeps every such decision of the
  // unscheduled body, so scheduling never adds a copy.
  llvm::EquivalenceClasses<unsigned> storages;
  auto unite = [&](Value a, Value b) {
    unsigned classA = aliasing.getClassIndex(a);
    unsigned classB = aliasing.getClassIndex(b);
    if (classA < aliasing.getNumClasses() && classB < aliasing.getNumClasses())
      storages.unionSets(classA, classB);
  };
  SmallVector<unsigned> operandGroups = groupOperandStorage(fragment);
  DenseMap<unsigned, Value> firstOfGroup;
  for (BlockArgument argument : body.getArguments()) {
    if (!aliasing.getOrdinal(argument))
      continue;
    auto [it, inserted] = firstOfGroup.try_emplace(
        operandGroups[argument.getArgNumber()], argument);
    if (!inserted)
      unite(it->second, argument);
  }
  for (Operation &op : body) {
    if (isa<TensorCloneOp>(op) ||
        (isa<TensorSliceOp>(op) &&
         mayBeContiguousBox(op.getResult(0).getType(),
                            op.getOperand(0).getType())))
      unite(op.getOperand(0), op.getResult(0));
    else if (auto update = dyn_cast<TensorUpdateOp>(op))
      if (mayBeContiguousBox(update.getUpdate().getType(),
                             update.getTarget().getType()))
        unite(update.getUpdate(), update.getTarget());
  }
  SmallVector<unsigned> storageOf(aliasing.getNumClasses());
  for (unsigned classIndex = 0, e = storageOf.size(); classIndex < e;
       ++classIndex) {
    auto leader = storages.findLeader(classIndex);
    storageOf[classIndex] =
        leader == storages.member_end() ? classIndex : *leader;
  }
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);

  for (Operation *op : ops) {
    int64_t depth = 0;
    auto dependOn = [&](Operation *producer) {
      auto it = levels.find(producer);
      if (it != levels.end() && producer != op)
        depth = std::max(depth, it->second);
    };
    // The classes this op touches through its operands (nested uses too).
    SmallVector<unsigned> usedClasses;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (Operation *def = operand.getDefiningOp())
          dependOn(body.findAncestorOpInBlock(*def));
        unsigned classIndex = aliasing.getClassIndex(operand);
        if (classIndex < classes.size())
          usedClasses.push_back(storageOf[classIndex]);
      }
    });
    // A command writes the storage of every value it defines: in place
    // for a tied result, and also for a fresh value whose class shares
    // storage with others (a value returned tied to a fragment operand is
    // computed in that operand's buffer). Reshapes only rename.
    SmallVector<unsigned> writtenClasses;
    if (isCommandOp(op))
      for (Value result : op->getResults()) {
        unsigned classIndex = aliasing.getClassIndex(result);
        if (classIndex < classes.size())
          writtenClasses.push_back(storageOf[classIndex]);
      }
    // Storage order: after the last write of anything it reads or writes,
    // and a write after every earlier reader of its storage.
    for (unsigned classIndex : llvm::concat<unsigned>(usedClasses, writtenClasses))
      if (Operation *writer = classes[classIndex].lastInPlaceWrite)
        dependOn(writer);
    for (unsigned classIndex : writtenClasses)
      for (Operation *reader : classes[classIndex].readersSinceWrite)
        dependOn(reader);
    levels[op] = isCommandOp(op) ? depth + 1 : depth;

    if (isCommandOp(op))
      for (unsigned classIndex : usedClasses)
        classes[classIndex].readersSinceWrite.push_back(op);
    for (unsigned classIndex : writtenClasses) {
      classes[classIndex].lastInPlaceWrite = op;
      classes[classIndex].readersSinceWrite.clear();
    }
  }

  // Commands of level L sort before the free ops of level L, which sort
  // before the commands of level L + 1; ties keep program order.
  auto key = [&](Operation *op) {
    int64_t level = levels[op];
    return isCommandOp(op) ? 2 * level : 2 * level + 1;
  };
  SmallVector<Operation *> order(ops);
  llvm::stable_sort(
      order, [&](Operation *a, Operation *b) { return key(a) < key(b); });
  Operation *terminator = body.getTerminator();
  MLIRContext *context = fragment.getContext();
  int64_t waves = 0;
  for (Operation *op : order) {
    op->moveBefore(terminator);
    if (!isCommandOp(op)) {
      op->removeAttr(LivenessIntervals::kWaveAttrName);
      continue;
    }
    int64_t wave = levels[op] - 1;
    waves = std::max(waves, wave + 1);
    op->setAttr(LivenessIntervals::kWaveAttrName,
                IntegerAttr::get(IntegerType::get(context, 64), wave));
  }
  return waves;
}

struct ScheduleFragmentsPass
    : public impl::ScheduleFragmentsPassBase<ScheduleFragmentsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk(
        [&](ExStreamFragmentOp fragment) { scheduleFragment(fragment); });
  }
};

} // namespace
} // namespace streamhal::flow
