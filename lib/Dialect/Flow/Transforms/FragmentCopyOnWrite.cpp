//===- FragmentCopyOnWrite.cpp - copies a fragment body needs -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Inside a fragment, storage is shared by alias classes (ValueAliasing). A
// class holds a sequence of *versions*: the values an op writes into the
// storage, each with the reshapes that only rename it. A version must stay
// intact until its last use. Two kinds of op start a new version:
//  - an in-place write (a tied dispatch result, an update into its target):
//    when the version it overwrites is still needed, the write goes into a
//    clone instead (copy on write);
//  - a fresh definition in a class that also holds a block argument (the
//    value returned tied to that argument): when an earlier version is still
//    needed there, the tie is dropped and the result gets its own storage.
//    A clone of a version that is dead right after it, into the same
//    storage, is a copy onto itself and is removed instead.
// First, every in-place write is made explicit: a dispatch whose kernel
// writes an operand through a writable binding (`Read|Write`, `Write`) with
// no result tied to it gets a result tied to it, so that copy on write, the
// alias classes and every later analysis see the write (without it, the
// kernel would write a value the program still holds: an argument the
// caller keeps, or the same value passed at another position).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Builders.h"
#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/Debug.h"
#include <limits>

#define DEBUG_TYPE "flow-materialize-copy-on-write"

using namespace mlir;

namespace streamhal::flow {

CopyOnWriteStats &CopyOnWriteStats::operator+=(const CopyOnWriteStats &other) {
  writesTied += other.writesTied;
  clonesInserted += other.clonesInserted;
  tiesDropped += other.tiesDropped;
  identityClonesRemoved += other.identityClonesRemoved;
  copyFragmentsInserted += other.copyFragmentsInserted;
  argumentsMoved += other.argumentsMoved;
  readOnlyClonesShared += other.readOnlyClonesShared;
  llvm::append_range(changedScopes, other.changedScopes);
  return *this;
}

namespace {

/// Position used for a block argument the caller keeps: beyond every op.
constexpr int64_t kCallerKeeps = std::numeric_limits<int64_t>::max();

/// An in-place write that must go into a clone: operand `operand` of `op`.
struct CloneSite {
  Operation *op;
  unsigned operand;
};

/// What one scan of a fragment body decided; applied after the scan so that
/// the analyses stay valid while it runs.
struct Decisions {
  SmallVector<CloneSite> clones;
  SmallVector<unsigned> untieResults;
  SmallVector<TensorCloneOp> identityClones;
  bool empty() const {
    return clones.empty() && untieResults.empty() && identityClones.empty();
  }
};

/// Returns the operand an op writes in place for result `result`, if any.
/// Reshapes are tied but only rename their source.
std::optional<unsigned> getInPlaceOperand(Operation *op, unsigned result) {
  if (isa<TensorReshapeOp>(op))
    return std::nullopt;
  auto tied = dyn_cast<util::TiedOpInterface>(op);
  if (!tied)
    return std::nullopt;
  std::optional<unsigned> operand = tied.getTiedResultOperandIndex(result);
  if (!operand || *operand >= op->getNumOperands())
    return std::nullopt;
  return operand;
}

/// The interface bindings of `name` in every variant of the executable
/// `dispatch` targets that has its entry point.
SmallVector<hal::InterfaceBindingOp> lookupBindings(DispatchOp dispatch,
                                                    StringAttr name) {
  SmallVector<hal::InterfaceBindingOp> found;
  SymbolRefAttr callee = dispatch.getEntryPointAttr();
  auto executable = SymbolTable::lookupNearestSymbolFrom<hal::ExecutableOp>(
      dispatch, callee.getRootReference());
  if (!executable)
    return found;
  for (auto variant : executable.getBody().getOps<hal::ExecutableVariantOp>()) {
    auto entry = dyn_cast_or_null<hal::ExecutableEntryPointOp>(
        SymbolTable::lookupSymbolIn(variant, callee.getLeafReference()));
    hal::InterfaceOp interface = entry ? entry.lookupInterface() : nullptr;
    if (!interface)
      continue;
    if (auto binding = dyn_cast_or_null<hal::InterfaceBindingOp>(
            SymbolTable::lookupSymbolIn(interface, name)))
      found.push_back(binding);
  }
  return found;
}

/// Whether the interface binding `name` is `MayAlias` in every variant of
/// `dispatch`'s executable (false when no variant declares it).
bool isMayAliasBinding(DispatchOp dispatch, StringAttr name) {
  SmallVector<hal::InterfaceBindingOp> declared =
      lookupBindings(dispatch, name);
  return !declared.empty() &&
         llvm::all_of(declared, [](hal::InterfaceBindingOp binding) {
           return hal::bitEnumContainsAny(binding.getAccess(),
                                          hal::MemoryAccess::MayAlias);
         });
}

/// One entry of a dispatch's `hal.bindings`: the interface binding it names
/// and the argument or result it binds (an index that does not fit in 64
/// bits is left out: the fragment check reports it).
struct BoundEntry {
  StringAttr binding;
  bool isResult = false;
  uint64_t index = 0;
};

/// The entries of `dispatch`'s `hal.bindings`, in order.
SmallVector<BoundEntry> getBoundEntries(DispatchOp dispatch) {
  SmallVector<BoundEntry> entries;
  ArrayAttr bindings = dispatch.getBindings();
  if (!bindings)
    return entries;
  auto add = [&](StringAttr binding, bool isResult, IntegerAttr index) {
    if (!index)
      return;
    if (std::optional<uint64_t> value = index.getValue().tryZExtValue())
      entries.push_back({binding, isResult, *value});
  };
  for (Attribute entry : bindings) {
    if (auto operandBuffer = dyn_cast<hal::ExOperandBufferAttr>(entry))
      add(operandBuffer.getBinding(), false, operandBuffer.getOperand());
    else if (auto resultBuffer = dyn_cast<hal::ExResultBufferAttr>(entry))
      add(resultBuffer.getBinding(), true, resultBuffer.getResult());
  }
  return entries;
}

/// Whether every binding through which `dispatch` touches its operand
/// `operand` (an op operand number) is `MayAlias` in every variant: the
/// operand itself, and each result tied to it. False when none does.
bool isBoundMayAlias(DispatchOp dispatch, unsigned operand) {
  unsigned begin = dispatch.getArgumentsBeginIndex();
  if (operand < begin)
    return false;
  unsigned argument = operand - begin;
  bool any = false;
  for (const BoundEntry &entry : getBoundEntries(dispatch)) {
    std::optional<uint64_t> bound = entry.index;
    if (entry.isResult)
      bound = entry.index < dispatch.getNumResults()
                  ? util::getStoredTiedOperandIndex(
                        dispatch.getTiedOperandsAttr(), entry.index)
                  : std::nullopt;
    if (bound != argument)
      continue;
    if (!isMayAliasBinding(dispatch, entry.binding))
      return false;
    any = true;
  }
  return any;
}

/// Whether the kernel of `op` may read through operand `read` the bytes it
/// writes in place through operand `written`: both are bound only through
/// `MayAlias` bindings (SPIR-V's `Aliased`), which promise the kernel
/// reads what it needs before it overwrites it.
bool kernelToleratesAliasing(Operation *op, unsigned written, unsigned read) {
  auto dispatch = dyn_cast<DispatchOp>(op);
  return dispatch && isBoundMayAlias(dispatch, written) &&
         isBoundMayAlias(dispatch, read);
}

/// The facts of one scan: op positions, versions and their last uses.
class BodyScan {
public:
  BodyScan(ExStreamFragmentOp fragment, const ValueAliasing &aliasing)
      : fragment(fragment), aliasing(aliasing),
        body(fragment.getBody().front()) {
    unsigned position = 0;
    for (Operation &op : body)
      positions[&op] = position++;

    // Versions: a reshape renames its source's bytes.
    ArrayRef<Value> values = aliasing.getValues();
    for (Operation &op : body)
      if (auto reshape = dyn_cast<TensorReshapeOp>(op)) {
        std::optional<unsigned> result = aliasing.getOrdinal(reshape);
        std::optional<unsigned> source =
            aliasing.getOrdinal(reshape.getSource());
        if (result && source)
          versions.unionSets(*result, *source);
      }
    versionOf.resize(values.size());
    versionLastUse.assign(values.size(), -1);
    llvm::BitVector donated = getDonatedArguments();
    for (auto [ordinal, value] : llvm::enumerate(values)) {
      auto leader = versions.findLeader(ordinal);
      versionOf[ordinal] = leader == versions.member_end() ? ordinal : *leader;
      // A block argument is defined before the first op.
      int64_t lastUse = -1;
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        if (!donated.test(argument.getArgNumber()))
          lastUse = kCallerKeeps;
      } else {
        lastUse = positions.lookup(value.getDefiningOp());
      }
      for (OpOperand &use : value.getUses())
        if (Operation *user = body.findAncestorOpInBlock(*use.getOwner()))
          lastUse = std::max<int64_t>(lastUse, positions.lookup(user));
      int64_t &versionUse = versionLastUse[versionOf[ordinal]];
      versionUse = std::max(versionUse, lastUse);
    }
  }

  /// Block arguments whose storage the caller gives up (a result is tied).
  llvm::BitVector getDonatedArguments() {
    llvm::BitVector donated(body.getNumArguments());
    unsigned begin = fragment.getArgumentsBeginIndex();
    for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i)
      if (std::optional<unsigned> operand =
              fragment.getTiedResultOperandIndex(i))
        if (*operand - begin < donated.size())
          donated.set(*operand - begin);
    return donated;
  }

  int64_t position(Operation *op) const { return positions.lookup(op); }
  std::optional<unsigned> version(Value value) const {
    std::optional<unsigned> ordinal = aliasing.getOrdinal(value);
    if (!ordinal)
      return std::nullopt;
    return versionOf[*ordinal];
  }
  int64_t lastUse(unsigned version) const { return versionLastUse[version]; }

  /// Adds the in-place writes whose overwritten version is still needed.
  void findCopiesOnWrite(Decisions &decisions);
  /// Adds the ties to drop and the copies onto themselves.
  void findUnsoundTies(Decisions &decisions);

private:
  ExStreamFragmentOp fragment;
  const ValueAliasing &aliasing;
  Block &body;
  DenseMap<Operation *, unsigned> positions;
  llvm::EquivalenceClasses<unsigned> versions;
  SmallVector<unsigned> versionOf;
  SmallVector<int64_t> versionLastUse;
};

void BodyScan::findCopiesOnWrite(Decisions &decisions) {
  for (Operation &op : body.without_terminator()) {
    int64_t here = position(&op);
    SmallVector<unsigned, 2> written;
    for (unsigned result = 0, e = op.getNumResults(); result < e; ++result) {
      std::optional<unsigned> operand = getInPlaceOperand(&op, result);
      if (!operand || llvm::is_contained(written, *operand))
        continue;
      written.push_back(*operand);
      std::optional<unsigned> overwritten = version(op.getOperand(*operand));
      if (!overwritten)
        continue;
      // Needed later (or by the caller), or read by this very op through
      // another operand: a kernel must not read bytes it overwrites, unless
      // it declares both bindings may alias.
      bool needed = lastUse(*overwritten) > here;
      for (OpOperand &other : op.getOpOperands())
        if (other.getOperandNumber() != *operand &&
            version(other.get()) == overwritten &&
            !kernelToleratesAliasing(&op, *operand, other.getOperandNumber()))
          needed = true;
      if (!needed)
        continue;
      LLVM_DEBUG(llvm::dbgs() << "copy on write: operand " << *operand << " of "
                              << op.getName() << " at " << op.getLoc()
                              << " is still needed after op " << here << "\n");
      decisions.clones.push_back({&op, *operand});
    }
  }
}

void BodyScan::findUnsoundTies(Decisions &decisions) {
  // Only a class holding a block argument can hold two independently
  // defined versions: the argument's and the value returned tied to it.
  llvm::BitVector checked(aliasing.getNumClasses());
  for (BlockArgument argument : body.getArguments()) {
    unsigned classIndex = aliasing.getClassIndex(argument);
    if (classIndex >= aliasing.getNumClasses() || checked.test(classIndex))
      continue;
    checked.set(classIndex);
    ArrayRef<Value> members = aliasing.getClassMembers(classIndex);
    if (members.size() < 2)
      continue;
    // Members are in IR order: the last use of every earlier version.
    std::optional<int64_t> earlierLastUse;
    bool unsound = false;
    for (Value member : members) {
      auto result = dyn_cast<OpResult>(member);
      bool freshDefinition =
          result && !isa<TensorReshapeOp>(result.getOwner()) &&
          !getInPlaceOperand(result.getOwner(), result.getResultNumber());
      if (freshDefinition && earlierLastUse) {
        Operation *definer = result.getOwner();
        int64_t here = position(definer);
        auto clone = dyn_cast<TensorCloneOp>(definer);
        if (clone && *earlierLastUse == here &&
            aliasing.isAliased(clone.getOperand(), clone.getResult())) {
          LLVM_DEBUG(llvm::dbgs() << "copy onto itself removed at "
                                  << clone.getLoc() << "\n");
          decisions.identityClones.push_back(clone);
        } else if (*earlierLastUse >= here) {
          LLVM_DEBUG(llvm::dbgs()
                     << "tie dropped: " << definer->getName() << " at "
                     << definer->getLoc()
                     << " would overwrite a version needed until op "
                     << *earlierLastUse << "\n");
          unsound = true;
        }
      }
      earlierLastUse =
          std::max(earlierLastUse.value_or(-1), lastUse(*version(member)));
    }
    if (!unsound)
      continue;
    auto terminator = cast<ReturnOp>(body.getTerminator());
    for (unsigned i = 0, e = fragment->getNumResults(); i < e; ++i)
      if (fragment.getTiedResultOperandIndex(i) &&
          aliasing.getClassIndex(terminator.getOperand(i)) == classIndex)
        decisions.untieResults.push_back(i);
  }
}

/// Drops the ties of the given fragment results.
void untieResults(ExStreamFragmentOp fragment, ArrayRef<unsigned> results) {
  SmallVector<int64_t> tied(fragment->getNumResults(), util::kUntiedIndex);
  if (ArrayAttr attr = fragment.getTiedOperandsAttr())
    for (auto [i, entry] : llvm::enumerate(attr.getAsRange<IntegerAttr>()))
      if (i < tied.size())
        tied[i] = entry.getInt();
  for (unsigned result : results)
    tied[result] = util::kUntiedIndex;
  fragment.setTiedOperandsAttr(Builder(fragment).getI64ArrayAttr(tied));
}

/// Inserts `flow.tensor.clone` of operand `site.operand` before `site.op`
/// and makes the op write the clone.
bool insertClone(CloneSite site) {
  Operation *op = site.op;
  Value source = op->getOperand(site.operand);
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (!type)
    return false; // Not lowerable anyway: the fragment check reports it.

  SmallVector<Value> dims;
  if (auto shaped = dyn_cast<util::ShapeAwareOpInterface>(op))
    llvm::append_range(dims, shaped.getOperandDynamicDims(site.operand));
  if (dims.size() != static_cast<size_t>(type.getNumDynamicDims()))
    return false; // The verifier guarantees the dims; nothing to copy with.
  OpBuilder builder(op);
  auto clone = TensorCloneOp::create(builder, op->getLoc(), type, source, dims);
  if (Attribute wave = op->getAttr(getWaveAttrName()))
    clone->setAttr(getWaveAttrName(), wave);
  op->setOperand(site.operand, clone.getResult());
  return true;
}

/// Whether the kernel of `dispatch` writes the interface binding `name` in
/// some variant of its executable (unknown callees write nothing: the
/// fragment check reports them).
bool isWrittenBinding(DispatchOp dispatch, StringAttr name) {
  return llvm::any_of(lookupBindings(dispatch, name),
                      [](hal::InterfaceBindingOp binding) {
                        return hal::bitEnumContainsAny(
                            binding.getAccess(), hal::MemoryAccess::Write);
                      });
}

/// Drops the tie of each result of `dispatch` bound through a binding other
/// than the ones its tied operand is bound through, unless both are
/// `MayAlias`: computed in place, the kernel would write through one
/// binding the bytes it reads through another. A tie only allows reuse, so
/// the result gets storage of its own. Returns how many ties it dropped.
unsigned untieAliasedBindings(DispatchOp dispatch) {
  ArrayAttr tiedOperands = dispatch.getTiedOperandsAttr();
  if (!tiedOperands)
    return 0;
  // The bindings of each operand, then the results whose binding differs
  // from one of their tied operand's.
  SmallVector<BoundEntry> entries = getBoundEntries(dispatch);
  DenseMap<uint64_t, SmallVector<StringAttr>> operandBindings;
  for (const BoundEntry &entry : entries)
    if (!entry.isResult)
      operandBindings[entry.index].push_back(entry.binding);
  unsigned numResults = dispatch.getNumResults();
  DenseSet<uint64_t> aliasedResults;
  for (const BoundEntry &written : entries) {
    if (!written.isResult || written.index >= numResults)
      continue;
    std::optional<unsigned> operand =
        util::getStoredTiedOperandIndex(tiedOperands, written.index);
    if (!operand)
      continue;
    for (StringAttr read : operandBindings.lookup(*operand))
      if (written.binding != read &&
          !(isMayAliasBinding(dispatch, written.binding) &&
            isMayAliasBinding(dispatch, read)))
        aliasedResults.insert(written.index);
  }
  SmallVector<int64_t> tied;
  unsigned dropped = 0;
  for (unsigned result = 0; result < numResults; ++result) {
    std::optional<unsigned> operand =
        util::getStoredTiedOperandIndex(tiedOperands, result);
    bool aliased = aliasedResults.contains(result);
    if (aliased) {
      LLVM_DEBUG(llvm::dbgs()
                 << "copy on write: result " << result << " of "
                 << dispatch.getLoc()
                 << " is bound apart from its tied operand: untied\n");
      ++dropped;
    }
    tied.push_back(operand && !aliased ? int64_t(*operand)
                                       : util::kUntiedIndex);
  }
  if (dropped)
    dispatch.setTiedOperandsAttr(Builder(dispatch).getI64ArrayAttr(tied));
  return dropped;
}

/// Adds a result tied to each operand the kernel of `dispatch` writes
/// through a binding while no result is tied to it; returns how many.
unsigned tieWrittenOperands(DispatchOp dispatch) {
  ValueRange arguments = dispatch.getArguments();
  unsigned numResults = dispatch.getNumResults();
  SmallVector<int64_t> tied;
  for (unsigned result = 0; result < numResults; ++result) {
    std::optional<unsigned> operand =
        util::getStoredTiedOperandIndex(dispatch.getTiedOperandsAttr(), result);
    tied.push_back(operand ? int64_t(*operand) : util::kUntiedIndex);
  }
  SmallVector<unsigned> written;
  for (const BoundEntry &entry : getBoundEntries(dispatch)) {
    // Malformed indices are the fragment check's to report.
    if (entry.isResult || entry.index >= arguments.size())
      continue;
    unsigned operand = entry.index;
    if (!isa<RankedTensorType>(arguments[operand].getType()) ||
        llvm::is_contained(tied, int64_t(operand)) ||
        llvm::is_contained(written, operand) ||
        !isWrittenBinding(dispatch, entry.binding))
      continue;
    written.push_back(operand);
  }
  if (written.empty())
    return 0;
  SmallVector<Type> resultTypes(dispatch.getResultTypes());
  SmallVector<Value> resultDims(dispatch.getResultDims());
  for (unsigned operand : written) {
    LLVM_DEBUG(llvm::dbgs()
               << "copy on write: " << dispatch.getLoc() << " writes operand "
               << operand << " through a binding: tied to a new result\n");
    resultTypes.push_back(arguments[operand].getType());
    llvm::append_range(resultDims,
                       dispatch.getOperandDynamicDims(
                           dispatch.getArgumentsBeginIndex() + operand));
    tied.push_back(operand);
  }
  OpBuilder builder(dispatch);
  auto retied = DispatchOp::create(
      builder, dispatch.getLoc(), resultTypes, dispatch.getEntryPointAttr(),
      dispatch.getWorkload(), arguments, dispatch.getArgumentDims(), resultDims,
      builder.getI64ArrayAttr(tied));
  for (NamedAttribute attr : dispatch->getDiscardableAttrs())
    retied->setAttr(attr.getName(), attr.getValue());
  dispatch->replaceAllUsesWith(retied->getResults().take_front(numResults));
  dispatch->erase();
  return written.size();
}

} // namespace

CopyOnWriteStats materializeFragmentCopyOnWrite(ExStreamFragmentOp fragment) {
  CopyOnWriteStats stats;
  if (fragment.getBody().empty() ||
      !isa<ReturnOp>(fragment.getBody().front().back()))
    return stats;
  for (auto dispatch : llvm::make_early_inc_range(
           fragment.getBody().front().getOps<DispatchOp>())) {
    stats.tiesDropped += untieAliasedBindings(dispatch);
    stats.writesTied += tieWrittenOperands(dispatch);
  }
  // Each round either drops ties, removes clones or inserts clones that
  // never conflict again, so a few rounds suffice; the bound only guards
  // against a bug turning into a hang.
  for (unsigned round = 0, e = 8 + fragment->getNumResults(); round < e;
       ++round) {
    ValueAliasing aliasing(fragment);
    BodyScan scan(fragment, aliasing);
    Decisions decisions;
    scan.findUnsoundTies(decisions);
    if (decisions.untieResults.empty() && decisions.identityClones.empty())
      scan.findCopiesOnWrite(decisions);
    if (decisions.empty())
      break;
    if (!decisions.untieResults.empty()) {
      llvm::sort(decisions.untieResults);
      decisions.untieResults.erase(llvm::unique(decisions.untieResults),
                                   decisions.untieResults.end());
      untieResults(fragment, decisions.untieResults);
      stats.tiesDropped += decisions.untieResults.size();
      continue;
    }
    for (TensorCloneOp clone : decisions.identityClones) {
      clone.getResult().replaceAllUsesWith(clone.getOperand());
      clone.erase();
      ++stats.identityClonesRemoved;
    }
    for (CloneSite site : decisions.clones)
      stats.clonesInserted += insertClone(site);
  }
  return stats;
}

} // namespace streamhal::flow
