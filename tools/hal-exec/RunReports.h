//===- RunReports.h - hal-exec's per-run report lines -----------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TOOLS_HAL_EXEC_RUNREPORTS_H
#define STREAMHAL_TOOLS_HAL_EXEC_RUNREPORTS_H

#include "streamhal/Exec/Executor.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

/// Prints the lines --report-barriers, --report-commands and
/// --report-memory ask for, of the latest HAL-level run of `function` by
/// `executor`.
void printRunReports(llvm::raw_ostream &os, llvm::StringRef function,
                     const streamhal::exec::Executor &executor);

#endif // STREAMHAL_TOOLS_HAL_EXEC_RUNREPORTS_H
