//===- DispatchModel.h - The executor's model of an opaque kernel -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An executable's body is opaque, so the reference executor replaces every
// dispatch with a fixed function of everything a real kernel may depend on:
// the entry symbol, the bytes of its Read bindings, its push constants and
// its workgroup count. Both interpreter levels use this one model, so a
// lowering that feeds a dispatch different inputs produces different bytes.
// See docs/executor.md.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_DISPATCHMODEL_H
#define STREAMHAL_EXEC_DISPATCHMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <string>

namespace streamhal::exec {

/// Incremental FNV-1a, 64-bit.
class Fnv1a64 {
public:
  static constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
  static constexpr uint64_t kPrime = 0x100000001b3ull;

  void addBytes(llvm::ArrayRef<uint8_t> bytes);
  void addString(llvm::StringRef text);
  /// Adds `value` as 8 little-endian bytes.
  void addU64(uint64_t value);
  /// Adds `value` as 4 little-endian bytes.
  void addU32(uint32_t value);
  uint64_t get() const { return state; }

private:
  uint64_t state = kOffsetBasis;
};

/// Returns FNV-1a-64 of `bytes`.
uint64_t fnv1a64(llvm::ArrayRef<uint8_t> bytes);

/// The SplitMix64 generator (Steele, Lea, Flood 2014).
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next();
  /// Fills `out` with the stream, 8 little-endian bytes per word (the last
  /// word truncated).
  void fill(llvm::MutableArrayRef<uint8_t> out);

private:
  uint64_t state;
};

/// Returns byte `position` of the SplitMix64 stream seeded with `seed`,
/// without generating the bytes before it (used for pseudo-random globals
/// whose size is not known in advance).
uint8_t splitMixByteAt(uint64_t seed, uint64_t position);
/// Fills `out` with bytes `position`, `position + 1`, ... of that stream
/// (one generator step per 8 bytes instead of one per byte).
void splitMixBytesAt(uint64_t seed, uint64_t position,
                     llvm::MutableArrayRef<uint8_t> out);

/// One binding a dispatch reads: its (set, binding) ordinal and bytes.
struct ReadBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  llvm::ArrayRef<uint8_t> bytes;
};

/// Everything the model depends on. Read bindings must be sorted by
/// (set, binding); `pushConstants[i]` is ordinal i.
struct DispatchInputs {
  std::string entrySymbol; ///< `@ex::@entry` (no variant)
  llvm::SmallVector<ReadBinding> reads;
  llvm::SmallVector<uint32_t> pushConstants;
  std::array<uint64_t, 3> workgroups = {1, 1, 1};
};

/// The model hashes a binding's bytes in blocks of this many bytes, each on
/// its own, so that a device kernel can hash them in parallel (an
/// invocation of Mesa's llvmpipe runs at most 65,535 loop iterations).
constexpr uint64_t kModelBlockBytes = 256;

/// The SplitMix64 output function (finalizer) of `z`.
uint64_t mixSplitMix64(uint64_t z);

/// The blocked digest of a binding's bytes: the sum modulo 2^64 over every
/// block k (kModelBlockBytes bytes, the last one shorter) of
/// mixSplitMix64(FNV-1a-64(block k) + (k + 1) * 0x9e3779b97f4a7c15). Zero
/// for no bytes. Every byte and its block's position count.
uint64_t digestBindingBlocks(llvm::ArrayRef<uint8_t> bytes);

/// Hash of the inputs: FNV-1a-64 over the entry symbol, every Read binding
/// (set, binding, length, digestBindingBlocks(bytes)) in ordinal order, the
/// push constant count and values, and the workgroup count.
uint64_t hashDispatchInputs(const DispatchInputs &inputs);

/// Writes the model's output for binding (set, binding) into `out`: the
/// SplitMix64 stream seeded with the input hash extended by the ordinal.
void expandDispatchOutput(uint64_t inputHash, uint32_t set, uint32_t binding,
                          llvm::MutableArrayRef<uint8_t> out);

/// The 64-bit digest printed for a result: FNV-1a-64 of its bytes.
inline uint64_t digestBytes(llvm::ArrayRef<uint8_t> bytes) {
  return fnv1a64(bytes);
}

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_DISPATCHMODEL_H
