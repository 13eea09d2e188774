//===- HostReadabilityTest.cpp - Tests of HostReadability -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/HostReadability.h"

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

class HostReadabilityTest : public ::testing::Test {
protected:
  HostReadabilityTest() {
    context
        .loadDialect<arith::ArithDialect, func::FuncDialect, flow::FlowDialect,
                     hal::HALDialect, util::UtilDialect>();
  }

  /// Parses `source` and returns what the analysis prints for it.
  std::string analyze(const std::string &source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return "";
    HostReadability readability(*module);
    std::string text;
    llvm::raw_string_ostream os(text);
    readability.print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// A fragment producing one splat tensor<4xi8>, named `%name`.
std::string splat(const std::string &name) {
  return "  %" + name +
         " = flow.ex.stream.fragment() : () -> tensor<4xi8> = () -> "
         "tensor<4xi8> {\n"
         "    %c = arith.constant 1 : i8\n"
         "    %s = flow.tensor.splat %c : tensor<4xi8>\n"
         "    flow.return %s : tensor<4xi8>\n"
         "  }\n";
}

/// A fragment reading `%input` into `%name`: a clone (a new buffer), or the
/// operand itself returned tied.
std::string next(const std::string &name, const std::string &input, bool tied) {
  std::string result = tied ? "%" + input : "tensor<4xi8>";
  std::string body = tied ? "    flow.return %a : tensor<4xi8>\n"
                          : "    %r = flow.tensor.clone %a : tensor<4xi8>\n"
                            "    flow.return %r : tensor<4xi8>\n";
  return "  %" + name + " = flow.ex.stream.fragment(%" + input +
         ") : (tensor<4xi8>) -> " + result +
         " = (%a: tensor<4xi8>) -> tensor<4xi8> {\n" + body + "  }\n";
}

TEST_F(HostReadabilityTest, UsesDecide) {
  std::string source = "util.global private mutable @g : tensor<4xi8>\n"
                       "func.func @f() -> (tensor<4xi8>, i8) {\n" +
                       splat("returned") + splat("device") +
                       next("fromDevice", "device", false) + splat("tied") +
                       next("tiedResult", "tied", true) + splat("loaded") +
                       splat("stored") + splat("unused") +
                       "  %i = arith.constant 0 : index\n"
                       "  %v = flow.tensor.load %loaded[%i] : tensor<4xi8>\n"
                       "  util.global.store %stored, @g : tensor<4xi8>\n"
                       "  %x:2 = flow.ex.stream.fragment(%fromDevice, "
                       "%tiedResult) : (tensor<4xi8>, tensor<4xi8>) -> "
                       "(tensor<4xi8>, i8) = (%a: tensor<4xi8>, %b: "
                       "tensor<4xi8>) -> (tensor<4xi8>, i8) {\n"
                       "    %c = arith.constant 3 : i8\n"
                       "    flow.return %a, %c : tensor<4xi8>, i8\n"
                       "  }\n"
                       "  return %returned, %v : tensor<4xi8>, i8\n"
                       "}\n";
  // The last fragment returns %a as is: %fromDevice is its (unused) result
  // 0, so device-only, and so is %tiedResult, which it only reads. %device
  // feeds only a clone. An unused result reaches no host either.
  EXPECT_EQ(analyze(source), "fragment 0: host\n"
                             "fragment 1: device\n"
                             "fragment 2: device\n"
                             "fragment 3: device\n"
                             "fragment 4: device\n"
                             "fragment 5: host\n"
                             "fragment 6: host\n"
                             "fragment 7: device\n"
                             "fragment 8: device, -\n");
}

/// A long chain of fragments, each returning its operand tied (one buffer
/// throughout) or cloning it (a new buffer each), whose last result is
/// returned: host-readability reaches back through every tie and stops at
/// the first clone. The worklist takes no recursion, whatever the length.
TEST_F(HostReadabilityTest, LongChains) {
  constexpr int kLength = 2000;
  for (bool tied : {true, false}) {
    std::string source = "func.func @f() -> tensor<4xi8> {\n" + splat("v0");
    for (int i = 1; i <= kLength; ++i)
      source +=
          next("v" + std::to_string(i), "v" + std::to_string(i - 1), tied);
    source += "  return %v" + std::to_string(kLength) + " : tensor<4xi8>\n}\n";
    std::string expected;
    for (int i = 0; i <= kLength; ++i)
      expected += "fragment " + std::to_string(i) + ": " +
                  (tied || i == kLength ? "host" : "device") + "\n";
    EXPECT_EQ(analyze(source), expected) << (tied ? "tied" : "cloned");
  }
}

} // namespace
