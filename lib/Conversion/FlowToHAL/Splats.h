//===- Splats.h - how a splat is filled -------------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Fills take a 32-bit pattern. A splat of 1-, 2- or 4-byte elements is one
// fill of the element repeated across 32 bits; a splat of 8-byte elements
// (i64, f64, complex<f32>) is either one fill (when both 32-bit halves of
// the value are equal) or two 4-byte fills of the first element followed by
// copies that double the filled prefix until it covers the whole tensor.
// These are the facts the fragment check and the recorder share.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_SPLATS_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_SPLATS_H

#include "mlir/IR/Value.h"
#include "streamhal/Analysis/ErrorReporter.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace streamhal {

/// The multiplier that repeats a zero-extended element of `elementType`
/// across 32 bits (0x01010101 for 8 bits, 0x00010001 for 16, 1 for 32), or
/// std::nullopt for widths a 32-bit fill cannot express.
std::optional<uint32_t> getSplatPatternMultiplier(mlir::Type elementType);

/// Bytes of one element of a wide splat.
constexpr int64_t kWideSplatElementBytes = 8;

/// The doubling copies a splat of dynamic length records: one per power of
/// two `8 * 2^k` that is smaller than the largest tensor the device can
/// hold, `maxAllocationSize` bytes (a tensor lives in one allocation), so
/// 27 for the default 1 GiB and at most 60 (k = 0..59, below 2^63).
unsigned getWideSplatDynamicCopies(int64_t maxAllocationSize);

/// Returns true for the 8-byte element types a wide splat handles: 64-bit
/// integers and floats, and `complex<f32>` (real part in the low 4 bytes,
/// imaginary part in the high 4 bytes, little-endian).
bool isWideSplatElementType(mlir::Type type);

/// The 64 bits of the value of a wide splat when it is a constant (also
/// through fragment operands), else std::nullopt.
std::optional<uint64_t> getWideSplatConstant(mlir::Value value);

/// The 32-bit fill pattern of a wide splat whose value is a constant with
/// two equal 32-bit halves (0, -1, 0.0, ...), else std::nullopt: such a
/// splat is one 4-byte fill.
std::optional<uint32_t> getWideSplatPattern(mlir::Value value);

/// One doubling copy of a wide splat: `length` bytes from offset 0 of the
/// tensor to `offset`.
struct WideSplatCopy {
  int64_t offset;
  int64_t length;
  bool operator==(const WideSplatCopy &other) const {
    return offset == other.offset && length == other.length;
  }
};

/// The copies that fill a wide splat of `length` bytes (a multiple of 8) once
/// its first element is written: `[0, L)` to `L` for L = 8, 16, ..., the last
/// one clamped to the end. None for lengths up to 8.
llvm::SmallVector<WideSplatCopy> planWideSplatCopies(int64_t length);

/// Checks that a splat of a wide element type can be recorded, reporting
/// at the op why not. Only called for wide element types.
mlir::LogicalResult checkWideSplat(flow::TensorSplatOp op,
                                   const ErrorReporter &report);

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_SPLATS_H
