//===- CompareLevels.cpp - hal-exec's comparison of two levels ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --check-lowering and --check-against: the HAL level's results and kept
// arguments against the flow level's, and the explanation of a mismatch
// from the two dispatch traces.
//
//===----------------------------------------------------------------------===//

#include "CompareLevels.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace mlir;
using namespace streamhal::exec;

/// `0xAB`, for diagnostics.
/// The index of the first byte where `a` and `b` differ (the shorter length
/// when one is a prefix of the other).
static size_t getFirstDifference(ArrayRef<uint8_t> a, ArrayRef<uint8_t> b) {
  return std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first -
         a.begin();
}

static std::string hexByte(uint8_t byte) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex(byte, 4);
  return text;
}

/// Explains why the HAL level disagrees: the first dispatch whose inputs
/// differ from the flow level's, or else the op that last wrote the first
/// differing byte of the result.
static void explainMismatch(Location fallback, ArrayRef<DispatchRecord> flow,
                            ArrayRef<DispatchRecord> hal,
                            const HostValue &halResult, int64_t byte) {
  for (size_t k = 0; k < std::min(flow.size(), hal.size()); ++k) {
    const DispatchRecord &expected = flow[k];
    const DispatchRecord &actual = hal[k];
    Operation *op = actual.op;
    auto noteFlow = [&](InFlightDiagnostic &diag) {
      diag.attachNote(expected.op->getLoc())
          << "the flow level's dispatch #" << k;
    };
    if (expected.entrySymbol != actual.entrySymbol) {
      InFlightDiagnostic diag = op->emitError()
                                << "dispatch #" << k << " runs "
                                << actual.entrySymbol << " but the flow level "
                                << "runs " << expected.entrySymbol;
      noteFlow(diag);
      return;
    }
    if (expected.workgroups != actual.workgroups) {
      InFlightDiagnostic diag =
          op->emitError() << "dispatch #" << k << " of " << actual.entrySymbol
                          << " has workgroup count [" << actual.workgroups[0]
                          << ", " << actual.workgroups[1] << ", "
                          << actual.workgroups[2]
                          << "] but the flow level computes ["
                          << expected.workgroups[0] << ", "
                          << expected.workgroups[1] << ", "
                          << expected.workgroups[2] << "]";
      noteFlow(diag);
      return;
    }
    if (expected.pushConstants != actual.pushConstants) {
      size_t i = 0;
      while (i < expected.pushConstants.size() &&
             i < actual.pushConstants.size() &&
             expected.pushConstants[i] == actual.pushConstants[i])
        ++i;
      InFlightDiagnostic diag = op->emitError() << "dispatch #" << k << " of "
                                                << actual.entrySymbol;
      if (i < expected.pushConstants.size() && i < actual.pushConstants.size())
        diag << " gets push constant " << i << " = " << actual.pushConstants[i]
             << " but the flow level passes " << expected.pushConstants[i];
      else
        diag << " gets " << actual.pushConstants.size()
             << " push constants but the flow level passes "
             << expected.pushConstants.size();
      noteFlow(diag);
      return;
    }
    if (expected.reads.size() != actual.reads.size()) {
      InFlightDiagnostic diag =
          op->emitError() << "dispatch #" << k << " of " << actual.entrySymbol
                          << " reads " << actual.reads.size()
                          << " bindings but the flow level reads "
                          << expected.reads.size();
      noteFlow(diag);
      return;
    }
    for (auto [want, got] : llvm::zip(expected.reads, actual.reads)) {
      if (want.set != got.set || want.binding != got.binding) {
        InFlightDiagnostic diag =
            op->emitError() << "dispatch #" << k << " of " << actual.entrySymbol
                            << " reads binding (" << got.set << ", "
                            << got.binding << ") where the flow level reads ("
                            << want.set << ", " << want.binding << ")";
        noteFlow(diag);
        return;
      }
      if (want.bytes == got.bytes)
        continue;
      size_t at = getFirstDifference(want.bytes, got.bytes);
      InFlightDiagnostic diag =
          op->emitError() << "dispatch #" << k << " of " << actual.entrySymbol
                          << " reads different bytes in binding (" << got.set
                          << ", " << got.binding << ") than at the flow level";
      Operation *writer = nullptr;
      if (at < want.bytes.size() && at < got.bytes.size()) {
        diag << ": byte " << at << " is " << hexByte(got.bytes[at])
             << ", expected " << hexByte(want.bytes[at]);
        writer = got.getWriter(at);
      } else {
        diag << ": " << got.bytes.size() << " bytes, expected "
             << want.bytes.size();
      }
      if (writer)
        diag << "; the byte was last written by '" << writer->getName() << "'";
      else if (at < got.bytes.size())
        diag << "; the byte comes from the function's inputs";
      if (writer)
        diag.attachNote(writer->getLoc()) << "the last writer of that byte";
      noteFlow(diag);
      return;
    }
  }
  if (flow.size() != hal.size()) {
    emitError(fallback) << "the HAL level runs " << hal.size()
                        << " dispatches but the flow level " << flow.size();
    return;
  }
  if (halResult.root && byte < static_cast<int64_t>(halResult.bytes.size()))
    if (Operation *writer =
            halResult.root->getLastWriter(halResult.rootOffset + byte)) {
      writer->emitError() << "wrote byte " << byte
                          << " of the differing result: '" << writer->getName()
                          << "' is the last writer";
      return;
    }
}

/// Compares the two levels' results; emits at `halFunction` on mismatch.
LogicalResult compareResults(func::FuncOp halFunction,
                             ArrayRef<HostValue> flowResults,
                             ArrayRef<HostValue> halResults,
                             ArrayRef<DispatchRecord> flowTrace,
                             ArrayRef<DispatchRecord> halTrace,
                             bool haveDispatchTrace) {
  if (flowResults.size() != halResults.size())
    return halFunction.emitError()
           << "returns " << halResults.size()
           << " results but the flow level returns " << flowResults.size();
  // Two results that share bytes at the HAL level must be one value at the
  // flow level: otherwise the caller, who owns each result, would see a
  // write to one of them in the other.
  for (size_t i = 0; i < halResults.size(); ++i) {
    for (size_t j = i + 1; j < halResults.size(); ++j) {
      const HostValue &first = halResults[i], &second = halResults[j];
      if (!first.root || first.root != second.root || first.bytes.empty() ||
          second.bytes.empty())
        continue;
      int64_t firstEnd = first.rootOffset + first.bytes.size();
      int64_t secondEnd = second.rootOffset + second.bytes.size();
      if (first.rootOffset >= secondEnd || second.rootOffset >= firstEnd)
        continue;
      if (flowResults[i].identity &&
          flowResults[i].identity == flowResults[j].identity)
        continue;
      return halFunction.emitError()
             << "results " << i << " and " << j
             << " share bytes in memory but are different values at the flow "
                "level: a write to one would change the other";
    }
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(flowResults, halResults))) {
    const HostValue &want = std::get<0>(pair);
    const HostValue &got = std::get<1>(pair);
    if (want.bytes == got.bytes)
      continue;
    size_t at = getFirstDifference(want.bytes, got.bytes);
    InFlightDiagnostic diag = halFunction.emitError()
                              << "result " << index << " ("
                              << describeHostValue(want)
                              << ") differs from the flow level";
    if (at < want.bytes.size() && at < got.bytes.size())
      diag << " at byte " << at << ": " << hexByte(got.bytes[at])
           << ", expected " << hexByte(want.bytes[at]);
    else
      diag << ": " << got.bytes.size() << " bytes, expected "
           << want.bytes.size();
    diag.report();
    if (haveDispatchTrace)
      explainMismatch(halFunction.getLoc(), flowTrace, halTrace, got, at);
    else
      emitRemark(halFunction.getLoc())
          << "--device=reference explains which dispatch differs";
    return failure();
  }
  return success();
}

/// Inputs count as results: an argument the caller keeps (no tie donates
/// it) must hold its original bytes after the HAL level ran.
LogicalResult
compareKeptArguments(func::FuncOp halFunction, const llvm::BitVector &donated,
                     ArrayRef<HostValue> arguments,
                     ArrayRef<std::optional<std::vector<uint8_t>>> after) {
  for (auto [index, pair] : llvm::enumerate(llvm::zip(arguments, after))) {
    const auto &[before, bytes] = pair;
    if (!bytes || (index < donated.size() && donated.test(index)) ||
        *bytes == before.bytes)
      continue;
    size_t at = 0;
    while (at < bytes->size() && at < before.bytes.size() &&
           (*bytes)[at] == before.bytes[at])
      ++at;
    return halFunction.emitError()
           << "argument " << index << " (" << describeHostValue(before)
           << ") was changed by the HAL level at byte " << at
           << ", but no tie donates it: the caller keeps its bytes";
  }
  return success();
}
