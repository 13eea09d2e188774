//===- PackingTestUtils.h - helpers shared by the packing tests -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H
#define STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H

#include "streamhal/Packing/Packing.h"
#include "streamhal/Packing/PackingCSV.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <optional>
#include <string>

namespace streamhal::packing::testing {

/// The validator's verdict as a string ("" when the packing is valid), so a
/// failing expectation prints why.
inline std::string validationMessage(const PackingProblem &problem,
                                     const PackingResult &result) {
  if (llvm::Error error = validatePacking(problem, result))
    return llvm::toString(std::move(error));
  return "";
}

/// Loads a file of the data set shipped in bench/packing/data, or returns
/// std::nullopt (and the caller fails) when it cannot be read.
inline std::optional<PackingTable> loadPackingDataFile(llvm::StringRef name) {
  std::string path = std::string(STREAMHAL_PACKING_DATA_DIR) + "/" + name.str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return std::nullopt;
  llvm::Expected<PackingTable> table = parsePackingCSV((*file)->getBuffer());
  if (!table) {
    ADD_FAILURE() << path << ": " << llvm::toString(table.takeError());
    return std::nullopt;
  }
  return std::move(*table);
}

} // namespace streamhal::packing::testing

#endif // STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H
