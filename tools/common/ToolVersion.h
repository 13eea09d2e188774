//===- ToolVersion.h - `--version` of the streamhal tools -------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// llvm::cl's default `--version` prints only the LLVM it was built with
// ("Debian LLVM version ..."), which does not say which tool or which
// streamhal answered. Every streamhal tool prints the same two lines instead.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TOOLS_COMMON_TOOLVERSION_H
#define STREAMHAL_TOOLS_COMMON_TOOLVERSION_H

#include "streamhal/Version.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace streamhal {

/// Makes `--version` print `<tool> (streamhal X.Y.Z)` and the MLIR/LLVM
/// version it was built with. Call before parsing the command line.
inline void setToolVersionPrinter(const char *tool) {
  llvm::cl::SetVersionPrinter([tool](llvm::raw_ostream &os) {
    os << tool << " (streamhal " STREAMHAL_VERSION ")\n"
       << "  built with MLIR and LLVM " LLVM_VERSION_STRING "\n";
  });
}

} // namespace streamhal

#endif // STREAMHAL_TOOLS_COMMON_TOOLVERSION_H
