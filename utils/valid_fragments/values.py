# ===- valid_fragments/values.py - Values of valid fragments ---------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Scalars, tensors, alias classes and the module-level state shared by the
functions of one output file."""

ELEMENT_BYTES = {"i8": 1, "i16": 2, "i32": 4, "f16": 2, "f32": 4}
FLOAT_VALUES = ["0.0", "1.0", "-2.5", "0.125", "1.500000e+03"]


class Scalar:
    """A scalar usable inside the fragment: a block argument or a constant
    defined in the body. `value` is the value it holds at run time; `known`
    says whether the lowering can see it (a constant, also through an
    operand). `outer` is the value passed in, None for body constants."""

    def __init__(self, name, type, value, known, outer):
        self.name = name
        self.type = type
        self.value = value
        self.known = known
        self.outer = outer


class StorageClass:
    """An alias class: `kind` is input, const or transient."""

    def __init__(self, kind, operand=None):
        self.kind = kind
        self.operand = operand  # (outer name, Tensor) for inputs
        self.writable = True
        self.written = False


class Tensor:
    """A tensor value of the body: `shape` holds ints and None for dynamic
    dims, whose Scalars are `dims` in order."""

    def __init__(self, name, elem, shape, dims, storage):
        self.name = name
        self.elem = elem
        self.shape = list(shape)
        self.dims = list(dims)
        self.storage = storage

    @property
    def rank(self):
        return len(self.shape)

    def dim_scalar(self, d):
        return self.dims[sum(1 for s in self.shape[:d] if s is None)]

    def extent(self, d):
        return self.shape[d] if self.shape[d] is not None else self.dim_scalar(d).value

    def extent_known(self, d):
        return self.shape[d] is not None or self.dim_scalar(d).known

    def type(self):
        return tensor_type(self.elem, self.shape)

    def typed(self):
        """The type with its dims, as ops spell their operands."""
        return self.type() + dims_suffix(d.name for d in self.dims)

    def same_type(self, other):
        return (
            self.elem == other.elem
            and self.shape == other.shape
            and all(a is b for a, b in zip(self.dims, other.dims))
        )


def tensor_type(elem, shape):
    return "tensor<" + "".join(("?" if s is None else str(s)) + "x" for s in shape) + elem + ">"


def dims_suffix(names):
    names = list(names)
    return "{" + ", ".join(names) + "}" if names else ""


def element_count(shape):
    count = 1
    for s in shape:
        count *= s
    return count


def factorizations(count, rank):
    """Shapes of `rank` dims whose product is `count`."""
    if rank == 0:
        return [[]] if count == 1 else []
    if rank == 1:
        return [[count]]
    shapes = []
    for first in range(1, count + 1):
        if count % first == 0:
            shapes += [[first] + rest for rest in factorizations(count // first, rank - 1)]
    return shapes


class Module:
    """Module-level state shared by the functions of one output file."""

    def __init__(self, max_extent):
        self.max_extent = max_extent
        self.executables = []
        self.pool_offset = 0

    def pool_range(self, size):
        """A byte range of @pool holding at least `size` bytes."""
        offset = self.pool_offset
        self.pool_offset += (size + 63) // 64 * 64 + 64
        return offset
