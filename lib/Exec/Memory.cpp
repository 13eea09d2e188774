//===- Memory.cpp - Device memory with poison tracking --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/Memory.h"
#include "streamhal/Exec/DispatchModel.h"

using namespace streamhal::exec;

RootBuffer RootBuffer::allocate(std::string name, int64_t length) {
  RootBuffer root;
  root.name = std::move(name);
  root.bytes.assign(length, kPoisonByte);
  root.initialized.resize(length, false);
  root.lastWriters.assign(length, nullptr);
  return root;
}

RootBuffer RootBuffer::withContents(std::string name,
                                    llvm::ArrayRef<uint8_t> bytes) {
  RootBuffer root;
  root.name = std::move(name);
  root.bytes.assign(bytes.begin(), bytes.end());
  root.initialized.resize(bytes.size(), true);
  root.lastWriters.assign(bytes.size(), nullptr);
  return root;
}

RootBuffer RootBuffer::growable(std::string name, uint64_t seed) {
  RootBuffer root;
  root.name = std::move(name);
  root.seed = seed;
  return root;
}

bool RootBuffer::ensureRange(int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > INT64_MAX - length)
    return false;
  int64_t end = offset + length;
  if (end <= getLength())
    return true;
  if (!seed)
    return false;
  int64_t old = getLength();
  bytes.resize(end);
  for (int64_t i = old; i < end; ++i)
    bytes[i] = splitMixByteAt(*seed, i);
  initialized.resize(end, true);
  lastWriters.resize(end, nullptr);
  return true;
}

std::optional<int64_t> RootBuffer::findUninitialized(int64_t offset,
                                                     int64_t length) const {
  if (length <= 0)
    return std::nullopt;
  int next = initialized.find_first_unset_in(offset, offset + length);
  if (next < 0)
    return std::nullopt;
  return next;
}

void RootBuffer::write(int64_t offset, llvm::ArrayRef<uint8_t> data,
                       mlir::Operation *writer) {
  std::copy(data.begin(), data.end(), bytes.begin() + offset);
  if (!data.empty())
    initialized.set(offset, offset + data.size());
  std::fill_n(lastWriters.begin() + offset, data.size(), writer);
}

void RootBuffer::copyFrom(const RootBuffer &source, int64_t sourceOffset,
                          int64_t targetOffset, int64_t length,
                          mlir::Operation *writer) {
  // Through a temporary: source and target may be the same root.
  std::vector<uint8_t> data(source.bytes.begin() + sourceOffset,
                            source.bytes.begin() + sourceOffset + length);
  llvm::BitVector state(length);
  for (int64_t i = 0; i < length; ++i)
    state[i] = source.initialized[sourceOffset + i];
  std::copy(data.begin(), data.end(), bytes.begin() + targetOffset);
  for (int64_t i = 0; i < length; ++i) {
    initialized[targetOffset + i] = state[i];
    lastWriters[targetOffset + i] = writer;
  }
}

void RootBuffer::restore(const Snapshot &saved) {
  bytes = saved.bytes;
  initialized = saved.initialized;
  lastWriters = saved.lastWriters;
}

std::optional<int64_t>
RootBuffer::firstDifference(const Snapshot &other) const {
  int64_t length = std::min<int64_t>(bytes.size(), other.bytes.size());
  for (int64_t i = 0; i < length; ++i)
    if (bytes[i] != other.bytes[i] || initialized[i] != other.initialized[i])
      return i;
  if (bytes.size() != other.bytes.size())
    return length;
  return std::nullopt;
}
