//===- TestFragmentPlan.cpp - prints the plan of every fragment -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--test-fragment-plan` runs the fragment check on every fragment, as
// --convert-flow-to-hal does, and prints the plan it makes: storage kinds,
// views, box plans and dispatch resolutions. The IR is left untouched.
//
//===----------------------------------------------------------------------===//

#include "FragmentPlan.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "streamhal/Analysis/OperandStorage.h"
#include "streamhal/TestPasses/TestPasses.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace streamhal;

namespace {

struct TestFragmentPlanPass
    : public PassWrapper<TestFragmentPlanPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestFragmentPlanPass)

  TestFragmentPlanPass() = default;
  TestFragmentPlanPass(const TestFragmentPlanPass &pass) : PassWrapper(pass) {}

  StringRef getArgument() const final { return "test-fragment-plan"; }
  StringRef getDescription() const final {
    return "Prints the lowering's plan of every stream fragment";
  }

  Option<CopyPolicy> copies{
      *this, "copies", llvm::cl::desc("Whether copies may be views"),
      llvm::cl::init(CopyPolicy::Elide), getCopyPolicyValues()};

  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](flow::ExStreamFragmentOp fragment) {
      auto function = fragment->getParentOfType<FunctionOpInterface>();
      llvm::outs() << "plan in @"
                   << (function ? function.getName() : StringRef("?")) << ":\n";
      FailureOr<std::unique_ptr<FragmentPlan>> plan =
          FragmentPlan::build(fragment, copies, groupOperandStorage(fragment),
                              ErrorReporter(/*enabled=*/true));
      if (failed(plan)) {
        ok = false;
        llvm::outs() << "<cannot be lowered>\n";
        return;
      }
      (*plan)->print(llvm::outs());
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

void streamhal::registerTestFragmentPlanPass() {
  PassRegistration<TestFragmentPlanPass>();
}
