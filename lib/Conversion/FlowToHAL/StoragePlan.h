//===- StoragePlan.h - buffer ranges of a fragment's values -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 3 of the lowering: one buffer range per alias class. Inputs reuse the
// converted operands, outputs get their own allocations, constant subspans
// view their pool, and every transient shares one slab packed by lifetime.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_STORAGEPLAN_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_STORAGEPLAN_H

#include "FragmentState.h"

namespace streamhal {

/// The storage kind of every alias class of a fragment, in class order.
/// A class holding a constant subspan keeps the pool's bytes only while
/// nothing writes it in place and it is not returned; otherwise it gets its
/// own storage (an output or a transient) that the recorder fills with a copy
/// of the constant. Fails, reporting at the culprit, when a class would need
/// two storages (two operands, or an operand and a constant, alias each
/// other).
mlir::FailureOr<llvm::SmallVector<StorageKind>>
classifyAliasClasses(flow::ExStreamFragmentOp fragment,
                     const ValueAliasing &aliasing);

/// Applies the views of a fragment to the storage kinds of its classes: a
/// view class becomes StorageKind::View, and a transient root whose group
/// holds a returned view becomes an output.
void applyStorageViews(const StorageViews &views,
                       llvm::MutableArrayRef<StorageKind> kinds);

/// Emits the allocations of a fragment and records every class's range in
/// the fragment state. Run after classifyAliasClasses succeeded.
class StoragePlan {
public:
  /// `outputMemoryType`, when set, is the memory type of every output
  /// (usage `All`). Otherwise an output is host-visible (usage `All`) when
  /// `hostReadableResults` marks one of the fragment results it stands for,
  /// and device-local (usage `Dispatch|Transfer`) when it marks none.
  /// `hostReadableResults` has one entry per fragment result.
  StoragePlan(FragmentState &state,
              std::optional<hal::MemoryType> outputMemoryType,
              llvm::ArrayRef<bool> hostReadableResults)
      : state(state), kinds(state.getStorageKinds()),
        outputMemoryType(outputMemoryType),
        hostReadableResults(hostReadableResults) {}

  /// Emits inputs, outputs (in result order), constant subspans, the
  /// transient slab, then the views, in that order.
  void materialize();

  /// Number of transient classes packed into the slab.
  unsigned getNumTransients() const { return numTransients; }

private:
  void assignInputs();
  void assignOutputs();
  void assignConstants();
  void assignTransients();
  void assignViews();

  FragmentState &state;
  llvm::ArrayRef<StorageKind> kinds;
  std::optional<hal::MemoryType> outputMemoryType;
  llvm::ArrayRef<bool> hostReadableResults;
  unsigned numTransients = 0;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_STORAGEPLAN_H
