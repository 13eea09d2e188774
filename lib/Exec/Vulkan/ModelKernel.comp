//===- ModelKernel.comp - The dispatch model as a Vulkan compute kernel ---===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The dispatch model of docs/executor.md ("The dispatch model") for an entry
// point without SPIR-V: the same bytes as lib/Exec/DispatchModel.cpp. One
// workgroup of 256 invocations runs one HAL dispatch: the invocations hash
// the 256-byte blocks of every Read binding in parallel (an llvmpipe
// invocation stops after 65,535 loop iterations, so no invocation may walk
// a whole binding), sum the block digests, invocation 0 hashes the rest of
// the inputs, and all of them expand the SplitMix64 streams into the Write
// bindings. The host (lib/Exec/Vulkan/VulkanSubmit.cpp) fills the parameter
// block and checks that no invocation needs more iterations than llvmpipe
// allows.
//
// Slots: 12 read and 12 write bindings (kModelSlots in VulkanDevice.h); a
// Read|Write binding is bound to one of each, unused slots to a small
// scratch range of their own.
//
//===----------------------------------------------------------------------===//

#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

const uint kBlockBytes = 256;
const uint kInvocations = 256;
const uint kSlots = 12;
const uint64_t kFnvBasis = 0xcbf29ce484222325UL;
const uint64_t kFnvPrime = 0x100000001b3UL;
const uint64_t kGamma = 0x9e3779b97f4a7c15UL;

layout(set = 0, binding = 0) readonly buffer Read0 { uint8_t bytes[]; } read0;
layout(set = 0, binding = 1) readonly buffer Read1 { uint8_t bytes[]; } read1;
layout(set = 0, binding = 2) readonly buffer Read2 { uint8_t bytes[]; } read2;
layout(set = 0, binding = 3) readonly buffer Read3 { uint8_t bytes[]; } read3;
layout(set = 0, binding = 4) readonly buffer Read4 { uint8_t bytes[]; } read4;
layout(set = 0, binding = 5) readonly buffer Read5 { uint8_t bytes[]; } read5;
layout(set = 0, binding = 6) readonly buffer Read6 { uint8_t bytes[]; } read6;
layout(set = 0, binding = 7) readonly buffer Read7 { uint8_t bytes[]; } read7;
layout(set = 0, binding = 8) readonly buffer Read8 { uint8_t bytes[]; } read8;
layout(set = 0, binding = 9) readonly buffer Read9 { uint8_t bytes[]; } read9;
layout(set = 0, binding = 10) readonly buffer Read10 { uint8_t bytes[]; } read10;
layout(set = 0, binding = 11) readonly buffer Read11 { uint8_t bytes[]; } read11;
layout(set = 0, binding = 12) writeonly buffer Write0 { uint8_t bytes[]; } write0;
layout(set = 0, binding = 13) writeonly buffer Write1 { uint8_t bytes[]; } write1;
layout(set = 0, binding = 14) writeonly buffer Write2 { uint8_t bytes[]; } write2;
layout(set = 0, binding = 15) writeonly buffer Write3 { uint8_t bytes[]; } write3;
layout(set = 0, binding = 16) writeonly buffer Write4 { uint8_t bytes[]; } write4;
layout(set = 0, binding = 17) writeonly buffer Write5 { uint8_t bytes[]; } write5;
layout(set = 0, binding = 18) writeonly buffer Write6 { uint8_t bytes[]; } write6;
layout(set = 0, binding = 19) writeonly buffer Write7 { uint8_t bytes[]; } write7;
layout(set = 0, binding = 20) writeonly buffer Write8 { uint8_t bytes[]; } write8;
layout(set = 0, binding = 21) writeonly buffer Write9 { uint8_t bytes[]; } write9;
layout(set = 0, binding = 22) writeonly buffer Write10 { uint8_t bytes[]; } write10;
layout(set = 0, binding = 23) writeonly buffer Write11 { uint8_t bytes[]; } write11;

// The parameter block, 32-bit words (VulkanSubmit.cpp writes it):
//   0, 1  FNV-1a-64 state after the entry symbol (low, high)
//   2     push-constant count      3  Read count      4  Write count
//   5-10  workgroups x, y, z (low, high each)
//   16 + 4 i        Read i:  set, binding, length, slot
//   16 + 4 (12 + i) Write i: set, binding, length, slot
layout(set = 0, binding = 24) readonly buffer Parameters { uint words[]; } params;

layout(push_constant) uniform PushConstants { uint values[32]; } constants;

shared uint64_t partialSums[kInvocations];
shared uint64_t inputHash;

uint loadByte(uint slot, uint at) {
  switch (slot) {
  case 0: return uint(read0.bytes[at]);
  case 1: return uint(read1.bytes[at]);
  case 2: return uint(read2.bytes[at]);
  case 3: return uint(read3.bytes[at]);
  case 4: return uint(read4.bytes[at]);
  case 5: return uint(read5.bytes[at]);
  case 6: return uint(read6.bytes[at]);
  case 7: return uint(read7.bytes[at]);
  case 8: return uint(read8.bytes[at]);
  case 9: return uint(read9.bytes[at]);
  case 10: return uint(read10.bytes[at]);
  case 11: return uint(read11.bytes[at]);
  }
  return 0u;
}

void storeByte(uint slot, uint at, uint value) {
  switch (slot) {
  case 0: write0.bytes[at] = uint8_t(value); return;
  case 1: write1.bytes[at] = uint8_t(value); return;
  case 2: write2.bytes[at] = uint8_t(value); return;
  case 3: write3.bytes[at] = uint8_t(value); return;
  case 4: write4.bytes[at] = uint8_t(value); return;
  case 5: write5.bytes[at] = uint8_t(value); return;
  case 6: write6.bytes[at] = uint8_t(value); return;
  case 7: write7.bytes[at] = uint8_t(value); return;
  case 8: write8.bytes[at] = uint8_t(value); return;
  case 9: write9.bytes[at] = uint8_t(value); return;
  case 10: write10.bytes[at] = uint8_t(value); return;
  case 11: write11.bytes[at] = uint8_t(value); return;
  }
}

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
  return z ^ (z >> 31);
}

uint64_t addByte(uint64_t hash, uint byte) {
  return (hash ^ uint64_t(byte & 0xffu)) * kFnvPrime;
}

uint64_t addU32(uint64_t hash, uint value) {
  hash = addByte(hash, value);
  hash = addByte(hash, value >> 8);
  hash = addByte(hash, value >> 16);
  return addByte(hash, value >> 24);
}

uint64_t addU64(uint64_t hash, uint64_t value) {
  hash = addU32(hash, uint(value));
  return addU32(hash, uint(value >> 32));
}

uint64_t readU64(uint word) {
  return uint64_t(params.words[word]) | (uint64_t(params.words[word + 1]) << 32);
}

void main() {
  uint invocation = gl_LocalInvocationID.x;
  uint readCount = params.words[3];
  uint writeCount = params.words[4];
  uint64_t hash = readU64(0);

  // Every Read binding, in (set, binding) order: the blocked digest, summed
  // by a tree over the invocations' partial sums.
  for (uint r = 0; r < readCount; ++r) {
    uint base = 16 + 4 * r;
    uint length = params.words[base + 2];
    uint slot = params.words[base + 3];
    uint blocks = (length + kBlockBytes - 1) / kBlockBytes;
    uint64_t sum = 0;
    for (uint block = invocation; block < blocks; block += kInvocations) {
      uint begin = block * kBlockBytes;
      uint end = min(begin + kBlockBytes, length);
      uint64_t blockHash = kFnvBasis;
      for (uint at = begin; at < end; ++at)
        blockHash = addByte(blockHash, loadByte(slot, at));
      sum += mix(blockHash + uint64_t(block + 1) * kGamma);
    }
    partialSums[invocation] = sum;
    barrier();
    for (uint stride = kInvocations / 2; stride > 0; stride /= 2) {
      if (invocation < stride)
        partialSums[invocation] += partialSums[invocation + stride];
      barrier();
    }
    hash = addU32(hash, params.words[base]);
    hash = addU32(hash, params.words[base + 1]);
    hash = addU64(hash, uint64_t(length));
    hash = addU64(hash, partialSums[0]);
    barrier();
  }
  uint constantCount = params.words[2];
  hash = addU64(hash, uint64_t(constantCount));
  for (uint i = 0; i < constantCount; ++i)
    hash = addU32(hash, constants.values[i]);
  hash = addU64(hash, readU64(5));
  hash = addU64(hash, readU64(7));
  hash = addU64(hash, readU64(9));

  // Every Write binding, in order (a later one wins where two overlap, as
  // in the model), after every Read binding was read.
  memoryBarrierBuffer();
  barrier();
  for (uint w = 0; w < writeCount; ++w) {
    uint base = 16 + 4 * (kSlots + w);
    uint length = params.words[base + 2];
    uint slot = params.words[base + 3];
    uint64_t seed = addU32(addU32(addU64(kFnvBasis, hash), params.words[base]),
                           params.words[base + 1]);
    for (uint word = invocation; word * 8 < length; word += kInvocations) {
      uint64_t value = mix(seed + uint64_t(word + 1) * kGamma);
      uint first = word * 8;
      uint count = min(8u, length - first);
      // Unrolled by hand: every loop iteration counts against llvmpipe's
      // limit.
      if (count > 0) storeByte(slot, first + 0, uint(value));
      if (count > 1) storeByte(slot, first + 1, uint(value >> 8));
      if (count > 2) storeByte(slot, first + 2, uint(value >> 16));
      if (count > 3) storeByte(slot, first + 3, uint(value >> 24));
      if (count > 4) storeByte(slot, first + 4, uint(value >> 32));
      if (count > 5) storeByte(slot, first + 5, uint(value >> 40));
      if (count > 6) storeByte(slot, first + 6, uint(value >> 48));
      if (count > 7) storeByte(slot, first + 7, uint(value >> 56));
    }
    memoryBarrierBuffer();
    barrier();
  }
}
