//===- KernelInterface.h - SPIR-V kernels against their interface -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `vulkan-spirv-fb` variant carries its kernels as a `spirv.module`; the
// HAL entry point's `hal.interface` is their ABI (docs/device.md, "Writing
// kernels"). Drivers and validation layers crash, or compute garbage
// silently, on a kernel that disagrees with the layout it is run with, so
// every kernel is checked against its interface before any pipeline is made:
// the descriptor bindings it uses, the push-constant block, what it stores
// into, its local size and the variables its entry point must list.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_KERNELINTERFACE_H
#define STREAMHAL_EXEC_KERNELINTERFACE_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include <array>
#include <cstdint>
#include <set>
#include <utility>

namespace streamhal::exec {

/// The device limits a kernel is checked against; the defaults are the
/// minimums every Vulkan device guarantees.
struct KernelLimits {
  std::array<uint32_t, 3> maxWorkgroupSize = {128, 128, 64};
  uint32_t maxWorkgroupInvocations = 128;
  uint32_t maxPushConstantBytes = 128;
};

/// A checked SPIR-V kernel: where it is and what it does with the bindings.
struct SpirvKernel {
  mlir::spirv::ModuleOp module;
  mlir::spirv::EntryPointOp entryPoint;
  std::array<uint32_t, 3> localSize = {1, 1, 1};
  /// Bytes of its push-constant block (0 without one).
  uint64_t pushConstantBytes = 0;
  /// (set, binding) of the descriptors its entry point references, and of
  /// those it stores into.
  std::set<std::pair<uint32_t, uint32_t>> usedBindings, writtenBindings;
};

/// Finds the `spirv.module` of `variant` holding the GLCompute entry point
/// of HAL entry point `entryPoint` and checks it against the entry point's
/// interface and `limits`. Errors are located at the kernel's op (the
/// variable, the store, the execution mode), with notes at the interface
/// binding and at `dispatch`, which may be null. A `Write` binding the
/// kernel never stores into is an error, or a warning when
/// `allowPartialWrites`.
mlir::FailureOr<SpirvKernel>
checkSpirvKernel(hal::ExecutableEntryPointOp entryPoint,
                 const KernelLimits &limits, mlir::Operation *dispatch,
                 bool allowPartialWrites = false);

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_KERNELINTERFACE_H
