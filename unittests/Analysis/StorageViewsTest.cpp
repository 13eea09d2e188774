//===- StorageViewsTest.cpp - Tests of the StorageViews analysis ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/StorageViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace streamhal;

namespace {

constexpr const char *kExecutable = R"mlir(
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @rw, set=0, binding=0, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @in, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
)mlir";

/// Bindings of an untied one-in one-out dispatch / an in-place one.
#define IN_OUT                                                                 \
  "{hal.bindings = [#hal.ex.operand_buffer<\"in\", 0 : index>, "               \
  "#hal.ex.result_buffer<\"out\", 0 : index>]}"
#define IN_PLACE "{hal.bindings = [#hal.ex.operand_buffer<\"rw\", 0 : index>]}"

/// Wraps a fragment body over `%a: tensor<8x4xf32>` returning `results`.
std::string fragment(llvm::StringRef body, llvm::StringRef results,
                     llvm::StringRef resultTypes) {
  size_t count = llvm::count(resultTypes, ',') + 1;
  std::string outer;
  for (size_t i = 0; i < count; ++i)
    outer += (i ? ", %r#" : "%r#") + std::to_string(i);
  return (R"mlir(
func.func @f(%arg0: tensor<8x4xf32>) -> ()mlir" +
          resultTypes + R"mlir() {
  %c1 = arith.constant 1 : index
  %r:)mlir" +
          std::to_string(count) +
          R"mlir( = flow.ex.stream.fragment(%c1, %arg0) : (index, tensor<8x4xf32>) -> ()mlir" +
          resultTypes + R"mlir() =
      (%n: index, %a: tensor<8x4xf32>) -> ()mlir" +
          resultTypes + R"mlir() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
)mlir" + body +
          "\n    flow.return " + results + " : " + resultTypes +
          "\n  }\n  return " + outer + " : " + resultTypes + "\n}\n")
      .str();
}

class StorageViewsTest : public ::testing::Test {
protected:
  StorageViewsTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                    flow::FlowDialect, hal::HALDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses the module and prints the views of its fragment, or "<error>".
  std::string views(const std::string &function, bool elide = true) {
    module = parseSourceString<ModuleOp>(kExecutable + function, &context);
    EXPECT_TRUE(module) << function;
    if (!module)
      return "<error>";
    flow::ExStreamFragmentOp op;
    module->walk([&](flow::ExStreamFragmentOp found) { op = found; });
    ValueAliasing aliasing(op);
    LivenessIntervals liveness(op, aliasing);
    BoxGeometry boxes(op);
    StorageViews analysis(op, liveness, boxes, elide);
    std::string text;
    llvm::raw_string_ostream os(text);
    analysis.print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(StorageViewsTest, ReadOnlySlicesAreViews) {
  std::string body = R"mlir(
    %p = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                     R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %k = flow.tensor.slice %q[%c2, %c0 for %c2, %c4] : tensor<4x4xf32> -> tensor<2x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%k) )mlir" IN_OUT
                     R"mlir( : (tensor<2x4xf32>) -> tensor<8x4xf32>)mlir";
  // Classes: 0 %a, 1 %p, 2 %q, 3 %k, 4 %x; the slice of a slice has the
  // first's root.
  EXPECT_EQ(views(fragment(body, "%x", "tensor<8x4xf32>")),
            "class 2 = view of class 1 (root 1) by flow.tensor.slice at "
            "index 4\n"
            "class 3 = view of class 2 (root 1) by flow.tensor.slice at "
            "index 5\n");
  EXPECT_EQ(views(fragment(body, "%x", "tensor<8x4xf32>"), /*elide=*/false),
            "");
}

TEST_F(StorageViewsTest, WritesWhileBothLiveKeepTheCopy) {
  // The source is written in place before the clone is read: a copy.
  std::string sourceWritten =
      R"mlir(
    %p = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
      R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %c = flow.tensor.clone %p : tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%p) )mlir" IN_PLACE
      R"mlir( : (tensor<8x4xf32>) -> %p
    %x = flow.dispatch @ex::@entry[%n](%c) )mlir" IN_OUT
      R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>)mlir";
  EXPECT_EQ(views(fragment(sourceWritten, "%x, %w",
                           "tensor<8x4xf32>, tensor<8x4xf32>")),
            "");
  // The clone is written in place while the source is read later: a copy;
  // once the source is dead, a view.
  std::string viewWritten =
      R"mlir(
    %p = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
      R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %c = flow.tensor.clone %p : tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%c) )mlir" IN_PLACE
      R"mlir( : (tensor<8x4xf32>) -> %c
    %x = flow.dispatch @ex::@entry[%n](%p) )mlir" IN_OUT
      R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>)mlir";
  EXPECT_EQ(views(fragment(viewWritten, "%x, %w",
                           "tensor<8x4xf32>, tensor<8x4xf32>")),
            "");
  std::string sourceDead = R"mlir(
    %p = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                           R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %c = flow.tensor.clone %p : tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%c) )mlir" IN_PLACE
                           R"mlir( : (tensor<8x4xf32>) -> %c)mlir";
  EXPECT_EQ(views(fragment(sourceDead, "%w", "tensor<8x4xf32>")),
            "class 2 = view of class 1 (root 1) by flow.tensor.clone at "
            "index 4\n");
}

TEST_F(StorageViewsTest, ViewsOfInputsAreReadOnly) {
  std::string body = R"mlir(
    %c = flow.tensor.clone %a : tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%c) )mlir" IN_PLACE
                     R"mlir( : (tensor<8x4xf32>) -> %c
    %s = flow.tensor.slice %a[%c0, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%s) )mlir" IN_OUT
                     R"mlir( : (tensor<4x4xf32>) -> tensor<8x4xf32>)mlir";
  EXPECT_EQ(views(fragment(body, "%x, %w", "tensor<8x4xf32>, tensor<8x4xf32>")),
            "class 2 = view of class 0 (root 0) by flow.tensor.slice at "
            "index 5\n");
}

TEST_F(StorageViewsTest, ReturnedViewsAreDisjoint) {
  // Rows 0-3 and 4-7 are returned as views of %p; rows 2-5 overlap both.
  std::string body = R"mlir(
    %p = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                     R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %k = flow.tensor.slice %p[%c4, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %o = flow.tensor.slice %p[%c2, %c0 for %c4, %c4] : tensor<8x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) )mlir" IN_OUT
                     R"mlir( : (tensor<4x4xf32>) -> tensor<8x4xf32>)mlir";
  EXPECT_EQ(views(fragment(body, "%x, %q, %k, %o",
                           "tensor<8x4xf32>, tensor<4x4xf32>, "
                           "tensor<4x4xf32>, tensor<4x4xf32>")),
            "class 2 = view of class 1 (root 1) by flow.tensor.slice at "
            "index 4\n"
            "class 3 = view of class 1 (root 1) by flow.tensor.slice at "
            "index 5\n");
  // A returned source is returned whole: no returned view of it (%q keeps
  // its copy; %k and %o, only read, are views).
  EXPECT_EQ(views(fragment(body, "%p, %q", "tensor<8x4xf32>, tensor<4x4xf32>")),
            "class 3 = view of class 1 (root 1) by flow.tensor.slice at "
            "index 5\n"
            "class 4 = view of class 1 (root 1) by flow.tensor.slice at "
            "index 6\n");
}

TEST_F(StorageViewsTest, LongCloneChainIsOneGroup) {
  // 20,000 clones, each read by a dispatch: every one a view of the first
  // dispatch's result, decided in one pass.
  constexpr int kLength = 20000;
  std::string body = R"mlir(
    %v0 = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                     R"mlir( : (tensor<8x4xf32>) -> tensor<8x4xf32>)mlir";
  for (int i = 1; i <= kLength; ++i)
    body += "\n    %v" + std::to_string(i) + " = flow.tensor.clone %v" +
            std::to_string(i - 1) + " : tensor<8x4xf32>";
  body += "\n    %x = flow.dispatch @ex::@entry[%n](%v" +
          std::to_string(kLength) +
          ") " IN_OUT " : (tensor<8x4xf32>) -> tensor<8x4xf32>";
  std::string text = views(fragment(body, "%x", "tensor<8x4xf32>"));
  EXPECT_EQ(llvm::count(text, '\n'), kLength);
  EXPECT_EQ(text.find("(root 1)"), text.find("(root"));
  EXPECT_EQ(text.rfind("(root 1)"), text.rfind("(root"));
}

TEST_F(StorageViewsTest, UpdatesAreComputedInTheTargetsBox) {
  // %h is computed in rows 2-3 of the splat; %g is computed before its
  // target exists, and keeps its copy.
  std::string body = R"mlir(
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                     R"mlir( : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %u = flow.tensor.update %h, %t[%c2, %c0] : tensor<2x4xf32> -> %t as tensor<8x4xf32>
    %g = flow.dispatch @ex::@entry[%n](%a) )mlir" IN_OUT
                     R"mlir( : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %s = flow.tensor.splat %zero : tensor<8x4xf32>
    %v = flow.tensor.update %g, %s[%c0, %c0] : tensor<2x4xf32> -> %s as tensor<8x4xf32>)mlir";
  // Classes: 0 %a, 1 %t/%u, 2 %h, 3 %g, 4 %s/%v.
  EXPECT_EQ(views(fragment(body, "%u, %v", "tensor<8x4xf32>, tensor<8x4xf32>")),
            "class 2 = view of class 1 (root 1) by flow.tensor.update at "
            "index 6\n");
}

} // namespace

namespace {

TEST_F(StorageViewsTest, BoxOffsetDivisorsOfDynamicOuterShapes) {
  // Slices of ?x8xi32 (rows of 32 bytes), 4x?xi32 and ?x?x4xi8: a dynamic
  // dim leaves the strides outside it unknown, which matters only for a
  // start that may be nonzero.
  module = parseSourceString<ModuleOp>(R"mlir(
func.func @f(%a: tensor<?x8xi32>, %b: tensor<4x?xi32>, %c: tensor<?x?x4xi8>,
             %n: index, %m: index) {
  flow.ex.stream.fragment(%a, %b, %c, %n, %m) : (tensor<?x8xi32>{%n}, tensor<4x?xi32>{%m}, tensor<?x?x4xi8>{%n, %m}, index, index) -> () =
      (%ia: tensor<?x8xi32>, %ib: tensor<4x?xi32>, %ic: tensor<?x?x4xi8>, %in: index, %im: index) -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s0 = flow.tensor.slice %ia[%c3, %c0 for %c1, %c1] : tensor<?x8xi32>{%in} -> tensor<1x1xi32>
    %s1 = flow.tensor.slice %ia[%im, %c1 for %c1, %c1] : tensor<?x8xi32>{%in} -> tensor<1x1xi32>
    %s2 = flow.tensor.slice %ib[%c1, %c0 for %c1, %c1] : tensor<4x?xi32>{%im} -> tensor<1x1xi32>
    %s3 = flow.tensor.slice %ib[%c0, %c1 for %c1, %c1] : tensor<4x?xi32>{%im} -> tensor<1x1xi32>
    %s4 = flow.tensor.slice %ic[%c0, %c0, %c0 for %c1, %c1, %c1] : tensor<?x?x4xi8>{%in, %im} -> tensor<1x1x1xi8>
    flow.return
  }
  return
}
)mlir",
                                       &context);
  ASSERT_TRUE(module);
  SmallVector<std::optional<uint64_t>> divisors;
  module->walk([&](flow::TensorSliceOp slice) {
    divisors.push_back(getBoxByteOffsetDivisor(slice));
  });
  ASSERT_EQ(divisors.size(), 5u);
  EXPECT_EQ(divisors[0], std::optional<uint64_t>(96)); // row 3 of 32 bytes
  EXPECT_EQ(divisors[1], std::optional<uint64_t>(4));  // gcd(32, 4)
  EXPECT_EQ(divisors[2], std::nullopt); // row 1: the row length is dynamic
  EXPECT_EQ(divisors[3], std::optional<uint64_t>(4)); // column 1
  EXPECT_EQ(divisors[4], std::optional<uint64_t>(0)); // always at offset 0
}

} // namespace
