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
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

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
  // The storage each class orders on: fragment operands may be one buffer
  // (an argument passed twice), so every class holding a block argument
  // orders on the first of them.
  SmallVector<unsigned> storageOf(aliasing.getNumClasses());
  std::iota(storageOf.begin(), storageOf.end(), 0u);
  std::optional<unsigned> inputStorage;
  for (BlockArgument argument : body.getArguments()) {
    if (!aliasing.getOrdinal(argument))
      continue;
    unsigned classIndex = aliasing.getClassIndex(argument);
    if (!inputStorage)
      inputStorage = classIndex;
    storageOf[classIndex] = *inputStorage;
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
