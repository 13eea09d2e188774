//===- Transients.h - The transient-memory calling convention --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The attributes that mark a function's transient slab and, with external
// transients, the argument the caller passes it in and the query that sizes
// it (docs/lowering.md, "Transients per function"). The lowering writes
// them; the executor reads them to supply the buffer.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H
#define STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H

#include "llvm/ADT/StringRef.h"

namespace streamhal::hal {

/// Unit attribute on the `hal.allocator.allocate` of a block's one transient
/// slab (`--hal-plan-function-transients`).
inline constexpr llvm::StringLiteral kFunctionTransientsAttrName =
    "hal.ex.function_transients";

/// Unit argument attribute on the trailing `!hal.buffer` argument through
/// which the caller provides a public function's transient memory.
inline constexpr llvm::StringLiteral kTransientsArgAttrName =
    "hal.ex.transients";

/// Function attribute naming (flat symbol reference) the query that returns
/// how many bytes that argument needs, given the other arguments.
inline constexpr llvm::StringLiteral kTransientSizeAttrName =
    "hal.ex.transient_size";

/// The suffix of the query's name: `@f` gets `@f_transient_size`.
inline constexpr llvm::StringLiteral kTransientSizeSuffix = "_transient_size";

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H
