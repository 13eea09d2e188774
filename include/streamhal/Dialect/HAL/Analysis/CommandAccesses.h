//===- CommandAccesses.h - bytes each recorded command touches --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The access model of recorded HAL commands (docs/concurrency.md): every
// fill, copy and dispatch reads and/or writes byte ranges of root buffers,
// and two accesses conflict when they may touch a common byte of one root and
// at least one of them writes. Both the barrier policy of the lowering (one
// command at a time, as it records) and the command buffer verifier (whole
// modules) ask the questions below.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_ANALYSIS_COMMANDACCESSES_H
#define STREAMHAL_DIALECT_HAL_ANALYSIS_COMMANDACCESSES_H

#include "mlir/IR/Operation.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace streamhal {

/// Where the bytes of a buffer ultimately live.
enum class BufferRootKind {
  /// A `hal.allocator.allocate` result, or the caller's transient buffer
  /// (an argument marked `hal.ex.transients`): bytes nothing else shares.
  Allocation,
  /// A `!hal.buffer` block argument (a function argument).
  Argument,
  /// The buffer of a buffer view (`hal.buffer_view.buffer`), keyed by the
  /// buffer view value.
  BufferView,
  /// The buffer a `util.global` holds (one root per symbol).
  Global,
  /// Anything else: may share bytes with every other root.
  Unknown,
};

/// A root buffer. Two roots are the same when kind, value and symbol match.
struct BufferRoot {
  BufferRootKind kind = BufferRootKind::Unknown;
  /// The allocation result, argument, buffer view or unknown buffer value;
  /// null for globals.
  mlir::Value value;
  /// The global's symbol, for BufferRootKind::Global.
  mlir::StringAttr global;
  /// For an allocation: it escapes into a global (`util.global.store`,
  /// `.store.indirect`, or a call that may store it), so a later
  /// `util.global.load` may return its bytes. Derived from `value`, not part
  /// of the root's identity.
  bool escapes = false;

  bool operator==(const BufferRoot &other) const {
    return kind == other.kind && value == other.value && global == other.global;
  }
  bool operator!=(const BufferRoot &other) const { return !(*this == other); }

  /// Returns true when this root and `other` may share bytes.
  bool mayAlias(const BufferRoot &other) const;
  /// Prints `allocation %3`, `argument 0 of @f`, `global @pool`...
  void print(llvm::raw_ostream &os) const;
};

/// A byte range inside a root: `[base + offset, base + offset + length)`.
struct RootByteRange {
  /// The one symbolic term of the start (null: the start is `offset`).
  mlir::Value base;
  /// The constant term of the start.
  int64_t offset = 0;
  /// False when the start has more terms than one symbol and a constant.
  bool startKnown = true;
  /// The length, when it is a constant.
  std::optional<int64_t> length;
  /// The length value (null when only the constant is known).
  mlir::Value lengthValue;
  /// When the range lies inside slice `slice` of the `hal.allocator.pack`
  /// `pack` (through a subspan at that slice's offset), else null.
  mlir::Operation *pack = nullptr;
  unsigned slice = 0;
  /// The closed lifetime of that slice.
  int64_t sliceStart = 0;
  int64_t sliceEnd = 0;
  /// A lower bound of the symbolic term `base` (0: a buffer offset is never
  /// negative), from the `hal.pack_lane` of a subspan on the way.
  int64_t baseFloor = 0;
  /// When the range lies inside lane `lane` of materialized pack `lanePack`
  /// (hal::PackLane), else lanePack < 0. Ranges in different lanes of one
  /// pack never share a byte.
  int64_t lanePack = -1;
  int64_t lane = 0;

  /// Returns the constant `[begin, end)` when start and length are constant.
  std::optional<std::pair<int64_t, int64_t>> getConstantBounds() const;
  /// Prints `[16, 48)`, `[%o + 16, +64)`, `[?, +%n)`...
  void print(llvm::raw_ostream &os) const;
};

/// One read and/or write of one command.
struct BufferAccess {
  /// The command (fill_buffer, copy_buffer or dispatch.symbol).
  mlir::Operation *command = nullptr;
  BufferRoot root;
  RootByteRange range;
  bool reads = false;
  bool writes = false;

  /// Returns true when the two accesses may touch a common byte.
  bool mayOverlap(const BufferAccess &other) const;
  /// Returns true when they may overlap and at least one writes.
  bool conflictsWith(const BufferAccess &other) const;
  void print(llvm::raw_ostream &os) const;
};

/// Resolves buffers to roots and command ops to accesses, deciding once per
/// allocation whether it escapes into a global (a walk over all its uses and
/// their subspans: a slab has one per transient, so deciding it per access
/// made every pass over a command buffer quadratic) and once per entry point
/// what its interface declares. Valid while no use of an allocation is
/// added or removed and no executable changes.
class BufferResolver {
public:
  /// The root of `buffer` and the range it covers: the whole buffer for a
  /// root; a `hal.buffer.subspan` adds its offset and takes its length.
  std::pair<BufferRoot, RootByteRange> resolve(mlir::Value buffer);
  /// The accesses of one command op (see computeCommandAccesses).
  llvm::SmallVector<BufferAccess> getAccesses(mlir::Operation *op);

  /// What the interface of a dispatch's entry point declares, looked up once
  /// per entry point.
  struct EntryInterface {
    /// Null when the entry point or its interface is not found.
    hal::InterfaceOp interface;
    /// The declared access of each (set, binding).
    std::map<std::pair<int64_t, int64_t>, hal::MemoryAccess> declared;
    /// The sets it declares bindings in.
    std::set<int64_t> sets;
  };
  const EntryInterface &
  getEntryInterface(hal::CommandBufferDispatchSymbolOp dispatch);

private:
  BufferRoot getRoot(mlir::Value buffer);
  llvm::DenseMap<mlir::Value, bool> escapes;
  /// By (nearest symbol table, entry point reference).
  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Attribute>, EntryInterface>
      entryInterfaces;
};

/// The value the one submission of a memoized command buffer binds to
/// `value` when it is a slot or uniform argument of a `hal.device.memoize`
/// body (docs/replay.md), so that a memoized recording is analyzed on the
/// buffers and values of its call; `value` itself otherwise.
mlir::Value getSubmittedValue(mlir::Value value);

/// Resolves a `!hal.buffer` value to its root and the range it covers, as
/// BufferResolver::resolve does (without its cache: for one-off queries).
std::pair<BufferRoot, RootByteRange> resolveBuffer(mlir::Value buffer);

/// The accesses of one command op: `fill_buffer` writes its target range,
/// `copy_buffer` reads its source and writes its target range, and
/// `dispatch.symbol` accesses every binding of the `push_descriptor_set`
/// ops in effect (the latest one per set before it, in its block or an
/// enclosing one) as its executable interface declares. Returns an empty
/// list for any other op.
/// Without a resolver for one-off queries; a pass over many commands passes
/// one.
llvm::SmallVector<BufferAccess>
computeCommandAccesses(mlir::Operation *op, BufferResolver *resolver = nullptr);

/// The `push_descriptor_set` in effect for each constant set at `dispatch`:
/// the latest one of its command buffer before it, in its block and then in
/// the enclosing ones, back to the command buffer's `begin`. With `sets`,
/// the search stops once each of those sets is found (and keeps only them);
/// without, it collects every set. `unknownSetPushed` says whether a push
/// with a non-constant set was seen on the way (it may replace any set).
std::map<int64_t, hal::CommandBufferPushDescriptorSetOp>
findPushesInEffect(hal::CommandBufferDispatchSymbolOp dispatch,
                   const std::set<int64_t> *sets, bool &unknownSetPushed);

/// Returns true for the ops that access buffers: fill_buffer, copy_buffer,
/// dispatch.symbol.
bool isBufferCommand(mlir::Operation *op);

/// Calls `callback` on every recording op (fill, copy, descriptor push) that
/// uses `buffer` or one of its subspans (transitively). Returns false, and
/// stops, at a use of another kind or when `callback` returns false.
bool forEachRecordingUse(mlir::Value buffer,
                         llvm::function_ref<bool(mlir::Operation *)> callback);

/// Returns the one command buffer that uses `buffer` when every use of it
/// and of its subspans (transitively) is a command of that command buffer
/// (its bytes then hold nothing but what that command buffer writes), else
/// null.
mlir::Value getOwningCommandBuffer(mlir::Value buffer);

class RangeIndex;

/// The accesses of the commands recorded since the last barrier, indexed so
/// that a conflict query looks at few of them: the recorder asks once per
/// command, and fragments have 100,000 of them. Answers exactly as the
/// pairwise test (BufferAccess::conflictsWith) over the batch would, and
/// returns the same access the old scan did: of the accesses of the same
/// root outside pack slices, the earliest conflicting read (for a write),
/// else the earliest conflicting write; then pack slices; then other roots.
class AccessBatch {
public:
  AccessBatch();
  ~AccessBatch();
  AccessBatch(AccessBatch &&);
  AccessBatch &operator=(AccessBatch &&);

  /// Returns an access of the batch that conflicts with `access`, or null.
  const BufferAccess *findConflict(const BufferAccess &access) const;
  void add(const BufferAccess &access);
  void clear();
  bool empty() const { return accesses.empty(); }

private:
  /// Earliest-ending and latest-starting pack-slice accesses of one pack.
  struct SliceExtremes {
    int minEnd = -1;
    int maxStart = -1;
  };
  struct Bucket {
    Bucket();
    ~Bucket();
    Bucket(Bucket &&);
    Bucket &operator=(Bucket &&);
    BufferRoot root;
    /// Accesses outside any pack slice, by kind.
    std::unique_ptr<RangeIndex> reads, writes;
    /// Accesses inside a pack slice, by (pack, slice).
    llvm::DenseMap<std::pair<mlir::Operation *, unsigned>,
                   llvm::SmallVector<unsigned>>
        bySlice;
    /// Per pack: extremes over all slice accesses and over slice writes.
    llvm::DenseMap<mlir::Operation *, std::pair<SliceExtremes, SliceExtremes>>
        extremes;
    /// Any access with a nonzero length / any such write, for other roots.
    int anyAccess = -1;
    int anyWrite = -1;
  };
  const BufferAccess *findInBucket(const Bucket &bucket,
                                   const BufferAccess &access) const;

  llvm::SmallVector<BufferAccess> accesses;
  llvm::SmallVector<Bucket> buckets;
  /// Buckets of the roots other roots may alias (all but allocations).
  llvm::SmallVector<unsigned> aliasableBuckets;
  /// Bucket of each root, by (kind, value, symbol).
  llvm::DenseMap<std::tuple<int, mlir::Value, mlir::Attribute>, unsigned>
      bucketOf;
};

/// The accesses of every command of every command buffer under an op,
/// computed once.
class CommandAccesses {
public:
  explicit CommandAccesses(mlir::Operation *scope);
  CommandAccesses(mlir::Operation *scope, BufferResolver &resolver);

  /// Accesses of a command under the scope (empty for anything else).
  llvm::ArrayRef<BufferAccess> getAccesses(mlir::Operation *command) const;

  /// Commands in IR order.
  llvm::ArrayRef<mlir::Operation *> getCommands() const { return commands; }

  /// Returns the first pair of conflicting accesses of two commands, if any.
  std::optional<std::pair<const BufferAccess *, const BufferAccess *>>
  findConflict(mlir::Operation *later, mlir::Operation *earlier) const;

  void print(llvm::raw_ostream &os) const;
  void dump() const;

private:
  llvm::SmallVector<mlir::Operation *> commands;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<BufferAccess>> accesses;
};

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_ANALYSIS_COMMANDACCESSES_H
