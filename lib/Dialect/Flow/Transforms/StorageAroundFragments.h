//===- StorageAroundFragments.h - what copy on write asks of a block ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Questions copy on write asks of the ops around fragments in a function:
// whether a global's loaded storage may be updated in place, and which dims
// a copy in front of an op can use.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_STORAGEAROUNDFRAGMENTS_H
#define STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_STORAGEAROUNDFRAGMENTS_H

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include <optional>

namespace streamhal::flow {

/// True when `fragment`, whose operand `operand` is the value `load` read
/// from a global, stores its result tied to that operand back into the same
/// global before anything else can read the global: then the global's old
/// bytes are never seen again and the update may be in place (a KV-cache
/// step, a training state).
bool isGlobalRoundTrip(util::GlobalLoadOp load, ExStreamFragmentOp fragment,
                       unsigned operand);

/// Finds the dims of `value` usable in front of `before`: none for a static
/// shape, std::nullopt when no dims defined before `before` are known.
std::optional<llvm::SmallVector<mlir::Value>> findDims(mlir::Value value,
                                                       mlir::Operation *before);

} // namespace streamhal::flow

#endif // STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_STORAGEAROUNDFRAGMENTS_H
