//===- Problem.cpp - Problem checks and normalisation ---------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every strategy and the lower bound read: alignment, conflicts,
// validation and the normalised problem. It calls no strategy, so the
// strategies and the dispatch in Packing.cpp depend on it and not on each
// other.
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

/// Bounds that keep every sum the packer forms inside int64_t.
static constexpr int64_t kMaxTime = int64_t(1) << 60;
static constexpr int64_t kMaxAlignment = int64_t(1) << 30;
static constexpr int64_t kMaxTotalSize = int64_t(1) << 61;

//===----------------------------------------------------------------------===//
// Problem helpers
//===----------------------------------------------------------------------===//

int64_t streamhal::packing::alignTo(int64_t value, int64_t alignment) {
  int64_t remainder = value % alignment;
  if (remainder == 0)
    return value;
  return remainder > 0 ? value + (alignment - remainder) : value - remainder;
}

int64_t streamhal::packing::alignedSize(const PackingProblem &problem,
                                        size_t index) {
  return alignTo(problem.buffers[index].size, problem.sizeAlignment);
}

int64_t streamhal::packing::effectiveAlignment(const PackingProblem &problem,
                                               size_t index) {
  return std::lcm(problem.offsetAlignment, problem.buffers[index].alignment);
}

bool streamhal::packing::lifetimesConflict(const PackingProblem &problem,
                                           size_t a, size_t b) {
  const Buffer &x = problem.buffers[a];
  const Buffer &y = problem.buffers[b];
  if (problem.lifetimes == LifetimeConvention::Closed)
    return x.lower <= y.upper && y.lower <= x.upper;
  return x.lower < y.upper && y.lower < x.upper;
}

llvm::Error streamhal::packing::verifyProblem(const PackingProblem &problem) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (problem.offsetAlignment < 1 || problem.offsetAlignment > kMaxAlignment)
    return fail("offset alignment " + llvm::Twine(problem.offsetAlignment) +
                " is not in [1, 2^30]");
  if (problem.sizeAlignment < 1 || problem.sizeAlignment > kMaxAlignment)
    return fail("size alignment " + llvm::Twine(problem.sizeAlignment) +
                " is not in [1, 2^30]");
  int64_t totalSize = 0;
  for (size_t i = 0, e = problem.buffers.size(); i < e; ++i) {
    const Buffer &buffer = problem.buffers[i];
    std::string where = ("buffer " + llvm::Twine(i) + ": ").str();
    if (buffer.size < 0)
      return fail(where + "negative size " + llvm::Twine(buffer.size));
    if (buffer.alignment < 1 || buffer.alignment > kMaxAlignment)
      return fail(where + "alignment " + llvm::Twine(buffer.alignment) +
                  " is not in [1, 2^30]");
    if (std::lcm(problem.offsetAlignment, buffer.alignment) > kMaxAlignment)
      return fail(where + "combined alignment exceeds 2^30");
    if (buffer.lower < -kMaxTime || buffer.upper > kMaxTime)
      return fail(where + "lifetime bound out of range");
    if (buffer.upper < buffer.lower)
      return fail(where + "upper " + llvm::Twine(buffer.upper) +
                  " is less than lower " + llvm::Twine(buffer.lower));
    if (buffer.size > kMaxTotalSize)
      return fail(where + "size out of range");
    totalSize += alignedSize(problem, i) +
                 std::lcm(problem.offsetAlignment, buffer.alignment);
    if (totalSize > kMaxTotalSize)
      return fail("the buffers' total size exceeds 2^61 bytes");
  }
  return llvm::Error::success();
}

NormalizedProblem detail::normalize(const PackingProblem &problem) {
  NormalizedProblem normalized;
  normalized.sizeAlignment = problem.sizeAlignment;
  normalized.buffers.reserve(problem.buffers.size());
  bool closed = problem.lifetimes == LifetimeConvention::Closed;
  for (size_t i = 0, e = problem.buffers.size(); i < e; ++i) {
    const Buffer &buffer = problem.buffers[i];
    NormalizedBuffer out;
    out.start = buffer.lower;
    out.end = closed ? buffer.upper + 1 : buffer.upper;
    out.size = alignedSize(problem, i);
    out.alignment = effectiveAlignment(problem, i);
    normalized.buffers.push_back(out);
  }
  return normalized;
}

std::vector<unsigned> detail::canonicalOrder(const PackingProblem &problem) {
  std::vector<unsigned> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  // The raw values, not the normalised ones: rows whose sizes round to the
  // same value must still be told apart, or which of them gets which offset
  // would follow the row order. The lower bound comes first, so the order is
  // start ordered in both conventions.
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
    return std::tie(x.lower, x.upper, x.size, x.alignment) <
           std::tie(y.lower, y.upper, y.size, y.alignment);
  });
  return order;
}

int64_t detail::packingHeight(const NormalizedProblem &problem,
                              llvm::ArrayRef<int64_t> offsets) {
  int64_t height = 0;
  for (size_t i = 0, e = offsets.size(); i < e; ++i)
    height = std::max(height, offsets[i] + problem.buffers[i].size);
  return height;
}
