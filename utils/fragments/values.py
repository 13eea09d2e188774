# ===- fragments/values.py - Element types and fragment values -------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Element types, shapes and the tensor values of a generated fragment."""

DYNAMIC_EXTENT = 3  # hal-exec's default for a dynamic dim
FREE_INDEX = 1      # hal-exec's default for an index argument that is no dim
ELEMENT_TYPES = ["f32", "i32", "f16", "i8", "i16"]
ELEMENT_BYTES = {"f32": 4, "i32": 4, "f16": 2, "i8": 1, "i16": 2,
                 "i64": 8, "f64": 8}
# Splats of 8-byte elements: in a share of the functions, a share of the
# splats is widened to i64/f64. Both are decided by a random stream of their
# own, and the main stream continues after a widened function as it would
# have after the plain one, so every other function is exactly what the
# seed gave before 64-bit splats existed.
WIDE_FUNCTION_CHANCE = 0.3
WIDE_SPLAT_CHANCE = 0.5
COLUMNS = [1, 2, 3, 4, 8]


class Value:
    """A tensor value inside a fragment."""

    def __init__(self, name, etype, rows, cols, dyn, storage, gen=0):
        self.name = name
        self.etype = etype
        self.rows = rows        # runtime extent (DYNAMIC_EXTENT when dynamic)
        self.cols = cols
        self.dyn = dyn          # inner SSA name of the row dim, or None
        self.storage = storage  # alias class (shared storage) id
        self.gen = gen          # in-place writes to the storage so far


    def type(self):
        r = "?" if self.dyn else str(self.rows)
        return f"tensor<{r}x{self.cols}x{self.etype}>"

    def typed(self):
        return self.type() + (f"{{{self.dyn}}}" if self.dyn else "")
