//===- LivenessIntervals.cpp - live ranges of fragment values -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/LivenessIntervals.h"
#include "RecentOrdinalCache.h"
#include <algorithm>

using namespace mlir;
using namespace streamhal;

bool LiveInterval::isLiveIn() const {
  return start == LivenessIntervals::kLiveIn;
}

bool LiveInterval::isLiveOut() const {
  return end == LivenessIntervals::kLiveOut;
}

LivenessIntervals::LivenessIntervals(flow::ExStreamFragmentOp fragment,
                                     const ValueAliasing &aliasing,
                                     bool useWaves)
    : aliasing(aliasing) {
  Region &region = fragment.getBody();
  if (!region.empty())
    body = &region.front();

  // One forward scan over the body. Results are met in ordinal order, so
  // their intervals are appended without a lookup; the ops are met in index
  // order, so the last user seen is the one with the largest index. Most
  // operands were defined shortly before their user and are found in a small
  // cache; the others are looked up after the scan, in a tight loop.
  ArrayRef<Value> values = aliasing.getValues();
  intervals.reserve(values.size());
  definingOpIndices.reserve(values.size());
  detail::RecentOrdinalCache recent;
  SmallVector<std::pair<Value, int64_t>> deferredUses;
  unsigned nextOrdinal = 0;
  auto addInterval = [&](Value value, int64_t start) {
    // Tracked values are exactly the tensor values met in this order.
    if (nextOrdinal >= values.size() || values[nextOrdinal] != value)
      return;
    intervals.push_back({value, start, start, nextOrdinal});
    definingOpIndices.push_back(start);
    recent.insert(value, nextOrdinal);
    ++nextOrdinal;
  };
  auto noteUse = [&](Value value, int64_t index) {
    if (!ValueAliasing::isTrackedType(value.getType()))
      return;
    std::optional<unsigned> ordinal = recent.lookup(value);
    if (!ordinal) {
      if (!isa<BlockArgument>(value)) {
        deferredUses.emplace_back(value, index);
        return;
      }
      // Block arguments are found in a table, without a hash probe.
      ordinal = aliasing.getOrdinal(value);
    }
    if (ordinal && *ordinal < intervals.size())
      intervals[*ordinal].end = std::max(intervals[*ordinal].end, index);
  };
  if (body) {
    for (BlockArgument argument : body->getArguments())
      addInterval(argument, kLiveIn);
    Operation *terminator = body->empty() ? nullptr : &body->back();
    // Waves are trusted only when they never decrease along the body (the
    // scheduler's order): then every use of a value lies in a wave no later
    // than its interval's end, and anything in a later wave comes after all
    // those uses. Otherwise indices stay op positions.
    std::optional<int64_t> lastWave;
    bool monotone = true;
    for (Operation &op : *body) {
      std::optional<int64_t> opWave = flow::getWave(&op);
      if (!opWave)
        continue;
      monotone &= !lastWave || *lastWave <= *opWave;
      lastWave = opWave;
    }
    waveIndexed = useWaves && lastWave.has_value() && monotone;
    int64_t wave = 0;
    for (Operation &op : *body) {
      int64_t index = numOps++;
      if (waveIndexed) {
        if (std::optional<int64_t> opWave = flow::getWave(&op))
          wave = std::min(*opWave, kLiveOut - 1);
        index = wave;
      }
      // Returned values stay live after the fragment.
      int64_t useIndex =
          (&op == terminator && isa<flow::ReturnOp>(op)) ? kLiveOut : index;
      for (Value operand : op.getOperands())
        noteUse(operand, useIndex);
      // Uses nested in the op's regions count as uses by the op. Values
      // defined in the regions are not tracked and get no interval.
      if (op.getNumRegions() != 0)
        op.walk([&](Operation *nested) {
          if (nested != &op)
            for (Value operand : nested->getOperands())
              noteUse(operand, useIndex);
        });
      unsigned firstOrdinal = nextOrdinal;
      for (Value result : op.getResults())
        addInterval(result, index);
      // An op with a tracked result finds its index through that result.
      if (nextOrdinal == firstOrdinal)
        untrackedOpIndices.try_emplace(&op, index);
    }
    for (auto [value, index] : deferredUses) {
      std::optional<unsigned> ordinal = aliasing.getOrdinal(value);
      if (ordinal && *ordinal < intervals.size())
        intervals[*ordinal].end = std::max(intervals[*ordinal].end, index);
    }
  }

  // Hull of each class, then every member gets it.
  unsigned numClasses = aliasing.getNumClasses();
  classIntervals.assign(numClasses, {kLiveOut, kLiveIn});
  for (const LiveInterval &interval : intervals) {
    unsigned classIndex = aliasing.getClassIndexOfOrdinal(interval.ordinal);
    if (classIndex >= numClasses)
      continue;
    std::pair<int64_t, int64_t> &hull = classIntervals[classIndex];
    hull.first = std::min(hull.first, interval.start);
    hull.second = std::max(hull.second, interval.end);
  }
  for (LiveInterval &interval : intervals) {
    unsigned classIndex = aliasing.getClassIndexOfOrdinal(interval.ordinal);
    if (classIndex >= numClasses)
      continue;
    const std::pair<int64_t, int64_t> &hull = classIntervals[classIndex];
    interval.start = hull.first;
    interval.end = hull.second;
  }
}

const LiveInterval &LivenessIntervals::getInterval(Value value) const {
  static const LiveInterval kUntracked = {Value(), kLiveOut, kLiveIn, ~0u};
  std::optional<unsigned> ordinal = aliasing.getOrdinal(value);
  if (!ordinal || *ordinal >= intervals.size())
    return kUntracked;
  return intervals[*ordinal];
}

std::pair<int64_t, int64_t>
LivenessIntervals::getClassInterval(unsigned classIndex) const {
  if (classIndex >= classIntervals.size())
    return {kLiveOut, kLiveIn};
  return classIntervals[classIndex];
}

int64_t LivenessIntervals::getOpIndex(Operation *op) const {
  if (!op || !body)
    return kLiveIn;
  Operation *ancestor = body->findAncestorOpInBlock(*op);
  if (!ancestor)
    return kLiveIn;
  for (Value result : ancestor->getResults())
    if (std::optional<unsigned> ordinal = aliasing.getOrdinal(result))
      return *ordinal < definingOpIndices.size() ? definingOpIndices[*ordinal]
                                                 : kLiveIn;
  auto it = untrackedOpIndices.find(ancestor);
  return it == untrackedOpIndices.end() ? kLiveIn : it->second;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints one end of an interval, with the sentinels as `in` and `out`.
static void printBound(llvm::raw_ostream &os, int64_t bound) {
  if (bound == LivenessIntervals::kLiveIn)
    os << "in";
  else if (bound == LivenessIntervals::kLiveOut)
    os << "out";
  else
    os << bound;
}

void LivenessIntervals::printInterval(llvm::raw_ostream &os,
                                      Value value) const {
  const LiveInterval &interval = getInterval(value);
  os << "[";
  printBound(os, interval.start);
  os << ", ";
  printBound(os, interval.end);
  os << "] class " << aliasing.getClassIndex(value);
}

void LivenessIntervals::printClassInterval(llvm::raw_ostream &os,
                                           unsigned classIndex) const {
  auto [start, end] = getClassInterval(classIndex);
  os << "[";
  printBound(os, start);
  os << ", ";
  printBound(os, end);
  os << "]";
}

void LivenessIntervals::print(llvm::raw_ostream &os) const {
  for (const LiveInterval &interval : intervals) {
    aliasing.printValue(os, interval.value);
    os << " ";
    printInterval(os, interval.value);
    os << "\n";
  }
}

void LivenessIntervals::dump() const { print(llvm::errs()); }
