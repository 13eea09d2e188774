//===- CommandRecorder.h - recording a fragment's commands ------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The last step of a fragment's lowering: one command buffer per fragment,
// one group of commands per op in op order (each a small function of the
// plan and the storage: RecordDispatches.cpp, RecordSplats.cpp, and the
// copies in CommandRecorder.cpp), then end + submit_and_wait. Barriers are
// the next pass's decision (hal-place-barriers).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H

#include "FragmentStorage.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"

namespace streamhal {

/// Records the commands of one fragment once its storage exists; reads the
/// plan and the storage, creates values only through the builder.
class CommandRecorder {
public:
  CommandRecorder(const FragmentPlan &plan, FragmentBuilder &builder,
                  const FragmentStorage &storage)
      : plan(plan), builder(builder), storage(storage) {}

  /// Creates, records, ends and submits the command buffer.
  void record();

  /// Number of commands recorded (fills, copies, dispatches).
  unsigned getNumCommands() const { return numCommands; }

private:
  void recordDispatch(flow::DispatchOp op);
  void recordSplat(flow::TensorSplatOp op);
  /// Splats of 8-byte elements (RecordSplats.cpp): fills and doubling copies.
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

  const FragmentPlan &plan;
  FragmentBuilder &builder;
  const FragmentStorage &storage;
  mlir::Value commandBuffer;
  unsigned numCommands = 0;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_COMMANDRECORDER_H
