//===- StreamAnalysisTest.cpp - Tests of ValueAliasing and liveness -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/ValueAliasing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace streamhal;

namespace {

constexpr int64_t kIn = LivenessIntervals::kLiveIn;
constexpr int64_t kOut = LivenessIntervals::kLiveOut;

/// The executable every test dispatches to: @ex::@entry with bindings
/// @arg0, @arg1 (operands) and @ret0 (result).
constexpr const char *kExecutable = R"mlir(
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
)mlir";

/// Bindings of an untied one-in one-out dispatch.
#define IN_OUT                                                                 \
  "{hal.bindings = [#hal.ex.operand_buffer<\"arg1\", 0 : index>, "             \
  "#hal.ex.result_buffer<\"ret0\", 0 : index>]}"
/// Bindings of a dispatch updating its operand in place.
#define IN_PLACE                                                               \
  "{hal.bindings = [#hal.ex.operand_buffer<\"arg0\", 0 : index>]}"

/// Every tracked value, one line each, in ordinal order, as the analysis
/// prints it: "<ordinal> <argN | op name> [start, end] class C".
std::string describe(const LivenessIntervals &liveness) {
  std::string text;
  llvm::raw_string_ostream os(text);
  liveness.print(os);
  return text;
}

class StreamAnalysisTest : public ::testing::Test {
protected:
  StreamAnalysisTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                    flow::FlowDialect, hal::HALDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `functions` after the common executable and returns the first
  /// fragment (null on a parse or verification failure, which fails the
  /// test).
  flow::ExStreamFragmentOp parse(llvm::StringRef functions) {
    std::string source = std::string(kExecutable) + functions.str();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "failed to parse:\n" << source;
    if (!module)
      return {};
    flow::ExStreamFragmentOp fragment;
    module->walk([&](flow::ExStreamFragmentOp op) {
      if (!fragment)
        fragment = op;
    });
    EXPECT_TRUE(fragment) << "no fragment in:\n" << source;
    return fragment;
  }

  /// Runs both analyses on `functions` and returns describe()'s text.
  std::string analyze(llvm::StringRef functions) {
    flow::ExStreamFragmentOp fragment = parse(functions);
    if (!fragment)
      return "";
    ValueAliasing aliasing(fragment);
    LivenessIntervals liveness(fragment, aliasing);
    return describe(liveness);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// The lit-test cases
//===----------------------------------------------------------------------===//

constexpr const char *kTieChain = R"mlir(
func.func @tie_chain(%a: tensor<4x4xf32>) -> tensor<16xf32> {
  %r = flow.ex.stream.fragment(%a) : (tensor<4x4xf32>) -> %a as tensor<16xf32> =
      (%ia: tensor<4x4xf32>) -> tensor<16xf32> {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_PLACE
                                  R"mlir( : (tensor<4x4xf32>) -> %ia
    %f = arith.constant 0.0 : f32
    %s = flow.tensor.splat %f : tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    %u = flow.tensor.update %s, %d[%c0, %c0] : tensor<1x4xf32> -> %d as tensor<4x4xf32>
    %rs = flow.tensor.reshape %u : tensor<4x4xf32> -> tensor<16xf32>
    flow.return %rs : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
)mlir";

TEST_F(StreamAnalysisTest, TieChainReachesTheBlockArgument) {
  flow::ExStreamFragmentOp fragment = parse(kTieChain);
  ASSERT_TRUE(fragment);
  ValueAliasing aliasing(fragment);
  LivenessIntervals liveness(fragment, aliasing);
  EXPECT_EQ(describe(liveness), "0 arg0 [in, out] class 0\n"
                                "1 flow.dispatch [in, out] class 0\n"
                                "2 flow.tensor.splat [3, 5] class 1\n"
                                "3 flow.tensor.update [in, out] class 0\n"
                                "4 flow.tensor.reshape [in, out] class 0\n");

  std::string classes;
  llvm::raw_string_ostream os(classes);
  aliasing.print(os);
  EXPECT_EQ(classes, "class 0: 0 arg0, 1 flow.dispatch, 3 flow.tensor.update, "
                     "4 flow.tensor.reshape\n"
                     "class 1: 2 flow.tensor.splat\n");

  ArrayRef<Value> values = aliasing.getValues();
  ASSERT_EQ(values.size(), 5u);
  Block &body = fragment.getBody().front();
  EXPECT_EQ(values[0], body.getArgument(0));
  EXPECT_EQ(aliasing.getNumClasses(), 2u);
  ArrayRef<Value> members = aliasing.getClassMembers(0);
  ASSERT_EQ(members.size(), 4u);
  EXPECT_EQ(members[0], values[0]);
  EXPECT_EQ(members[1], values[1]);
  EXPECT_EQ(members[2], values[3]);
  EXPECT_EQ(members[3], values[4]);
  ASSERT_EQ(aliasing.getClassMembers(1).size(), 1u);
  EXPECT_EQ(aliasing.getClassMembers(1)[0], values[2]);
  EXPECT_EQ(aliasing.getLeader(values[4]), values[0]);
  EXPECT_EQ(aliasing.getLeader(values[2]), values[2]);
  EXPECT_TRUE(aliasing.isAliased(values[0], values[4]));
  EXPECT_TRUE(aliasing.isAliased(values[2], values[2]));
  EXPECT_FALSE(aliasing.isAliased(values[1], values[2]));
  for (auto [ordinal, value] : llvm::enumerate(values))
    EXPECT_EQ(aliasing.getOrdinal(value), std::optional<unsigned>(ordinal));

  EXPECT_EQ(liveness.getClassInterval(0), std::make_pair(kIn, kOut));
  EXPECT_EQ(liveness.getClassInterval(1), (std::pair<int64_t, int64_t>(3, 5)));
  EXPECT_TRUE(liveness.getInterval(values[1]).isLiveIn());
  EXPECT_TRUE(liveness.getInterval(values[1]).isLiveOut());
  EXPECT_FALSE(liveness.getInterval(values[2]).isLiveIn());
  EXPECT_FALSE(liveness.getInterval(values[2]).isLiveOut());
  ArrayRef<LiveInterval> intervals = liveness.getIntervals();
  ASSERT_EQ(intervals.size(), values.size());
  for (auto [ordinal, interval] : llvm::enumerate(intervals)) {
    EXPECT_EQ(interval.ordinal, ordinal);
    EXPECT_EQ(interval.value, values[ordinal]);
  }
  int64_t index = 0;
  for (Operation &op : body)
    EXPECT_EQ(liveness.getOpIndex(&op), index++);
  EXPECT_EQ(liveness.getNumOps(), 8);
}

TEST_F(StreamAnalysisTest, FragmentTieAlone) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %a as tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    %e = flow.dispatch @ex::@entry[%c1](%d) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, out] class 0\n"
            "1 flow.dispatch [1, 2] class 1\n"
            "2 flow.dispatch [in, out] class 0\n");
}

TEST_F(StreamAnalysisTest, ValueReturnedTwice) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) =
      (%ia: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d, %d : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, 1] class 0\n"
            "1 flow.dispatch [1, out] class 1\n");
}

TEST_F(StreamAnalysisTest, ValueReturnedTwiceAtTiedPositions) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (%a as tensor<4xf32>, %b as tensor<4xf32>) =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d, %d : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, out] class 0\n"
            "1 arg1 [in, out] class 0\n"
            "2 flow.dispatch [in, out] class 0\n");
}

TEST_F(StreamAnalysisTest, BlockArgumentReturnedDirectly) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, %b as tensor<4xf32>) =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@entry[%c1](%ib) )mlir" IN_PLACE
                    R"mlir( : (tensor<4xf32>) -> %ib
    flow.return %ia, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, out] class 0\n"
            "1 arg1 [in, out] class 1\n"
            "2 flow.dispatch [in, out] class 1\n");
}

TEST_F(StreamAnalysisTest, UnusedBlockArgument) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, 1] class 0\n"
            "1 arg1 [in, in] class 1\n"
            "2 flow.dispatch [1, out] class 2\n");
}

TEST_F(StreamAnalysisTest, DeadDispatchResult) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %dead = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    %d = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, 2] class 0\n"
            "1 flow.dispatch [1, 1] class 1\n"
            "2 flow.dispatch [2, out] class 2\n");
}

TEST_F(StreamAnalysisTest, NonTensorValuesAreIgnored) {
  flow::ExStreamFragmentOp fragment =
      parse(R"mlir(
func.func @f(%a: tensor<?x4xf32>, %n: index, %dim: index) -> tensor<?x4xf32> {
  %r = flow.ex.stream.fragment(%a, %n, %dim) : (tensor<?x4xf32>{%dim}, index, index) -> tensor<?x4xf32>{%dim} =
      (%ia: tensor<?x4xf32>, %in: index, %id: index) -> tensor<?x4xf32> {
    %c0 = arith.constant 0 : index
    %e = flow.tensor.load %ia[%c0, %c0] : tensor<?x4xf32>{%id}
    %s = flow.tensor.splat %e : tensor<?x4xf32>{%id}
    %st = flow.tensor.store %e, %s[%c0, %c0] : tensor<?x4xf32>{%id}
    %d = flow.dispatch @ex::@entry[%in](%st) )mlir" IN_PLACE
            R"mlir( : (tensor<?x4xf32>{%id}) -> %st
    flow.return %d : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}
)mlir");
  ASSERT_TRUE(fragment);
  ValueAliasing aliasing(fragment);
  LivenessIntervals liveness(fragment, aliasing);
  EXPECT_EQ(describe(liveness), "0 arg0 [in, 1] class 0\n"
                                "1 flow.tensor.splat [2, out] class 1\n"
                                "2 flow.tensor.store [2, out] class 1\n"
                                "3 flow.dispatch [2, out] class 1\n");

  Block &body = fragment.getBody().front();
  Value index = body.getArgument(1);
  Value loaded = body.getOperations().begin()->getNextNode()->getResult(0);
  for (Value untracked : {index, loaded, Value(fragment.getResult(0))}) {
    EXPECT_EQ(aliasing.getOrdinal(untracked), std::nullopt);
    EXPECT_EQ(aliasing.getClassIndex(untracked), aliasing.getNumClasses());
    EXPECT_FALSE(aliasing.getLeader(untracked));
    EXPECT_FALSE(aliasing.isAliased(untracked, untracked));
    EXPECT_FALSE(liveness.getInterval(untracked).value);
    EXPECT_GT(liveness.getInterval(untracked).start,
              liveness.getInterval(untracked).end);
  }
  EXPECT_TRUE(aliasing.getClassMembers(aliasing.getNumClasses()).empty());
  std::pair<int64_t, int64_t> invalid =
      liveness.getClassInterval(aliasing.getNumClasses());
  EXPECT_GT(invalid.first, invalid.second);
  // An op outside the fragment has no index.
  EXPECT_EQ(liveness.getOpIndex(fragment), kIn);
}

TEST_F(StreamAnalysisTest, InterleavedClasses) {
  EXPECT_EQ(analyze(R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %x0 = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    %y0 = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    %x1 = flow.dispatch @ex::@entry[%c1](%x0) )mlir" IN_PLACE
                    R"mlir( : (tensor<4xf32>) -> %x0
    %y1 = flow.dispatch @ex::@entry[%c1](%y0) )mlir" IN_PLACE
                    R"mlir( : (tensor<4xf32>) -> %y0
    %z = flow.dispatch @ex::@entry[%c1](%x1) )mlir" IN_OUT
                    R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c1](%y1, %z) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.operand_buffer<"arg1", 1 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    flow.return %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir"),
            "0 arg0 [in, 2] class 0\n"
            "1 flow.dispatch [1, 5] class 1\n"
            "2 flow.dispatch [2, 6] class 2\n"
            "3 flow.dispatch [1, 5] class 1\n"
            "4 flow.dispatch [2, 6] class 2\n"
            "5 flow.dispatch [5, 6] class 3\n"
            "6 flow.dispatch [6, out] class 4\n");
}

TEST_F(StreamAnalysisTest, NestedUserCountsAsItsBodyOp) {
  flow::ExStreamFragmentOp fragment =
      parse(R"mlir(
func.func @f(%a: tensor<4xf32>, %dev: !hal.device) -> tensor<4xf32> {
  %r = flow.ex.stream.fragment(%a, %dev) : (tensor<4xf32>, !hal.device) -> tensor<4xf32> =
      (%ia: tensor<4xf32>, %idev: !hal.device) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
            R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    hal.device.switch<%idev : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        %c0 = arith.constant 0 : index
        %e = flow.tensor.load %x[%c0] : tensor<4xf32>
        hal.return
      }
    %y = flow.dispatch @ex::@entry[%c1](%ia) )mlir" IN_OUT
            R"mlir( : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(fragment);
  ValueAliasing aliasing(fragment);
  LivenessIntervals liveness(fragment, aliasing);
  EXPECT_EQ(describe(liveness), "0 arg0 [in, 3] class 0\n"
                                "1 flow.dispatch [1, 2] class 1\n"
                                "2 flow.dispatch [3, out] class 2\n");
  Operation *nested = nullptr;
  fragment.walk([&](flow::TensorLoadOp op) { nested = op; });
  ASSERT_TRUE(nested);
  EXPECT_EQ(liveness.getOpIndex(nested), 2);
}

//===----------------------------------------------------------------------===//
// Edge cases, scale and determinism
//===----------------------------------------------------------------------===//

TEST_F(StreamAnalysisTest, FragmentWithoutTensors) {
  flow::ExStreamFragmentOp fragment = parse(R"mlir(
func.func @f(%n: index) {
  flow.ex.stream.fragment(%n) : (index) -> () = (%in: index) -> () {
    flow.return
  }
  return
}
)mlir");
  ASSERT_TRUE(fragment);
  ValueAliasing aliasing(fragment);
  LivenessIntervals liveness(fragment, aliasing);
  EXPECT_TRUE(aliasing.getValues().empty());
  EXPECT_EQ(aliasing.getNumClasses(), 0u);
  EXPECT_TRUE(liveness.getIntervals().empty());
  EXPECT_EQ(liveness.getNumOps(), 1);
}

/// Builds a fragment of `length` dispatches each tied to the previous result.
std::string longTieChain(unsigned length) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     << "  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %a as "
        "tensor<4xf32> = (%v0: tensor<4xf32>) -> tensor<4xf32> {\n"
     << "    %c1 = arith.constant 1 : index\n";
  for (unsigned i = 0; i < length; ++i)
    os << "    %v" << i + 1 << " = flow.dispatch @ex::@entry[%c1](%v" << i
       << ") " IN_PLACE " : (tensor<4xf32>) -> %v" << i << "\n";
  os << "    flow.return %v" << length << " : tensor<4xf32>\n  }\n"
     << "  return %r : tensor<4xf32>\n}\n";
  return text;
}

TEST_F(StreamAnalysisTest, LongTieChainIsOneClass) {
  constexpr unsigned kLength = 20000;
  flow::ExStreamFragmentOp fragment = parse(longTieChain(kLength));
  ASSERT_TRUE(fragment);
  ValueAliasing aliasing(fragment);
  LivenessIntervals liveness(fragment, aliasing);
  ASSERT_EQ(aliasing.getValues().size(), kLength + 1);
  EXPECT_EQ(aliasing.getNumClasses(), 1u);
  EXPECT_EQ(aliasing.getClassMembers(0), aliasing.getValues());
  EXPECT_EQ(aliasing.getLeader(aliasing.getValues().back()),
            fragment.getBody().getArgument(0));
  for (const LiveInterval &interval : liveness.getIntervals()) {
    EXPECT_TRUE(interval.isLiveIn());
    EXPECT_TRUE(interval.isLiveOut());
  }
}

TEST_F(StreamAnalysisTest, ResultsAreIdenticalAcrossParses) {
  // Same input, separately parsed (so different value addresses): the
  // results depend only on IR order.
  std::string first = analyze(kTieChain);
  for (int i = 0; i < 3; ++i) {
    MLIRContext other;
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                    flow::FlowDialect, hal::HALDialect>();
    other.appendDialectRegistry(registry);
    OwningOpRef<ModuleOp> otherModule = parseSourceString<ModuleOp>(
        std::string(kExecutable) + kTieChain, &other);
    ASSERT_TRUE(otherModule);
    flow::ExStreamFragmentOp fragment;
    otherModule->walk([&](flow::ExStreamFragmentOp op) { fragment = op; });
    ASSERT_TRUE(fragment);
    ValueAliasing aliasing(fragment);
    LivenessIntervals liveness(fragment, aliasing);
    EXPECT_EQ(describe(liveness), first);
  }
}

} // namespace
