# ===- valid_fragments/__init__.py - The parts of gen_valid_fragments.py ---===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""The parts of utils/gen_valid_fragments.py, which is the entry point:

  values.py   scalars, tensors, alias classes and module-level state
  builder.py  FragmentBuilder: names, scalars, inputs and the function text
  ops.py      TensorOps: splats, constants, clones, reshapes, slices, updates
  dispatch.py DispatchOps: dispatches and their executables
  invalid.py  gen_invalid: one out-of-bounds box per fragment (--invalid)
"""
