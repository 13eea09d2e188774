//===- OperandStorage.h - which fragment operands share storage -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calling convention (docs/lowering.md, "Value semantics") makes two
// distinct tensor arguments of a function distinct buffers. Two operands of
// a fragment are then one buffer only when the program shows it: the same
// value passed twice, values that one earlier fragment returns from one
// storage (or from one of its operands), casts of one value, or arguments
// that a call in the module passes one value for.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_OPERANDSTORAGE_H
#define STREAMHAL_ANALYSIS_OPERANDSTORAGE_H

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/SmallVector.h"

namespace streamhal {

/// Groups the operands of `fragment` by the buffer they may be: operands
/// with the same group number may share bytes, operands with different ones
/// never do. Returns one group per entry of `fragment.getArguments()`
/// (non-tensor operands get groups of their own). Values whose storage the
/// analysis cannot trace (call results, globals, constants, anything else)
/// all fall into one group, which is conservative.
llvm::SmallVector<unsigned>
groupOperandStorage(flow::ExStreamFragmentOp fragment);

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_OPERANDSTORAGE_H
