//===- hal-pack.cpp - Pack buffers from a CSV file into one slab ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads `id,lower,upper,size[,alignment][,offset]` rows, packs them with the
// chosen strategy, validates the packing and prints one summary line:
//
//   slab=<bytes> lower_bound=<bytes> ratio=<r> time_ms=<ms> strategy=<s>
//   proven_optimal=<yes|no>
//
//===----------------------------------------------------------------------===//

#include "streamhal/Packing/Packing.h"
#include "streamhal/Packing/PackingCSV.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

using namespace llvm;
using namespace streamhal::packing;

static cl::OptionCategory packCategory("hal-pack options");

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::Required,
                  cl::desc("<input .csv, or - for stdin>"),
                  cl::cat(packCategory));

static cl::opt<std::string>
    strategyName("strategy", cl::init("greedy"),
                 cl::desc("Placement strategy: in-order, greedy or optimal"),
                 cl::value_desc("name"), cl::cat(packCategory));

static cl::opt<std::string> lifetimesName(
    "lifetimes", cl::init("closed"),
    cl::desc("How [lower, upper] is read: closed (upper is live, as in "
             "hal.allocator.pack) or half-open (upper is dead)"),
    cl::value_desc("convention"), cl::cat(packCategory));

static cl::opt<int64_t>
    alignment("alignment", cl::init(1),
              cl::desc("Offset and size alignment in bytes (default 1)"),
              cl::value_desc("bytes"), cl::cat(packCategory));

static cl::opt<double> timeLimit(
    "time-limit", cl::init(10.0),
    cl::desc("Time budget of the optimal search in seconds (default 10)"),
    cl::value_desc("seconds"), cl::cat(packCategory));

static cl::opt<std::string> outputFilename(
    "o", cl::desc("Write the input rows plus an offset column to this file"),
    cl::value_desc("file"), cl::cat(packCategory));

/// Prints `hal-pack: error: <message>` and returns the failing exit code.
static int reportError(const Twine &message) {
  WithColor::error(errs(), "hal-pack") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(packCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Packs buffers with lifetimes into one slab\n");

  std::optional<PackingStrategy> strategy = parseStrategy(strategyName);
  if (!strategy)
    return reportError("unknown strategy '" + strategyName +
                       "' (expected in-order, greedy or optimal)");
  std::optional<LifetimeConvention> lifetimes =
      parseLifetimeConvention(lifetimesName);
  if (!lifetimes)
    return reportError("unknown lifetime convention '" + lifetimesName +
                       "' (expected closed or half-open)");
  if (alignment < 1 || alignment > (int64_t(1) << 30))
    return reportError("--alignment must be in [1, 2^30], got " +
                       Twine(alignment));
  if (!(timeLimit >= 0))
    return reportError("--time-limit must be non-negative");

  ErrorOr<std::unique_ptr<MemoryBuffer>> input =
      MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (std::error_code error = input.getError())
    return reportError(inputFilename + ": " + error.message());
  Expected<PackingTable> table = parsePackingCSV((*input)->getBuffer());
  if (!table)
    return reportError(inputFilename + ": " + toString(table.takeError()));

  PackingProblem problem;
  problem.buffers = table->buffers;
  problem.lifetimes = *lifetimes;
  problem.offsetAlignment = alignment;
  problem.sizeAlignment = alignment;
  if (Error error = verifyProblem(problem))
    return reportError(inputFilename + ": " + toString(std::move(error)));

  PackingOptions options;
  options.strategy = *strategy;
  options.timeLimitSeconds = timeLimit;
  auto start = std::chrono::steady_clock::now();
  PackingResult result = pack(problem, options);
  double elapsedMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  if (Error error = validatePacking(problem, result))
    return reportError("internal error: invalid packing: " +
                       toString(std::move(error)));

  int64_t lowerBound = computeLowerBound(problem);
  double ratio =
      lowerBound > 0 ? double(result.slabSize) / double(lowerBound) : 1.0;
  outs() << "slab=" << result.slabSize << " lower_bound=" << lowerBound
         << " ratio=" << format("%.4f", ratio)
         << " time_ms=" << format("%.2f", elapsedMs)
         << " strategy=" << toString(*strategy)
         << " proven_optimal=" << (result.provenOptimal ? "yes" : "no") << "\n";

  if (!outputFilename.empty()) {
    std::error_code error;
    ToolOutputFile output(outputFilename, error, sys::fs::OF_Text);
    if (error)
      return reportError(outputFilename + ": " + error.message());
    writePackingCSV(output.os(), *table, result.offsets);
    output.keep();
  }
  return 0;
}
