//===- StorageViews.cpp - slices and clones that share storage ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/StorageViews.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include <set>

#define DEBUG_TYPE "streamhal-storage-views"

using namespace mlir;

namespace streamhal {

namespace {

/// What the decision needs to know of each alias class, then of each group
/// of classes sharing one storage (kept at the group's root).
struct ClassFacts {
  /// Op indices of the in-place writes to the class (or group).
  std::set<int64_t> writes;
  /// Holds a block argument or a constant subspan: storage of its own that
  /// lives beyond the fragment.
  bool fixed = false;
  /// Holds a returned value.
  bool returned = false;
  /// Holds a constant subspan: read-only.
  bool constant = false;
};

/// A constant byte range `[offset, offset + length)` inside a root's storage.
struct StaticBytes {
  int64_t offset;
  int64_t length;
  bool overlaps(const StaticBytes &other) const {
    return offset < other.offset + other.length &&
           other.offset < offset + length;
  }
};

/// The bytes a view's result covers inside its source's storage, when the
/// shapes, the element type and the starts are constants.
std::optional<StaticBytes> getStaticViewBytes(Operation *op) {
  Value result = op->getResult(0);
  std::optional<int64_t> length = util::getStaticByteSize(result.getType());
  if (!length)
    return std::nullopt;
  auto slice = dyn_cast<flow::TensorSliceOp>(op);
  if (!slice)
    return StaticBytes{0, *length};
  auto sourceType = dyn_cast<ShapedType>(slice.getSource().getType());
  if (!sourceType || !sourceType.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes =
      util::getElementByteCount(sourceType.getElementType());
  if (!elementBytes)
    return std::nullopt;
  int64_t offset = 0;
  for (auto [start, extent] :
       llvm::zip_equal(slice.getStartIndices(), sourceType.getShape())) {
    std::optional<int64_t> constant =
        flow::getConstantIntThroughCaptures(start);
    // In bounds (checked by the lowering), so no overflow below.
    if (!constant || *constant < 0 || *constant >= extent)
      return std::nullopt;
    offset = offset * extent + *constant;
  }
  return StaticBytes{offset * *elementBytes, *length};
}

/// Returns true when `writes` has an index within [first, last].
bool writesWithin(const std::set<int64_t> &writes, int64_t first,
                  int64_t last) {
  auto it = writes.lower_bound(first);
  return it != writes.end() && *it <= last;
}

} // namespace

StorageViews::StorageViews(
    flow::ExStreamFragmentOp fragment, const LivenessIntervals &liveness,
    llvm::function_ref<bool(flow::TensorSliceOp)> isContiguousSlice, bool elide)
    : liveness(liveness) {
  const ValueAliasing &aliasing = liveness.getAliasing();
  unsigned numClasses = aliasing.getNumClasses();
  viewOps.assign(numClasses, nullptr);
  roots.resize(numClasses);
  rootIntervals.resize(numClasses);
  rootReturned.assign(numClasses, false);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex) {
    roots[classIndex] = classIndex;
    rootIntervals[classIndex] = liveness.getClassInterval(classIndex);
  }
  if (fragment.getBody().empty())
    return;

  Block &body = fragment.getBody().front();
  SmallVector<ClassFacts> facts(numClasses);
  auto classOf = [&](Value value) -> std::optional<unsigned> {
    if (!aliasing.getOrdinal(value))
      return std::nullopt;
    return aliasing.getClassIndex(value);
  };
  for (BlockArgument argument : body.getArguments())
    if (std::optional<unsigned> classIndex = classOf(argument))
      facts[*classIndex].fixed = true;
  for (Value returned : body.getTerminator()->getOperands())
    if (std::optional<unsigned> classIndex = classOf(returned)) {
      facts[*classIndex].returned = true;
      rootReturned[*classIndex] = true;
    }
  for (Operation &op : body.without_terminator()) {
    auto markWritten = [&](Value target) {
      if (std::optional<unsigned> classIndex = classOf(target))
        facts[*classIndex].writes.insert(liveness.getOpIndex(&op));
    };
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](hal::ConstantSubspanOp constant) {
          ClassFacts &classFacts = facts[*classOf(constant.getResult())];
          classFacts.fixed = classFacts.constant = true;
        })
        .Case([&](flow::TensorUpdateOp update) {
          markWritten(update.getTarget());
        })
        .Case(
            [&](flow::TensorStoreOp store) { markWritten(store.getTarget()); })
        .Case([&](flow::DispatchOp dispatch) {
          for (unsigned result = 0, e = dispatch.getNumResults(); result < e;
               ++result)
            if (std::optional<unsigned> operand =
                    dispatch.getTiedResultOperandIndex(result))
              markWritten(dispatch->getOperand(*operand));
        });
  }
  if (!elide)
    return;

  // Byte range of each view class inside its root, when constant.
  SmallVector<std::optional<StaticBytes>> rootBytes(numClasses);
  // Per root: the bytes of its returned views, and whether the root class
  // itself is returned (all of its bytes belong to that result).
  SmallVector<SmallVector<StaticBytes, 2>> returnedBytes(numClasses);
  SmallVector<bool> wholeReturned(numClasses);
  for (unsigned classIndex = 0; classIndex < numClasses; ++classIndex)
    wholeReturned[classIndex] = facts[classIndex].returned;

  for (Operation &op : body.without_terminator()) {
    Value source, result;
    if (auto clone = dyn_cast<flow::TensorCloneOp>(op)) {
      source = clone.getOperand();
      result = clone.getResult();
    } else if (auto slice = dyn_cast<flow::TensorSliceOp>(op)) {
      if (!isContiguousSlice(slice))
        continue;
      source = slice.getSource();
      result = slice.getResult();
    } else {
      continue;
    }
    std::optional<unsigned> sourceClass = classOf(source);
    std::optional<unsigned> viewClass = classOf(result);
    if (!sourceClass || !viewClass || *sourceClass == *viewClass)
      continue;
    unsigned root = roots[*sourceClass];
    ClassFacts &group = facts[root];
    ClassFacts &view = facts[*viewClass];
    // The view's own class has not been merged into anything yet: all of
    // its members are defined at or after the op.
    if (view.fixed)
      continue;
    int64_t defined = liveness.getOpIndex(&op);
    int64_t viewEnd = liveness.getClassInterval(*viewClass).second;
    bool groupOutlives = group.fixed || group.returned;
    int64_t groupEnd = groupOutlives ? LivenessIntervals::kLiveOut
                                     : rootIntervals[root].second;
    auto decline = [&](StringRef why) {
      LLVM_DEBUG(llvm::dbgs() << "keeps the copy of " << op.getName() << " at "
                              << op.getLoc() << ": " << why << "\n");
    };
    // Where the view lies in the root's storage, when constant.
    std::optional<StaticBytes> bytes;
    if (std::optional<StaticBytes> inSource = getStaticViewBytes(&op)) {
      if (*sourceClass == root)
        bytes = inSource;
      else if (std::optional<StaticBytes> sourceBytes = rootBytes[*sourceClass])
        bytes = StaticBytes{sourceBytes->offset + inSource->offset,
                            inSource->length};
    }
    // A returned view is part of the root's output allocation: the root must
    // be a transient that is not returned whole, and the view's bytes must
    // be known and disjoint from those of every other returned view of it,
    // so that each result the caller gets is bytes of its own.
    if (view.returned) {
      if (group.fixed || wholeReturned[root] || !bytes ||
          llvm::any_of(returnedBytes[root], [&](const StaticBytes &other) {
            return other.overlaps(*bytes);
          })) {
        decline("returned view of bytes that are not the result's alone");
        continue;
      }
    }
    if (writesWithin(group.writes, defined, viewEnd)) {
      decline("the source is written in place while the view is live");
      continue;
    }
    if ((group.constant && !view.writes.empty()) ||
        writesWithin(view.writes, defined, groupEnd)) {
      decline("the view is written in place while the source is live");
      continue;
    }

    rootBytes[*viewClass] = bytes;
    if (view.returned)
      returnedBytes[root].push_back(*bytes);
    viewOps[*viewClass] = &op;
    roots[*viewClass] = root;
    ++numViews;
    group.writes.insert(view.writes.begin(), view.writes.end());
    group.returned |= view.returned;
    rootReturned[root] = group.returned;
    auto [viewStart, viewStop] = liveness.getClassInterval(*viewClass);
    rootIntervals[root].first = std::min(rootIntervals[root].first, viewStart);
    rootIntervals[root].second = std::max(rootIntervals[root].second, viewStop);
  }
}

void StorageViews::print(llvm::raw_ostream &os) const {
  const ValueAliasing &aliasing = liveness.getAliasing();
  for (unsigned classIndex = 0, e = viewOps.size(); classIndex < e;
       ++classIndex) {
    Operation *op = viewOps[classIndex];
    if (!op)
      continue;
    unsigned source = aliasing.getClassIndex(op->getOperand(0));
    os << "class " << classIndex << " = view of class " << source << " (root "
       << roots[classIndex] << ") by " << op->getName() << " at index "
       << liveness.getOpIndex(op) << "\n";
  }
}

void StorageViews::dump() const { print(llvm::errs()); }

} // namespace streamhal
