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

} // namespace streamhal::packing::testing

#endif // STREAMHAL_UNITTESTS_PACKING_PACKINGTESTUTILS_H
