//===- hal-exec.cpp - Run and check flow and HAL programs -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs functions of a module with the reference executor and prints one line
// per result (shape, element type, 64-bit digest). With --check-lowering it
// also lowers a copy of the module and checks that the HAL program computes
// the same bytes; --check-against does the same with a lowered file.
//
//===----------------------------------------------------------------------===//

#include "CompareLevels.h"
#include "DeviceOptions.h"
#include "ResultChecks.h"
#include "RunReports.h"
#include "ToolVersion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "streamhal/Exec/Device.h"
#include "streamhal/Exec/DispatchModel.h"
#include "streamhal/Exec/Executor.h"
#include "streamhal/Registration/Registration.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;
namespace cl = llvm::cl;

/// hal-exec's own options; --help lists these, not LLVM's backend flags.
cl::OptionCategory &getExecCategory() {
  static cl::OptionCategory category("hal-exec options");
  return category;
}
static cl::OptionCategory &execCategory = getExecCategory();

static cl::opt<std::string> inputFilename(cl::cat(execCategory), cl::Positional,
                                          cl::desc("<input .mlir>"),
                                          cl::init("-"));
static cl::opt<std::string>
    functionName(cl::cat(execCategory), "function",
                 cl::desc("Function to run (default: every public function)"),
                 cl::value_desc("name"));
static cl::list<std::string> skipFunctions(
    cl::cat(execCategory), "skip-function", cl::CommaSeparated,
    cl::desc("Functions not to run when running every public function"));
static cl::list<std::string>
    inputs(cl::cat(execCategory), "input",
           cl::desc("Argument, in order: SHAPExTYPE=@file.bin (raw "
                    "little-endian row-major bytes), TYPE=VALUE or VALUE; "
                    "missing ones come from --seed"));
static cl::opt<uint64_t> seed(cl::cat(execCategory), "seed",
                              cl::desc("Seed of generated inputs"),
                              cl::init(0));
static cl::list<int64_t>
    dims(cl::cat(execCategory), "dims", cl::CommaSeparated,
         cl::desc("Values of the dynamic dims of tensor arguments, in order, "
                  "then of other index arguments"));
static cl::list<std::string>
    formats(cl::cat(execCategory), "formats", cl::CommaSeparated,
            cl::desc("Executable formats the device supports (default: all)"));
static cl::opt<std::string> deviceLimits(
    cl::cat(execCategory), "device-limits",
    cl::desc("Limits of the simulated device, replacing the module's "
             "#hal.buffer_constraints (and the defaults 16, 16, 1 GiB, "
             "1 GiB, 32): offset-alignment=N,range-alignment=N,"
             "max-allocation=N,max-range=N,push-constants=N, any subset"),
    cl::value_desc("key=N,..."));
static cl::list<std::string> skipDeviceRules(
    cl::cat(execCategory), "skip-device-rules", cl::CommaSeparated,
    cl::desc("Device rules not to check (none: check all): "
             "binding-offset-alignment, binding-range, unbound-binding, "
             "fill-alignment, allocation-size, push-constants, "
             "binding-aliasing (default: none)"),
    cl::value_desc("rule,..."));

static cl::opt<std::string> transients(
    cl::cat(execCategory), "transients", cl::init("auto"),
    cl::desc("The transient buffer given to a function that takes one "
             "(external-transients) when no --input gives it: auto (the "
             "bytes its @<name>_transient_size query returns) or a byte "
             "count; fewer bytes than the query asks for is an error "
             "(default: auto)"),
    cl::value_desc("auto|bytes"));

static cl::opt<bool> skipTimelineRaces(
    cl::cat(execCategory), "skip-timeline-races",
    cl::desc("Do not check that queue submissions no chain of fences orders "
             "touch disjoint bytes (leaves a missing wait to --device=vulkan "
             "--validate)"));

/// The rules skipped without --skip-device-rules: those the lowering still
/// breaks. Each comes off the list once the lowering obeys it.
static cl::opt<unsigned>
    orders(cl::cat(execCategory), "orders", cl::init(1),
           cl::desc("Run each barrier-delimited batch in K orders"));
static cl::opt<int64_t> maxMemory(
    cl::cat(execCategory), "max-memory", cl::init(kDefaultMaxMemory),
    cl::desc("Most bytes of buffer data the HAL level may hold (default 8 "
             "GiB); more is a located error"),
    cl::value_desc("bytes"));
static cl::opt<bool> printBytes(cl::cat(execCategory), "print-bytes",
                                cl::desc("Print the bytes of every result"));
static cl::opt<std::string> checkLowering(
    cl::cat(execCategory), "check-lowering", cl::ValueOptional,
    cl::desc("Lower a copy with PIPELINE (default: convert-flow-to-hal, "
             "packing and barriers, without the later passes of "
             "streamhal-lower-to-hal) and check it computes the same bytes"),
    cl::value_desc("pipeline"));
static cl::opt<std::string> lowerAndRun(
    cl::cat(execCategory), "lower", cl::ValueOptional,
    cl::desc("Lower a copy with PIPELINE (default: as --check-lowering's) "
             "and run only its HAL level, on the --device"),
    cl::value_desc("pipeline"));
static cl::opt<bool> printValues(
    cl::cat(execCategory), "print-values",
    cl::desc("Print the elements of every float or integer result, and "
             "the value of every scalar result"));
static cl::opt<std::string> checkAgainst(
    cl::cat(execCategory), "check-against",
    cl::desc("Check that this lowered module computes the same bytes"),
    cl::value_desc("lowered.mlir"));
static cl::opt<bool> splitInputFile(
    cl::cat(execCategory), "split-input-file",
    cl::desc("Process each '// -----' chunk of the input on its own"));

static cl::list<std::string> callDims(
    cl::cat(execCategory), "call-dims",
    cl::desc("Call each function once per occurrence, with these dynamic "
             "dims (comma-separated, as --dims) and the seed plus the "
             "call's index, in one executor per level: what the first call "
             "memoizes, later calls replay"),
    cl::value_desc("d0,d1,..."));

/// The --device, opened once for every run.
static std::shared_ptr<Device> commandDevice;

/// Chunks in which the --function was found.
static unsigned namedFunctionsFound = 0;

/// The README's full pipeline.
static constexpr const char *kDefaultPipeline =
    "convert-flow-to-hal{barriers=none},hal-pack-allocations,canonicalize,"
    "hal-place-barriers";

/// Prints the elements of a float (f32, f64) or integer result, if it is
/// one: `  values: 1.5 -2 ...` (floats to 9 significant digits, which
/// identify an f32).
static void printElements(llvm::raw_ostream &os, const HostValue &result) {
  if (result.isScalar) {
    // A scalar result (an index, a size query's answer) by its value.
    Type type = result.scalarType;
    unsigned width =
        type && type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
    os << "  value: ";
    if (type && type.isF32())
      os << llvm::format("%.9g",
                         llvm::bit_cast<float>(uint32_t(result.scalarBits)));
    else if (type && type.isF64())
      os << llvm::format("%.17g", llvm::bit_cast<double>(result.scalarBits));
    else if (type && type.isIndex())
      os << int64_t(result.scalarBits);
    else if (width == 1)
      os << (result.scalarBits & 1);
    else
      os << llvm::SignExtend64(result.scalarBits, std::min(width, 64u));
    os << "\n";
    return;
  }
  Type type = result.elementType;
  unsigned width =
      type && type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0;
  bool isFloat = type && (type.isF32() || type.isF64());
  if (!(isFloat || (type && type.isInteger())) || width % 8 != 0 ||
      width == 0 || width > 64)
    return;
  size_t bytes = width / 8;
  os << "  values:";
  for (size_t at = 0; at + bytes <= result.bytes.size(); at += bytes) {
    uint64_t bits = 0;
    for (size_t i = 0; i < bytes; ++i)
      bits |= uint64_t(result.bytes[at + i]) << (8 * i);
    if (type.isF32())
      os << " " << llvm::format("%.9g", llvm::bit_cast<float>(uint32_t(bits)));
    else if (type.isF64())
      os << " " << llvm::format("%.17g", llvm::bit_cast<double>(bits));
    else
      os << " " << llvm::SignExtend64(bits, width);
  }
  os << "\n";
}

static void printResults(llvm::raw_ostream &os, StringRef function,
                         ArrayRef<HostValue> results) {
  for (auto [index, result] : llvm::enumerate(results)) {
    os << "@" << function << " result " << index << ": "
       << describeHostValue(result) << " "
       << llvm::format_hex(digestBytes(result.bytes), 18) << "\n";
    if (printValues)
      printElements(os, result);
    if (!printBytes)
      continue;
    os << "  bytes:";
    for (uint8_t byte : result.bytes)
      os << " " << llvm::format_hex_no_prefix(byte, 2);
    os << "\n";
  }
}

/// The parsed --device-limits.
static DeviceLimitOverrides deviceLimitOverrides;

static ExecOptions getOptions() {
  ExecOptions options;
  options.deviceLimits = deviceLimitOverrides;
  for (const std::string &rule : skipDeviceRules)
    if (rule != "none")
      options.skippedDeviceRules.push_back(rule);
  options.skipTimelineRaces = skipTimelineRaces;
  int64_t transientBytes = 0;
  if (transients != "auto" &&
      !StringRef(transients).getAsInteger(10, transientBytes))
    options.transientBytes = transientBytes;
  options.seed = seed;
  options.orders = std::max(1u, orders.getValue());
  options.maxMemory = std::max<int64_t>(0, maxMemory);
  options.device = commandDevice;
  if (!formats.empty())
    options.formats = SmallVector<std::string>(formats.begin(), formats.end());
  return options;
}

static FailureOr<OwningOpRef<ModuleOp>> lowerCopy(ModuleOp module,
                                                  StringRef pipeline) {
  OwningOpRef<ModuleOp> lowered = module.clone();
  if (pipeline.empty())
    pipeline = kDefaultPipeline;
  if (pipeline.consume_front("builtin.module("))
    pipeline.consume_back(")");
  PassManager pm(module.getContext());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return module.emitError() << "bad --check-lowering pipeline: " << errors;
  if (failed(pm.run(*lowered)))
    return module.emitError()
           << "the lowering pipeline '" << pipeline << "' failed";
  return lowered;
}

/// Runs a function, printing its results; for a run of the HAL level also
/// its barriers, commands, memory and (on a device that times) device time.
static FailureOr<SmallVector<HostValue>>
runAndPrint(Executor &executor, func::FuncOp callee,
            ArrayRef<HostValue> arguments, bool isHALRun,
            llvm::raw_ostream &os) {
  DeviceRunTimer timer(commandDevice.get());
  FailureOr<SmallVector<HostValue>> results = executor.run(callee, arguments);
  timer.stop();
  if (failed(results))
    return failure();
  printResults(os, callee.getSymName(), *results);
  if (failed(checkExpectedResults(callee, *results)))
    return failure();
  if (isHALRun) {
    printRunReports(os, callee.getSymName(), executor);
    timer.print(os, callee.getSymName());
  }
  return results;
}

/// The dynamic dims of call `call`: its --call-dims, else --dims.
static FailureOr<SmallVector<int64_t>> getCallDims(unsigned call) {
  if (callDims.empty())
    return SmallVector<int64_t>(dims.begin(), dims.end());
  SmallVector<StringRef> parts;
  StringRef(callDims[call]).split(parts, ',', -1, /*KeepEmpty=*/false);
  SmallVector<int64_t> values;
  for (StringRef part : parts) {
    int64_t value;
    if (part.trim().getAsInteger(10, value))
      return failure();
    values.push_back(value);
  }
  return values;
}

/// Runs call `call` of `function` (arguments from --seed plus the call's
/// index): the HAL level alone when `flowExecutor` is null (--lower), else
/// the flow level, then the HAL level when there is one, checked against it.
static LogicalResult runCall(func::FuncOp function, func::FuncOp halFunction,
                             unsigned call, ArrayRef<int64_t> callDimValues,
                             Executor *flowExecutor, Executor *halExecutor,
                             llvm::raw_ostream &os) {
  FailureOr<SmallVector<HostValue>> arguments =
      makeArguments(function, inputs, seed + call, callDimValues);
  if (failed(arguments))
    return failure();
  if (!flowExecutor)
    return runAndPrint(*halExecutor, halFunction, *arguments,
                       /*isHALRun=*/true, os);
  // Without a lowering, this run is the one to time (a HAL program).
  FailureOr<SmallVector<HostValue>> results =
      runAndPrint(*flowExecutor, function, *arguments, !halExecutor, os);
  if (failed(results))
    return failure();
  if (!halExecutor)
    return success();
  DeviceRunTimer timer(commandDevice.get());
  FailureOr<SmallVector<HostValue>> halResults =
      halExecutor->run(halFunction, *arguments);
  timer.stop();
  // A real device keeps no trace of its dispatches' inputs.
  bool haveDispatchTrace = !commandDevice || commandDevice->isReference();
  if (failed(halResults) ||
      failed(compareResults(
          halFunction, *results, *halResults, flowExecutor->getDispatchTrace(),
          halExecutor->getDispatchTrace(), haveDispatchTrace)) ||
      failed(compareKeptArguments(halFunction, findDonatedArguments(function),
                                  *arguments,
                                  halExecutor->getArgumentsAfterRun())))
    return failure();
  StringRef name = function.getSymName();
  os << "@" << name << ": the HAL level matches\n";
  printRunReports(os, name, *halExecutor);
  timer.print(os, name);
  return success();
}

/// Runs (and checks) the functions of one module.
static LogicalResult processModule(ModuleOp module, ModuleOp lowered,
                                   llvm::raw_ostream &os) {
  SmallVector<func::FuncOp> functions;
  if (!functionName.empty()) {
    auto function = module.lookupSymbol<func::FuncOp>(functionName);
    // With --split-input-file, chunks without the function are skipped.
    if (!function && splitInputFile)
      return success();
    if (!function)
      return module.emitError() << "has no function @" << functionName;
    ++namedFunctionsFound;
    functions.push_back(function);
  } else {
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isExternal() &&
          !llvm::is_contained(skipFunctions, function.getSymName()))
        functions.push_back(function);
  }
  warnAboutModelResults(
      module, commandDevice && !commandDevice->isReference(), bool(lowered),
      SmallVector<std::string>(formats.begin(), formats.end()));
  bool ok = true;
  for (func::FuncOp function : functions) {
    if (functionName.empty()) {
      // Running every function: skip those that call into a declaration.
      std::optional<StringRef> external;
      function.walk([&](func::CallOp call) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (callee && callee.isExternal())
          external = call.getCallee();
      });
      if (external) {
        os << "@" << function.getSymName() << ": skipped, calls @" << *external
           << " which has no body\n";
        continue;
      }
    }
    // One executor per level for all calls: a memoized command buffer the
    // first call records is replayed by the later ones.
    std::optional<Executor> flowExecutor, halExecutor;
    func::FuncOp halFunction;
    if (lowered) {
      halFunction = lowered.lookupSymbol<func::FuncOp>(function.getSymName());
      if (!halFunction) {
        lowered.emitError()
            << "has no function @" << function.getSymName()
            << (lowerAndRun.getNumOccurrences() ? "" : " to check");
        ok = false;
        continue;
      }
      halExecutor.emplace(lowered, getOptions());
    }
    if (!lowerAndRun.getNumOccurrences())
      flowExecutor.emplace(module, getOptions());
    for (unsigned call = 0, calls = std::max<size_t>(1, callDims.size());
         call < calls; ++call) {
      FailureOr<SmallVector<int64_t>> callDimValues = getCallDims(call);
      if (failed(callDimValues)) {
        function.emitError() << "bad --call-dims '" << callDims[call] << "'";
        ok = false;
        break;
      }
      if (failed(runCall(function, halFunction, call, *callDimValues,
                         flowExecutor ? &*flowExecutor : nullptr,
                         halExecutor ? &*halExecutor : nullptr, os))) {
        ok = false;
        break;
      }
    }
  }
  return success(ok);
}

static LogicalResult processBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                   llvm::raw_ostream &os,
                                   MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  // A chunk without the requested function needs no lowering.
  if (splitInputFile && !functionName.empty() &&
      !module->lookupSymbol<func::FuncOp>(functionName))
    return success();
  OwningOpRef<ModuleOp> lowered;
  llvm::SourceMgr loweredSourceMgr;
  if (!checkAgainst.empty()) {
    std::string error;
    auto file = openInputFile(checkAgainst, &error);
    if (!file)
      return emitError(UnknownLoc::get(&context))
             << "cannot read " << checkAgainst << ": " << error;
    // Its own source manager: parseSourceFile reads the main buffer. The
    // diagnostic handler loads the file by name when it reports there.
    loweredSourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    lowered = parseSourceFile<ModuleOp>(loweredSourceMgr, &context);
    if (!lowered)
      return failure();
  } else if (checkLowering.getNumOccurrences() ||
             lowerAndRun.getNumOccurrences()) {
    FailureOr<OwningOpRef<ModuleOp>> result = lowerCopy(
        *module, checkLowering.getNumOccurrences() ? StringRef(checkLowering)
                                                   : StringRef(lowerAndRun));
    if (failed(result))
      return failure();
    lowered = std::move(*result);
  }
  return processModule(*module, lowered ? *lowered : ModuleOp(), os);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerCanonicalizerPass();
  registerCSEPass();
  registerStreamHALPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(execCategory);
  setToolVersionPrinter("hal-exec");
  cl::ParseCommandLineOptions(
      argc, argv,
      "streamhal reference executor: runs flow and HAL programs and checks "
      "lowerings\n");

  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                  flow::FlowDialect, hal::HALDialect, spirv::SPIRVDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.allowUnregisteredDialects(false);
  context.printOpOnDiagnostic(false);

  std::string limitError =
      parseDeviceLimits(deviceLimits, deviceLimitOverrides);
  if (!limitError.empty()) {
    llvm::errs() << "hal-exec: --device-limits: " << limitError << "\n";
    return 1;
  }
  int64_t transientBytes = 0;
  if (transients != "auto" &&
      (StringRef(transients).getAsInteger(10, transientBytes) ||
       transientBytes < 0)) {
    llvm::errs() << "hal-exec: --transients: expected auto or a byte count, "
                    "got '"
                 << transients << "'\n";
    return 1;
  }
  for (const std::string &rule : skipDeviceRules) {
    if (rule != "none" &&
        !llvm::is_contained(kExecDeviceRules, StringRef(rule))) {
      llvm::errs() << "hal-exec: --skip-device-rules: unknown device rule '"
                   << rule << "'\n";
      return 1;
    }
  }
  // The device closes when main returns, not in a static destructor: the
  // Vulkan layers' own statics may be gone by then (the validation layer
  // then never returns from vkDestroyDevice).
  llvm::scope_exit closeDevice([] { commandDevice.reset(); });
  if (std::optional<int> exitCode = setUpDevice(commandDevice))
    return *exitCode;
  if (commandDevice && orders > 1) {
    llvm::errs() << "hal-exec: --orders reruns batches on the reference "
                    "model; a real device runs each command buffer once\n";
    return 1;
  }
  if (lowerAndRun.getNumOccurrences() &&
      (checkLowering.getNumOccurrences() || !checkAgainst.empty())) {
    llvm::errs() << "hal-exec: --lower runs the lowered module alone; drop "
                    "--check-lowering and --check-against\n";
    return 1;
  }
  if (splitInputFile && !checkAgainst.empty()) {
    llvm::errs() << "hal-exec: --check-against takes a whole file; drop "
                    "--split-input-file\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << "hal-exec: " << error << "\n";
    return 1;
  }
  llvm::raw_ostream &os = llvm::outs();
  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                     llvm::raw_ostream &out) {
    return processBuffer(std::move(chunk), out, context);
  };
  LogicalResult result =
      splitInputFile ? splitAndProcessBuffer(std::move(file), process, os)
                     : process(std::move(file), os);
  if (succeeded(result) && splitInputFile && !functionName.empty() &&
      namedFunctionsFound == 0) {
    llvm::errs() << "hal-exec: no chunk of " << inputFilename
                 << " has a function @" << functionName << "\n";
    return 1;
  }
  unsigned lateProblems =
      commandDevice ? commandDevice->reportLateProblems(llvm::errs()) : 0;
  return failed(result) || lateProblems ? 1 : 0;
}
