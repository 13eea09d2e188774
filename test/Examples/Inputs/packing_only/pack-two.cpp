//===- pack-two.cpp - a packer-only downstream program --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Packs two buffers whose lifetimes do not overlap and one that overlaps
// both; prints the offsets and the slab size.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Packing/Packing.h"
#include "llvm/Support/raw_ostream.h"

using namespace streamhal::packing;

int main() {
  PackingProblem problem;
  problem.offsetAlignment = 16;
  problem.sizeAlignment = 16;
  problem.buffers = {{0, 1, 64, 1}, {2, 3, 64, 1}, {0, 3, 32, 1}};
  PackingResult result = pack(problem, PackingOptions());
  if (llvm::Error error = validatePacking(problem, result)) {
    llvm::errs() << "pack-two: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  llvm::outs() << "offsets";
  for (int64_t offset : result.offsets)
    llvm::outs() << " " << offset;
  llvm::outs() << " slab " << result.slabSize << "\n";
  return 0;
}
