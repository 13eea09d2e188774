//===- CommandRecorder.h - recording a fragment's commands ------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 4 of the lowering: one command buffer per fragment, one group of
// commands per op in op order, barriers where the policy puts them
// (placeBarriers on the recorded commands), then
// end + submit_and_wait. Also the pieces of op analysis the fragment check
// shares with the recorder, so both agree on what can be lowered.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H

#include "BoxCopy.h"
#include "FragmentState.h"
#include "WideSplat.h"
#include "streamhal/Analysis/CommandAccesses.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"

namespace streamhal {

//===----------------------------------------------------------------------===//
// Dispatch resolution
//===----------------------------------------------------------------------===//

/// One buffer binding of a dispatch, resolved against an interface.
struct ResolvedBinding {
  enum class Kind { OperandBuffer, ResultBuffer, ConstantStorage };
  Kind kind;
  int64_t set;
  int64_t ordinal;
  /// Operand (within the dispatch arguments) or result index.
  unsigned index = 0;
  /// Constant storage: the global and the byte range.
  mlir::StringAttr storage;
  int64_t offset = 0;
  int64_t length = 0;
};

/// A dispatch's callee in one executable variant, with its bindings.
struct ResolvedVariant {
  hal::ExecutableVariantOp variant;
  hal::ExecutableEntryPointOp entryPoint;
  hal::InterfaceOp interface;
  llvm::SmallVector<ResolvedBinding> bindings;
  /// Dispatch argument index per push constant ordinal (std::nullopt when
  /// no binding provides it).
  llvm::SmallVector<std::optional<unsigned>> pushConstantArguments;
  /// The interface's descriptor set layouts, indexed by set.
  mlir::ArrayAttr setLayouts;
};

/// Resolves the callee and the `hal.bindings` of a dispatch for every
/// variant of its executable, reporting any problem at the dispatch.
mlir::FailureOr<llvm::SmallVector<ResolvedVariant>>
resolveDispatch(flow::DispatchOp op);

//===----------------------------------------------------------------------===//
// Splats
//===----------------------------------------------------------------------===//

/// The multiplier that repeats a zero-extended element of `elementType`
/// across 32 bits (0x01010101 for 8 bits, 0x00010001 for 16, 1 for 32), or
/// std::nullopt for widths a 32-bit fill cannot express.
std::optional<uint32_t> getSplatPatternMultiplier(mlir::Type elementType);

//===----------------------------------------------------------------------===//
// CommandRecorder
//===----------------------------------------------------------------------===//

/// Records the commands of one fragment, after its StoragePlan.
class CommandRecorder {
public:
  CommandRecorder(FragmentState &state, BarrierPolicy barriers)
      : state(state), barriers(barriers) {}

  /// Creates, records, ends and submits the command buffer.
  void record();

  /// Number of commands recorded (fills, copies, dispatches).
  unsigned getNumCommands() const { return numCommands; }
  /// Number of execution barriers recorded.
  unsigned getNumBarriers() const { return numBarriers; }

private:
  void recordDispatch(flow::DispatchOp op);
  void recordSplat(flow::TensorSplatOp op);
  /// Splats of 8-byte elements (WideSplat.cpp): fills and doubling copies.
  void recordWideSplat(flow::TensorSplatOp op);
  void recordClone(flow::TensorCloneOp op);
  /// Fills the own storage of a constant that is written or returned.
  void recordConstantCopy(hal::ConstantSubspanOp op);
  void recordSlice(flow::TensorSliceOp op);
  void recordUpdate(flow::TensorUpdateOp op);
  /// Copies between a box of `outer` and the whole of `inner`; `intoOuter`
  /// says which way (update: into the outer tensor; slice: out of it).
  void recordBoxCopy(mlir::Operation *op, mlir::Value outer, mlir::Value inner,
                     bool intoOuter);
  void recordDispatchCase(flow::DispatchOp op, const ResolvedVariant &resolved,
                          mlir::Region &region);
  /// Returns the three workgroup counts of a dispatch for one entry point.
  llvm::SmallVector<mlir::Value, 3>
  buildWorkgroupCount(flow::DispatchOp op,
                      hal::ExecutableEntryPointOp entryPoint);
  void recordCopy(mlir::Value source, mlir::Value sourceOffset,
                  mlir::Value target, mlir::Value targetOffset,
                  mlir::Value length);
  /// Counts a command just created.
  void finishCommand(mlir::Operation *command);

  FragmentState &state;
  /// Applied by placeBarriers once every command is recorded.
  BarrierPolicy barriers;
  mlir::Value commandBuffer;
  unsigned numCommands = 0;
  unsigned numBarriers = 0;
  /// Resolutions by (callee, hal.bindings).
  llvm::DenseMap<std::pair<mlir::Attribute, mlir::Attribute>,
                 llvm::SmallVector<ResolvedVariant>>
      resolvedDispatches;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H
