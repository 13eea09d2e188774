//===- CopyOnWrite.h - value semantics made explicit ------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every flow tensor value is immutable; a tie only allows a result to reuse
// its operand's storage. These entry points make every copy that value
// semantics needs explicit (docs/lowering.md, "Value semantics: copy on
// write"), so that the lowering that follows may write in place wherever the
// IR says it may, and elision (views, update sinks) only removes copies.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_TRANSFORMS_COPYONWRITE_H
#define STREAMHAL_DIALECT_FLOW_TRANSFORMS_COPYONWRITE_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

namespace streamhal::flow {

/// What the copy-on-write materialization changed.
struct CopyOnWriteStats {
  /// Results tied to operands a kernel writes through a writable binding
  /// (the in-place write made explicit).
  unsigned writesTied = 0;
  /// `flow.tensor.clone`s inserted in front of in-place writes.
  unsigned clonesInserted = 0;
  /// Fragment result ties dropped (the result gets storage of its own).
  unsigned tiesDropped = 0;
  /// Clones removed because source and result were one storage and the
  /// source was dead after the clone (a copy onto itself).
  unsigned identityClonesRemoved = 0;
  /// Copy fragments inserted in front of host writes and calls that would
  /// write a value still needed.
  unsigned copyFragmentsInserted = 0;
  /// Fragment results tied to a function argument the function clones and
  /// then writes (argument moves).
  unsigned argumentsMoved = 0;
  /// Returned clones replaced by their source, read-only afterwards (the
  /// results share one storage).
  unsigned readOnlyClonesShared = 0;

  /// The functions and initializers it changed (and the fragments outside
  /// both it changed): an analysis of a fragment elsewhere still holds.
  llvm::SmallVector<mlir::Operation *> changedScopes;

  CopyOnWriteStats &operator+=(const CopyOnWriteStats &other);
  bool changed() const {
    return writesTied || clonesInserted || tiesDropped ||
           identityClonesRemoved || copyFragmentsInserted || argumentsMoved ||
           readOnlyClonesShared;
  }
};

/// Makes the copies of one fragment body explicit. `donatedArguments[j]`
/// says whether the caller gives up operand `j`'s storage (a fragment result
/// is tied to it and nothing needs the operand after the fragment); ties of
/// results to operands that are not donated must already be dropped. May
/// drop further result ties (a tied result whose value cannot be computed in
/// the operand's storage) and insert clones in front of in-place writes.
CopyOnWriteStats materializeFragmentCopyOnWrite(ExStreamFragmentOp fragment);

/// Moves each splat or clone that is the target of a chain of updates in
/// front of the first piece written into it (when its operands are
/// available there), so that the pieces can be computed in the target's
/// box. Leaves scheduled bodies alone. Returns the number of targets moved.
unsigned emplaceUpdateTargets(ExStreamFragmentOp fragment);

/// Rewrites every `#hal.ex.constant_storage` binding of a dispatch in
/// `fragment` whose pool offset the module's binding offset alignment does
/// not divide into an operand binding of a `hal.constant.subspan` of the
/// same bytes (one per pool range), which the storage plan copies into
/// aligned storage. Returns the number of bindings rewritten.
unsigned readMisalignedConstantStorage(ExStreamFragmentOp fragment);

/// Runs the whole materialization on a module: per function, in call-graph
/// order (callees first), the function-level decisions (which fragment
/// operands, host writes and call operands may be written in place) and
/// then each fragment body. Idempotent: a second run changes nothing.
CopyOnWriteStats materializeCopyOnWrite(mlir::ModuleOp module);

} // namespace streamhal::flow

#endif // STREAMHAL_DIALECT_FLOW_TRANSFORMS_COPYONWRITE_H
