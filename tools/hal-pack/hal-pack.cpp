//===- hal-pack.cpp - Pack buffers from a CSV file into one slab ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads `id,lower,upper,size[,alignment][,offset]` rows, packs them with the
// chosen strategy, validates the packing and prints one summary line (on
// stderr when `-o -` puts the CSV on stdout):
//
//   slab=<bytes> lower_bound=<bytes> ratio=<r> time_ms=<ms> strategy=<s>
//   lifetimes=<closed|half-open> proven_optimal=<yes|no>
//
// Progress (best slab so far, lower bound, elapsed time) goes to stderr when
// stderr is a terminal and packing takes over a second, or always with
// --progress. --svg=FILE draws the packing.
//
//===----------------------------------------------------------------------===//

#include "ToolVersion.h"

#include "streamhal/Packing/Packing.h"
#include "streamhal/Packing/PackingCSV.h"
#include "streamhal/Packing/PackingSVG.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
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
                 cl::desc("Placement strategy: in-order, greedy or optimal "
                          "(default greedy)"),
                 cl::value_desc("name"), cl::cat(packCategory));

static cl::opt<std::string> lifetimesName(
    "lifetimes", cl::init("closed"),
    cl::desc("How [lower, upper] is read (default closed): closed (upper "
             "is live, as in hal.allocator.pack) or half-open (upper is dead, "
             "as in MiniMalloc's files, whose lower bound is higher when read "
             "as closed)"),
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
    "o",
    cl::desc("Write the input rows plus an offset column to this file (- for "
             "stdout; the summary line then goes to stderr)"),
    cl::value_desc("file"), cl::cat(packCategory));

static cl::opt<std::string>
    svgFilename("svg",
                cl::desc("Draw the packing into this SVG file (time across, "
                         "address up, one rectangle per buffer)"),
                cl::value_desc("file"), cl::cat(packCategory));

static cl::opt<bool> showProgress(
    "progress",
    cl::desc("Report progress on stderr (default: only when stderr is a "
             "terminal and packing takes over a second)"),
    cl::cat(packCategory));

/// Seconds of packing before progress appears on a terminal.
static constexpr double kQuietSeconds = 1.0;
/// Seconds between two progress reports.
static constexpr double kProgressInterval = 0.25;

namespace {
/// Prints progress reports on stderr: rewriting one line on a terminal,
/// one line per report otherwise.
class ProgressPrinter {
public:
  ProgressPrinter(bool forced)
      : forced(forced), terminal(sys::Process::StandardErrIsDisplayed()) {}

  bool enabled() const { return forced || terminal; }

  void report(const PackingProgress &progress) {
    if (!forced && progress.elapsedSeconds < kQuietSeconds)
      return;
    if (printedAny && progress.elapsedSeconds - lastPrint < kProgressInterval) {
      pending = progress;
      return;
    }
    print(progress);
  }

  /// Prints the last report if it was held back, and ends the rewritten
  /// line, if any.
  void finish() {
    if (pending)
      print(*pending);
    if (terminal && printedAny)
      errs() << "\n";
  }

private:
  void print(const PackingProgress &progress) {
    pending.reset();
    lastPrint = progress.elapsedSeconds;
    printedAny = true;
    raw_ostream &os = errs();
    if (terminal)
      os << "\r\x1b[K";
    os << "hal-pack: " << progress.strategy << " ";
    if (progress.placed < progress.numBuffers)
      os << "placed=" << progress.placed << "/" << progress.numBuffers << " ";
    os << "best=";
    if (progress.bestSlab)
      os << progress.bestSlab;
    else
      os << "-";
    os << " lower_bound=" << progress.lowerBound;
    if (progress.bestSlab && progress.lowerBound)
      os << " ratio="
         << format("%.4f",
                   double(progress.bestSlab) / double(progress.lowerBound));
    os << " elapsed=" << format("%.1f", progress.elapsedSeconds) << "s";
    if (!terminal)
      os << "\n";
    os.flush();
  }

  bool forced, terminal;
  std::optional<PackingProgress> pending;
  bool printedAny = false;
  double lastPrint = 0;
};
} // namespace

/// Prints `hal-pack: error: <message>` and returns the failing exit code.
static int reportError(const Twine &message) {
  WithColor::error(errs(), "hal-pack") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(packCategory);
  streamhal::setToolVersionPrinter("hal-pack");
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
  ProgressPrinter printer(showProgress);
  if (printer.enabled())
    options.progress = [&](const PackingProgress &progress) {
      printer.report(progress);
    };
  auto start = std::chrono::steady_clock::now();
  PackingResult result = pack(problem, options);
  double elapsedMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  printer.finish();
  if (Error error = validatePacking(problem, result))
    return reportError("internal error: invalid packing: " +
                       toString(std::move(error)));

  int64_t lowerBound = computeLowerBound(problem);
  double ratio =
      lowerBound > 0 ? double(result.slabSize) / double(lowerBound) : 1.0;
  raw_ostream &summary = outputFilename == "-" ? errs() : outs();
  summary << "slab=" << result.slabSize << " lower_bound=" << lowerBound
          << " ratio=" << format("%.4f", ratio)
          << " time_ms=" << format("%.2f", elapsedMs)
          << " strategy=" << toString(*strategy)
          << " lifetimes=" << toString(*lifetimes)
          << " proven_optimal=" << (result.provenOptimal ? "yes" : "no")
          << " windows_tried=" << result.windowsTried
          << " windows_improved=" << result.windowsImproved
          << " repack_start_slab=" << result.repackStartSlab << "\n";
  summary.flush();

  if (!outputFilename.empty()) {
    std::error_code error;
    ToolOutputFile output(outputFilename, error, sys::fs::OF_Text);
    if (error)
      return reportError(outputFilename + ": " + error.message());
    writePackingCSV(output.os(), *table, result.offsets);
    output.keep();
  }

  if (!svgFilename.empty()) {
    std::error_code error;
    ToolOutputFile output(svgFilename, error, sys::fs::OF_Text);
    if (error)
      return reportError(svgFilename + ": " + error.message());
    std::vector<std::string> names;
    auto idColumn = llvm::find(table->columns, "id");
    if (idColumn != table->columns.end()) {
      size_t column = idColumn - table->columns.begin();
      for (const std::vector<std::string> &row : table->rows)
        names.push_back(row[column]);
    }
    PackingSVGOptions svgOptions;
    svgOptions.title =
        (sys::path::filename(inputFilename) + ", " + toString(*strategy)).str();
    writePackingSVG(output.os(), problem, result, names, svgOptions);
    output.keep();
  }
  return 0;
}
