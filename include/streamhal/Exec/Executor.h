//===- Executor.h - Reference executor for flow and HAL programs -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a `func.func` of a module on concrete inputs, either at the flow level
// (tensors, stream fragments) or at the HAL level (buffers, packs, command
// buffers), with bounds checks, poison tracking, race detection per
// barrier-delimited batch and re-execution of batches in several orders.
// Dispatches run the model of DispatchModel.h. Every problem is a located
// diagnostic through the module's MLIRContext. See docs/executor.md.
//
// The executor uses the dialects only: it shares no code with the lowering,
// its analyses or the packer, which it exists to check.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_EXECUTOR_H
#define STREAMHAL_EXEC_EXECUTOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Exec/Memory.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <memory>
#include <optional>
#include <string>

namespace streamhal::exec {

/// A function argument or result, independent of the level: a scalar, or
/// bytes with (when known) a shape and element type.
struct HostValue {
  bool isScalar = false;
  /// Scalar: the type and the bits (zero-extended).
  mlir::Type scalarType;
  uint64_t scalarBits = 0;
  /// Tensor-like: row-major bytes; shape and element type when known
  /// (a `!hal.buffer` result has none).
  std::vector<uint8_t> bytes;
  std::optional<llvm::SmallVector<int64_t>> shape;
  mlir::Type elementType;
  /// HAL level: where the bytes live, to find their last writer.
  std::shared_ptr<RootBuffer> root;
  int64_t rootOffset = 0;
  /// Flow level: the storage the tensor value holds; two results with the
  /// same identity are one value (returned twice, or through reshapes).
  const void *identity = nullptr;
};

/// Prints `4x8xf32` (or `?` parts when unknown) for a tensor-like value and
/// the type for a scalar.
std::string describeHostValue(const HostValue &value);

/// One dispatch as executed, to explain a mismatch between the levels.
struct DispatchRecord {
  mlir::Operation *op = nullptr;
  std::string entrySymbol;
  struct Read {
    uint32_t set = 0;
    uint32_t binding = 0;
    std::vector<uint8_t> bytes;
    /// HAL level: the last writers of the bytes, as runs: `writer` wrote
    /// every byte from `start` (counted in the binding) to the next run's
    /// start (null: input or never written). One run per write, not per
    /// byte.
    struct WriterRun {
      int64_t start = 0;
      mlir::Operation *writer = nullptr;
    };
    llvm::SmallVector<WriterRun> writers;
    /// The last writer of byte `byte` of the binding, or null.
    mlir::Operation *getWriter(int64_t byte) const;
  };
  llvm::SmallVector<Read> reads;
  llvm::SmallVector<uint32_t> pushConstants;
  std::array<uint64_t, 3> workgroups = {1, 1, 1};
};

/// Default of ExecOptions::maxMemory: 8 GiB, twice the largest buffer.
constexpr int64_t kDefaultMaxMemory = int64_t(8) << 30;
/// Limits of the simulated device given on the command line; each one set
/// replaces the module's (docs/executor.md, "Device rules").
struct DeviceLimitOverrides {
  std::optional<int64_t> offsetAlignment;
  std::optional<int64_t> rangeAlignment;
  std::optional<int64_t> maxAllocation;
  std::optional<int64_t> maxRange;
  std::optional<int64_t> maxPushConstants;
};

/// Parses `offset-alignment=N,range-alignment=N,max-allocation=N,
/// max-range=N,push-constants=N` (any subset, in any order) into
/// `overrides`. Returns an error message, or an empty string on success.
std::string parseDeviceLimits(llvm::StringRef text,
                              DeviceLimitOverrides &overrides);

/// The device rules the executor checks, by the names its options and
/// messages use.
inline constexpr const char *kExecDeviceRules[] = {
    "binding-offset-alignment", "binding-range",   "unbound-binding",
    "fill-alignment",           "allocation-size", "push-constants",
    "binding-aliasing"};

class Device;

/// Options of a run.
struct ExecOptions {
  /// Seed of the pseudo-random contents of `!hal.buffer` globals.
  uint64_t seed = 0;
  /// Each barrier-delimited batch runs in this many orders (>= 1).
  unsigned orders = 1;
  /// Executable formats the simulated device supports; none = all.
  std::optional<llvm::SmallVector<std::string>> formats;
  /// The most bytes of buffer data the HAL level holds at once: the pages
  /// of allocations and globals it writes, the dispatch trace, what a
  /// command reads and the copies --orders keeps (docs/executor.md).
  int64_t maxMemory = kDefaultMaxMemory;
  /// The simulated device's limits where they replace the module's.
  DeviceLimitOverrides deviceLimits;
  /// Device rules not checked (names of kExecDeviceRules).
  llvm::SmallVector<std::string> skippedDeviceRules;
  /// Skips the timeline's check that submissions no chain of fences orders
  /// touch disjoint bytes, so that a real device's validation layer is the
  /// only oracle of a missing wait (docs/device.md).
  bool skipTimelineRaces = false;
  /// The size of the transient buffer supplied to a function that takes
  /// one (`hal.ex.transients`) when the caller does not pass it; unset: the
  /// bytes its `hal.ex.transient_size` query returns.
  std::optional<int64_t> transientBytes;
  /// The device submitted command buffers run on (Device.h); null: the
  /// reference model.
  std::shared_ptr<Device> device;
};

class ExecutorImpl;

/// Execution barriers of the command buffers a run submitted.
struct BarrierCounts {
  /// Barriers the command buffers recorded.
  uint64_t recorded = 0;
  /// The fewest barriers the same commands, in the same order, need on
  /// their concrete byte ranges: a barrier right before each command that
  /// conflicts with one since the last barrier (for a fixed order, greedily
  /// extending each batch as far as it goes is optimal).
  uint64_t minimum = 0;
};

/// The memory a run allocated, and how much of it its transients needed.
struct MemoryCounts {
  /// hal.allocator.allocate and hal.device.queue.alloca ops run.
  uint64_t allocations = 0;
  /// Bytes those allocations asked for.
  int64_t allocatedBytes = 0;
  /// Bytes of the run's transient memory: device-only allocations that no
  /// result lives in, and the caller's transient buffer (`hal.ex.transients`,
  /// not counted in `allocations`: the caller owns it).
  int64_t transientBytes = 0;
  /// Allocations of the run that its results live in, and those that hold
  /// its transients (the caller's transient buffer not counted).
  uint64_t resultAllocations = 0;
  uint64_t transientAllocations = 0;
  /// The lower bound of any plan of those transients for the same commands
  /// in the same order: the most of their bytes that held a value a later
  /// command read, at one command (LiveBytes.h).
  int64_t transientLivePeak = 0;
};

/// Runs functions of one module. Globals keep their values across runs.
/// Commands of a run (fills, copies, dispatches, barriers).
struct CommandCounts {
  /// Recorded into command buffers: a memoized one counts once, the first
  /// time its hal.device.memoize runs.
  uint64_t recorded = 0;
  /// Run by submissions (a replay counts every time).
  uint64_t executed = 0;
};

class Executor {
public:
  Executor(mlir::ModuleOp module, ExecOptions options);
  ~Executor();

  /// Runs `function`; on failure a located diagnostic has been emitted.
  mlir::FailureOr<llvm::SmallVector<HostValue>>
  run(mlir::func::FuncOp function, llvm::ArrayRef<HostValue> arguments);

  /// The dispatches of the last run, in program order.
  llvm::ArrayRef<DispatchRecord> getDispatchTrace() const;

  /// The barriers of the last run's submissions.
  BarrierCounts getBarrierCounts() const;

  /// The commands the last run recorded and executed.
  CommandCounts getCommandCounts() const;

  /// The allocations and transient bytes of the last run.
  MemoryCounts getMemoryCounts() const;

  /// The bytes of each buffer or buffer-view argument after the last run
  /// (std::nullopt for scalars and tensors, which a run cannot change).
  llvm::ArrayRef<std::optional<std::vector<uint8_t>>>
  getArgumentsAfterRun() const;

private:
  std::unique_ptr<ExecutorImpl> impl;
};

/// The arguments of a flow-level function whose storage the function may
/// overwrite: those a tie donates (a fragment result or a host store tied
/// to the argument, or to a value sharing its storage through ties and
/// casts), directly or through a call. The caller keeps every other
/// argument's bytes (docs/lowering.md, "Value semantics").
llvm::BitVector findDonatedArguments(mlir::func::FuncOp function);

/// Input specification of one argument from the command line.
struct ArgumentSpec {
  /// `2x4xf32=@file.bin`: shape, element type and file; or a scalar
  /// `i32=5` / `5`.
  std::string text;
};

/// Makes the arguments of `function`: argument i from `specs[i]` when given,
/// otherwise seeded pseudo-random bytes (`seed`); dynamic dims of tensor and
/// buffer-view arguments take the values of `dims` in order (default 3), and
/// an `index` argument that is such a dim gets its value; other `index`
/// arguments take the next `dims` value (default 1). Emits a diagnostic at
/// the function on failure.
mlir::FailureOr<llvm::SmallVector<HostValue>>
makeArguments(mlir::func::FuncOp function, llvm::ArrayRef<std::string> specs,
              uint64_t seed, llvm::ArrayRef<int64_t> dims);

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_EXECUTOR_H
