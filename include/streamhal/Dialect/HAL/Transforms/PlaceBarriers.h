//===- PlaceBarriers.h - execution barriers in command buffers --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Barrier placement over recorded command buffers, with the access model of
// the command buffer verifier
// (streamhal/Dialect/HAL/Analysis/CommandAccesses.h). The `hal-place-barriers`
// pass calls it (the `barriers=` options of the lowering pipelines add that
// pass), so a barrier goes where the model says, whoever recorded the
// commands.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_PLACEBARRIERS_H
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_PLACEBARRIERS_H

#include "mlir/IR/PatternMatch.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/Support/CommandLine.h"

namespace streamhal {
class BufferResolver;

/// Where execution barriers go between recorded commands.
enum class BarrierPolicy {
  /// No barrier: the commands are recorded for a later `hal-place-barriers`
  /// (the lowering's own option only; a command buffer left so may race).
  None,
  /// A full barrier after every command (the baseline).
  Full,
  /// A full barrier right before a command that conflicts with a command
  /// recorded since the last barrier, and nowhere else (docs/concurrency.md).
  Hazard,
};

/// The command-line spellings of the policies, shared by every pass and
/// pipeline option that takes one.
namespace detail {
inline constexpr const char *kFullBarriersHelp =
    "a full barrier after every command";
inline constexpr const char *kHazardBarriersHelp =
    "a barrier only before a command that conflicts with one recorded since "
    "the last barrier";
} // namespace detail

/// `full` and `hazard`: what `hal-place-barriers` can place.
inline llvm::cl::ValuesClass getBarrierPolicyValues() {
  return llvm::cl::values(
      clEnumValN(BarrierPolicy::Full, "full", detail::kFullBarriersHelp),
      clEnumValN(BarrierPolicy::Hazard, "hazard", detail::kHazardBarriersHelp));
}

/// `none`, `full` and `hazard`: the lowering's own option.
inline llvm::cl::ValuesClass getBarrierPolicyValuesWithNone() {
  return llvm::cl::values(
      clEnumValN(BarrierPolicy::None, "none",
                 "no barrier (run --hal-place-barriers later)"),
      clEnumValN(BarrierPolicy::Full, "full", detail::kFullBarriersHelp),
      clEnumValN(BarrierPolicy::Hazard, "hazard", detail::kHazardBarriersHelp));
}

/// Adds the execution barriers `policy` asks for to the command buffer that
/// `begin` starts (its commands are the ops after `begin` in its block, up
/// to the matching `end`; an op with regions that holds commands of it
/// counts as one command that makes all of their accesses). Barriers already
/// recorded are kept and end a batch; none is removed, so placing twice
/// places nothing the second time. `hazard` puts a barrier right before each
/// command that conflicts with one since the last barrier, `full` one after
/// each command not already followed by one. New barriers are created with
/// `rewriter` at the location of `begin`. Returns how many were added.
/// Placing on many command buffers of one scope, pass one `resolver` (its
/// per-allocation facts are then decided once).
unsigned placeBarriers(hal::CommandBufferBeginOp begin, BarrierPolicy policy,
                       mlir::RewriterBase &rewriter,
                       BufferResolver *resolver = nullptr);

/// placeBarriers on every command buffer begun under `scope`.
unsigned placeBarriers(mlir::Operation *scope, BarrierPolicy policy,
                       mlir::RewriterBase &rewriter);

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_PLACEBARRIERS_H
