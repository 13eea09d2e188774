//===- WideSplatTest.cpp - Tests of the splats of 8-byte elements ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Splats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mlir;
using namespace streamhal;

namespace {

//===----------------------------------------------------------------------===//
// Copy plan
//===----------------------------------------------------------------------===//

/// A dynamic splat copies to every 8 * 2^k below the allocation limit: the
/// largest length it can have.
TEST(WideSplatCopies, DynamicCopiesStopAtTheAllocationLimit) {
  EXPECT_EQ(getWideSplatDynamicCopies(8), 0u);
  EXPECT_EQ(getWideSplatDynamicCopies(16), 1u);
  EXPECT_EQ(getWideSplatDynamicCopies(17), 2u);
  EXPECT_EQ(getWideSplatDynamicCopies(int64_t(1) << 30), 27u);
  EXPECT_EQ(getWideSplatDynamicCopies(INT64_MAX), 60u);
  // Every length up to the limit is covered: the copies of the largest
  // length the limit allows are the dynamic ones.
  for (int64_t limit : {int64_t(64), int64_t(1000), int64_t(1) << 20})
    EXPECT_EQ(planWideSplatCopies(llvm::alignDown(limit, 8)).size(),
              getWideSplatDynamicCopies(limit))
        << limit;
}

TEST(WideSplatCopies, SmallLengths) {
  EXPECT_TRUE(planWideSplatCopies(0).empty());
  EXPECT_TRUE(planWideSplatCopies(8).empty());
  EXPECT_EQ(planWideSplatCopies(16), (SmallVector<WideSplatCopy>{{8, 8}}));
  EXPECT_EQ(planWideSplatCopies(24),
            (SmallVector<WideSplatCopy>{{8, 8}, {16, 8}}));
  EXPECT_EQ(planWideSplatCopies(40),
            (SmallVector<WideSplatCopy>{{8, 8}, {16, 16}, {32, 8}}));
  EXPECT_EQ(planWideSplatCopies(64),
            (SmallVector<WideSplatCopy>{{8, 8}, {16, 16}, {32, 32}}));
}

/// Every element count up to 300: simulating the copies on element indices
/// (each byte range of 8 bytes holds one element) writes every element once,
/// each copy reads only elements already written, and the number of copies
/// is ceil(log2(count)).
TEST(WideSplatCopies, CoverEveryElementByDoubling) {
  for (int64_t count = 1; count <= 300; ++count) {
    int64_t length = count * kWideSplatElementBytes;
    std::vector<int> written(count, 0);
    written[0] = 1; // the two fills
    int64_t prefix = kWideSplatElementBytes;
    SmallVector<WideSplatCopy> copies = planWideSplatCopies(length);
    for (WideSplatCopy copy : copies) {
      ASSERT_EQ(copy.offset, prefix) << "count " << count;
      ASSERT_GT(copy.length, 0) << "count " << count;
      ASSERT_LE(copy.length, prefix) << "count " << count;
      ASSERT_LE(copy.offset + copy.length, length) << "count " << count;
      for (int64_t byte = 0; byte < copy.length; byte += kWideSplatElementBytes)
        ++written[(copy.offset + byte) / kWideSplatElementBytes];
      prefix += copy.length;
    }
    EXPECT_EQ(prefix, length) << "count " << count;
    for (int64_t element = 0; element < count; ++element)
      EXPECT_EQ(written[element], 1) << "count " << count;
    unsigned expected = 0;
    while ((int64_t(1) << expected) < count)
      ++expected;
    EXPECT_EQ(copies.size(), expected) << "count " << count;
  }
}

TEST(WideSplatCopies, HugeLengthsDoNotOverflow) {
  int64_t length = std::numeric_limits<int64_t>::max() / 8 * 8;
  SmallVector<WideSplatCopy> copies = planWideSplatCopies(length);
  ASSERT_EQ(copies.size(), 60u);
  EXPECT_EQ(copies.back().offset, int64_t(1) << 62);
  EXPECT_EQ(copies.back().offset + copies.back().length, length);
}

//===----------------------------------------------------------------------===//
// Element types and constants
//===----------------------------------------------------------------------===//

class WideSplatTest : public ::testing::Test {
protected:
  WideSplatTest() {
    context.loadDialect<arith::ArithDialect, complex::ComplexDialect,
                        func::FuncDialect, util::UtilDialect, flow::FlowDialect,
                        hal::HALDialect>();
  }

  /// Parses `source` and returns the value of the first splat in it.
  Value parseSplatValue(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return nullptr;
    Value value;
    module->walk([&](flow::TensorSplatOp splat) { value = splat.getValue(); });
    return value;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(WideSplatTest, ElementTypes) {
  Builder builder(&context);
  EXPECT_TRUE(isWideSplatElementType(builder.getI64Type()));
  EXPECT_TRUE(isWideSplatElementType(builder.getF64Type()));
  EXPECT_TRUE(isWideSplatElementType(ComplexType::get(builder.getF32Type())));
  EXPECT_FALSE(isWideSplatElementType(builder.getI32Type()));
  EXPECT_FALSE(isWideSplatElementType(builder.getIntegerType(128)));
  EXPECT_FALSE(isWideSplatElementType(builder.getIndexType()));
  EXPECT_FALSE(isWideSplatElementType(ComplexType::get(builder.getF64Type())));
  EXPECT_FALSE(isWideSplatElementType(ComplexType::get(builder.getF16Type())));
}

TEST_F(WideSplatTest, IntegerAndFloatConstants) {
  Value value = parseSplatValue(R"mlir(
func.func @f() -> tensor<3xi64> {
  %0 = flow.ex.stream.fragment() : () -> tensor<3xi64> = () -> tensor<3xi64> {
    %c = arith.constant 4294967298 : i64
    %1 = flow.tensor.splat %c : tensor<3xi64>
    flow.return %1 : tensor<3xi64>
  }
  return %0 : tensor<3xi64>
}
)mlir");
  ASSERT_TRUE(value);
  EXPECT_EQ(getWideSplatConstant(value), uint64_t(0x0000000100000002));
  EXPECT_EQ(getWideSplatPattern(value), std::nullopt);

  value = parseSplatValue(R"mlir(
func.func @f() -> tensor<3xf64> {
  %c = arith.constant -0.0 : f64
  %0 = flow.ex.stream.fragment(%c) : (f64) -> tensor<3xf64> =
      (%ic: f64) -> tensor<3xf64> {
    %1 = flow.tensor.splat %ic : tensor<3xf64>
    flow.return %1 : tensor<3xf64>
  }
  return %0 : tensor<3xf64>
}
)mlir");
  ASSERT_TRUE(value);
  EXPECT_EQ(getWideSplatConstant(value), uint64_t(0x8000000000000000));
  EXPECT_EQ(getWideSplatPattern(value), std::nullopt);
}

/// A complex constant (made by a tool that registers the complex dialect)
/// is real part low, imaginary part high; a runtime complex is no constant.
TEST_F(WideSplatTest, ComplexConstants) {
  Value value = parseSplatValue(R"mlir(
func.func @f() -> tensor<2xcomplex<f32>> {
  %c = complex.constant [1.0 : f32, -2.0 : f32] : complex<f32>
  %0 = flow.ex.stream.fragment(%c) : (complex<f32>) -> tensor<2xcomplex<f32>> =
      (%ic: complex<f32>) -> tensor<2xcomplex<f32>> {
    %1 = flow.tensor.splat %ic : tensor<2xcomplex<f32>>
    flow.return %1 : tensor<2xcomplex<f32>>
  }
  return %0 : tensor<2xcomplex<f32>>
}
)mlir");
  ASSERT_TRUE(value);
  EXPECT_EQ(getWideSplatConstant(value), uint64_t(0xC00000003F800000));
  EXPECT_EQ(getWideSplatPattern(value), std::nullopt);

  value = parseSplatValue(R"mlir(
func.func @f() -> tensor<2xcomplex<f32>> {
  %c = complex.constant [0.5 : f32, 0.5 : f32] : complex<f32>
  %0 = flow.ex.stream.fragment(%c) : (complex<f32>) -> tensor<2xcomplex<f32>> =
      (%ic: complex<f32>) -> tensor<2xcomplex<f32>> {
    %1 = flow.tensor.splat %ic : tensor<2xcomplex<f32>>
    flow.return %1 : tensor<2xcomplex<f32>>
  }
  return %0 : tensor<2xcomplex<f32>>
}
)mlir");
  ASSERT_TRUE(value);
  EXPECT_EQ(getWideSplatPattern(value), 0x3F000000u);

  value = parseSplatValue(R"mlir(
func.func @f(%c: complex<f32>) -> tensor<2xcomplex<f32>> {
  %0 = flow.ex.stream.fragment(%c) : (complex<f32>) -> tensor<2xcomplex<f32>> =
      (%ic: complex<f32>) -> tensor<2xcomplex<f32>> {
    %1 = flow.tensor.splat %ic : tensor<2xcomplex<f32>>
    flow.return %1 : tensor<2xcomplex<f32>>
  }
  return %0 : tensor<2xcomplex<f32>>
}
)mlir");
  ASSERT_TRUE(value);
  EXPECT_EQ(getWideSplatConstant(value), std::nullopt);
}

} // namespace
