//===- Passes.h - flow transformation passes --------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_H
#define STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"

namespace streamhal::flow {

#define GEN_PASS_DECL
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"

} // namespace streamhal::flow

#endif // STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_H
