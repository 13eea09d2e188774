//===- FlowToHALPass.cpp - the convert-flow-to-hal pass -------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

namespace streamhal {
#define GEN_PASS_DEF_CONVERTFLOWTOHALPASS
#include "streamhal/Conversion/Passes.h.inc"
} // namespace streamhal

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Type converter, patterns, legality
//===----------------------------------------------------------------------===//

FlowToHALTypeConverter::FlowToHALTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](RankedTensorType) -> Type {
    return hal::BufferType::get(context);
  });
}

void populateFlowToHALPatterns(MLIRContext *context,
                               TypeConverter &typeConverter,
                               RewritePatternSet &patterns,
                               const FlowToHALOptions &options) {
  populateBoundaryPatterns(context, typeConverter, patterns);
  populateStreamFragmentPatterns(context, typeConverter, patterns, options);
}

void populateFlowToHALLegality(ConversionTarget &target,
                               TypeConverter &typeConverter) {
  target.addLegalDialect<arith::ArithDialect, hal::HALDialect>();
  target.addIllegalDialect<flow::FlowDialect>();
  target.addIllegalOp<hal::TensorCastOp, hal::ConstantSubspanOp>();
  // Executables keep their own (tensor-typed) device code untouched.
  target.markOpRecursivelyLegal<hal::ExecutableOp>();
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return typeConverter.isSignatureLegal(op.getFunctionType()) &&
           typeConverter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp, util::GlobalLoadOp,
                               util::GlobalStoreOp>(
      [&](Operation *op) { return typeConverter.isLegal(op); });
  target.addDynamicallyLegalOp<util::GlobalOp>(
      [&](util::GlobalOp op) { return typeConverter.isLegal(op.getType()); });
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

struct ConvertFlowToHALPass
    : public impl::ConvertFlowToHALPassBase<ConvertFlowToHALPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Check everything first so that a bad module fails with precise
    // diagnostics and is left untouched.
    bool ok = true;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<hal::ExecutableOp>(op))
        return WalkResult::skip();
      if (auto fragment = dyn_cast<flow::ExStreamFragmentOp>(op)) {
        ok &= succeeded(checkStreamFragmentLowerable(fragment));
        return WalkResult::skip();
      }
      // Host element access and buffer view creation need an element type
      // encoding; report it here so the conversion itself cannot fail.
      Type encodedType;
      if (auto load = dyn_cast<flow::TensorLoadOp>(op))
        encodedType = load.getSource().getType();
      else if (auto store = dyn_cast<flow::TensorStoreOp>(op))
        encodedType = store.getTarget().getType();
      else if (auto cast = dyn_cast<hal::TensorCastOp>(op))
        encodedType = cast.getSource().getType();
      if (auto shaped = dyn_cast_or_null<ShapedType>(encodedType)) {
        if (!hal::getElementTypeValue(shaped.getElementType())) {
          op->emitOpError() << "uses element type " << shaped.getElementType()
                            << " which has no HAL element type encoding";
          ok = false;
          return WalkResult::advance();
        }
      }
      if (isa<flow::FlowDialect>(op->getDialect()) &&
          !isa<flow::TensorLoadOp, flow::TensorStoreOp>(op)) {
        op->emitOpError() << "can only be lowered inside a "
                             "flow.ex.stream.fragment";
        ok = false;
        return WalkResult::advance();
      }
      // Tensors outside fragments only flow through the ops the boundary
      // patterns convert; any other op would keep a tensor that no buffer
      // can stand for.
      if (!isa<flow::FlowDialect>(op->getDialect()) &&
          !isa<func::FuncOp, func::ReturnOp, func::CallOp, util::GlobalOp,
               util::GlobalLoadOp, util::GlobalStoreOp, hal::TensorCastOp,
               hal::ConstantSubspanOp>(op)) {
        auto isTensor = [](Type type) { return isa<TensorType>(type); };
        if (llvm::any_of(op->getOperandTypes(), isTensor) ||
            llvm::any_of(op->getResultTypes(), isTensor)) {
          op->emitOpError() << "uses tensors outside a "
                               "flow.ex.stream.fragment; only function "
                               "boundaries, util globals, hal.tensor.cast, "
                               "hal.constant.subspan and "
                               "flow.tensor.load/store can be lowered there";
          ok = false;
        }
      }
      return WalkResult::advance();
    });
    if (!ok)
      return signalPassFailure();

    FlowToHALStatistics statistics;
    FlowToHALOptions options;
    options.outputMemoryType = outputMemoryType;
    options.statistics = &statistics;
    options.fragmentsChecked = true;

    FlowToHALTypeConverter typeConverter(context);
    ConversionTarget target(*context);
    populateFlowToHALLegality(target, typeConverter);
    RewritePatternSet patterns(context);
    populateFlowToHALPatterns(context, typeConverter, patterns, options);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    numFragments += statistics.fragments;
    numTransientSlices += statistics.transientSlices;
    numCommands += statistics.commands;
  }
};

} // namespace
} // namespace streamhal
