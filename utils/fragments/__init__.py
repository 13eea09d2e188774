# ===- fragments/__init__.py - The parts of gen_fragments.py ---------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""The parts of utils/gen_fragments.py, which is the entry point:

  values.py        element types, shapes and the Value of a fragment
  executables.py   the executables every generated module declares
  fragment.py      Fragment: one fragment's state and its op mix
  ops.py           OpGenerators: the ops of the general mix
  view_patterns.py ViewPatterns: the view/copy situations and observers
  function.py      gen_function: arguments, one fragment, results
"""
