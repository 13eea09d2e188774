//===- DispatchModel.cpp - The executor's model of an opaque kernel -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/DispatchModel.h"

using namespace streamhal::exec;

void Fnv1a64::addBytes(llvm::ArrayRef<uint8_t> bytes) {
  for (uint8_t byte : bytes) {
    state ^= byte;
    state *= kPrime;
  }
}

void Fnv1a64::addString(llvm::StringRef text) {
  addBytes(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
}

void Fnv1a64::addU64(uint64_t value) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<uint8_t>(value >> (8 * i));
  addBytes(bytes);
}

void Fnv1a64::addU32(uint32_t value) {
  uint8_t bytes[4];
  for (int i = 0; i < 4; ++i)
    bytes[i] = static_cast<uint8_t>(value >> (8 * i));
  addBytes(bytes);
}

uint64_t streamhal::exec::fnv1a64(llvm::ArrayRef<uint8_t> bytes) {
  Fnv1a64 hash;
  hash.addBytes(bytes);
  return hash.get();
}

uint64_t streamhal::exec::mixSplitMix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t SplitMix64::next() {
  return mixSplitMix64(state += 0x9e3779b97f4a7c15ull);
}

void SplitMix64::fill(llvm::MutableArrayRef<uint8_t> out) {
  size_t position = 0;
  while (position < out.size()) {
    uint64_t word = next();
    for (int i = 0; i < 8 && position < out.size(); ++i, ++position)
      out[position] = static_cast<uint8_t>(word >> (8 * i));
  }
}

void streamhal::exec::splitMixBytesAt(uint64_t seed, uint64_t position,
                                      llvm::MutableArrayRef<uint8_t> out) {
  // Word w of the stream is the mix of seed + (w + 1) * gamma.
  size_t next = 0;
  while (next < out.size()) {
    uint64_t at = position + next;
    SplitMix64 generator(seed + (at / 8) * 0x9e3779b97f4a7c15ull);
    uint64_t word = generator.next();
    for (uint64_t byte = at % 8; byte < 8 && next < out.size(); ++byte)
      out[next++] = static_cast<uint8_t>(word >> (8 * byte));
  }
}

uint8_t streamhal::exec::splitMixByteAt(uint64_t seed, uint64_t position) {
  uint8_t byte = 0;
  splitMixBytesAt(seed, position, byte);
  return byte;
}

uint64_t streamhal::exec::digestBindingBlocks(llvm::ArrayRef<uint8_t> bytes) {
  uint64_t sum = 0;
  for (uint64_t block = 0; block * kModelBlockBytes < bytes.size(); ++block) {
    uint64_t hash = fnv1a64(
        bytes.slice(block * kModelBlockBytes).take_front(kModelBlockBytes));
    sum += mixSplitMix64(hash + (block + 1) * 0x9e3779b97f4a7c15ull);
  }
  return sum;
}

uint64_t streamhal::exec::hashDispatchInputs(const DispatchInputs &inputs) {
  Fnv1a64 hash;
  hash.addString(inputs.entrySymbol);
  for (const ReadBinding &read : inputs.reads) {
    hash.addU32(read.set);
    hash.addU32(read.binding);
    hash.addU64(read.bytes.size());
    hash.addU64(digestBindingBlocks(read.bytes));
  }
  hash.addU64(inputs.pushConstants.size());
  for (uint32_t value : inputs.pushConstants)
    hash.addU32(value);
  for (uint64_t count : inputs.workgroups)
    hash.addU64(count);
  return hash.get();
}

void streamhal::exec::expandDispatchOutput(uint64_t inputHash, uint32_t set,
                                           uint32_t binding,
                                           llvm::MutableArrayRef<uint8_t> out) {
  Fnv1a64 hash;
  hash.addU64(inputHash);
  hash.addU32(set);
  hash.addU32(binding);
  SplitMix64(hash.get()).fill(out);
}
