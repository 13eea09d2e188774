//===- ElementTypes.cpp - HAL element type encodings ----------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace streamhal::hal {

std::optional<int32_t> getElementTypeValue(Type type) {
  return llvm::TypeSwitch<Type, std::optional<int32_t>>(type)
      .Case<IntegerType>([](IntegerType intType) -> std::optional<int32_t> {
        NumericalType kind = intType.isUnsigned() ? NumericalType::Unsigned
                                                  : NumericalType::Integer;
        return makeElementTypeValue(kind, intType.getWidth());
      })
      .Case<BFloat16Type>([](BFloat16Type) -> std::optional<int32_t> {
        return makeElementTypeValue(NumericalType::BFloat, 16);
      })
      .Case<Float16Type, Float32Type, Float64Type>(
          [](FloatType floatType) -> std::optional<int32_t> {
            return makeElementTypeValue(NumericalType::IEEEFloat,
                                        floatType.getWidth());
          })
      .Default([](Type) { return std::nullopt; });
}

} // namespace streamhal::hal
