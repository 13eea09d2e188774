//===- StalePlanTest.cpp - The pattern route refuses stale plans ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A downstream pass on populateFlowToHALPatterns checks the module into a
// FragmentPlanCache and applies the patterns with it. A transform between
// the two (copy on write adds a clone) leaves the plan describing ops that
// changed: the pattern must refuse it with a diagnostic, not record
// commands from it (which crashed, issue 35).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Conversion/FlowToHAL/FragmentPlanView.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Registration/PatternRoute.h"
#include "streamhal/Registration/Registration.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace streamhal;

namespace {

/// A splat written in place and read afterwards: copy on write clones it.
constexpr const char *kNeedsCopy = R"mlir(
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @read_after_tied_write() -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xf32>, tensor<4xf32>) =
      () -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c4](%s) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %s
    %r = flow.dispatch @ex::@entry[%c4](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %w, %r : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
)mlir";

class StalePlanTest : public ::testing::Test {
protected:
  StalePlanTest() {
    DialectRegistry registry;
    registerStreamHALDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Applies the patterns with `plans`; returns whether the conversion
  /// succeeded and collects its diagnostics in `messages`.
  bool convert(ModuleOp module, const FragmentPlanCache &plans,
               std::string &messages) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      messages += diagnostic.str() + "\n";
      return success();
    });
    FlowToHALTypeConverter typeConverter(&context);
    ConversionTarget target(context);
    populateFlowToHALLegality(target, typeConverter);
    RewritePatternSet patterns(&context);
    FlowToHALOptions options;
    options.plans = &plans;
    populateFlowToHALPatterns(&context, typeConverter, patterns, options);
    return succeeded(
        applyPartialConversion(module, target, std::move(patterns)));
  }

  MLIRContext context;
};

TEST_F(StalePlanTest, PlanMadeBeforeCopyOnWriteIsRefused) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kNeedsCopy, &context);
  ASSERT_TRUE(module);
  FragmentPlanCache plans;
  ASSERT_TRUE(succeeded(checkFlowToHALLowerable(*module, &plans)));
  // The transform the contract puts before the check, run after it.
  ASSERT_TRUE(flow::materializeCopyOnWrite(*module).changed());
  std::string messages;
  EXPECT_FALSE(convert(*module, plans, messages));
  EXPECT_NE(messages.find("changed after checkFlowToHALLowerable planned it"),
            std::string::npos)
      << messages;
}

TEST_F(StalePlanTest, FragmentWithoutPlanIsRefused) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kNeedsCopy, &context);
  ASSERT_TRUE(module);
  flow::materializeCopyOnWrite(*module);
  FragmentPlanCache plans; // never filled by the check
  std::string messages;
  EXPECT_FALSE(convert(*module, plans, messages));
  EXPECT_NE(messages.find("has no plan in the FragmentPlanCache"),
            std::string::npos)
      << messages;
}

TEST_F(StalePlanTest, ModuleWithoutCopyOnWriteIsRefused) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kNeedsCopy, &context);
  ASSERT_TRUE(module);
  // Lowered as it stands, the dispatch would overwrite the splat that the
  // second dispatch still reads.
  FragmentPlanCache plans;
  ASSERT_TRUE(succeeded(checkFlowToHALLowerable(*module, &plans)));
  std::string messages;
  EXPECT_FALSE(convert(*module, plans, messages));
  EXPECT_NE(messages.find("is lowered before copy on write ran"),
            std::string::npos)
      << messages;
}

TEST_F(StalePlanTest, PreparedModuleIsLowered) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kNeedsCopy, &context);
  ASSERT_TRUE(module);
  FailureOr<PreparedFlowToHAL> prepared = prepareFlowToHAL(*module);
  ASSERT_TRUE(succeeded(prepared));
  // The plan, read-only: the returned values get outputs of their own, the
  // clone copy on write made is a transient (or a view of one).
  flow::ExStreamFragmentOp fragment;
  module->walk([&](flow::ExStreamFragmentOp op) { fragment = op; });
  ASSERT_TRUE(fragment);
  std::optional<FragmentPlanView> view =
      FragmentPlanView::lookup(*prepared->plans, fragment);
  ASSERT_TRUE(view.has_value());
  Operation *terminator = fragment.getBody().front().getTerminator();
  for (Value returned : terminator->getOperands())
    EXPECT_EQ(view->getStorageKind(returned), StorageKind::Output);
  EXPECT_EQ(view->getCopyPolicy(), CopyPolicy::Elide);
  std::string messages;
  EXPECT_TRUE(convert(*module, *prepared->plans, messages)) << messages;
}

TEST_F(StalePlanTest, PlanMadeAfterCopyOnWriteIsUsed) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kNeedsCopy, &context);
  ASSERT_TRUE(module);
  flow::materializeCopyOnWrite(*module);
  FragmentPlanCache plans;
  ASSERT_TRUE(succeeded(checkFlowToHALLowerable(*module, &plans)));
  std::string messages;
  EXPECT_TRUE(convert(*module, plans, messages)) << messages;
  EXPECT_TRUE(messages.empty()) << messages;
}

} // namespace
