//===- PatternGroups.h - the groups of flow-to-hal patterns -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_PATTERNGROUPS_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_PATTERNGROUPS_H

#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

namespace streamhal {

/// Functions, globals, casts and host element access around fragments.
void populateBoundaryPatterns(mlir::MLIRContext *context,
                              mlir::TypeConverter &typeConverter,
                              mlir::RewritePatternSet &patterns);

/// The stream fragment lowering.
void populateStreamFragmentPatterns(mlir::MLIRContext *context,
                                    mlir::TypeConverter &typeConverter,
                                    mlir::RewritePatternSet &patterns,
                                    const FlowToHALOptions &options);

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_PATTERNGROUPS_H
