//===- Device.h - The device that runs recorded command buffers -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executor interprets the host side of a HAL program itself and hands
// every submitted command buffer (its commands, recorded with concrete
// ranges) to a device: the reference model (races, orders, the dispatch
// model on the CPU) or a real Vulkan device (docs/device.md).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_DEVICE_H
#define STREAMHAL_EXEC_DEVICE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace streamhal::exec {

class ExecutorImpl;
struct Command;
struct MemoizedTables;

/// Where a device's time went, summed over its submissions (wall clock,
/// std::chrono::steady_clock, in milliseconds).
struct DeviceTimes {
  /// Command buffers submitted and waited for.
  unsigned submissions = 0;
  /// Before recording: pipelines, planning, device buffers.
  double prepareMs = 0;
  /// The host's bytes copied into the staging buffer (the executor's
  /// buffers live in host memory; a runtime's would be on the device).
  double stageMs = 0;
  /// Recording the command buffer (where a validation layer checks
  /// barriers).
  double recordMs = 0;
  /// Submission and the wait for its fence: the device running it.
  double submitWaitMs = 0;
  /// Writing the results back into the executor's buffers.
  double writeBackMs = 0;
  /// Device command buffers recorded, and memoized ones submitted again
  /// without recording (docs/replay.md).
  unsigned commandBuffersRecorded = 0;
  unsigned commandBuffersReplayed = 0;
};

/// One queue submission of a group the host awaits together
/// (docs/async.md): its op, the commands of each of its command buffers,
/// and the submissions of the group its fences make it wait for directly.
struct SubmissionToRun {
  mlir::Operation *op = nullptr;
  llvm::ArrayRef<std::vector<Command>> commandBuffers;
  /// The `hal.device.memoize` whose recording its one command buffer
  /// replays, and the binding table and uniforms it submits them with, or
  /// null: the commands are a function of the recording and the tables, so
  /// a device may keep what it recorded for them and replay it
  /// (docs/replay.md).
  mlir::Operation *memoizedBy = nullptr;
  const MemoizedTables *tables = nullptr;
  /// Indices into the group, each smaller than this entry's.
  llvm::SmallVector<unsigned> waits;
};

/// Runs the commands of submitted command buffers.
class Device {
public:
  virtual ~Device();
  /// A name for messages (`reference`, the Vulkan device's name).
  virtual std::string getName() const = 0;
  /// Whether it is the reference model (whose dispatch trace explains a
  /// mismatch).
  virtual bool isReference() const { return false; }
  /// Runs `commands`, submitted by `submitOp`, to completion on the buffers
  /// of `executor`: their bytes, initialized state and last writers are as
  /// the commands leave them. Emits located errors on failure.
  virtual mlir::LogicalResult run(ExecutorImpl &executor,
                                  mlir::Operation *submitOp,
                                  llvm::ArrayRef<Command> commands) = 0;
  /// Runs `group`, the pending queue submissions `awaitOp` needs, listed in
  /// issue order, each after the submissions it waits on; on return all are
  /// complete as after `run`. The default runs each command buffer through
  /// `run`, one after the other in the given order.
  virtual mlir::LogicalResult
  runSubmissions(ExecutorImpl &executor, mlir::Operation *awaitOp,
                 llvm::ArrayRef<SubmissionToRun> group);
  /// Problems the device found outside any submission (for example
  /// validation messages at teardown); printed to `os`. Zero when none.
  virtual unsigned reportLateProblems(llvm::raw_ostream &os) { return 0; }
  /// The times since the last call (all zero on a device that does not
  /// time), and starts counting again.
  virtual DeviceTimes takeTimes() { return {}; }
};

/// The reference model of docs/executor.md: batches between barriers,
/// exact race checks, --orders, the dispatch model on the CPU.
std::shared_ptr<Device> createReferenceDevice();

/// How to open a Vulkan device.
struct VulkanDeviceOptions {
  /// Physical device: its index in `--list-devices`, or a substring of its
  /// name; empty: the first GPU, else the first device.
  std::string selector;
  /// Enables VK_LAYER_KHRONOS_validation with synchronization validation
  /// (also at queue submission); every message is an error.
  bool validate = false;
  /// Finds the bytes of a SPIR-V kernel's `Write` (not `Read`) bindings
  /// that it leaves unwritten: each such range is filled with the poison
  /// pattern before the dispatch and copied out after it (docs/device.md,
  /// "Writing kernels").
  bool checkWrites = true;
  /// Reports unwritten bytes (and a `Write` binding the kernel never stores
  /// into) as warnings instead of errors.
  bool allowPartialWrites = false;
};

/// Whether this build has the Vulkan device.
bool hasVulkanDevice();

/// Opens the Vulkan device; on failure writes why to `errors`.
std::shared_ptr<Device> createVulkanDevice(const VulkanDeviceOptions &options,
                                           llvm::raw_ostream &errors);

/// Prints one line per Vulkan physical device (index, name, type, API
/// version, whether it has what the device needs). Fails, writing why to
/// `errors`, when there is no Vulkan.
mlir::LogicalResult listVulkanDevices(const VulkanDeviceOptions &options,
                                      llvm::raw_ostream &os,
                                      llvm::raw_ostream &errors);

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_DEVICE_H
