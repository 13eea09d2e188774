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

/// Where the storage of an alias class comes from.
enum class StorageKind {
  Input,     ///< a fragment operand (block argument)
  Constant,  ///< a hal.constant.subspan of a pool global
  Output,    ///< returned, not an input or constant: a new allocation
  Transient, ///< born and dead inside the fragment: a slice of the slab
};

/// The storage kind of every alias class of a fragment, in class order.
/// Fails, reporting at the culprit, when a class would need two storages
/// (two operands, or an operand and a constant, alias each other).
mlir::FailureOr<llvm::SmallVector<StorageKind>>
classifyAliasClasses(flow::ExStreamFragmentOp fragment,
                     const ValueAliasing &aliasing);

/// Emits the allocations of a fragment and records every class's range in
/// the fragment state. Run after classifyAliasClasses succeeded.
class StoragePlan {
public:
  StoragePlan(FragmentState &state, llvm::ArrayRef<StorageKind> kinds,
              hal::MemoryType outputMemoryType)
      : state(state), kinds(kinds), outputMemoryType(outputMemoryType) {}

  /// Emits inputs, outputs (in result order), constant subspans and the
  /// transient slab, in that order.
  void materialize();

  /// Number of transient classes packed into the slab.
  unsigned getNumTransients() const { return numTransients; }

private:
  void assignInputs();
  void assignOutputs();
  void assignConstants();
  void assignTransients();

  FragmentState &state;
  llvm::ArrayRef<StorageKind> kinds;
  hal::MemoryType outputMemoryType;
  unsigned numTransients = 0;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_STORAGEPLAN_H
