//===- ErrorReporter.h - where a check reports what it finds ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A check that decides whether IR can be lowered runs in two roles: as the
// one up-front check that reports every user error, and inside a pattern
// that may only decline. Both run the same code with a different reporter,
// so no diagnostic handler is ever silenced to re-run a check.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_ERRORREPORTER_H
#define STREAMHAL_ANALYSIS_ERRORREPORTER_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace streamhal {

/// Emits errors at the op at fault, or builds them and drops them.
class ErrorReporter {
public:
  /// A reporter that reports (`enabled`) or stays silent.
  explicit ErrorReporter(bool enabled) : enabled(enabled) {}

  /// `op->emitOpError()` when reporting; otherwise a diagnostic that
  /// converts to failure like any other but is never reported.
  mlir::InFlightDiagnostic emitOpError(mlir::Operation *op) const {
    mlir::InFlightDiagnostic diagnostic = op->emitOpError();
    if (!enabled)
      diagnostic.abandon();
    return diagnostic;
  }

  bool isReporting() const { return enabled; }

private:
  bool enabled;
};

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_ERRORREPORTER_H
