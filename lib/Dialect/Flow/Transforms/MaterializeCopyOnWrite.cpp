//===- MaterializeCopyOnWrite.cpp - copies value semantics needs ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The function-level half of copy on write. Around fragments, storage is
// shared by fragment results tied to (or returning) their operands, by
// `hal.tensor.cast`s and by calls whose callee returns an argument's
// storage. Three kinds of op may write such storage in place: a fragment
// with a result tied to an operand, a host `flow.tensor.store`, and a call
// whose callee writes an argument in place. Each may do so only when
// nothing needs the storage's value afterwards: no later use of any value
// sharing it, no second operand of the op in it, and no global holding it.
// Otherwise the fragment's tie is dropped (its body then copies before
// writing), and a store or a call gets a copy of the value to write.
//
// A private function only called directly has no caller outside the module,
// and every caller copies an argument the function writes when it still
// needs the value (calls above). Such a function therefore takes over an
// argument it copies and writes (IREE's argument moves): a fragment result
// computed in a clone of an argument that is dead after the fragment is
// tied to that argument, and the clone becomes a copy onto itself that the
// fragment's copy on write removes. A caller that passes its last use of
// the value then copies nothing; one that keeps it pays the copy the callee
// saved, so no call copies more than before.
//
//===----------------------------------------------------------------------===//

#include "ArgumentMoves.h"
#include "ReadOnlyClones.h"
#include "StorageAroundFragments.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Debug.h"
#include <limits>

#define DEBUG_TYPE "flow-materialize-copy-on-write"

namespace streamhal::flow {
#define GEN_PASS_DEF_MATERIALIZECOPYONWRITEPASS
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"
} // namespace streamhal::flow

using namespace mlir;

namespace streamhal::flow {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

/// What callers need to know of a function.
struct FunctionSummary {
  /// Arguments the function may write in place.
  llvm::BitVector writtenArguments;
  /// Written arguments the function took over without a tie of the
  /// program's (argument moves): a caller passing storage of its own
  /// argument copies it, since the program never donated that argument.
  llvm::BitVector movedArguments;
  /// For each result, the arguments whose storage it shares.
  SmallVector<SmallVector<unsigned, 1>> resultArguments;
  /// For each result, the first result whose storage it shares (itself when
  /// none): a write into one changes the other.
  SmallVector<unsigned> firstSharingResult;
  /// Results whose storage a global or a constant also holds.
  llvm::BitVector pinnedResults;
};

bool isTracked(Type type) {
  return isa<RankedTensorType, hal::BufferViewType>(type);
}

/// One function or util.initializer: storage classes of its values, built
/// in op order.
class FunctionCopyOnWrite {
public:
  /// `takesArguments`: the function has no caller outside the module (it
  /// may write its arguments in place; callers copy what they keep).
  FunctionCopyOnWrite(func::FuncOp function,
                      const DenseMap<Operation *, FunctionSummary> &summaries,
                      SymbolTable &symbols, bool takesArguments)
      : function(function), body(function.getBody()), summaries(summaries),
        symbols(symbols), takesArguments(takesArguments) {}
  /// An initializer has no caller: run() only, never summarize().
  FunctionCopyOnWrite(util::InitializerOp initializer,
                      const DenseMap<Operation *, FunctionSummary> &summaries,
                      SymbolTable &symbols)
      : body(initializer.getBody()), summaries(summaries), symbols(symbols) {}

  CopyOnWriteStats run();
  FunctionSummary summarize();

private:
  struct ClassInfo {
    /// Position of the last use of any member in its block.
    int64_t lastUse = -1;
    /// From this position on, a global holds the storage (kNever: none).
    int64_t pinnedAfter = kNever;
    /// Something wrote the storage in place.
    bool written = false;
    /// The storage holds an argument of the function (the caller's bytes).
    bool holdsArgument = false;
    /// When the only thing pinning the storage is one `util.global.load`:
    /// that load (a fragment may still update the global in place when the
    /// result goes straight back into it).
    util::GlobalLoadOp globalLoad;
  };

  void addValue(Value value, bool pinned);
  void unite(Value a, Value b);
  ClassInfo &info(Value value) { return infos[classes.getLeaderValue(value)]; }
  bool sameStorage(Value a, Value b) {
    return classes.contains(a) && classes.contains(b) &&
           classes.isEquivalent(a, b);
  }
  /// True when `op` may overwrite the storage of its operand `operand`.
  bool mayWriteInPlace(Operation *op, unsigned operand);
  /// Returns a copy (a one-clone fragment) of `value` made before `op`, or
  /// a null value when its dims cannot be found there.
  Value copyBefore(Operation *op, Value value);

  /// Ties to its operand each untied result of `fragment` that is computed
  /// in a clone of an argument of the function the fragment may overwrite
  /// (argument moves). Returns true when it tied any.
  bool tieClonedArguments(ExStreamFragmentOp fragment);
  /// True when `use` (after the op defining its value) never writes the
  /// value's storage: an operand of a fragment that no result is tied to,
  /// an argument a callee only reads and returns no storage of, a host
  /// load.
  bool onlyReads(OpOperand &use);
  void visitFragment(ExStreamFragmentOp fragment);
  void visitCall(func::CallOp call);
  void visitStore(TensorStoreOp store);

  func::FuncOp function;
  Region &body;
  const DenseMap<Operation *, FunctionSummary> &summaries;
  SymbolTable &symbols;
  bool takesArguments = false;
  /// Function arguments tied by argument moves.
  llvm::SmallBitVector movedArguments;
  llvm::EquivalenceClasses<Value> classes;
  DenseMap<Value, ClassInfo> infos;
  DenseMap<Operation *, int64_t> positions;
  CopyOnWriteStats stats;
};

void FunctionCopyOnWrite::addValue(Value value, bool pinned) {
  if (!isTracked(value.getType()) || classes.contains(value))
    return;
  classes.insert(value);
  ClassInfo valueInfo;
  if (pinned)
    valueInfo.pinnedAfter = -1;
  valueInfo.globalLoad = value.getDefiningOp<util::GlobalLoadOp>();
  Block *block = value.getParentBlock();
  for (OpOperand &use : value.getUses()) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    int64_t position = user ? positions.lookup(user) : kNever;
    valueInfo.lastUse = std::max(valueInfo.lastUse, position);
    if (isa<util::GlobalStoreOp>(use.getOwner())) {
      valueInfo.pinnedAfter = std::min(valueInfo.pinnedAfter, position);
      valueInfo.globalLoad = {}; // Another global holds it too.
    }
  }
  infos[value] = valueInfo;
}

void FunctionCopyOnWrite::unite(Value a, Value b) {
  if (!classes.contains(a) || !classes.contains(b) || sameStorage(a, b))
    return;
  ClassInfo infoA = info(a), infoB = info(b);
  infos.erase(classes.getLeaderValue(a));
  infos.erase(classes.getLeaderValue(b));
  classes.unionSets(a, b);
  ClassInfo &merged = info(a);
  merged.lastUse = std::max(infoA.lastUse, infoB.lastUse);
  merged.pinnedAfter = std::min(infoA.pinnedAfter, infoB.pinnedAfter);
  merged.written = infoA.written || infoB.written;
  merged.holdsArgument = infoA.holdsArgument || infoB.holdsArgument;
  // A load stays the only pin only when the other side had none.
  merged.globalLoad =
      infoA.globalLoad && infoB.pinnedAfter == kNever   ? infoA.globalLoad
      : infoB.globalLoad && infoA.pinnedAfter == kNever ? infoB.globalLoad
                                                        : util::GlobalLoadOp();
}

bool FunctionCopyOnWrite::mayWriteInPlace(Operation *op, unsigned operand) {
  Value target = op->getOperand(operand);
  if (!classes.contains(target))
    return false;
  int64_t here = positions.lookup(op);
  ClassInfo &targetInfo = info(target);
  if (targetInfo.lastUse > here)
    return false;
  if (targetInfo.pinnedAfter <= here) {
    auto fragment = dyn_cast<ExStreamFragmentOp>(op);
    if (!fragment || !targetInfo.globalLoad ||
        !isGlobalRoundTrip(targetInfo.globalLoad, fragment, operand))
      return false;
  }
  for (OpOperand &other : op->getOpOperands())
    if (other.getOperandNumber() != operand && sameStorage(other.get(), target))
      return false;
  return true;
}

Value FunctionCopyOnWrite::copyBefore(Operation *op, Value value) {
  std::optional<SmallVector<Value>> dims = findDims(value, op);
  if (!dims)
    return Value();
  auto type = cast<RankedTensorType>(value.getType());
  OpBuilder builder(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands{value};
  llvm::append_range(operands, *dims);
  Type resultType = type;
  auto fragment = ExStreamFragmentOp::create(
      builder, loc, TypeRange(resultType), operands, *dims, *dims,
      builder.getI64ArrayAttr({util::kUntiedIndex}));
  Block *body = builder.createBlock(&fragment.getBody());
  for (Value operand : operands)
    body->addArgument(operand.getType(), loc);
  auto clone = TensorCloneOp::create(builder, loc, type, body->getArgument(0),
                                     body->getArguments().drop_front());
  Value cloned = clone.getResult();
  ReturnOp::create(builder, loc, ValueRange(cloned));
  ++stats.copyFragmentsInserted;
  return fragment.getResult(0);
}

bool FunctionCopyOnWrite::tieClonedArguments(ExStreamFragmentOp fragment) {
  if (!takesArguments)
    return false;
  SmallVector<ArgumentMove> moves = findArgumentMoves(
      fragment, function.getBody().front(),
      [&](unsigned operand) { return mayWriteInPlace(fragment, operand); });
  if (moves.empty())
    return false;
  unsigned begin = fragment.getArgumentsBeginIndex();
  SmallVector<int64_t> tied;
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i) {
    std::optional<unsigned> operand = fragment.getTiedResultOperandIndex(i);
    tied.push_back(operand ? int64_t(*operand - begin) : util::kUntiedIndex);
  }
  movedArguments.resize(function.getNumArguments());
  for (const ArgumentMove &move : moves) {
    LLVM_DEBUG(llvm::dbgs()
               << "argument move: result " << move.result << " at "
               << fragment.getLoc() << " computed in a clone of argument "
               << move.functionArgument << ": tied to it\n");
    tied[move.result] = move.operand;
    movedArguments.set(move.functionArgument);
    for (Operation *clone : move.redundantClones) {
      clone->replaceAllUsesWith(clone->getOperands().take_front());
      clone->erase();
    }
  }
  fragment.setTiedOperandsAttr(Builder(fragment).getI64ArrayAttr(tied));
  return true;
}

bool FunctionCopyOnWrite::onlyReads(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  if (auto fragment = dyn_cast<ExStreamFragmentOp>(user))
    return llvm::none_of(llvm::seq(fragment->getNumResults()), [&](unsigned i) {
      return fragment.getTiedResultOperandIndex(i) == index;
    });
  if (auto call = dyn_cast<func::CallOp>(user)) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return false;
    // A declaration writes no argument and returns storage of its own.
    if (callee.isExternal())
      return true;
    auto it = summaries.find(callee);
    if (it == summaries.end())
      return false;
    const FunctionSummary &summary = it->second;
    return index < summary.writtenArguments.size() &&
           !summary.writtenArguments.test(index) &&
           llvm::none_of(summary.resultArguments,
                         [&](ArrayRef<unsigned> arguments) {
                           return llvm::is_contained(arguments, index);
                         });
  }
  // A returned value is not: the caller may write it, or return it next to
  // a value sharing its storage from a public function.
  return isa<TensorLoadOp>(user);
}

void FunctionCopyOnWrite::visitFragment(ExStreamFragmentOp fragment) {
  stats.readOnlyClonesShared += shareReadOnlyClones(
      fragment, [&](OpOperand &use) { return onlyReads(use); });
  if (tieClonedArguments(fragment))
    ++stats.argumentsMoved;
  // Ties whose operand's storage is still needed are dropped first; the
  // body then treats that operand as the caller's.
  SmallVector<int64_t> tied;
  bool dropped = false;
  unsigned begin = fragment.getArgumentsBeginIndex();
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i) {
    std::optional<unsigned> operand = fragment.getTiedResultOperandIndex(i);
    if (operand && !mayWriteInPlace(fragment, *operand)) {
      LLVM_DEBUG(llvm::dbgs()
                 << "tie of result " << i << " dropped at " << fragment.getLoc()
                 << ": the operand is still needed\n");
      operand.reset();
      dropped = true;
      ++stats.tiesDropped;
    }
    tied.push_back(operand ? int64_t(*operand - begin) : util::kUntiedIndex);
  }
  if (dropped)
    fragment.setTiedOperandsAttr(Builder(fragment).getI64ArrayAttr(tied));
  stats += materializeFragmentCopyOnWrite(fragment);

  // Results sharing storage with operands or with each other, as the body
  // now stands.
  for (OpResult result : fragment->getResults())
    addValue(result, /*pinned=*/false);
  if (fragment.getBody().empty())
    return;
  Block &body = fragment.getBody().front();
  auto terminator = dyn_cast<ReturnOp>(body.getTerminator());
  if (!terminator)
    return;
  ValueAliasing aliasing(fragment);
  DenseMap<unsigned, Value> storageOfClass;
  for (BlockArgument argument : body.getArguments()) {
    if (!aliasing.getOrdinal(argument))
      continue;
    Value operand = fragment.getArguments()[argument.getArgNumber()];
    auto [it, inserted] =
        storageOfClass.try_emplace(aliasing.getClassIndex(argument), operand);
    if (!inserted)
      unite(it->second, operand);
  }
  for (auto [result, returned] :
       llvm::zip(fragment->getResults(), terminator.getOperands())) {
    if (!aliasing.getOrdinal(returned))
      continue;
    auto [it, inserted] =
        storageOfClass.try_emplace(aliasing.getClassIndex(returned), result);
    if (!inserted)
      unite(it->second, result);
  }
  for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i)
    if (std::optional<unsigned> operand = fragment.getTiedResultOperandIndex(i))
      info(fragment->getOperand(*operand)).written = true;
}

void FunctionCopyOnWrite::visitCall(func::CallOp call) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  // A declaration follows the calling convention: it writes no argument
  // and returns storage of its own. A callee still being visited
  // (recursion) may write every argument and return anything.
  static const FunctionSummary kExternal;
  const FunctionSummary *summary = nullptr;
  if (callee && callee.isExternal())
    summary = &kExternal;
  else if (callee)
    if (auto it = summaries.find(callee); it != summaries.end())
      summary = &it->second;
  for (OpOperand &operand : call->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    if (!isTracked(operand.get().getType()))
      continue;
    bool written = !summary || (summary != &kExternal &&
                                (index >= summary->writtenArguments.size() ||
                                 summary->writtenArguments.test(index)));
    if (!written)
      continue;
    bool moved = summary && summary != &kExternal &&
                 index < summary->movedArguments.size() &&
                 summary->movedArguments.test(index);
    if (!mayWriteInPlace(call, index) ||
        (moved && classes.contains(operand.get()) &&
         info(operand.get()).holdsArgument))
      if (Value copy = copyBefore(call, operand.get())) {
        LLVM_DEBUG(llvm::dbgs() << "call operand " << index << " copied at "
                                << call.getLoc() << "\n");
        addValue(copy, /*pinned=*/false);
        operand.set(copy);
      }
    if (classes.contains(operand.get()))
      info(operand.get()).written = true;
  }
  for (OpResult result : call->getResults()) {
    unsigned index = result.getResultNumber();
    bool pinned = !summary || (summary != &kExternal &&
                               (index >= summary->pinnedResults.size() ||
                                summary->pinnedResults.test(index)));
    addValue(result, pinned);
    if (summary && index < summary->firstSharingResult.size())
      unite(result, call->getResult(summary->firstSharingResult[index]));
    if (summary && index < summary->resultArguments.size())
      for (unsigned argument : summary->resultArguments[index])
        if (argument < call->getNumOperands())
          unite(result, call->getOperand(argument));
  }
}

void FunctionCopyOnWrite::visitStore(TensorStoreOp store) {
  unsigned target = store.getTargetMutable().getOperandNumber();
  if (!mayWriteInPlace(store, target))
    if (Value copy = copyBefore(store, store.getTarget())) {
      LLVM_DEBUG(llvm::dbgs()
                 << "stored tensor copied at " << store.getLoc() << "\n");
      addValue(copy, /*pinned=*/false);
      store.getTargetMutable().assign(copy);
    }
  addValue(store.getResult(), /*pinned=*/false);
  unite(store.getResult(), store.getTarget());
  if (classes.contains(store.getTarget()))
    info(store.getTarget()).written = true;
}

CopyOnWriteStats FunctionCopyOnWrite::run() {
  for (Block &block : body) {
    positions.clear();
    int64_t position = 0;
    for (Operation &op : block)
      positions[&op] = position++;
    // Arguments of other blocks come from branches this pass does not
    // follow: treat their storage as held elsewhere.
    for (BlockArgument argument : block.getArguments()) {
      addValue(argument, /*pinned=*/!block.isEntryBlock());
      if (function && block.isEntryBlock() && classes.contains(argument))
        info(argument).holdsArgument = true;
    }
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto fragment = dyn_cast<ExStreamFragmentOp>(op)) {
        visitFragment(fragment);
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        visitCall(call);
      } else if (auto store = dyn_cast<TensorStoreOp>(op)) {
        visitStore(store);
      } else if (auto cast = dyn_cast<hal::TensorCastOp>(op)) {
        for (Value result : op.getResults()) {
          addValue(result, /*pinned=*/false);
          unite(result, cast->getOperand(0));
        }
      } else {
        // Globals, constants and anything unknown hold their own storage.
        for (Value result : op.getResults())
          addValue(result, /*pinned=*/true);
      }
      // Copies inserted in front of `op` shift nothing that matters: they
      // are used only by `op`, which keeps its position.
    }
  }
  return stats;
}

FunctionSummary FunctionCopyOnWrite::summarize() {
  FunctionSummary summary;
  unsigned numArguments = function.getNumArguments();
  summary.writtenArguments.resize(numArguments);
  summary.movedArguments.resize(numArguments);
  for (BlockArgument argument : function.getArguments()) {
    unsigned number = argument.getArgNumber();
    if (classes.contains(argument) && info(argument).written)
      summary.writtenArguments.set(number);
    if (number < movedArguments.size() && movedArguments.test(number))
      summary.movedArguments.set(number);
  }
  auto terminator =
      function.getBody().empty()
          ? nullptr
          : dyn_cast<func::ReturnOp>(function.getBody().back().getTerminator());
  unsigned numResults = function.getNumResults();
  summary.resultArguments.resize(numResults);
  summary.pinnedResults.resize(numResults, true);
  if (!terminator || terminator->getNumOperands() != numResults)
    return summary;
  DenseMap<Value, unsigned> firstResultOfClass;
  for (auto [index, returned] : llvm::enumerate(terminator.getOperands())) {
    Value leader = classes.contains(returned) ? classes.getLeaderValue(returned)
                                              : returned;
    summary.firstSharingResult.push_back(
        firstResultOfClass.try_emplace(leader, index).first->second);
    if (!classes.contains(returned)) {
      summary.pinnedResults.reset(index);
      continue;
    }
    if (info(returned).pinnedAfter == kNever)
      summary.pinnedResults.reset(index);
    for (BlockArgument argument : function.getArguments())
      if (sameStorage(argument, returned))
        summary.resultArguments[index].push_back(argument.getArgNumber());
  }
  return summary;
}

/// Callees before callers; a function met again while its callees are
/// visited (recursion) is summarized conservatively by its callers.
void visitInCallOrder(func::FuncOp function, SymbolTable &symbols,
                      DenseSet<Operation *> &started,
                      SmallVectorImpl<func::FuncOp> &order) {
  if (!started.insert(function).second)
    return;
  function.walk([&](func::CallOp call) {
    if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
      visitInCallOrder(callee, symbols, started, order);
  });
  order.push_back(function);
}

} // namespace

CopyOnWriteStats materializeCopyOnWrite(ModuleOp module) {
  SymbolTable symbols(module);
  DenseSet<Operation *> moduleOnly = getModuleOnlyFunctions(module);
  DenseSet<Operation *> started;
  SmallVector<func::FuncOp> order;
  for (auto function : module.getOps<func::FuncOp>())
    visitInCallOrder(function, symbols, started, order);
  DenseMap<Operation *, FunctionSummary> summaries;
  CopyOnWriteStats stats;
  // Adds what copy on write did in `scope`, naming the scope when it
  // changed anything there.
  auto addScope = [&](Operation *scope, CopyOnWriteStats scopeStats) {
    scopeStats.changedScopes.clear();
    if (scopeStats.changed())
      scopeStats.changedScopes.push_back(scope);
    stats += scopeStats;
  };
  for (func::FuncOp function : order) {
    if (function.isExternal())
      continue;
    FunctionCopyOnWrite state(function, summaries, symbols,
                              moduleOnly.contains(function));
    addScope(function, state.run());
    summaries[function] = state.summarize();
  }
  // Initializers hold values like functions do (a loaded global must not be
  // written in place), but have no callers to summarize for.
  for (auto initializer : module.getOps<util::InitializerOp>()) {
    FunctionCopyOnWrite state(initializer, summaries, symbols);
    addScope(initializer, state.run());
  }
  // Fragments anywhere else have no caller-visible uses to check: their
  // bodies still get their copies.
  module.walk([&](ExStreamFragmentOp fragment) {
    if (fragment->getParentOfType<func::FuncOp>() ||
        fragment->getParentOfType<util::InitializerOp>())
      return;
    addScope(fragment, materializeFragmentCopyOnWrite(fragment));
  });
  // What the lowering asks before it writes in place.
  module->setAttr(kCopyOnWriteAttrName, UnitAttr::get(module.getContext()));
  return stats;
}

namespace {
struct MaterializeCopyOnWritePass
    : public impl::MaterializeCopyOnWritePassBase<MaterializeCopyOnWritePass> {
  using Base::Base;
  void runOnOperation() override {
    CopyOnWriteStats stats = materializeCopyOnWrite(getOperation());
    if (!stats.changed())
      markAllAnalysesPreserved();
  }
};
} // namespace

} // namespace streamhal::flow
