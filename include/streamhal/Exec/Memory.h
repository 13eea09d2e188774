//===- Memory.h - Device memory with poison tracking ------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executor's memory: root buffers (allocations, arguments, globals) that
// remember, per byte, whether anything wrote it and which op wrote it last.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_MEMORY_H
#define STREAMHAL_EXEC_MEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace streamhal::exec {

/// The byte a fresh allocation holds before anything writes it.
constexpr uint8_t kPoisonByte = 0xCD;

/// One root buffer. Bytes never written are poison: reading them is an
/// uninitialized read. A *growable* root (a `!hal.buffer` global without
/// contents) is an endless pseudo-random stream, materialized on demand.
class RootBuffer {
public:
  /// A fresh allocation: `length` poison bytes.
  static RootBuffer allocate(std::string name, int64_t length);
  /// A fully initialized buffer holding `bytes`.
  static RootBuffer withContents(std::string name,
                                 llvm::ArrayRef<uint8_t> bytes);
  /// A growable buffer whose byte i is `splitMixByteAt(seed, i)`.
  static RootBuffer growable(std::string name, uint64_t seed);

  const std::string &getName() const { return name; }
  int64_t getLength() const { return static_cast<int64_t>(bytes.size()); }
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

  /// Makes [offset, offset + length) addressable: grows a growable root,
  /// otherwise returns false when the range is outside the buffer.
  bool ensureRange(int64_t offset, int64_t length);

  /// Returns the first uninitialized offset in the range, if any.
  std::optional<int64_t> findUninitialized(int64_t offset,
                                           int64_t length) const;

  llvm::ArrayRef<uint8_t> read(int64_t offset, int64_t length) const {
    return llvm::ArrayRef<uint8_t>(bytes).slice(offset, length);
  }
  /// Writes `data` at `offset`, marking the bytes initialized and written by
  /// `writer`.
  void write(int64_t offset, llvm::ArrayRef<uint8_t> data,
             mlir::Operation *writer);
  /// Copies bytes and their initialized state (a copy of poison stays
  /// poison).
  void copyFrom(const RootBuffer &source, int64_t sourceOffset,
                int64_t targetOffset, int64_t length, mlir::Operation *writer);

  /// The op that last wrote byte `offset`, or null (inputs, never written).
  mlir::Operation *getLastWriter(int64_t offset) const {
    return lastWriters[offset];
  }

  /// The bytes, initialized state and writers, to save and restore around a
  /// re-execution.
  struct Snapshot {
    std::vector<uint8_t> bytes;
    llvm::BitVector initialized;
    std::vector<mlir::Operation *> lastWriters;
  };
  Snapshot snapshot() const { return {bytes, initialized, lastWriters}; }
  void restore(const Snapshot &saved);
  bool sameContents(const Snapshot &other) const {
    return bytes == other.bytes && initialized == other.initialized;
  }
  /// First offset where the contents differ from `other`, if any.
  std::optional<int64_t> firstDifference(const Snapshot &other) const;

private:
  std::string name;
  std::vector<uint8_t> bytes;
  llvm::BitVector initialized;
  std::vector<mlir::Operation *> lastWriters;
  std::optional<uint64_t> seed;
  bool readOnly = false;
  mlir::Operation *deviceOnlyAllocation = nullptr;
};

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_MEMORY_H
