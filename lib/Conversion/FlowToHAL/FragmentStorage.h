//===- FragmentStorage.h - buffer ranges of a fragment's values -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The storage of a planned fragment made real: one buffer range per alias
// class. Inputs reuse the converted operands, outputs get their own
// allocations, constant subspans view their pool, every transient shares one
// slab packed by lifetime (`hal.allocator.pack`), and views are subspans of
// the storage they sit in.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTORAGE_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTORAGE_H

#include "FragmentBuilder.h"
#include "FragmentPlan.h"

namespace streamhal {

/// The bytes a tensor value occupies: the whole of `buffer` up to `length`.
/// Every range starts at offset 0 of its buffer (transients and constants
/// get their own `hal.buffer.subspan`).
struct BufferRange {
  mlir::Value buffer;
  mlir::Value length;
  /// When set, a buffer at the same start holding `fillLength` bytes (the
  /// length rounded up to 4) that belong to this range's storage only: a
  /// splat fills that instead (fills take 4-byte aligned lengths).
  mlir::Value fillBuffer;
  mlir::Value fillLength;
};

/// How the outputs of a fragment are allocated.
struct OutputAllocation {
  /// When set, the memory type of every output (usage `All`). Otherwise an
  /// output is host-visible (usage `All`) when `hostReadableResults` marks
  /// one of the fragment results it stands for, and device-local (usage
  /// `Dispatch|Transfer`) when it marks none.
  std::optional<hal::MemoryType> memoryType;
  /// One entry per fragment result.
  llvm::ArrayRef<bool> hostReadableResults;
};

/// The buffer range of every alias class of one fragment.
class FragmentStorage {
public:
  /// Emits the storage `plan` decides, in front of the fragment: inputs
  /// (the converted fragment operands), outputs in result order, constant
  /// subspans, the transient slab, then the views.
  FragmentStorage(const FragmentPlan &plan, FragmentBuilder &builder,
                  mlir::ValueRange convertedArguments,
                  const OutputAllocation &outputs);

  /// The range of a tensor value of the body.
  BufferRange getRange(mlir::Value tensor) const {
    return ranges[plan.getAliasing().getClassIndex(tensor)];
  }
  /// Number of transient classes packed into the slab.
  unsigned getNumTransients() const { return numTransients; }
  /// The 4-byte slab slice a splat filling storage of exactly its size
  /// (an operand's) fills with its pattern, to copy the last `size % 4`
  /// bytes from when they are not a whole fill (a size below 4 or unknown
  /// at compile time), or null when the splat needs none
  /// (needsFillScratch).
  mlir::Value getFillScratch(flow::TensorSplatOp splat) const {
    return fillScratch.lookup(splat);
  }

private:
  class Materializer;

  const FragmentPlan &plan;
  llvm::SmallVector<BufferRange> ranges;
  llvm::DenseMap<mlir::Operation *, mlir::Value> fillScratch;
  unsigned numTransients = 0;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTORAGE_H
