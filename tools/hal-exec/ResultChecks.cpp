//===- ResultChecks.cpp - hal-exec's checks of what it prints -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ResultChecks.h"
#include "DeviceOptions.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Support/FileUtilities.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/ExecutableFormats.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;
namespace cl = llvm::cl;

static cl::OptionCategory &execCategory = getExecCategory();

static cl::opt<std::string> expectFile(
    cl::cat(execCategory), "expect",
    cl::desc("Compare the elements of the function's results (concatenated "
             "in order) with this file's raw little-endian elements; exit 1 "
             "naming the first difference"),
    cl::value_desc("file.bin"));
static cl::opt<double> tolerance(
    cl::cat(execCategory), "tolerance", cl::init(0.0),
    cl::desc("With --expect: the relative difference allowed between float "
             "elements (default 0: bit-identical)"),
    cl::value_desc("REL"));

/// Whether `variant` carries a real kernel.
static bool hasKernels(hal::ExecutableVariantOp variant) {
  if (variant.getTarget().getFormat().getValue() != hal::kVulkanSpirvFormat)
    return false;
  bool found = false;
  variant.walk([&](spirv::EntryPointOp) { found = true; });
  return found;
}

void warnAboutModelResults(ModuleOp module, bool onDevice, bool lowering,
                           ArrayRef<std::string> formats) {
  if (!onDevice)
    return;
  auto supported = [&](hal::ExecutableVariantOp variant) {
    return formats.empty() ||
           llvm::is_contained(formats,
                              variant.getTarget().getFormat().getValue());
  };
  bool flowLevel = false;
  module.walk([&](flow::DispatchOp) { flowLevel = true; });
  if (flowLevel && !lowering)
    llvm::errs() << "hal-exec: warning: this module is at the flow level and "
                    "runs without --lower: each flow.dispatch runs alone "
                    "(a SPIR-V kernel on the device, a dispatch without one "
                    "through the dispatch model on the host), and nothing "
                    "of a lowered program (its fills, copies, barriers and "
                    "submissions) runs on the device; add --lower for that\n";
  for (auto executable : module.getOps<hal::ExecutableOp>()) {
    hal::ExecutableVariantOp chosen, kernelVariant;
    for (auto variant :
         executable.getBody().getOps<hal::ExecutableVariantOp>()) {
      if (!supported(variant))
        continue;
      if (!chosen)
        chosen = variant;
      else if (!kernelVariant && hasKernels(variant))
        kernelVariant = variant;
    }
    if (!chosen || hasKernels(chosen) || !kernelVariant)
      continue;
    llvm::errs() << "hal-exec: warning: executable @" << executable.getSymName()
                 << " runs variant @" << chosen.getSymName() << " ("
                 << chosen.getTarget().getFormat().getValue()
                 << "), which has no kernels: its dispatches run the dispatch "
                    "model, not the SPIR-V kernels of variant @"
                 << kernelVariant.getSymName()
                 << "; pass --formats=" << hal::kVulkanSpirvFormat
                 << " to run those\n";
  }
}

namespace {
/// One element of a result, as read from its bytes.
struct Element {
  bool isFloat = false;
  double value = 0;
  uint64_t bits = 0;
};
} // namespace

/// Reads element `index` of `bytes`, `width` bytes each.
static Element readElement(ArrayRef<uint8_t> bytes, size_t index,
                           unsigned width, Type type) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < width; ++i)
    bits |= uint64_t(bytes[index * width + i]) << (8 * i);
  Element element;
  element.bits = bits;
  if (type && type.isF32()) {
    element.isFloat = true;
    element.value = llvm::bit_cast<float>(uint32_t(bits));
  } else if (type && type.isF64()) {
    element.isFloat = true;
    element.value = llvm::bit_cast<double>(bits);
  } else if (type && type.isInteger() && width < 8) {
    element.value = double(llvm::SignExtend64(bits, width * 8));
  } else {
    element.value = double(bits);
  }
  return element;
}

/// `value` printed with `format` (printf style).
static std::string formatNumber(const char *format, double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format(format, value);
  return text;
}

/// Whether `actual` matches `expected` within the tolerance.
static bool matches(const Element &actual, const Element &expected) {
  if (!actual.isFloat)
    return actual.bits == expected.bits;
  if (std::isnan(actual.value) || std::isnan(expected.value))
    return std::isnan(actual.value) && std::isnan(expected.value);
  if (actual.value == expected.value)
    return true;
  double scale = std::max(std::fabs(actual.value), std::fabs(expected.value));
  return std::fabs(actual.value - expected.value) <= tolerance * scale;
}

LogicalResult checkExpectedResults(Operation *function,
                                   ArrayRef<HostValue> results) {
  if (expectFile.empty())
    return success();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(expectFile, &error);
  if (!file)
    return function->emitError()
           << "--expect: cannot read " << expectFile << ": " << error;
  ArrayRef<uint8_t> expected(
      reinterpret_cast<const uint8_t *>(file->getBufferStart()),
      file->getBufferSize());
  size_t offset = 0;
  for (auto [index, result] : llvm::enumerate(results)) {
    Type type = result.isScalar ? result.scalarType : result.elementType;
    unsigned width = type && type.isIntOrFloat()
                         ? (type.getIntOrFloatBitWidth() + 7) / 8
                         : 1;
    std::vector<uint8_t> bytes = result.bytes;
    if (result.isScalar) {
      bytes.resize(width);
      for (unsigned i = 0; i < width; ++i)
        bytes[i] = uint8_t(result.scalarBits >> (8 * i));
    }
    if (offset + bytes.size() > expected.size())
      return function->emitError()
             << "--expect: result " << index << " has " << bytes.size()
             << " bytes, but " << expectFile << " has only "
             << expected.size() - offset << " more";
    ArrayRef<uint8_t> reference = expected.slice(offset, bytes.size());
    for (size_t element = 0; element < bytes.size() / width; ++element) {
      Element actual = readElement(bytes, element, width, type);
      Element wanted = readElement(reference, element, width, type);
      if (matches(actual, wanted))
        continue;
      InFlightDiagnostic diagnostic = function->emitError();
      diagnostic << "--expect: result " << index << " element " << element
                 << " is " << formatNumber("%.9g", actual.value) << ", but "
                 << expectFile << " has " << formatNumber("%.9g", wanted.value);
      if (actual.isFloat && wanted.value != 0)
        diagnostic << " (relative difference "
                   << formatNumber("%.3g",
                                   std::fabs(actual.value - wanted.value) /
                                       std::fabs(wanted.value))
                   << ", --tolerance " << formatNumber("%g", tolerance) << ")";
      return diagnostic;
    }
    offset += bytes.size();
  }
  if (offset != expected.size())
    return function->emitError()
           << "--expect: the results have " << offset << " bytes, but "
           << expectFile << " has " << expected.size();
  return success();
}
