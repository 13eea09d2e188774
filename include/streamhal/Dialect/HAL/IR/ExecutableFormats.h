//===- ExecutableFormats.h - Executable formats with meaning ----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executable formats whose variants streamhal treats specially.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_EXECUTABLEFORMATS_H
#define STREAMHAL_DIALECT_HAL_IR_EXECUTABLEFORMATS_H

#include "llvm/ADT/StringRef.h"

namespace streamhal::hal {

/// The format of variants whose module holds SPIR-V kernels (MLIR's SPIR-V
/// dialect), run by the Vulkan device against their interface's whole
/// layout (docs/device.md, "Kernels").
inline constexpr llvm::StringLiteral kVulkanSpirvFormat = "vulkan-spirv-fb";

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_EXECUTABLEFORMATS_H
