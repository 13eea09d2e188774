//===- lower-to-hal.cpp - a downstream user of streamhal ------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lowers a .mlir file to HAL twice, each time in a fresh MLIRContext, and
// prints both results separated by `// -----`:
//
//  1. through the pass API: the `streamhal-lower-to-hal` pipeline (the same
//     as `hal-opt --streamhal-lower-to-hal`);
//  2. through the pattern API, as a compiler with its own conversion pass
//     would: prepareFlowToHAL (copy on write, emplacement, the check and
//     its plans, host readability), populateFlowToHALPatterns +
//     populateFlowToHALLegality, then barrier placement (the same as
//     `hal-opt --convert-flow-to-hal=submission=blocking`).
//
// Usage: lower-to-hal input.mlir [copies=always|elide]
//            [barriers=full|hazard] [output-memory-type=BITS]
// (the options of both routes: hal-opt's `copies`, `barriers` and
// `output-memory-type`).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/PlaceBarriers.h"
#include "streamhal/Registration/PatternRoute.h"
#include "streamhal/Registration/Pipelines.h"
#include "streamhal/Registration/Registration.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace mlir;

/// Parses `path` into a fresh context that knows streamhal's dialects.
static OwningOpRef<ModuleOp> parse(llvm::StringRef path, MLIRContext &context) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
  if (!module)
    llvm::errs() << "lower-to-hal: cannot parse '" << path << "'\n";
  return module;
}

/// The choices both routes take from the command line.
struct Choices {
  streamhal::CopyPolicy copies = streamhal::CopyPolicy::Elide;
  streamhal::BarrierPolicy barriers = streamhal::BarrierPolicy::Hazard;
  std::optional<streamhal::hal::MemoryType> outputMemoryType;
};

/// Reads `copies=always|elide`, `barriers=full|hazard` and
/// `output-memory-type=BITS` arguments into `choices`.
static bool parseChoice(llvm::StringRef argument, Choices &choices) {
  auto [key, value] = argument.split('=');
  if (key == "copies" && (value == "always" || value == "elide")) {
    choices.copies = value == "always" ? streamhal::CopyPolicy::Always
                                       : streamhal::CopyPolicy::Elide;
    return true;
  }
  if (key == "barriers" && (value == "full" || value == "hazard")) {
    choices.barriers = value == "full" ? streamhal::BarrierPolicy::Full
                                       : streamhal::BarrierPolicy::Hazard;
    return true;
  }
  if (key == "output-memory-type") {
    choices.outputMemoryType = streamhal::hal::symbolizeMemoryType(value);
    return choices.outputMemoryType.has_value();
  }
  return false;
}

/// Route 1: the registered pipeline, built through the C++ API.
static LogicalResult lowerWithPasses(ModuleOp module, const Choices &choices) {
  PassManager pm(module->getContext());
  streamhal::LowerToHALPipelineOptions options;
  options.copies = choices.copies;
  options.barriers = choices.barriers;
  options.outputMemoryType = choices.outputMemoryType;
  streamhal::buildLowerToHALPipeline(pm, options);
  return pm.run(module);
}

/// Route 2: the patterns inside the caller's own conversion.
static LogicalResult lowerWithPatterns(ModuleOp module,
                                       const Choices &choices) {
  MLIRContext *context = module->getContext();
  // The steps before the patterns, in the pass's order: copy on write,
  // emplacement, the check (every problem reported before anything is
  // lowered; each fragment planned once, on the IR the patterns will see)
  // and which outputs the host reads. Nothing may change the module between
  // this and the conversion: a changed fragment's plan is stale.
  streamhal::FlowToHALOptions options;
  options.copies = choices.copies;
  options.outputMemoryType = choices.outputMemoryType;
  FailureOr<streamhal::PreparedFlowToHAL> prepared =
      streamhal::prepareFlowToHAL(module, options);
  if (failed(prepared))
    return failure();

  streamhal::FlowToHALTypeConverter typeConverter(context);
  ConversionTarget target(*context);
  streamhal::populateFlowToHALLegality(target, typeConverter);
  RewritePatternSet patterns(context);
  streamhal::populateFlowToHALPatterns(context, typeConverter, patterns,
                                       prepared->options);
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  // Copy on write's marker has nothing more to say (the pass drops it too).
  module->removeAttr(streamhal::flow::kCopyOnWriteAttrName);
  // The patterns record no barriers: placement is a step of its own.
  IRRewriter rewriter(context);
  (void)streamhal::placeBarriers(module, choices.barriers, rewriter);
  return success();
}

int main(int argc, char **argv) {
  Choices choices;
  bool usage = argc < 2;
  for (int i = 2; i < argc; ++i)
    usage |= !parseChoice(argv[i], choices);
  if (usage) {
    llvm::errs() << "usage: lower-to-hal input.mlir [copies=always|elide] "
                    "[barriers=full|hazard] [output-memory-type=BITS]\n";
    return 1;
  }
  DialectRegistry registry;
  streamhal::registerStreamHALDialects(registry);

  MLIRContext passContext(registry);
  OwningOpRef<ModuleOp> viaPasses = parse(argv[1], passContext);
  if (!viaPasses || failed(lowerWithPasses(*viaPasses, choices)))
    return 1;
  viaPasses->print(llvm::outs());
  llvm::outs() << "\n// -----\n";

  MLIRContext patternContext(registry);
  OwningOpRef<ModuleOp> viaPatterns = parse(argv[1], patternContext);
  if (!viaPatterns || failed(lowerWithPatterns(*viaPatterns, choices)))
    return 1;
  viaPatterns->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
