//===- Report.cpp - concurrency and memory figures of a module ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prints figures a user can see in any build: llvm::Statistic counts nothing
// in a Release libMLIR, so the figures are computed from the IR and printed.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"

namespace streamhal::hal {
#define GEN_PASS_DEF_REPORTPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal::hal {
namespace {

/// Figures of one function.
struct Figures {
  uint64_t fragments = 0;
  uint64_t waves = 0;
  uint64_t commandBuffers = 0;
  uint64_t commands = 0;
  uint64_t barriers = 0;
  uint64_t copies = 0;
  uint64_t bytesCopied = 0;
  bool dynamicCopies = false;
  uint64_t bytesFilled = 0;
  bool dynamicFills = false;
  uint64_t slabBytes = 0;
  bool dynamicSlabs = false;
  uint64_t hostVisibleBytes = 0;
  bool dynamicHostVisible = false;
  /// Every allocation: the slabs and the outputs.
  uint64_t allocatedBytes = 0;
  bool dynamicAllocated = false;
  /// Allocation ops, each run once per call.
  uint64_t allocations = 0;
};

/// Adds a constant length, or notes that one was not constant.
void addBytes(Value length, uint64_t &total, bool &dynamic) {
  std::optional<int64_t> constant = getConstantIntValue(length);
  if (constant && *constant >= 0)
    total += *constant;
  else
    dynamic = true;
}

Figures computeFigures(FunctionOpInterface function) {
  Figures figures;
  function->walk([&](Operation *op) {
    if (isa<flow::ExStreamFragmentOp>(op)) {
      ++figures.fragments;
      int64_t maxWave = -1;
      for (Operation &inner : op->getRegion(0).getOps())
        if (std::optional<int64_t> wave = flow::getWave(&inner))
          maxWave = std::max(maxWave, std::min(*wave, INT64_MAX - 1));
      figures.waves += maxWave + 1;
      return;
    }
    if (isa<CommandBufferCreateOp>(op)) {
      ++figures.commandBuffers;
    } else if (isa<CommandBufferExecutionBarrierOp>(op)) {
      ++figures.barriers;
    } else if (auto copy = dyn_cast<CommandBufferCopyBufferOp>(op)) {
      ++figures.copies;
      addBytes(copy.getLength(), figures.bytesCopied, figures.dynamicCopies);
    } else if (auto fill = dyn_cast<CommandBufferFillBufferOp>(op)) {
      addBytes(fill.getLength(), figures.bytesFilled, figures.dynamicFills);
    } else if (auto allocate = dyn_cast<AllocatorAllocateOp>(op)) {
      addBytes(allocate.getResultSize(), figures.allocatedBytes,
               figures.dynamicAllocated);
      ++figures.allocations;
      // A function slab is a slab too, though several command buffers use it.
      if (allocate->hasAttr(kFunctionTransientsAttrName) ||
          getOwningCommandBuffer(allocate.getResult()))
        addBytes(allocate.getResultSize(), figures.slabBytes,
                 figures.dynamicSlabs);
      if (bitEnumContainsAll(allocate.getMemoryTypes(),
                             MemoryType::HostVisible))
        addBytes(allocate.getResultSize(), figures.hostVisibleBytes,
                 figures.dynamicHostVisible);
    }
    // A dispatch recorded in every case of a device switch is one command.
    if (isa<CommandBufferFillBufferOp, CommandBufferCopyBufferOp>(op) ||
        (isa<DeviceSwitchOp>(op) && !op->getParentOfType<DeviceSwitchOp>() &&
         op->walk([](CommandBufferDispatchSymbolOp) {
             return WalkResult::interrupt();
           }).wasInterrupted()))
      ++figures.commands;
    else if (isa<CommandBufferDispatchSymbolOp>(op) &&
             !op->getParentOfType<DeviceSwitchOp>())
      ++figures.commands;
  });
  return figures;
}

struct ReportPass : public impl::ReportPassBase<ReportPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::errs();
    getOperation().walk([&](FunctionOpInterface function) {
      if (function.isExternal())
        return;
      Figures figures = computeFigures(function);
      auto dynamic = [](bool isDynamic) { return isDynamic ? "+dynamic" : ""; };
      os << "hal-report";
      if (!label.empty())
        os << "[" << label << "]";
      os << " @" << function.getName() << ":";
      // The flow-level figures only while there are fragments: after the
      // lowering they are always 0, and `waves=0` there would read as "no
      // waves" when the scheduler's waves are simply gone with the
      // fragments (report them before --convert-flow-to-hal).
      if (figures.fragments)
        os << " fragments=" << figures.fragments << " waves=" << figures.waves;
      os << " command-buffers=" << figures.commandBuffers
         << " commands=" << figures.commands << " barriers=" << figures.barriers
         << " bytes-copied=" << figures.bytesCopied
         << dynamic(figures.dynamicCopies)
         << " bytes-filled=" << figures.bytesFilled
         << dynamic(figures.dynamicFills) << " slab-bytes=" << figures.slabBytes
         << dynamic(figures.dynamicSlabs) << " copies=" << figures.copies
         << " host-visible-bytes=" << figures.hostVisibleBytes
         << dynamic(figures.dynamicHostVisible)
         << " allocated-bytes=" << figures.allocatedBytes
         << dynamic(figures.dynamicAllocated)
         << " allocations=" << figures.allocations << "\n";
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace streamhal::hal
