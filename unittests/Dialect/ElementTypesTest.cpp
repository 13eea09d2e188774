//===- ElementTypesTest.cpp - Tests of element type encodings -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `(numerical_type << 24) | bit_width` encoding of hal element types and
// the element and tensor byte sizes of util.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace streamhal;

namespace {

class ElementTypesTest : public ::testing::Test {
protected:
  MLIRContext context;
  Builder builder{&context};

  Type ui(unsigned width) {
    return IntegerType::get(&context, width, IntegerType::Unsigned);
  }
  Type si(unsigned width) {
    return IntegerType::get(&context, width, IntegerType::Signed);
  }
};

TEST_F(ElementTypesTest, SpecValues) {
  // The values dialects.md gives literally.
  EXPECT_EQ(hal::getElementTypeValue(builder.getI32Type()), 16777248);
  EXPECT_EQ(hal::getElementTypeValue(builder.getI1Type()), 16777217);
  EXPECT_EQ(hal::getElementTypeValue(builder.getF32Type()), 0x03000020);
  EXPECT_EQ(hal::getElementTypeValue(builder.getF16Type()), 0x03000010);
  EXPECT_EQ(hal::getElementTypeValue(builder.getBF16Type()), 0x04000010);
}

TEST_F(ElementTypesTest, Integers) {
  EXPECT_EQ(hal::getElementTypeValue(builder.getI8Type()), 0x01000008);
  EXPECT_EQ(hal::getElementTypeValue(builder.getI16Type()), 0x01000010);
  EXPECT_EQ(hal::getElementTypeValue(builder.getI64Type()), 0x01000040);
  EXPECT_EQ(hal::getElementTypeValue(builder.getIntegerType(4)), 0x01000004);
  // Signed integers share the signless numerical type; unsigned have their
  // own.
  EXPECT_EQ(hal::getElementTypeValue(si(32)), 0x01000020);
  EXPECT_EQ(hal::getElementTypeValue(ui(32)), 0x02000020);
  EXPECT_EQ(hal::getElementTypeValue(ui(8)), 0x02000008);
}

TEST_F(ElementTypesTest, Floats) {
  EXPECT_EQ(hal::getElementTypeValue(builder.getF64Type()), 0x03000040);
  EXPECT_NE(hal::getElementTypeValue(builder.getF16Type()),
            hal::getElementTypeValue(builder.getBF16Type()));
}

TEST_F(ElementTypesTest, TypesWithoutEncoding) {
  EXPECT_EQ(hal::getElementTypeValue(builder.getIndexType()), std::nullopt);
  EXPECT_EQ(hal::getElementTypeValue(ComplexType::get(builder.getF32Type())),
            std::nullopt);
  EXPECT_EQ(
      hal::getElementTypeValue(VectorType::get({4}, builder.getF32Type())),
      std::nullopt);
  EXPECT_EQ(hal::getElementTypeValue(
                RankedTensorType::get({4}, builder.getF32Type())),
            std::nullopt);
}

TEST_F(ElementTypesTest, MakeAndDecode) {
  constexpr int32_t value =
      hal::makeElementTypeValue(hal::NumericalType::IEEEFloat, 32);
  static_assert(value == 0x03000020, "f32 encoding");
  static_assert(hal::getElementBitWidth(value) == 32, "bit width field");
  static_assert(hal::kDenseRowMajorEncoding == 0, "only encoding defined");
  EXPECT_EQ(hal::getElementBitWidth(0x04000010), 16u);
}

TEST_F(ElementTypesTest, HALElementByteCount) {
  // ceil(bit_width / 8): sub-byte types take a whole byte.
  EXPECT_EQ(hal::getElementByteCount(16777217), 1);   // i1
  EXPECT_EQ(hal::getElementByteCount(0x01000004), 1); // i4
  EXPECT_EQ(hal::getElementByteCount(0x01000008), 1); // i8
  EXPECT_EQ(hal::getElementByteCount(0x03000010), 2); // f16
  EXPECT_EQ(hal::getElementByteCount(0x04000010), 2); // bf16
  EXPECT_EQ(hal::getElementByteCount(0x01000018), 3); // i24
  EXPECT_EQ(hal::getElementByteCount(16777248), 4);   // i32
  EXPECT_EQ(hal::getElementByteCount(0x01000040), 8); // i64
  EXPECT_EQ(hal::getElementByteCount(0x03000040), 8); // f64
  EXPECT_EQ(hal::getElementByteCount(0x01000041), 9); // i65
  EXPECT_EQ(hal::getElementByteCount(0), 0);          // opaque, no width
}

TEST_F(ElementTypesTest, HALByteCountMatchesEncodedTypes) {
  Type types[] = {builder.getI1Type(),
                  builder.getIntegerType(4),
                  builder.getI8Type(),
                  builder.getI16Type(),
                  builder.getI32Type(),
                  builder.getI64Type(),
                  builder.getF16Type(),
                  builder.getBF16Type(),
                  builder.getF32Type(),
                  builder.getF64Type(),
                  ui(32)};
  for (Type type : types) {
    std::optional<int32_t> value = hal::getElementTypeValue(type);
    ASSERT_TRUE(value.has_value());
    EXPECT_EQ(hal::getElementByteCount(*value),
              util::getElementByteCount(type));
  }
}

TEST_F(ElementTypesTest, UtilElementByteCount) {
  EXPECT_EQ(util::getElementByteCount(builder.getI1Type()), 1);
  EXPECT_EQ(util::getElementByteCount(builder.getIntegerType(4)), 1);
  EXPECT_EQ(util::getElementByteCount(builder.getF16Type()), 2);
  EXPECT_EQ(util::getElementByteCount(builder.getF32Type()), 4);
  EXPECT_EQ(util::getElementByteCount(builder.getI64Type()), 8);
  EXPECT_EQ(util::getElementByteCount(builder.getIndexType()), std::nullopt);
  EXPECT_EQ(util::getElementByteCount(ComplexType::get(builder.getF32Type())),
            std::nullopt);
}

TEST_F(ElementTypesTest, UtilStaticByteSize) {
  EXPECT_EQ(util::getStaticByteSize(
                RankedTensorType::get({5, 24, 48}, builder.getF32Type())),
            23040);
  EXPECT_EQ(util::getStaticByteSize(
                RankedTensorType::get({2, 3}, builder.getI1Type())),
            6);
  EXPECT_EQ(
      util::getStaticByteSize(RankedTensorType::get({}, builder.getI32Type())),
      4);
  EXPECT_EQ(util::getStaticByteSize(
                RankedTensorType::get({0, 4}, builder.getF32Type())),
            0);
  EXPECT_EQ(util::getStaticByteSize(RankedTensorType::get(
                {ShapedType::kDynamic, 4}, builder.getF32Type())),
            std::nullopt);
  EXPECT_EQ(
      util::getStaticByteSize(UnrankedTensorType::get(builder.getF32Type())),
      std::nullopt);
  EXPECT_EQ(util::getStaticByteSize(
                RankedTensorType::get({4}, builder.getIndexType())),
            std::nullopt);
  EXPECT_EQ(util::getStaticByteSize(builder.getF32Type()), std::nullopt);
}

TEST_F(ElementTypesTest, UtilDynamicDimCount) {
  Type f32 = builder.getF32Type();
  EXPECT_EQ(util::getDynamicDimCount(RankedTensorType::get(
                {ShapedType::kDynamic, 4, ShapedType::kDynamic}, f32)),
            2u);
  EXPECT_EQ(util::getDynamicDimCount(RankedTensorType::get({4}, f32)), 0u);
  EXPECT_EQ(util::getDynamicDimCount(UnrankedTensorType::get(f32)), 0u);
  EXPECT_EQ(util::getDynamicDimCount(builder.getIndexType()), 0u);
}

} // namespace
