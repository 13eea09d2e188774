//===- Passes.h - hal transformation passes ---------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_H
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "streamhal/Dialect/HAL/Transforms/PlaceBarriers.h"
#include "streamhal/Dialect/HAL/Transforms/PlanTransients.h"
#include "streamhal/Dialect/HAL/Transforms/ScheduleSubmissions.h"
#include "streamhal/Packing/PackingCommandLine.h"

namespace streamhal::hal {

#define GEN_PASS_DECL
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_H
