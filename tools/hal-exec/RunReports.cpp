//===- RunReports.cpp - hal-exec's per-run report lines -------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RunReports.h"
#include "DeviceOptions.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace streamhal::exec;

static cl::OptionCategory &execCategory = getExecCategory();

static cl::opt<bool> reportBarriers(
    cl::cat(execCategory), "report-barriers",
    cl::desc("Print per function the execution barriers its HAL run "
             "recorded and the fewest the same command order needs on the "
             "concrete byte ranges"));

/// Prints the --report-barriers line of `function`.
static void printBarrierCounts(llvm::raw_ostream &os, StringRef function,
                               const BarrierCounts &counts) {
  if (reportBarriers)
    os << "@" << function << ": barriers recorded=" << counts.recorded
       << " minimum=" << counts.minimum << "\n";
}

static cl::opt<bool> reportMemory(
    cl::cat(execCategory), "report-memory",
    cl::desc("Print per function the allocations its HAL run made, their "
             "bytes, the bytes of its transients (device-only allocations "
             "no result lives in, and a caller's transient buffer) and "
             "their lower bound: the most transient bytes holding a value "
             "a later command reads, at one command"));

/// Prints the --report-memory line of `function`.
static void printMemoryCounts(llvm::raw_ostream &os, StringRef function,
                              const MemoryCounts &counts) {
  if (reportMemory)
    os << "@" << function << ": memory allocations=" << counts.allocations
       << " (results " << counts.resultAllocations << ", transients "
       << counts.transientAllocations << ")"
       << " allocated=" << counts.allocatedBytes
       << " transient=" << counts.transientBytes
       << " live-peak=" << counts.transientLivePeak << "\n";
}

static cl::opt<bool> reportCommands(
    cl::cat(execCategory), "report-commands",
    cl::desc("Print per function run the commands (fills, copies, "
             "dispatches, barriers) its HAL run recorded into command "
             "buffers and those its submissions executed: a memoized "
             "command buffer is recorded by the first call only"));

/// Prints the --report-commands line of `function`.
static void printCommandCounts(llvm::raw_ostream &os, StringRef function,
                               const CommandCounts &counts) {
  if (reportCommands)
    os << "@" << function << ": commands recorded=" << counts.recorded
       << " executed=" << counts.executed << "\n";
}

void printRunReports(raw_ostream &os, StringRef function,
                     const Executor &executor) {
  printBarrierCounts(os, function, executor.getBarrierCounts());
  printCommandCounts(os, function, executor.getCommandCounts());
  printMemoryCounts(os, function, executor.getMemoryCounts());
}
