//===- LivenessIntervals.h - live ranges of fragment values -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 2 of the fragment lowering (docs/lowering.md, "Liveness intervals"):
// a closed interval of op indices per tensor value of one
// `flow.ex.stream.fragment` body, unioned over each alias class.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_LIVENESSINTERVALS_H
#define STREAMHAL_ANALYSIS_LIVENESSINTERVALS_H

#include "mlir/Pass/AnalysisManager.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <limits>
#include <utility>

namespace streamhal {

/// The closed interval `[start, end]` of body op indices during which a value
/// (and, after the class union, its whole alias class) needs its storage.
struct LiveInterval {
  mlir::Value value;
  int64_t start;
  int64_t end;
  /// Ordinal of `value` in ValueAliasing::getValues().
  unsigned ordinal;

  /// Returns true when the storage is live on entry to the fragment.
  bool isLiveIn() const;
  /// Returns true when the storage is live after the fragment.
  bool isLiveOut() const;
};

/// Liveness intervals of the tensor values of one flow.ex.stream.fragment.
///
/// The index of an op is its position in the body block (0, 1, 2, ...; every
/// op counts, constants and the terminator too). For every tracked value:
///  - `start` is kLiveIn for a block argument, else the index of the defining
///    op;
///  - `end` is kLiveOut when `flow.return` returns the value, else the largest
///    index among its users (a user nested in a region of a body op counts as
///    that body op), or `start` when it has no user;
///  - then every member of an alias class gets the union (hull) of the
///    intervals of the class.
///
/// Scheduled bodies: when any body op carries the discardable integer
/// attribute `flow.wave` (set by --flow-schedule-fragments), indices count
/// waves instead of ops: an op with the attribute gets its wave, any other
/// op the wave of the closest op before it that has one (0 when none). All
/// ops of one wave then share one index, so values live in one wave never
/// share bytes in the pack. Waves that decrease somewhere along the body are
/// ignored (indices stay op positions): they would end an interval before a
/// later use.
///
/// Computed once by the constructor in time linear in the number of values
/// and uses; never modifies the IR. The object keeps a reference to
/// `aliasing`, which must outlive it (a temporary cannot be passed).
class LivenessIntervals {
public:
  /// Start of a value live on entry; below every op index.
  static constexpr int64_t kLiveIn = -1;
  /// End of a value live after the fragment; above every op index.
  static constexpr int64_t kLiveOut = std::numeric_limits<int64_t>::max();

  /// With `useWaves` false, indices are op positions even in a scheduled
  /// body (the order in which conflicting commands run).
  LivenessIntervals(flow::ExStreamFragmentOp fragment,
                    const ValueAliasing &aliasing, bool useWaves = true);
  LivenessIntervals(flow::ExStreamFragmentOp fragment, ValueAliasing &&aliasing,
                    bool useWaves = true) = delete;
  /// The form `getAnalysis<LivenessIntervals>()` builds: the alias classes
  /// come from the same analysis manager (`fragment` must be a
  /// `flow.ex.stream.fragment`), waves are used when present.
  LivenessIntervals(mlir::Operation *fragment, mlir::AnalysisManager &analyses)
      : LivenessIntervals(mlir::cast<flow::ExStreamFragmentOp>(fragment),
                          analyses.getAnalysis<ValueAliasing>()) {}
  /// Cached intervals refer to the cached alias classes: both must stay.
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &kept) {
    return !kept.isPreserved<LivenessIntervals>() ||
           !kept.isPreserved<ValueAliasing>();
  }

  /// The alias classes the intervals were unioned over.
  const ValueAliasing &getAliasing() const { return aliasing; }

  /// One interval per tensor value, sorted by ordinal (IR order), already
  /// unioned per alias class.
  llvm::ArrayRef<LiveInterval> getIntervals() const { return intervals; }

  /// Returns the interval of a tracked value. For a value the analysis does
  /// not track, returns an interval with a null value and an empty range
  /// (`start > end`).
  const LiveInterval &getInterval(mlir::Value value) const;

  /// The interval of alias class `classIndex` (union of its members).
  /// An invalid class number gives an empty range (`start > end`).
  std::pair<int64_t, int64_t> getClassInterval(unsigned classIndex) const;

  /// Index of an op of the fragment body (every op counts, constants too;
  /// the terminator too). An op nested in a region of a body op gets the
  /// index of that body op; an op outside the fragment gets kLiveIn.
  int64_t getOpIndex(mlir::Operation *op) const;

  /// Returns true when indices are waves (the body was scheduled).
  bool isWaveIndexed() const { return waveIndexed; }

  /// Returns the number of ops in the body block.
  int64_t getNumOps() const { return numOps; }

  /// Prints the interval and class of `value` as `[start, end] class C`,
  /// with `in` / `out` for the live-in / live-out sentinels.
  void printInterval(llvm::raw_ostream &os, mlir::Value value) const;
  /// Prints the interval of alias class `classIndex` as `[start, end]`,
  /// with the sentinels as `in` and `out`.
  void printClassInterval(llvm::raw_ostream &os, unsigned classIndex) const;
  /// Prints one line per tracked value in ordinal order:
  /// `<ordinal> <argN | op name> [start, end] class C`.
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  const ValueAliasing &aliasing;
  /// The body block, or null for a fragment without one.
  mlir::Block *body = nullptr;
  int64_t numOps = 0;
  bool waveIndexed = false;
  /// Index of each body op without a tracked result; the others are found
  /// through definingOpIndices.
  llvm::DenseMap<mlir::Operation *, int64_t> untrackedOpIndices;
  /// Index of the defining op of each tracked value, by ordinal (kLiveIn for
  /// block arguments).
  llvm::SmallVector<int64_t> definingOpIndices;
  llvm::SmallVector<LiveInterval> intervals;
  llvm::SmallVector<std::pair<int64_t, int64_t>> classIntervals;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_LIVENESSINTERVALS_H
