//===- ExecutorImpl.h - Internals of the reference executor -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_EXEC_EXECUTORIMPL_H
#define STREAMHAL_LIB_EXEC_EXECUTORIMPL_H

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "streamhal/Exec/Device.h"
#include "streamhal/Exec/DispatchModel.h"
#include "streamhal/Exec/Executor.h"
#include "streamhal/Exec/LiveBytes.h"
#include "streamhal/Exec/Memory.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <set>
#include <variant>

namespace streamhal::exec {

/// A scalar: its bits, zero-extended (the type lives on the SSA value).
struct ScalarValue {
  uint64_t bits = 0;
};

/// A flow-level tensor: immutable row-major bytes. `bytes` is the value's
/// storage and may be longer than the value: a constant subspan's storage is
/// its whole byte range, and reshapes, updates and tied results of it keep
/// that storage. A dispatch binds the whole storage.
struct TensorValue {
  std::shared_ptr<const std::vector<uint8_t>> bytes;
  llvm::SmallVector<int64_t> shape;
  mlir::Type elementType;
  /// The value this one is (a cast of a buffer view of it); null: itself.
  const void *identity = nullptr;
  const void *getIdentity() const { return identity ? identity : bytes.get(); }
};

/// Length of a growable root (an endless stream) and of a reference to all
/// of it.
constexpr int64_t kUnboundedLength = INT64_MAX;
/// The bytes of a growable global the executor runs: its first 4 GiB. A
/// view of it may be longer; what a command or the host touches may not.
constexpr int64_t kMaxGrowableLength = kMaxBufferBytes;
/// The most push constants an interface may declare, and the highest
/// ordinal + 1 a command may push (as in the HAL layouts: one 32-bit value
/// per constant is materialized for every dispatch).
constexpr int64_t kMaxPushConstants = 1024;

/// A byte range of a root buffer.
struct BufferRef {
  std::shared_ptr<RootBuffer> root;
  int64_t offset = 0;
  int64_t length = 0;
};

/// A buffer with a shape and an element type encoding.
struct BufferViewValue {
  BufferRef buffer;
  llvm::SmallVector<int64_t> shape;
  int32_t elementType = 0;
  int32_t encoding = 0;
  /// Flow level: the tensor value this view was cast from (null: the view
  /// is its own value).
  const void *identity = nullptr;
};

/// One concrete range a command accesses.
struct Access {
  BufferRef range;
  bool reads = false;
  bool writes = false;
};

/// A recorded command with everything it needs captured at record time.
struct Command {
  enum class Kind { Fill, Copy, Dispatch, Barrier } kind;
  mlir::Operation *op = nullptr;
  // Fill.
  BufferRef target;
  uint32_t pattern = 0;
  // Copy (source; target above).
  BufferRef source;
  // Dispatch: the entry point of the variant it runs, and its symbol.
  hal::ExecutableEntryPointOp entryPoint;
  std::string entrySymbol;
  struct Binding {
    uint32_t set = 0;
    uint32_t binding = 0;
    bool reads = false;
    bool writes = false;
    /// Declared `MayAlias`: the kernel tolerates its bytes overlapping
    /// those of the dispatch's other `MayAlias` bindings.
    bool mayAlias = false;
    BufferRef range;
  };
  llvm::SmallVector<Binding> bindings; ///< sorted by (set, binding)
  llvm::SmallVector<uint32_t> pushConstants;
  std::array<uint64_t, 3> workgroups = {1, 1, 1};

  llvm::SmallVector<Access> getAccesses() const;
};

/// A command buffer being recorded.
struct CommandBufferState {
  bool begun = false;
  bool ended = false;
  /// Created with mode(OneShot): it may be submitted once, and its commands
  /// are dropped after they ran. A reusable one replays them every time.
  bool oneShot = true;
  /// The submission that first ran it.
  mlir::Operation *submittedBy = nullptr;
  std::vector<Command> commands;
  /// Descriptor sets in effect: set -> binding ordinal -> range.
  std::map<int64_t, std::map<int64_t, BufferRef>> descriptorSets;
  /// Per set, the binding ordinals the layout of the push in effect lists
  /// (std::nullopt when the layout is not a visible lookup): the bindings a
  /// dispatch after it must find bound.
  std::map<int64_t, std::optional<std::set<int64_t>>> layoutBindings;
  /// Push constants in effect, by ordinal.
  std::map<int64_t, uint32_t> pushConstants;
  /// The hal.device.memoize that recorded it (null for one recorded on the
  /// host's path): it is submitted with hal.device.queue.execute.indirect.
  mlir::Operation *memoizedBy = nullptr;
};

/// A fence of the device timeline (lib/Exec/Timeline.cpp): signalled once,
/// by the submission that names it in `signal(...)`, or, for a join, when
/// every part is.
struct FenceState {
  /// The hal.fence.create or hal.fence.join that made it.
  mlir::Operation *op = nullptr;
  bool signalled = false;
  /// The queued submission that signals it (index into
  /// ExecutorImpl::submissions), -1 while none does.
  int64_t signaller = -1;
  /// The fences a join waits for (empty for a created fence).
  llvm::SmallVector<std::shared_ptr<FenceState>> parts;
};

/// A `hal.device.queue.execute` the host has issued: its command buffers
/// run, in order, once an await needs them (Timeline.cpp).
struct QueuedSubmission {
  mlir::Operation *op = nullptr;
  /// Call depth of the activation that issued it.
  unsigned depth = 0;
  /// The recorded commands of each command buffer, captured at submission.
  std::vector<std::vector<Command>> commandBuffers;
  /// The hal.device.memoize whose recording it replays (its one command
  /// buffer) and the tables it binds, or null.
  mlir::Operation *memoizedBy = nullptr;
  std::shared_ptr<const MemoizedTables> tables;
  /// Every concrete range its commands touch.
  llvm::SmallVector<Access> accesses;
  /// Submissions a chain of fences orders before it (all earlier), as bits
  /// by index: a chain of N pending submissions holds N^2/2 of them, which
  /// a set of indices made gigabytes at a few thousand.
  llvm::BitVector after;
  bool isAfter(unsigned index) const {
    return index < after.size() && after.test(index);
  }
  /// The signallers of the fences it waits on (through joins): the waits as
  /// the IR states them, which a real device's queue submission gets.
  std::set<unsigned> waits;
  std::shared_ptr<FenceState> signal;
  bool completed = false;
};

/// An opaque handle (device, allocator, layout).
struct HandleValue {};

/// A `!util.ptr`: the symbol of the global it addresses.
struct PointerValue {
  std::string global;
};

using RuntimeValue =
    std::variant<std::monostate, ScalarValue, TensorValue, BufferRef,
                 BufferViewValue, std::shared_ptr<CommandBufferState>,
                 HandleValue, PointerValue, std::shared_ptr<FenceState>>;

/// SSA value -> runtime value of one function activation.
using Frame = llvm::DenseMap<mlir::Value, RuntimeValue>;

/// A hal.device.memoize body, recorded once per executor (Replay.cpp,
/// docs/replay.md).
struct MemoizedRecording {
  /// The recorded commands in order, the device switches' cases chosen
  /// once (begin and end left out). Their slot and uniform operands are
  /// resolved against each submission's tables.
  std::vector<mlir::Operation *> commands;
  /// What the body computed once: the device, constants, layouts and the
  /// command buffer it returns.
  Frame frame;
  std::shared_ptr<CommandBufferState> commandBuffer;
  /// The body's value of that command buffer, which the commands name.
  mlir::Value commandBufferValue;
  /// Unique in the process: a device keys what it keeps for the recording
  /// by it (an op's address may be reused by a later module).
  uint64_t serial = 0;
};

/// What a submission of a memoized recording binds: the commands it runs
/// are a function of the recording and these tables alone.
struct MemoizedTables {
  /// MemoizedRecording::serial.
  uint64_t recording = 0;
  std::vector<BufferRef> slots;
  std::vector<uint64_t> uniforms;
};

class ExecutorImpl {
public:
  ExecutorImpl(mlir::ModuleOp module, ExecOptions options);

  mlir::FailureOr<llvm::SmallVector<HostValue>>
  run(mlir::func::FuncOp function, llvm::ArrayRef<HostValue> arguments);

  llvm::SmallVector<DispatchRecord> trace;
  /// Barriers of the submissions since the last run began.
  BarrierCounts barrierCounts;
  /// Allocations of the last run; its transient fields are set when the
  /// run ends, from `liveBytes`.
  MemoryCounts memoryCounts;
  /// The accesses of submitted commands to device-only allocations and the
  /// caller's transient buffer since the last run began.
  LiveByteMeter liveBytes;
  /// Serials of the roots the last run's allocations made.
  llvm::DenseSet<uint64_t> allocatedRoots;
  /// Bytes of each buffer-like argument after the last run (empty for
  /// scalars and tensors, which no run can change).
  llvm::SmallVector<std::optional<std::vector<uint8_t>>> argumentsAfterRun;

  //===--------------------------------------------------------------------===//
  // Shared (Executor.cpp)
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult callFunction(mlir::func::FuncOp function,
                                   llvm::ArrayRef<RuntimeValue> arguments,
                                   llvm::SmallVectorImpl<RuntimeValue> &results,
                                   unsigned depth);
  /// Runs the ops of `block` in order; the terminator's operands become
  /// `results`.
  mlir::LogicalResult runBlock(mlir::Block &block, Frame &frame,
                               llvm::SmallVectorImpl<RuntimeValue> &results,
                               unsigned depth);
  mlir::LogicalResult runOp(mlir::Operation &op, Frame &frame, unsigned depth);
  mlir::LogicalResult runArith(mlir::Operation &op, Frame &frame);
  mlir::LogicalResult runGlobalOp(mlir::Operation &op, Frame &frame);
  /// The value of global `name` on its first use (its initial value, or
  /// its seeded stream), recorded in `globals`; errors at `user`.
  mlir::FailureOr<RuntimeValue> materializeGlobal(mlir::Operation *user,
                                                  llvm::StringRef name);
  /// Runs every util.initializer of the module, in module order, the first
  /// time it is called; later calls return the first call's outcome.
  mlir::LogicalResult runInitializers();

  /// Looks up a value; emits at `user` and fails when it has none of the
  /// wanted kind.
  template <typename T>
  mlir::FailureOr<T> get(Frame &frame, mlir::Value value,
                         mlir::Operation *user);
  mlir::FailureOr<int64_t> getIndex(Frame &frame, mlir::Value value,
                                    mlir::Operation *user);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getIndices(Frame &frame, mlir::ValueRange values, mlir::Operation *user);

  /// Whether the simulated device runs executables of `format`.
  bool supportsFormat(llvm::StringRef format) const;
  /// Bytes of `[offset, offset + length)` of `!hal.buffer` global `name`.
  mlir::FailureOr<BufferRef> getGlobalBufferRange(mlir::Operation *user,
                                                  llvm::StringRef name,
                                                  int64_t offset,
                                                  int64_t length);
  /// The root buffer of a `!hal.buffer` global without contents.
  std::shared_ptr<RootBuffer> getPoolRoot(llvm::StringRef name);

  //===--------------------------------------------------------------------===//
  // Flow level (FlowLevel.cpp)
  //===--------------------------------------------------------------------===//

  /// Runs a flow-level op; std::nullopt when `op` is not one (nothing is
  /// emitted then).
  std::optional<mlir::LogicalResult> runFlowOp(mlir::Operation &op,
                                               Frame &frame, unsigned depth);
  mlir::LogicalResult runFlowDispatch(mlir::Operation *op, Frame &frame);
  mlir::FailureOr<std::array<uint64_t, 3>>
  computeWorkgroups(mlir::Operation *user, mlir::SymbolRefAttr entry,
                    llvm::ArrayRef<int64_t> workload);

  //===--------------------------------------------------------------------===//
  // HAL level (HALLevel.cpp, Submission.cpp)
  //===--------------------------------------------------------------------===//

  /// Runs a HAL-level host op or records a command; std::nullopt when `op`
  /// is neither (nothing is emitted then).
  std::optional<mlir::LogicalResult> runHALOp(mlir::Operation &op, Frame &frame,
                                              unsigned depth);
  std::optional<mlir::LogicalResult> recordCommand(mlir::Operation &op,
                                                   Frame &frame);
  /// Checks that `ref`, a range a command, the host or a result touches,
  /// lies inside its root and, for a growable root, inside the bytes the
  /// executor runs (kMaxGrowableLength).
  mlir::LogicalResult checkRange(mlir::Operation *user, const BufferRef &ref,
                                 llvm::StringRef what);
  /// Fails with an error at `user` when `bytes` more bytes of memory would
  /// exceed ExecOptions::maxMemory; `what` says what needs them.
  mlir::LogicalResult reserveMemory(mlir::Operation *user, int64_t bytes,
                                    const llvm::Twine &what);
  /// Empties the dispatch trace and releases its memory.
  void clearTrace();
  /// Fails with an error at `user` when `ref`'s root was released by a
  /// hal.device.queue.dealloca: any use after that is a use after free.
  mlir::LogicalResult checkNotReleased(mlir::Operation *user,
                                       const BufferRef &ref);
  /// Fails with an error at `op` when `state` was already submitted (once
  /// run, its commands are gone); otherwise records `op` as its submission.
  mlir::LogicalResult checkResubmission(mlir::Operation *op,
                                        CommandBufferState &state,
                                        const llvm::Twine &what);
  /// Fails with an error at `user` when the host cannot access `ref`: its
  /// root was released, or allocated without `HostVisible`. `what` says what
  /// the host does (`reads`, `writes`, `receives as result 0`).
  mlir::LogicalResult checkHostAccess(mlir::Operation *user,
                                      const BufferRef &ref,
                                      const llvm::Twine &what);
  mlir::LogicalResult submit(mlir::Operation *op, CommandBufferState &state);
  /// Adds the barriers of a submitted command buffer to barrierCounts and
  /// its accesses to liveBytes.
  void countSubmitted(llvm::ArrayRef<Command> commands);
  /// Sets memoryCounts' transient fields once the run returned `results`.
  void countTransients(llvm::ArrayRef<RuntimeValue> results);
  /// Recorded and executed commands since the last run began.
  CommandCounts commandCounts;
  /// hal.device.memoize recordings by op: kept across runs, as a device
  /// keeps them across calls.
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<MemoizedRecording>>
      memoized;
  /// hal.device.memoize: records the body the first time (Replay.cpp).
  mlir::LogicalResult runMemoize(hal::DeviceMemoizeOp memoize, Frame &frame,
                                 unsigned depth);
  /// hal.device.queue.execute.indirect: checks the binding table against
  /// the slots' alias classes and queues the memoized commands resolved
  /// against the tables.
  mlir::LogicalResult
  runQueueExecuteIndirect(hal::DeviceQueueExecuteIndirectOp execute,
                          Frame &frame, unsigned depth);
  /// The case of `switchOp` the device runs; an error when none.
  mlir::FailureOr<mlir::Block *> selectSwitchCase(hal::DeviceSwitchOp switchOp);
  /// Runs `commands` on the reference model (the reference Device).
  mlir::LogicalResult runOnModel(llvm::ArrayRef<Command> commands);

  // HAL-level handlers (HALLevel.cpp)

  /// A fresh allocation of the `sizeValue` bytes `op` asks for
  /// (hal.allocator.allocate and hal.device.queue.alloca): checked against
  /// the allocation rule and the executor's 4 GiB, device-only unless
  /// `memoryTypes` has HostVisible; errors at `op`.
  /// The transient buffer a runtime would pass `function` (sized by its
  /// `hal.ex.transient_size` query run on `arguments`, or
  /// ExecOptions::transientBytes), fresh and device-only.
  mlir::FailureOr<RuntimeValue>
  makeTransientBuffer(mlir::func::FuncOp function,
                      llvm::ArrayRef<RuntimeValue> arguments);
  /// Fails when the transient buffer the caller passed (the last of
  /// `arguments`) is smaller than the query asks for.
  mlir::LogicalResult
  checkTransientBuffer(mlir::func::FuncOp function,
                       llvm::ArrayRef<RuntimeValue> arguments);
  mlir::FailureOr<BufferRef> allocateBuffer(mlir::Operation *op, Frame &frame,
                                            mlir::Value sizeValue,
                                            hal::MemoryType memoryTypes);

  //===--------------------------------------------------------------------===//
  // Device timeline (Timeline.cpp)
  //===--------------------------------------------------------------------===//

  /// hal.fence.create, hal.fence.join, hal.fence.await and the queue
  /// operations (execute, alloca, dealloca).
  mlir::LogicalResult runTimelineOp(mlir::Operation &op, Frame &frame,
                                    unsigned depth);
  /// Fails when the host touching `ref` (writing it when `writes`) at `op`
  /// may race with a pending submission.
  mlir::LogicalResult checkHostAgainstPending(mlir::Operation *op,
                                              const BufferRef &ref,
                                              bool writes);
  /// Fails when a blocking submission of `state` races with pending ones.
  mlir::LogicalResult checkBlockingSubmission(mlir::Operation *op,
                                              const CommandBufferState &state);
  /// At a function's or initializer's return: `results` must be complete
  /// and no submission of this activation may still be pending.
  mlir::LogicalResult checkReturnTimeline(mlir::Operation *op,
                                          llvm::ArrayRef<RuntimeValue> results,
                                          unsigned depth);
  /// A queue operation's submission: its signal fence checked, ordered
  /// after the submissions its waits name; the caller adds its work.
  mlir::FailureOr<QueuedSubmission>
  startSubmission(Frame &frame, mlir::Operation *op, mlir::ValueRange waits,
                  mlir::Value signal, unsigned depth);
  /// Checks `submission` against every pending one it is not ordered after
  /// and makes it pending.
  mlir::LogicalResult queueSubmission(QueuedSubmission submission);
  /// Runs the pending submissions in `indices` (ascending) in program order
  /// (on ExecOptions::device as one group: Device::runSubmissions) and,
  /// with --orders, in other orders the fences allow.
  mlir::LogicalResult runSubmissions(mlir::Operation *awaitOp,
                                     llvm::ArrayRef<unsigned> indices);

  //===--------------------------------------------------------------------===//
  // Device rules (DeviceRules.cpp)
  //===--------------------------------------------------------------------===//

  /// Reads the limits of the module's buffer constraints (or the defaults)
  /// and applies the command line's overrides.
  void initDeviceLimits();
  /// Whether the device rule `name` is checked.
  bool checksDeviceRule(llvm::StringRef name) const;
  /// An allocation of `size` bytes fits in max_allocation_size.
  mlir::LogicalResult checkAllocationRule(mlir::Operation *op, int64_t size);
  /// A fill's range (from its root) starts and ends on 32-bit words.
  mlir::LogicalResult checkFillRule(mlir::Operation *op,
                                    const BufferRef &range);
  /// Binding `ordinal` of a push starts at an aligned offset of its root and
  /// is at most max_buffer_range long.
  mlir::LogicalResult checkBindingRule(mlir::Operation *op, int64_t ordinal,
                                       const BufferRef &range);
  /// Push constants `[first, first + count)` fit in the device's push
  /// constant space; `what` says who uses them.
  mlir::LogicalResult checkPushConstantRule(mlir::Operation *op,
                                            llvm::StringRef what, int64_t first,
                                            int64_t count);
  /// A dispatch's written binding shares no byte with another of its
  /// bindings unless both are `MayAlias`.
  mlir::LogicalResult checkBindingAliasingRule(const Command &dispatch);
  /// Reports the binding `name` (`set`, `ordinal`) the dispatched interface
  /// declares and the descriptor set in effect does not bind; succeeds
  /// (the binding is then left out) when the rule is skipped.
  mlir::LogicalResult reportUnboundBinding(mlir::Operation *op,
                                           llvm::StringRef name, int64_t set,
                                           int64_t ordinal, bool setPushed);
  mlir::LogicalResult executeCommand(const Command &command, bool record);
  mlir::LogicalResult runBatch(llvm::ArrayRef<const Command *> batch);
  /// Runs some work with `runFirst`, then `options.orders - 1` more times
  /// with `runOther(order)` from the same starting bytes of `roots` (every
  /// root the work may touch), and fails at the first order whose bytes
  /// differ, reported by `reportDifference`. Leaves the first run's bytes.
  /// `what` names the work in an out-of-memory error at `user`.
  mlir::LogicalResult runInOrders(
      mlir::Operation *user, llvm::ArrayRef<RootBuffer *> roots,
      const llvm::Twine &what,
      llvm::function_ref<mlir::LogicalResult()> runFirst,
      llvm::function_ref<mlir::LogicalResult(unsigned order)> runOther,
      llvm::function_ref<void(unsigned order, RootBuffer &root, int64_t byte,
                              const RootBuffer::Snapshot &expected)>
          reportDifference);

  mlir::ModuleOp module;
  ExecOptions options;
  mlir::SymbolTable symbols;
  /// Current values of globals.
  llvm::StringMap<RuntimeValue> globals;
  llvm::StringMap<std::shared_ptr<RootBuffer>> pools;
  /// The buffer memory of this executor (ExecOptions::maxMemory): pages of
  /// allocations and pools, and `traceBytes`.
  std::shared_ptr<MemoryAccount> memory =
      std::make_shared<MemoryAccount>(MemoryAccount{options.maxMemory, 0});
  /// Bytes of the HAL-level dispatch trace, counted in `memory`.
  int64_t traceBytes = 0;
  /// Alignments of the simulated device (the module's buffer constraints
  /// or --device-limits).
  int64_t offsetAlignment = 16;
  int64_t rangeAlignment = 16;
  /// The other limits of the simulated device (DeviceRules.cpp).
  int64_t maxAllocation = int64_t(1) << 30;
  int64_t maxRange = int64_t(1) << 30;
  int64_t maxPushConstants = 32;
  unsigned nextAllocation = 0;
  /// Every queue submission issued so far, in issue order.
  std::vector<QueuedSubmission> submissions;
  /// The submissions not completed yet, as bits by index: the timeline's
  /// checks visit these (the completed ones only grow across calls), and a
  /// new submission those not in its `after` bits, word by word.
  llvm::BitVector pendingSubmissions;
  /// Whether the initializers have run (and succeeded).
  std::optional<bool> initialized;
};

/// The largest tensor or allocation the executor materializes.
constexpr int64_t kMaxTensorBytes = kMaxBufferBytes;

/// Row-major byte size of `shape` with `elementBytes`-byte elements, or -1
/// when it overflows.
int64_t getByteSize(llvm::ArrayRef<int64_t> shape, int64_t elementBytes);
/// Bytes of one element of `type` (ceil(bits / 8)), or 0 when unknown.
int64_t getElementBytes(mlir::Type type);
/// The low 64 bits of `value`, of any width (getZExtValue asserts on a
/// wider value that does not fit).
inline uint64_t getLowBits(const llvm::APInt &value) {
  return value.getBitWidth() > 64 ? value.trunc(64).getZExtValue()
                                  : value.getZExtValue();
}
/// Bit width of a scalar type (index = 64), or 0.
unsigned getScalarWidth(mlir::Type type);
/// The low `width` bits of `bits` (all of them from 64 on).
uint64_t truncateBits(uint64_t bits, unsigned width);
/// `[offset, end)` for diagnostics, exact also when the end is past
/// INT64_MAX; `[offset, +length)` when either is negative.
std::string formatRange(int64_t offset, int64_t length);

/// Returns the sub-range [offset, offset + length) of `buffer`, checked
/// against the buffer's own length; a range the device or the host
/// `access`es must also be bytes the executor runs (checkRange).
mlir::FailureOr<BufferRef> subrange(ExecutorImpl &exec, mlir::Operation *user,
                                    const BufferRef &buffer, int64_t offset,
                                    int64_t length, llvm::StringRef what,
                                    bool access = true);

} // namespace streamhal::exec

#endif // STREAMHAL_LIB_EXEC_EXECUTORIMPL_H
