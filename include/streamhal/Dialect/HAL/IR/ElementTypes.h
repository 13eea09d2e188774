//===- ElementTypes.h - HAL element type encodings --------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `i32` encoding of element types used by compute_size, buffer views and
// friends: `(numerical_type << 24) | bit_width`.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_ELEMENTTYPES_H
#define STREAMHAL_DIALECT_HAL_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"
#include <cstdint>
#include <optional>

namespace streamhal::hal {

/// Numerical type field (bits 24..31) of an element type encoding.
enum class NumericalType : uint32_t {
  Opaque = 0x00,
  Integer = 0x01, ///< signless or signed
  Unsigned = 0x02,
  IEEEFloat = 0x03,
  BFloat = 0x04,
};

/// The only encoding defined: dense row-major.
constexpr int32_t kDenseRowMajorEncoding = 0;

/// Builds an encoding from its two fields.
constexpr int32_t makeElementTypeValue(NumericalType type, uint32_t bitWidth) {
  return static_cast<int32_t>((static_cast<uint32_t>(type) << 24) |
                              (bitWidth & 0xFFFFFFu));
}

/// Returns the encoding of `type`, or std::nullopt when it has none (index,
/// complex, vectors, ...).
std::optional<int32_t> getElementTypeValue(mlir::Type type);

/// Returns the bit width stored in an encoding.
constexpr uint32_t getElementBitWidth(int32_t value) {
  return static_cast<uint32_t>(value) & 0xFFFFFFu;
}

/// Returns the bytes an element of an encoded type occupies:
/// ceil(bit_width / 8), so an `i1` takes one byte.
constexpr int64_t getElementByteCount(int32_t value) {
  return (static_cast<int64_t>(getElementBitWidth(value)) + 7) / 8;
}

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_ELEMENTTYPES_H
