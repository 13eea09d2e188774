//===- HostReadability.h - which fragment results the host reads -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decides, before the lowering, which results of `flow.ex.stream.fragment`s
// the host may read once they are buffers, so that the lowering can put the
// others in device-local memory (docs/lowering.md, "Output memory").
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_HOSTREADABILITY_H
#define STREAMHAL_ANALYSIS_HOSTREADABILITY_H

#include "mlir/IR/Operation.h"
#include "mlir/Pass/AnalysisManager.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

namespace streamhal {

/// Which tensor results of the stream fragments under a root op the host can
/// read (or write) after the lowering.
///
/// A fragment result is *device-only* when every use of it is a tensor
/// operand of a `flow.ex.stream.fragment` and no result of that fragment
/// sharing its storage (a result whose returned value is in the alias class
/// of the operand's block argument: a tied result, or the argument returned
/// as is) is host-readable. Every other use (`func.return`, `func.call`,
/// `util.global.store`, `hal.tensor.cast`, `flow.tensor.load/store`, and any
/// op the analysis does not know) makes it host-readable. The fixpoint is
/// computed once by the constructor with a worklist, in time linear in the
/// number of fragment results, operands and uses; it never modifies the IR.
class HostReadability {
public:
  /// Analyses every fragment under `root` (except inside `hal.executable`s),
  /// computing the alias classes of each.
  explicit HostReadability(mlir::Operation *root);
  /// The form `getAnalysis<HostReadability>()` builds: the alias classes are
  /// the `ValueAliasing` analyses of the fragments in the same manager.
  HostReadability(mlir::Operation *root, mlir::AnalysisManager &analyses);
  ~HostReadability();

  /// Decided from the uses of the tensors and the fragments' alias classes.
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &kept) {
    return !kept.isPreserved<HostReadability>() ||
           !kept.isPreserved<ValueAliasing>();
  }

  /// Returns false only for a tensor result of a fragment that the analysis
  /// proved device-only; true for every other value.
  bool isHostReadable(mlir::Value value) const {
    return !deviceOnly.contains(value);
  }

  /// Number of fragment results proved device-only.
  unsigned getNumDeviceOnly() const { return deviceOnly.size(); }

  /// Prints one line per fragment in IR order: `fragment N: host, device,
  /// -` (one entry per result; `-` for a non-tensor result).
  void print(llvm::raw_ostream &os) const;
  /// Prints to stderr, for debuggers.
  void dump() const;

private:
  HostReadability(mlir::Operation *root, mlir::AnalysisManager *analyses);

  llvm::SmallVector<flow::ExStreamFragmentOp> fragments;
  llvm::DenseSet<mlir::Value> deviceOnly;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_HOSTREADABILITY_H
