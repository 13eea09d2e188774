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
#include "streamhal/Analysis/StorageViews.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

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

/// The ops that make a view or sink in the body as it stands, in program
/// order (what the lowering decides on).
llvm::SmallPtrSet<Operation *, 16>
getViewOps(ExStreamFragmentOp fragment, const BoxGeometry &boxes,
           ArrayRef<unsigned> operandGroups) {
  ValueAliasing aliasing(fragment);
  LivenessIntervals order(fragment, aliasing, /*useWaves=*/false);
  StorageViews views(fragment, order, boxes, /*elide=*/true, operandGroups,
                     hal::getSlabAlignments(fragment).offset);
  llvm::SmallPtrSet<Operation *, 16> viewOps;
  for (unsigned classIndex = 0, e = aliasing.getNumClasses(); classIndex < e;
       ++classIndex)
    if (Operation *op = views.getViewOp(classIndex))
      viewOps.insert(op);
  return viewOps;
}

/// Which storage each alias class orders on, decided on the body as it
/// stands (program order).
struct StorageOrder {
  /// The representative storage of each class.
  SmallVector<unsigned> storageOf;
  /// Per class, the storage of the target it is sunk into, if any.
  SmallVector<std::optional<unsigned>> sunkInto;
  /// Per class, the clone or slice that makes it a view (it writes nothing).
  SmallVector<Operation *> viewOpOf;
  /// The ops that make a view or sink in program order.
  llvm::SmallPtrSet<Operation *, 16> viewOps;
};

/// The storage each class orders on. Fragment operands the program shows
/// may be one buffer (groupOperandStorage: an argument passed twice, say)
/// order on one storage. So do the classes the lowering will let share
/// bytes (views and update sinks, StorageViews on the body as it stands):
/// keeping the relative order of everything that touches a group keeps
/// every such decision, so scheduling never adds a copy, while copies that
/// stay copies order only on their own storage.
StorageOrder getStorageOrder(ExStreamFragmentOp fragment,
                             const ValueAliasing &aliasing,
                             const BoxGeometry &boxes,
                             ArrayRef<unsigned> operandGroups) {
  Block &body = fragment.getBody().front();
  unsigned numClasses = aliasing.getNumClasses();
  StorageOrder order;
  order.viewOpOf.assign(numClasses, nullptr);
  llvm::EquivalenceClasses<unsigned> storages;
  SmallVector<std::pair<unsigned, unsigned>> sinkTargets;
  DenseMap<unsigned, unsigned> firstOfGroup;
  for (BlockArgument argument : body.getArguments()) {
    if (!aliasing.getOrdinal(argument))
      continue;
    unsigned classIndex = aliasing.getClassIndex(argument);
    auto [it, inserted] = firstOfGroup.try_emplace(
        operandGroups[argument.getArgNumber()], classIndex);
    if (!inserted)
      storages.unionSets(it->second, classIndex);
  }
  LivenessIntervals liveness(fragment, aliasing, /*useWaves=*/false);
  StorageViews views(fragment, liveness, boxes, /*elide=*/true, operandGroups,
                     hal::getSlabAlignments(fragment).offset);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex)
    if (Operation *viewOp = views.getViewOp(classIndex))
      order.viewOps.insert(viewOp);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex) {
    if (views.getRoot(classIndex) == classIndex)
      continue;
    // A value sunk into its target's box only needs to come after the
    // target's earlier accesses (computeLevels); pieces of one target stay
    // independent of each other.
    if (isa_and_nonnull<TensorUpdateOp>(views.getViewOp(classIndex))) {
      sinkTargets.emplace_back(classIndex, views.getRoot(classIndex));
    } else {
      storages.unionSets(classIndex, views.getRoot(classIndex));
      order.viewOpOf[classIndex] = views.getViewOp(classIndex);
    }
  }
  order.storageOf.resize(numClasses);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex) {
    auto leader = storages.findLeader(classIndex);
    order.storageOf[classIndex] =
        leader == storages.member_end() ? classIndex : *leader;
  }
  order.sunkInto.resize(numClasses);
  for (auto [sunk, target] : sinkTargets)
    order.sunkInto[sunk] = order.storageOf[target];
  return order;
}

/// Level of each op of `ops` (the body in program order): commands count
/// 1 + their deepest dependency, other ops the deepest dependency itself.
/// Wave = level - 1 for commands.
DenseMap<Operation *, int64_t> computeLevels(Block &body,
                                             ArrayRef<Operation *> ops,
                                             const ValueAliasing &aliasing,
                                             const StorageOrder &order) {
  DenseMap<Operation *, int64_t> levels;
  struct ClassState {
    SmallVector<Operation *> readersSinceWrite;
    Operation *lastInPlaceWrite = nullptr; // Last op writing the storage.
  };
  SmallVector<ClassState> classes(aliasing.getNumClasses());
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
          usedClasses.push_back(order.storageOf[classIndex]);
      }
    });
    // A command writes the storage of every value it defines (in place for
    // a tied result; a value returned tied to a fragment operand is
    // computed in its buffer), except a view of its source (no bytes
    // written) and a value sunk into its target's box (below). Reshapes
    // only rename.
    SmallVector<unsigned> writtenClasses;
    if (isCommandOp(op))
      for (OpResult result : op->getResults()) {
        unsigned classIndex = aliasing.getClassIndex(result);
        if (classIndex < classes.size() && order.viewOpOf[classIndex] != op &&
            !order.sunkInto[classIndex])
          writtenClasses.push_back(order.storageOf[classIndex]);
      }
    // Storage order: after the last write of anything it reads or writes,
    // and a write after every earlier reader of its storage.
    for (unsigned classIndex :
         llvm::concat<unsigned>(usedClasses, writtenClasses))
      if (Operation *writer = classes[classIndex].lastInPlaceWrite)
        dependOn(writer);
    for (unsigned classIndex : writtenClasses)
      for (Operation *reader : classes[classIndex].readersSinceWrite)
        dependOn(reader);
    // A value computed in its target's box: after the target's last write
    // and every reader since (the order the sink relies on).
    if (isCommandOp(op))
      for (Value result : op->getResults()) {
        unsigned classIndex = aliasing.getClassIndex(result);
        if (classIndex >= classes.size() || !order.sunkInto[classIndex])
          continue;
        ClassState &target = classes[*order.sunkInto[classIndex]];
        if (target.lastInPlaceWrite)
          dependOn(target.lastInPlaceWrite);
        for (Operation *reader : target.readersSinceWrite)
          dependOn(reader);
      }
    levels[op] = isCommandOp(op) ? depth + 1 : depth;

    if (isCommandOp(op))
      for (unsigned classIndex : usedClasses)
        classes[classIndex].readersSinceWrite.push_back(op);
    for (unsigned classIndex : writtenClasses) {
      classes[classIndex].lastInPlaceWrite = op;
      classes[classIndex].readersSinceWrite.clear();
    }
  }
  return levels;
}

/// Schedules one fragment body; returns the number of waves. `storage`
/// traces operands through the fragments before it, which are scheduled
/// already and change no more.
int64_t scheduleFragment(ExStreamFragmentOp fragment, OperandStorage &storage) {
  if (fragment.getBody().empty())
    return 0;
  Block &body = fragment.getBody().front();
  ValueAliasing aliasing(fragment);
  // The boxes the lowering copies (planned once: reordering keeps them).
  BoxGeometry boxes(fragment);
  SmallVector<unsigned> operandGroups = storage.groupOperands(fragment);
  StorageOrder storageOrder =
      getStorageOrder(fragment, aliasing, boxes, operandGroups);
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  DenseMap<Operation *, int64_t> levels =
      computeLevels(body, ops, aliasing, storageOrder);

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
  for (Operation *op : order)
    op->moveBefore(terminator);
  // The order keeps every storage dependency, so every view and sink of the
  // program order should survive; where one does not (decisions of one
  // group seen through another), the fragment keeps its program order:
  // scheduling never costs a copy.
  llvm::SmallPtrSet<Operation *, 16> viewOpsAfter =
      getViewOps(fragment, boxes, operandGroups);
  if (llvm::any_of(storageOrder.viewOps,
                   [&](Operation *op) { return !viewOpsAfter.contains(op); })) {
    LLVM_DEBUG(llvm::dbgs() << "schedule of " << fragment.getLoc()
                            << " would lose a view: kept in program order\n");
    for (Operation *op : ops) {
      op->moveBefore(terminator);
      op->removeAttr(getWaveAttrName());
    }
    return 0;
  }
  int64_t waves = 0;
  for (Operation *op : order) {
    if (!isCommandOp(op)) {
      op->removeAttr(getWaveAttrName());
      continue;
    }
    int64_t wave = levels[op] - 1;
    waves = std::max(waves, wave + 1);
    setWave(op, wave);
  }
  return waves;
}

struct ScheduleFragmentsPass
    : public impl::ScheduleFragmentsPassBase<ScheduleFragmentsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The copies value semantics needs and the emplaced update targets
    // come first, so that the order scheduled is the one the lowering
    // decides views and sinks on (a later run of either changes nothing).
    if (auto module = dyn_cast<ModuleOp>(getOperation()))
      materializeCopyOnWrite(module);
    else
      getOperation()->walk([&](ExStreamFragmentOp fragment) {
        materializeFragmentCopyOnWrite(fragment);
      });
    OperandStorage storage;
    getOperation()->walk([&](ExStreamFragmentOp fragment) {
      emplaceUpdateTargets(fragment);
      scheduleFragment(fragment, storage);
    });
  }
};

} // namespace
} // namespace streamhal::flow
