//===- hal-opt.cpp - streamhal optimizer driver ---------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mlir-opt` for the util, flow and hal dialects and the streamhal passes,
// with a `--help` limited to MLIR's and streamhal's options, a `--version`
// naming streamhal, and unknown options rejected. Built twice: with the test
// passes for the build tree, without them (STREAMHAL_WITHOUT_TEST_PASSES)
// for the installed package.
//
//===----------------------------------------------------------------------===//

#include "ToolVersion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "streamhal/Registration/Registration.h"
#ifndef STREAMHAL_WITHOUT_TEST_PASSES
#include "streamhal/TestPasses/TestPasses.h"
#endif
#include "streamhal/Version.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"

using llvm::StringRef;

/// Hides from `--help` every option that exists before main runs: the
/// hundreds of LLVM backend flags libLLVM registers when it is loaded. They
/// still parse. MLIR's and streamhal's options are registered after this and
/// stay visible.
static void hideLibraryOptions() {
  llvm::ArrayRef<const llvm::cl::OptionCategory *> keepOnlyGeneric;
  llvm::cl::HideUnrelatedOptions(keepOnlyGeneric);
}

/// Rejects an option nobody registered, as one line with exit code 1.
/// llvm::cl would take an unknown `--hxxx` for `-h` (`--help`) followed by
/// more letters, print the whole help and exit 0, so a script with a typo
/// (`--hal-pack-allocationz`) would silently do nothing.
static mlir::LogicalResult checkOptionNames(int argc, char **argv) {
  const auto &options = llvm::cl::getRegisteredOptions();
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      break;
    if (arg == "-" || !arg.starts_with("-"))
      continue;
    StringRef spelled = arg.split('=').first;
    StringRef name = spelled.drop_front(spelled.starts_with("--") ? 2 : 1);
    // `-o` and `-h` are registered while the command line is parsed.
    if (name.empty() || name == "o" || name == "h" || options.count(name))
      continue;
    StringRef nearest;
    unsigned nearestDistance = 3;
    for (const auto &[candidate, option] : options) {
      if (option->getOptionHiddenFlag() == llvm::cl::ReallyHidden)
        continue;
      unsigned distance =
          name.edit_distance(candidate, /*AllowReplacements=*/true,
                             /*MaxEditDistance=*/nearestDistance);
      if (distance < nearestDistance) {
        nearest = candidate;
        nearestDistance = distance;
      }
    }
    llvm::errs() << "hal-opt: unknown option '" << spelled << "'";
    if (!nearest.empty())
      llvm::errs() << "; did you mean '--" << nearest << "'?";
    llvm::errs() << "\n";
    return mlir::failure();
  }
  return mlir::success();
}

/// Builds the requested pass pipeline once before the input is read, so that
/// a bad pass option value (`strategy=best`) or pipeline string fails at once,
/// as the one line llvm::cl or the pipeline parser prints, with no input read
/// and no pass run. MlirOptMain would report it after parsing the input,
/// followed by an empty `<unknown>:0: error:` line.
static mlir::LogicalResult checkPassPipeline(mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Those print while building the pipeline or anchor it elsewhere; leave
  // them to MlirOptMain.
  if (config.shouldDumpPassPipeline() || config.shouldUseExplicitModule())
    return mlir::success();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &diag) {
    // An empty message follows an error llvm::cl has already printed.
    std::string message = diag.str();
    if (!llvm::StringRef(message).trim().empty())
      llvm::errs() << "hal-opt: " << llvm::StringRef(message).trim() << "\n";
    return mlir::success();
  });
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName(),
                       mlir::OpPassManager::Nesting::Implicit);
  return config.setupPassPipeline(pm);
}

/// Runs MlirOptMain writing to a temporary file next to `outputFilename`,
/// renamed over it only on success: a failing run leaves an existing output
/// file untouched. Only a regular file (or a path that does not exist yet)
/// is replaced that way: anything else, such as `/dev/null`, a pipe or a
/// terminal, is written in place, since renaming over it would replace the
/// device or pipe itself with a regular file (as root, `-o /dev/null` would
/// turn the system's /dev/null into a file holding the output).
static mlir::LogicalResult runToOutputFile(int argc, char **argv,
                                           llvm::StringRef inputFilename,
                                           llvm::StringRef outputFilename,
                                           mlir::DialectRegistry &registry) {
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(outputFilename, status) &&
      llvm::sys::fs::exists(status) && !llvm::sys::fs::is_regular_file(status))
    return mlir::MlirOptMain(argc, argv, inputFilename, outputFilename,
                             registry);
  llvm::SmallString<128> temporary;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(
          outputFilename + ".hal-opt-%%%%%%", temporary)) {
    llvm::errs() << "hal-opt: cannot create a file next to '" << outputFilename
                 << "': " << error.message() << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(argc, argv, inputFilename, temporary, registry))) {
    llvm::sys::fs::remove(temporary);
    return mlir::failure();
  }
  if (std::error_code error =
          llvm::sys::fs::rename(temporary, outputFilename)) {
    llvm::errs() << "hal-opt: cannot write '" << outputFilename
                 << "': " << error.message() << "\n";
    llvm::sys::fs::remove(temporary);
    return mlir::failure();
  }
  return mlir::success();
}

int main(int argc, char **argv) {
  hideLibraryOptions();
  streamhal::setToolVersionPrinter("hal-opt");

  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  streamhal::registerStreamHALPasses();
#ifndef STREAMHAL_WITHOUT_TEST_PASSES
  // The build tree's hal-opt only: the installed one lacks their library.
  streamhal::registerTestPasses();
#endif

  mlir::DialectRegistry registry;
  streamhal::registerStreamHALDialects(registry);
  std::string helpHeader = mlir::registerCLIOptions(
      "hal-opt: the streamhal optimizer driver (streamhal " STREAMHAL_VERSION
      ")\n",
      registry);
  if (mlir::failed(checkOptionNames(argc, argv)))
    return EXIT_FAILURE;
  auto [inputFilename, outputFilename] =
      mlir::parseCLIOptions(argc, argv, helpHeader);
  if (mlir::failed(checkPassPipeline(registry)))
    return EXIT_FAILURE;
  if (outputFilename == "-")
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  return mlir::asMainReturnCode(
      runToOutputFile(argc, argv, inputFilename, outputFilename, registry));
}
