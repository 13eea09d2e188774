//===- StorageViews.cpp - values that share their neighbours' storage -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/StorageViews.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include <map>
#include <numeric>
#include <set>

#define DEBUG_TYPE "streamhal-storage-views"

using namespace mlir;

namespace streamhal {

namespace {

/// A constant byte range `[offset, offset + length)` inside a root's storage.
struct StaticBytes {
  int64_t offset;
  int64_t length;
  /// Empty ranges overlap nothing: they hold no byte.
  bool overlaps(const StaticBytes &other) const {
    return length > 0 && other.length > 0 &&
           offset < other.offset + other.length &&
           other.offset < offset + length;
  }
};

/// What the decision needs to know of each alias class, then of each group
/// of classes sharing one storage (kept at the group's root).
struct ClassFacts {
  /// Op indices of the in-place writes to the class (or group).
  std::set<int64_t> writes;
  /// Op indices of every op that defines or uses a member of the class (of
  /// the group: of a member whose bytes in the root are not known), except
  /// those in `rangedTouches`.
  std::set<int64_t> touches;
  /// Op indices of the ops that touch only known bytes of the storage (an
  /// update's box of its target, a view with known bytes in its group's
  /// root), with those bytes.
  std::multimap<int64_t, StaticBytes> rangedTouches;
  /// Holds a block argument or a constant subspan: storage of its own that
  /// lives beyond the fragment.
  bool fixed = false;
  /// Holds a block argument: the caller's buffer, which the operands of the
  /// same group may be too (the same value passed twice, or returned twice
  /// by an earlier fragment: groupOperandStorage).
  std::optional<unsigned> input;
  /// Holds a returned value.
  bool returned = false;
  /// Holds a constant subspan: read-only.
  bool constant = false;
  /// A group root that some other class already views.
  bool viewed = false;
  /// A dispatch binds a member (its bytes start a descriptor range).
  bool bound = false;
  /// A splat defines a member (a fill writes it: 4-byte aligned).
  bool filled = false;
};

/// The bytes the view of `op` covers inside the outer tensor (the source of
/// a clone or slice, the target of an update), when the shapes, the element
/// type and the starts are constants.
std::optional<StaticBytes> getStaticViewBytes(Operation *op) {
  std::optional<int64_t> length =
      util::getStaticByteSize(StorageViews::getViewedValue(op).getType());
  if (!length)
    return std::nullopt;
  if (isa<flow::TensorCloneOp>(op))
    return StaticBytes{0, *length};
  std::optional<int64_t> offset = getStaticBoxByteOffset(op);
  if (!offset)
    return std::nullopt;
  return StaticBytes{*offset, *length};
}

/// Returns a number every runtime byte offset of `op`'s view in its outer
/// tensor is a multiple of (0 for a view always at offset 0), or
/// std::nullopt when the shape is not static.
std::optional<uint64_t> getViewOffsetDivisor(Operation *op) {
  if (isa<flow::TensorCloneOp>(op))
    return 0;
  return getBoxByteOffsetDivisor(op);
}

/// Returns true when `indices` has one within [first, last].
bool anyWithin(const std::set<int64_t> &indices, int64_t first, int64_t last) {
  auto it = indices.lower_bound(first);
  return it != indices.end() && *it <= last;
}

/// More ranged touches than this in one window are not looked at one by
/// one: the window counts as touching every byte (keeps the decision
/// near-linear).
constexpr int kMaxRangedTouchesPerQuery = 64;

/// Returns true when an op with an index within [first, last] touches a
/// member of `group` whose bytes overlap `bytes` (any member when `bytes`
/// is unknown).
bool touchesBytesWithin(const ClassFacts &group,
                        std::optional<StaticBytes> bytes, int64_t first,
                        int64_t last) {
  int looked = 0;
  for (auto it = group.rangedTouches.lower_bound(first),
            end = group.rangedTouches.end();
       it != end && it->first <= last; ++it) {
    if (!bytes || it->second.overlaps(*bytes) ||
        ++looked > kMaxRangedTouchesPerQuery)
      return true;
  }
  return false;
}

/// A root at most this large may be pinned by returned views of any size.
constexpr int64_t kSmallRootBytes = 4096;

} // namespace

//===----------------------------------------------------------------------===//
// Decision
//===----------------------------------------------------------------------===//

/// The state of the decision while it walks the body: the facts of every
/// class, merged into the group roots as views are taken.
class StorageViews::Decider {
public:
  Decider(StorageViews &views, Block &body, const BoxGeometry &boxes)
      : views(views),
        liveness(views.programOrder ? *views.programOrder : views.liveness),
        aliasing(views.liveness.getAliasing()), body(body), boxes(boxes) {}

  void run() {
    // Nothing to decide without a clone, slice or update (the facts cost a
    // set entry per use).
    if (!views.elide ||
        llvm::none_of(body.without_terminator(), [](Operation &op) {
          return isa<flow::TensorCloneOp, flow::TensorSliceOp,
                     flow::TensorUpdateOp>(op);
        }))
      return;
    for (unsigned classIndex = 0, e = aliasing.getNumClasses(); classIndex < e;
         ++classIndex)
      orderRootIntervals.push_back(liveness.getClassInterval(classIndex));
    collectFacts();
    for (const ClassFacts &classFacts : facts)
      if (classFacts.input)
        addInputFacts(*classFacts.input, classFacts);
    rootBytes.resize(facts.size());
    returnedBytes.resize(facts.size());
    for (const ClassFacts &classFacts : facts)
      wholeReturned.push_back(classFacts.returned);
    // Returned clones and slices, which may become returned views: the cost
    // rule weighs all of a root's at once.
    for (Operation &op : body.without_terminator())
      if (isa<flow::TensorCloneOp, flow::TensorSliceOp>(op))
        if (std::optional<unsigned> result = classOf(op.getResult(0)))
          if (facts[*result].returned)
            if (std::optional<int64_t> size =
                    util::getStaticByteSize(op.getResult(0).getType()))
              if (std::optional<unsigned> source = classOf(op.getOperand(0)))
                pendingReturnedViews.push_back({&op, *source, *size});
    for (Operation &op : body.without_terminator())
      llvm::TypeSwitch<Operation *>(&op)
          .Case<flow::TensorCloneOp, flow::TensorSliceOp>(
              [&](Operation *copy) { decideCopyView(copy); })
          .Case([&](flow::TensorUpdateOp update) { decideUpdateSink(update); });
  }

private:
  std::optional<unsigned> classOf(Value value) const {
    if (!aliasing.getOrdinal(value))
      return std::nullopt;
    return aliasing.getClassIndex(value);
  }

  void collectFacts();
  /// Adds the writes and touches of a class that shares, or may share, the
  /// bytes of a fragment operand to those of every operand.
  void addInputFacts(unsigned group, const ClassFacts &classFacts) {
    std::set<int64_t> &writes = inputWrites[group];
    std::set<int64_t> &touches = inputTouches[group];
    writes.insert(classFacts.writes.begin(), classFacts.writes.end());
    touches.insert(classFacts.touches.begin(), classFacts.touches.end());
    for (auto [index, touched] : classFacts.rangedTouches)
      touches.insert(index);
  }
  /// Returns true when an in-place write of a storage `group`'s operands
  /// may share lies within [first, last].
  bool inputWrittenWithin(const ClassFacts &group, int64_t first,
                          int64_t last) const {
    auto it = group.input ? inputWrites.find(*group.input) : inputWrites.end();
    return it != inputWrites.end() && anyWithin(it->second, first, last);
  }
  bool inputTouchedWithin(const ClassFacts &group, int64_t first,
                          int64_t last) const {
    auto it =
        group.input ? inputTouches.find(*group.input) : inputTouches.end();
    return it != inputTouches.end() && anyWithin(it->second, first, last);
  }
  /// A clone or a contiguous slice whose result class may view its source.
  void decideCopyView(Operation *op);
  /// A contiguous update whose update value may be computed in place, in
  /// the target's box.
  void decideUpdateSink(flow::TensorUpdateOp update);
  /// Returns true when `bytes` (in root `root`'s storage) start at a
  /// multiple of `alignment` of the root's buffer: a constant root starts
  /// at its byte range's offset in the pool.
  bool isAlignedInRoot(unsigned root, Operation *op, unsigned outerClass,
                       int64_t alignment) const {
    // Every term of the start in the root's buffer must be a multiple: the
    // box in the outer value, the outer value in the root, the root in its
    // pool (a constant).
    std::optional<uint64_t> divisor = getViewOffsetDivisor(op);
    if (!divisor)
      return false;
    if (outerClass != root) {
      std::optional<StaticBytes> outer = rootBytes[outerClass];
      if (!outer)
        return false;
      divisor = std::gcd(*divisor, uint64_t(outer->offset));
    }
    if (auto constant = aliasing.getClassMembers(root)
                            .front()
                            .getDefiningOp<hal::ConstantSubspanOp>())
      divisor =
          std::gcd(*divisor, uint64_t(constant.getRuntimeRange().getOffset()));
    return *divisor % uint64_t(alignment) == 0;
  }
  /// Where `op`'s view lies in the storage of root `root`, given that the
  /// outer tensor's class is `outerClass`.
  std::optional<StaticBytes> getRootBytes(Operation *op, unsigned outerClass,
                                          unsigned root) const;
  /// Makes class `viewClass` a view, by `op`, inside the group of `root`.
  void merge(unsigned viewClass, unsigned sourceClass, unsigned root,
             Operation *op, std::optional<StaticBytes> bytes);
  void decline(Operation *op, StringRef why) const {
    LLVM_DEBUG(llvm::dbgs() << "keeps the copy of " << op->getName() << " at "
                            << op->getLoc() << ": " << why << "\n");
    (void)op;
    (void)why;
  }

  StorageViews &views;
  /// Program-order intervals, which the rules compare.
  const LivenessIntervals &liveness;
  /// Per root, the hull of its group in program order (views.rootIntervals
  /// holds the same hull in the indices the pack uses).
  SmallVector<std::pair<int64_t, int64_t>> orderRootIntervals;
  const ValueAliasing &aliasing;
  Block &body;
  const BoxGeometry &boxes;
  SmallVector<ClassFacts> facts;
  /// Byte range of each view class inside its root, when constant.
  SmallVector<std::optional<StaticBytes>> rootBytes;
  /// Per root: the bytes of its returned views, and whether the root class
  /// itself is returned (all of its bytes then belong to that result).
  SmallVector<SmallVector<StaticBytes, 2>> returnedBytes;
  SmallVector<bool> wholeReturned;
  /// Returned clones and slices not decided yet: op, source class, bytes.
  struct PendingReturnedView {
    Operation *op;
    unsigned sourceClass;
    int64_t bytes;
  };
  SmallVector<PendingReturnedView> pendingReturnedViews;
  /// Per operand storage group, the writes and touches of every class
  /// holding or viewing an operand of it: the operands of a group may be
  /// one buffer, so for the rules that look for writes or touches of a
  /// storage, they are one storage.
  DenseMap<unsigned, std::set<int64_t>> inputWrites;
  DenseMap<unsigned, std::set<int64_t>> inputTouches;
};

void StorageViews::Decider::collectFacts() {
  facts.resize(aliasing.getNumClasses());
  ArrayRef<unsigned> groups = views.operandGroups;
  for (BlockArgument argument : body.getArguments())
    if (std::optional<unsigned> classIndex = classOf(argument)) {
      facts[*classIndex].fixed = true;
      unsigned number = argument.getArgNumber();
      if (!facts[*classIndex].input)
        facts[*classIndex].input = number < groups.size() ? groups[number] : 0;
    }
  for (Operation &op : body) {
    int64_t index = liveness.getOpIndex(&op);
    // Every definition and use, nested uses included (they count as the
    // body op that holds them). An update touches only its box of the
    // target's storage, when the box is constant.
    auto update = dyn_cast<flow::TensorUpdateOp>(op);
    std::optional<StaticBytes> box =
        update ? getStaticViewBytes(update) : std::nullopt;
    auto touch = [&](Value value) {
      std::optional<unsigned> classIndex = classOf(value);
      if (!classIndex)
        return;
      if (box && (value == update.getTarget() || value == update.getResult()))
        facts[*classIndex].rangedTouches.emplace(index, *box);
      else
        facts[*classIndex].touches.insert(index);
    };
    for (Value result : op.getResults())
      touch(result);
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        touch(operand);
    });
    auto markWritten = [&](Value target) {
      if (std::optional<unsigned> classIndex = classOf(target))
        facts[*classIndex].writes.insert(index);
    };
    // A result that is not the first member of its class is computed into
    // storage that already holds an earlier version: a write in place even
    // when the op itself ties nothing (a clone, splat or untied dispatch
    // result returned tied to a fragment operand). A reshape only renames
    // the version it reads.
    if (!isa<flow::TensorReshapeOp>(op))
      for (Value result : op.getResults())
        if (std::optional<unsigned> classIndex = classOf(result))
          if (aliasing.getClassMembers(*classIndex).front() != result)
            markWritten(result);
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](hal::ConstantSubspanOp constant) {
          ClassFacts &classFacts = facts[*classOf(constant.getResult())];
          classFacts.fixed = classFacts.constant = true;
        })
        .Case([&](flow::TensorUpdateOp update) {
          markWritten(update.getTarget());
        })
        .Case([&](flow::TensorSplatOp splat) {
          facts[*classOf(splat.getResult())].filled = true;
        })
        .Case(
            [&](flow::TensorStoreOp store) { markWritten(store.getTarget()); })
        .Case([&](flow::DispatchOp dispatch) {
          for (Value value : llvm::concat<Value>(dispatch.getArguments(),
                                                 dispatch.getResults()))
            if (std::optional<unsigned> classIndex = classOf(value))
              facts[*classIndex].bound = true;
          for (unsigned result = 0, e = dispatch.getNumResults(); result < e;
               ++result)
            if (std::optional<unsigned> operand =
                    dispatch.getTiedResultOperandIndex(result))
              markWritten(dispatch->getOperand(*operand));
        })
        .Case([&](flow::ReturnOp) {
          for (Value returned : op.getOperands())
            if (std::optional<unsigned> classIndex = classOf(returned))
              facts[*classIndex].returned = true;
        });
  }
}

std::optional<StaticBytes>
StorageViews::Decider::getRootBytes(Operation *op, unsigned outerClass,
                                    unsigned root) const {
  std::optional<StaticBytes> inOuter = getStaticViewBytes(op);
  if (!inOuter)
    return std::nullopt;
  if (outerClass == root)
    return inOuter;
  if (std::optional<StaticBytes> outerBytes = rootBytes[outerClass])
    return StaticBytes{outerBytes->offset + inOuter->offset, inOuter->length};
  return std::nullopt;
}

void StorageViews::Decider::merge(unsigned viewClass, unsigned sourceClass,
                                  unsigned root, Operation *op,
                                  std::optional<StaticBytes> bytes) {
  ClassFacts &group = facts[root];
  ClassFacts &view = facts[viewClass];
  rootBytes[viewClass] = bytes;
  if (view.returned)
    returnedBytes[root].push_back(*bytes);
  views.viewOps[viewClass] = op;
  views.sourceClasses[viewClass] = sourceClass;
  views.roots[viewClass] = root;
  ++views.numViews;
  group.writes.insert(view.writes.begin(), view.writes.end());
  // A view's own ops touch only its bytes, when they are known; its ranged
  // touches (boxes of updates into it) move by its offset in the root.
  if (bytes) {
    for (int64_t index : view.touches)
      group.rangedTouches.emplace(index, *bytes);
    for (auto [index, touched] : view.rangedTouches)
      group.rangedTouches.emplace(
          index, StaticBytes{bytes->offset + touched.offset, touched.length});
  } else {
    group.touches.insert(view.touches.begin(), view.touches.end());
    for (auto [index, touched] : view.rangedTouches)
      group.touches.insert(index);
  }
  if (group.input)
    addInputFacts(*group.input, view);
  group.returned |= view.returned;
  group.viewed = true;
  views.rootReturned[root] = group.returned;
  auto widen = [&](const LivenessIntervals &intervals,
                   std::pair<int64_t, int64_t> &hull) {
    auto [viewStart, viewStop] = intervals.getClassInterval(viewClass);
    hull.first = std::min(hull.first, viewStart);
    hull.second = std::max(hull.second, viewStop);
  };
  widen(views.liveness, views.rootIntervals[root]);
  widen(liveness, orderRootIntervals[root]);
}

void StorageViews::Decider::decideCopyView(Operation *op) {
  if (isa<flow::TensorSliceOp>(op) && !boxes.isContiguous(op))
    return;
  std::optional<unsigned> sourceClass = classOf(op->getOperand(0));
  std::optional<unsigned> viewClass = classOf(op->getResult(0));
  if (!sourceClass || !viewClass || *sourceClass == *viewClass)
    return;
  unsigned root = views.roots[*sourceClass];
  ClassFacts &group = facts[root];
  ClassFacts &view = facts[*viewClass];
  // The result's class is new here (all its members are defined at or after
  // the op); it must have no storage it cannot give up.
  if (view.fixed)
    return;
  int64_t defined = liveness.getOpIndex(op);
  int64_t viewEnd = liveness.getClassInterval(*viewClass).second;
  bool groupOutlives = group.fixed || group.returned;
  int64_t groupEnd = groupOutlives ? LivenessIntervals::kLiveOut
                                   : orderRootIntervals[root].second;
  std::optional<StaticBytes> bytes = getRootBytes(op, *sourceClass, root);
  // A returned view is part of the root's output allocation: the root must
  // be a transient that is not returned whole, and the view's bytes must be
  // known and disjoint from those of every other returned view of it, so
  // that each result the caller gets is bytes of its own.
  if (view.returned &&
      (group.fixed || wholeReturned[root] || !bytes ||
       llvm::any_of(returnedBytes[root], [&](const StaticBytes &other) {
         return other.overlaps(*bytes);
       })))
    return decline(op, "returned view of bytes that are not the result's");
  // Device rule: a dispatch binds a range at a multiple of the device's
  // offset alignment (a returned view may be bound by a later fragment).
  if ((view.bound || view.returned) &&
      !isAlignedInRoot(root, op, *sourceClass, views.bindingAlignment))
    return decline(op, "the view would be bound at a misaligned offset");
  // A returned view turns its whole root into an output: worth it only
  // when the returned views cover at least half of the root, or the root
  // is small; otherwise the copy holds much less memory.
  if (view.returned) {
    // Bytes of the root the caller will get: returned views taken, this
    // one, and the later returned copies of the same root that may be too.
    int64_t covered = 0;
    for (const StaticBytes &other : returnedBytes[root])
      covered += other.length;
    for (const PendingReturnedView &pending : pendingReturnedViews)
      if (pending.op == op || (views.roots[pending.sourceClass] == root &&
                               op->isBeforeInBlock(pending.op)))
        covered += pending.op == op ? bytes->length : pending.bytes;
    std::optional<int64_t> rootSize = util::getStaticByteSize(
        aliasing.getClassMembers(root).front().getType());
    if (!rootSize || (*rootSize > kSmallRootBytes && 2 * covered < *rootSize))
      return decline(op, "returned view would pin a root much larger than "
                         "the returned bytes");
  }
  if (anyWithin(group.writes, defined, viewEnd) ||
      inputWrittenWithin(group, defined, viewEnd))
    return decline(op, "the source is written in place while the view lives");
  if ((group.constant && !view.writes.empty()) ||
      anyWithin(view.writes, defined, groupEnd))
    return decline(op, "the view is written in place while the source lives");
  merge(*viewClass, *sourceClass, root, op, bytes);
}

void StorageViews::Decider::decideUpdateSink(flow::TensorUpdateOp update) {
  if (!boxes.isContiguous(update))
    return;
  std::optional<unsigned> updateClass = classOf(update.getUpdate());
  std::optional<unsigned> targetClass = classOf(update.getTarget());
  if (!updateClass || !targetClass || *updateClass == *targetClass)
    return;
  unsigned root = views.roots[*targetClass];
  ClassFacts &group = facts[root];
  ClassFacts &sunk = facts[*updateClass];
  // The update value must be a storage of its own that nothing else views
  // or shares, never returned (it would alias the updated target).
  if (sunk.fixed || sunk.returned || sunk.viewed ||
      views.roots[*updateClass] != *updateClass || group.constant)
    return;
  int64_t written = liveness.getOpIndex(update);
  auto [produced, sunkEnd] = liveness.getClassInterval(*updateClass);
  bool groupOutlives = group.fixed || group.returned;
  int64_t groupEnd = groupOutlives ? LivenessIntervals::kLiveOut
                                   : orderRootIntervals[root].second;
  // The value is computed in the target's box from its first definition on,
  // not at the update: the target's bytes must already be initialized then
  // (a later splat or dispatch would overwrite it), and nothing may touch
  // the target from then to the update (it would see the box early).
  if (orderRootIntervals[root].first >= produced)
    return decline(update, "the target's storage starts after the value");
  std::optional<StaticBytes> bytes = getRootBytes(update, *targetClass, root);
  // Device rules: a dispatch writing the value binds the box, a splat of
  // it fills the box (offset and length multiples of 4).
  if (sunk.bound &&
      !isAlignedInRoot(root, update, *targetClass, views.bindingAlignment))
    return decline(update, "the box would be bound at a misaligned offset");
  if (sunk.filled && (!isAlignedInRoot(root, update, *targetClass, 4) ||
                      !bytes || bytes->length % 4))
    return decline(update, "the box would be filled at a misaligned offset");
  if (anyWithin(group.touches, produced, written - 1) ||
      touchesBytesWithin(group, bytes, produced, written - 1) ||
      inputTouchedWithin(group, produced, written - 1))
    return decline(update, "the target is used while the value is computed");
  // After the update both name the same bytes: neither may be written in
  // place while the other is still read.
  if (anyWithin(group.writes, written + 1, sunkEnd) ||
      inputWrittenWithin(group, written + 1, sunkEnd))
    return decline(update, "the target is written while the value lives");
  if (anyWithin(sunk.writes, written, groupEnd))
    return decline(update, "the value is written while the target lives");
  merge(*updateClass, *targetClass, root, update, bytes);
}

//===----------------------------------------------------------------------===//
// StorageViews
//===----------------------------------------------------------------------===//

StorageViews::StorageViews(flow::ExStreamFragmentOp fragment,
                           const LivenessIntervals &liveness,
                           const BoxGeometry &boxes, bool elide,
                           ArrayRef<unsigned> operandGroups,
                           int64_t bindingAlignment)
    : liveness(liveness), operandGroups(operandGroups),
      bindingAlignment(std::max<int64_t>(bindingAlignment, 1)), elide(elide) {
  if (liveness.isWaveIndexed())
    programOrder = std::make_unique<LivenessIntervals>(
        fragment, liveness.getAliasing(), /*useWaves=*/false);
  unsigned numClasses = liveness.getAliasing().getNumClasses();
  viewOps.assign(numClasses, nullptr);
  sourceClasses.resize(numClasses);
  roots.resize(numClasses);
  rootIntervals.resize(numClasses);
  rootReturned.assign(numClasses, false);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex) {
    roots[classIndex] = sourceClasses[classIndex] = classIndex;
    rootIntervals[classIndex] = liveness.getClassInterval(classIndex);
  }
  if (fragment.getBody().empty())
    return;
  Block &body = fragment.getBody().front();
  const ValueAliasing &aliasing = liveness.getAliasing();
  for (Value returned : body.getTerminator()->getOperands())
    if (aliasing.getOrdinal(returned))
      rootReturned[aliasing.getClassIndex(returned)] = true;
  Decider(*this, body, boxes).run();
}

Value StorageViews::getViewedValue(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<flow::TensorSliceOp, flow::TensorCloneOp>(
          [](Operation *copy) { return copy->getResult(0); })
      .Case([](flow::TensorUpdateOp update) { return update.getUpdate(); })
      .Default([](Operation *) { return Value(); });
}

void StorageViews::print(llvm::raw_ostream &os) const {
  for (unsigned classIndex = 0, e = viewOps.size(); classIndex < e;
       ++classIndex) {
    Operation *op = viewOps[classIndex];
    if (!op)
      continue;
    os << "class " << classIndex << " = view of class "
       << sourceClasses[classIndex] << " (root " << roots[classIndex] << ") by "
       << op->getName() << " at index " << liveness.getOpIndex(op) << "\n";
  }
}

void StorageViews::dump() const { print(llvm::errs()); }

} // namespace streamhal
