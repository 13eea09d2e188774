//===- Memory.h - Device memory with poison tracking ------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executor's memory: root buffers (allocations, arguments, globals) that
// remember whether anything wrote each byte and which op wrote it last.
//
// Memory grows with what a program does, not with the sizes it declares:
// bytes live in pages materialized on first write (a never-written page
// reads as its pristine contents), and the initialized state and last
// writer are kept per run of bytes in an interval map, so each write adds
// at most a few runs. A 4 GiB allocation of which a program writes 16 bytes
// costs one page.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_MEMORY_H
#define STREAMHAL_EXEC_MEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntervalMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace streamhal::exec {

/// The byte a fresh allocation holds before anything writes it.
constexpr uint8_t kPoisonByte = 0xCD;

/// The largest buffer the executor runs (an allocation, an argument, a
/// tensor, the bytes of a global it touches): 4 GiB.
constexpr int64_t kMaxBufferBytes = int64_t(1) << 32;

/// Bytes are materialized in pages of this size (the last page of a buffer
/// is as long as what is left of it).
constexpr int64_t kPageBytes = int64_t(1) << 16;

/// The memory a run may use for the buffer data it materializes, shared by
/// every root of one run. The executor checks `fits` before it writes or
/// reads; roots count their pages in `used`.
struct MemoryAccount {
  int64_t limit = INT64_MAX;
  int64_t used = 0;
  /// Whether `bytes` more stay within the limit.
  bool fits(int64_t bytes) const { return bytes <= limit - used; }
};

/// What the executor knows about a byte besides its value.
struct ByteState {
  /// The op that last wrote the byte; null for inputs and pristine bytes.
  mlir::Operation *writer = nullptr;
  bool initialized = false;
  bool operator==(const ByteState &other) const {
    return writer == other.writer && initialized == other.initialized;
  }
  bool operator!=(const ByteState &other) const { return !(*this == other); }
};

/// The bytes [start, start + length) in one state.
struct StateRun {
  int64_t start = 0;
  int64_t length = 0;
  ByteState state;
};

/// One root buffer. Bytes never written are poison: reading them is an
/// uninitialized read. A *growable* root (a `!hal.buffer` global without
/// contents) is an endless pseudo-random stream: its length is INT64_MAX,
/// every byte is initialized, and only written pages are stored.
///
/// Offsets and lengths passed to the accessors must lie inside the root
/// (`contains`); the executor checks every range before it accesses one.
class RootBuffer {
public:
  /// A fresh allocation: `length` poison bytes (0 to kMaxBufferBytes).
  static RootBuffer allocate(std::string name, int64_t length);
  /// A fully initialized buffer holding `bytes`.
  static RootBuffer withContents(std::string name,
                                 llvm::ArrayRef<uint8_t> bytes);
  /// A growable buffer whose byte i is `splitMixByteAt(seed, i)`.
  static RootBuffer growable(std::string name, uint64_t seed);

  RootBuffer(RootBuffer &&) = default;
  RootBuffer &operator=(RootBuffer &&) = delete;
  ~RootBuffer();

  const std::string &getName() const { return name; }
  /// A number no other root of the process has (pointers may be reused
  /// once a root is freed; serials are not).
  uint64_t getSerial() const { return serial; }
  int64_t getLength() const { return length; }
  bool isGrowable() const { return seed.has_value(); }
  /// A read-only root (an immutable global): writing it is an error.
  bool isReadOnly() const { return readOnly; }
  void setReadOnly() { readOnly = true; }

  /// Whether the host may read and write the root: false for an allocation
  /// whose memory type lacks `HostVisible` (arguments, globals and
  /// host-visible allocations are host-visible).
  bool isHostVisible() const { return !deviceOnlyAllocation; }
  /// Marks the root as device-only memory allocated by `allocation`.
  void setDeviceOnly(mlir::Operation *allocation) {
    deviceOnlyAllocation = allocation;
  }
  /// The allocation of a device-only root, null for a host-visible one.
  mlir::Operation *getDeviceOnlyAllocation() const {
    return deviceOnlyAllocation;
  }

  /// Marks the root as released by `dealloca` (a hal.device.queue.dealloca):
  /// no later op may use it.
  void setReleased(mlir::Operation *dealloca) { releasedBy = dealloca; }
  /// The dealloca that released the root, null while it is live.
  mlir::Operation *getRelease() const { return releasedBy; }

  /// Counts the pages this root materializes from now on in `account`.
  void setAccount(std::shared_ptr<MemoryAccount> newAccount);
  /// Bytes of the pages this root holds.
  int64_t getMaterializedBytes() const { return materialized; }
  /// Bytes of pages that writing [offset, offset + length) would add.
  int64_t getUnmaterializedBytes(int64_t offset, int64_t length) const;

  /// Whether [offset, offset + length) lies inside the root (computed
  /// without overflow).
  bool contains(int64_t offset, int64_t length) const;

  /// Returns the first uninitialized offset in the range, if any.
  std::optional<int64_t> findUninitialized(int64_t offset,
                                           int64_t length) const;

  /// Reads `out.size()` bytes at `offset`.
  void read(int64_t offset, llvm::MutableArrayRef<uint8_t> out) const;
  std::vector<uint8_t> readBytes(int64_t offset, int64_t length) const;
  /// Writes `data` at `offset`, marking the bytes initialized and written by
  /// `writer`.
  void write(int64_t offset, llvm::ArrayRef<uint8_t> data,
             mlir::Operation *writer);
  /// Copies bytes and their initialized state (a copy of poison stays
  /// poison); the copied bytes are written by `writer`. Source and target
  /// may overlap in one root.
  void copyFrom(const RootBuffer &source, int64_t sourceOffset,
                int64_t targetOffset, int64_t length, mlir::Operation *writer);

  /// The op that last wrote byte `offset`, or null (inputs, never written).
  mlir::Operation *getLastWriter(int64_t offset) const;
  /// The states of [offset, offset + length), in order, covering the range.
  llvm::SmallVector<StateRun> getRuns(int64_t offset, int64_t length) const;

  /// The pages and the runs that differ from the pristine state, to save
  /// and restore around a re-execution.
  struct Snapshot {
    std::map<int64_t, std::vector<uint8_t>> pages;
    llvm::SmallVector<StateRun> runs;
    /// The last writer of byte `offset` when the snapshot was taken.
    mlir::Operation *getLastWriter(int64_t offset) const;
  };
  Snapshot snapshot() const;
  void restore(const Snapshot &saved);
  /// First offset where the bytes or initialized state differ from
  /// `other`, if any.
  std::optional<int64_t> firstDifference(const Snapshot &other) const;

private:
  /// Closed intervals [first, last] of bytes whose state differs from the
  /// root's pristine state; bytes outside every interval are pristine.
  using StateMap = llvm::IntervalMap<int64_t, ByteState>;

  RootBuffer();
  /// Bytes of page `index`.
  int64_t getPageBytes(int64_t index) const;
  /// Fills `out` with the pristine bytes at `offset` (never written).
  void readPristine(int64_t offset, llvm::MutableArrayRef<uint8_t> out) const;
  /// Writes the bytes only (the state is the caller's).
  void writeBytes(int64_t offset, llvm::ArrayRef<uint8_t> data);
  /// Sets the state of [first, last] (closed, first <= last).
  void assign(int64_t first, int64_t last, ByteState state);
  void setMaterialized(int64_t bytes);

  std::string name;
  uint64_t serial = 0;
  int64_t length = 0;
  /// Pages by index; a missing page holds pristine bytes.
  std::map<int64_t, std::vector<uint8_t>> pages;
  int64_t materialized = 0;
  /// The state of a byte outside every interval of `states`.
  ByteState pristine;
  // The map allocates its nodes from `allocator`, so it is declared (and
  // destroyed) after it; both live on the heap so that a moved root keeps
  // them valid.
  std::unique_ptr<StateMap::Allocator> allocator;
  std::unique_ptr<StateMap> states;
  std::shared_ptr<MemoryAccount> account;
  std::optional<uint64_t> seed;
  bool readOnly = false;
  mlir::Operation *deviceOnlyAllocation = nullptr;
  mlir::Operation *releasedBy = nullptr;
};

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_MEMORY_H
