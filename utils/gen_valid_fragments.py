#!/usr/bin/env python3
# ===- gen_valid_fragments.py - random valid stream fragments -------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Deterministic generator of random flow.ex.stream.fragment programs.

For a seed it prints one module of `--count` functions, each holding one
fragment that `--convert-flow-to-hal` must lower. The fragments mix splats
(i8, i16, i32, f16, f32), clones, reshapes, contiguous and non-contiguous
slices and updates, constant pools (`hal.constant.subspan` read, cloned,
updated in place, bound by dispatches and returned) and dispatches with tied
and untied results and push constants. Starts, lengths and dims are
constants written inside, constants passed in as fragment operands, or
function arguments; operands are sometimes passed twice or not used at all.

Every program is valid: boxes lie inside their tensors, a box the lowering
cannot prove contiguous has a static shape, and in-place writes only touch
the newest version of a value (an input only when a fragment result is tied
to it). Values the lowering cannot see (function arguments) come with a
precondition in the comment above the function: the caller passes exactly
that value, so the box is in bounds at run time.

With `--invalid` every function instead holds one slice or update whose box
is out of bounds (or starts below 0) only when the values passed in as
fragment operands are taken into account, with an `expected-error` line for
`-verify-diagnostics`.

Only the Python standard library is used; the output depends on nothing but
the arguments.
"""

import argparse
import random
import sys

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


class FragmentBuilder:
    """Builds one function holding one fragment."""

    def __init__(self, rng, module, name):
        self.rng = rng
        self.module = module
        self.name = name
        self.counter = 0
        self.params = []  # "%p: type"
        self.preconditions = []
        self.prologue = []
        self.operands = []  # (outer name, outer type with dims)
        self.block_args = []  # "%b: type"
        self.passed = {}  # outer name -> [Scalar] block args
        self.outer_constants = {}  # (value, type) -> outer name
        self.body_constants = {}  # (value, type) -> Scalar
        self.unknown = {}  # (value, type) -> [function arguments holding it]
        self.body = []
        self.live = []
        self.inputs = []  # input Tensors (block arguments)
        self.dispatches = 0

    # ===------------------------------------------------------------------===#
    # Names and scalars
    # ===------------------------------------------------------------------===#

    def fresh(self, prefix):
        self.counter += 1
        return "%" + prefix + str(self.counter)

    def param(self, type):
        name = self.fresh("p")
        self.params.append(name + ": " + type)
        return name

    def outer_constant(self, value, type):
        key = (value, type)
        if key not in self.outer_constants:
            name = self.fresh("c")
            self.prologue.append("%s = arith.constant %s : %s" % (name, value, type))
            self.outer_constants[key] = name
        return self.outer_constants[key]

    def pass_in(self, outer, type, value, known, reuse=0.6):
        """A block argument for `outer`: an existing one, or a new operand
        (a duplicate operand when `outer` was passed already)."""
        previous = self.passed.setdefault(outer, [])
        if previous and self.rng.random() < reuse:
            return self.rng.choice(previous)
        name = self.fresh("b")
        self.operands.append((outer, type))
        self.block_args.append(name + ": " + type)
        scalar = Scalar(name, type, value, known, outer)
        previous.append(scalar)
        return scalar

    def body_constant(self, value, type):
        key = (value, type)
        if key in self.body_constants and self.rng.random() < 0.7:
            return self.body_constants[key]
        name = self.fresh("v")
        self.body.append("%s = arith.constant %s : %s" % (name, value, type))
        scalar = Scalar(name, type, value, True, None)
        self.body_constants[key] = scalar
        return scalar

    def unknown_scalar(self, value, type="index"):
        """A function argument the caller sets to `value`, passed in."""
        previous = self.unknown.setdefault((value, type), [])
        if previous and self.rng.random() < 0.5:
            outer = self.rng.choice(previous)
        else:
            outer = self.param(type)
            self.preconditions.append("%s == %s" % (outer, value))
            previous.append(outer)
        return self.pass_in(outer, type, value, False)

    def index(self, value, allow_unknown=True):
        """An index holding `value`: a body constant, a constant passed in,
        or (when allowed) a function argument passed in."""
        choice = self.rng.random()
        if choice < 0.35 or (choice >= 0.7 and not allow_unknown):
            return self.body_constant(value, "index")
        if choice < 0.7:
            return self.pass_in(self.outer_constant(value, "index"), "index", value, True)
        return self.unknown_scalar(value)

    def outer_of(self, scalar):
        """The value outside the fragment that `scalar` holds."""
        if scalar.outer is None:
            return self.outer_constant(scalar.value, scalar.type)
        return scalar.outer

    def same_value(self, scalar):
        """`scalar` or another block argument carrying the same value."""
        if scalar.outer is not None and self.rng.random() < 0.3:
            return self.pass_in(scalar.outer, scalar.type, scalar.value, scalar.known, reuse=0.0)
        return scalar

    def element_value(self, elem):
        if elem.startswith("f"):
            value = self.rng.choice(FLOAT_VALUES)
        else:
            value = str(self.rng.randint(-100, 100))
        choice = self.rng.random()
        if choice < 0.4:
            return self.body_constant(value, elem)
        if choice < 0.7:
            return self.pass_in(self.outer_constant(value, elem), elem, value, True)
        return self.pass_in(self.param(elem), elem, None, False)

    # ===------------------------------------------------------------------===#
    # Tensors
    # ===------------------------------------------------------------------===#

    def random_shape(self, allow_dynamic=True, allow_empty=True):
        rank = self.rng.choice([0, 1, 1, 2, 2, 2, 3, 3])
        shape, dims = [], []
        for _ in range(rank):
            extent = self.rng.randint(1, self.module.max_extent)
            if allow_empty and self.rng.random() < 0.03:
                extent = 0
            if allow_dynamic and self.rng.random() < 0.2:
                shape.append(None)
                dims.append(self.index(max(extent, 1)))
            else:
                shape.append(extent)
        return shape, dims

    def add(self, tensor):
        self.live.append(tensor)
        return tensor

    def write(self, storage, result):
        """`result` is the new version of `storage`: older ones are dead."""
        self.live = [t for t in self.live if t.storage is not storage]
        storage.written = True
        return self.add(result)

    def new_input(self):
        elem = self.rng.choice(list(ELEMENT_BYTES))
        rank = self.rng.choice([1, 2, 2, 3])
        shape, outer_dims = [], []
        for _ in range(rank):
            extent = self.rng.randint(1, self.module.max_extent)
            if self.rng.random() < 0.3:
                shape.append(None)
                if self.rng.random() < 0.5:
                    outer_dims.append((self.outer_constant(extent, "index"), extent, True))
                else:
                    outer = self.param("index")
                    self.preconditions.append("%s == %d" % (outer, extent))
                    outer_dims.append((outer, extent, False))
            else:
                shape.append(extent)
        outer = self.param(tensor_type(elem, shape))
        return self.pass_tensor(outer, elem, shape, outer_dims)

    def pass_tensor(self, outer, elem, shape, outer_dims):
        name = self.fresh("b")
        outer_type = tensor_type(elem, shape) + dims_suffix(d[0] for d in outer_dims)
        self.operands.append((outer, outer_type))
        self.block_args.append(name + ": " + tensor_type(elem, shape))
        dims = [self.pass_in(o, "index", value, known) for o, value, known in outer_dims]
        storage = StorageClass("input")
        tensor = Tensor(name, elem, shape, dims, storage)
        storage.operand = (outer, tensor, outer_dims)
        self.inputs.append(tensor)
        return self.add(tensor)

    def duplicate_input(self):
        """Passes an input a second time; neither copy is then written."""
        candidates = [t for t in self.inputs if not t.storage.written]
        if not candidates:
            return None
        original = self.rng.choice(candidates)
        outer, _, outer_dims = original.storage.operand
        original.storage.writable = False
        copy = self.pass_tensor(outer, original.elem, original.shape, outer_dims)
        copy.storage.writable = False
        return copy

    def pick(self, condition=lambda t: True):
        candidates = [t for t in self.live if condition(t)]
        if not candidates or self.rng.random() < 0.1:
            made = self.rng.choice([self.new_input, self.new_input, self.gen_constant])()
            if condition(made):
                return made
            candidates = [t for t in self.live if condition(t)]
            if not candidates:
                return None
        return self.rng.choice(candidates)

    # ===------------------------------------------------------------------===#
    # Ops
    # ===------------------------------------------------------------------===#

    def emit_value(self, text, elem, shape, dims, storage=None):
        name = self.fresh("v")
        self.body.append(name + " = " + text)
        return Tensor(name, elem, shape, dims, storage or StorageClass("transient"))

    def gen_splat(self, elem=None, shape=None, dims=None):
        elem = elem or self.rng.choice(list(ELEMENT_BYTES))
        if shape is None:
            shape, dims = self.random_shape()
        value = self.element_value(elem)
        text = "flow.tensor.splat %s : %s%s" % (
            value.name,
            tensor_type(elem, shape),
            dims_suffix(d.name for d in dims),
        )
        return self.add(self.emit_value(text, elem, shape, dims))

    def gen_constant(self, elem=None, shape=None):
        elem = elem or self.rng.choice(list(ELEMENT_BYTES))
        if shape is None:
            shape, _ = self.random_shape(allow_dynamic=False, allow_empty=False)
        size = element_count(shape) * ELEMENT_BYTES[elem]
        length = size + self.rng.choice([0, 0, 4, 16, 100])
        offset = self.module.pool_range(length)
        text = "hal.constant.subspan @pool[#util.byte_range<%d, %d>] : %s" % (
            offset,
            length,
            tensor_type(elem, shape),
        )
        return self.add(self.emit_value(text, elem, shape, [], StorageClass("const")))

    def gen_clone(self):
        source = self.pick()
        text = "flow.tensor.clone %s : %s" % (source.name, source.typed())
        return self.add(self.emit_value(text, source.elem, source.shape, source.dims))

    def gen_reshape(self):
        source = self.pick()
        static = [s for s in source.shape if s is not None]
        count = element_count(static)
        rank = self.rng.randint(0, 3)
        shapes = factorizations(count, rank) if count > 0 else [[0] * max(rank, 1)]
        shape = self.rng.choice(shapes or [[count]])
        # Dynamic dims keep their values and order; only the static part is
        # refactored, so the element count matches whatever they hold.
        for _ in range(len(source.dims)):
            shape.insert(self.rng.randint(0, len(shape)), None)
        text = "flow.tensor.reshape %s : %s -> %s%s" % (
            source.name,
            source.typed(),
            tensor_type(source.elem, shape),
            dims_suffix(d.name for d in source.dims),
        )
        return self.add(self.emit_value(text, source.elem, shape, source.dims, source.storage))

    def gen_box(self, tensor):
        """A box inside `tensor`: (starts, box shape, box dims). A box whose
        outer shape the lowering cannot see is provably contiguous: leading
        unit dims, one free dim, then whole dims."""
        rank = tensor.rank
        extents = [tensor.extent(d) for d in range(rank)]
        starts, shape, dims = [], [], []
        if all(tensor.extent_known(d) for d in range(rank)) and self.rng.random() < 0.6:
            for extent in extents:
                if self.rng.random() < 0.04:
                    length = 0
                else:
                    length = self.rng.randint(min(1, extent), extent)
                starts.append(self.rng.randint(0, extent - length))
                if self.rng.random() < 0.15:
                    # A dynamic box dim the lowering sees as a constant.
                    shape.append(None)
                    dims.append(self.index(length, allow_unknown=False))
                else:
                    shape.append(length)
        else:
            free = self.rng.choice([k for k in range(rank) if all(extents[d] >= 1 for d in range(k))])
            for d in range(rank):
                if d < free:
                    starts.append(self.rng.randint(0, extents[d] - 1))
                    shape.append(1)
                elif d == free:
                    length = self.rng.randint(min(1, extents[d]), extents[d])
                    starts.append(self.rng.randint(0, extents[d] - length))
                    if self.rng.random() < 0.3:
                        shape.append(None)
                        dims.append(self.index(length))
                    else:
                        shape.append(length)
                else:
                    starts.append(0)
                    if tensor.shape[d] is None and (not tensor.dim_scalar(d).known or self.rng.random() < 0.5):
                        shape.append(None)
                        dims.append(self.same_value(tensor.dim_scalar(d)))
                    else:
                        shape.append(extents[d])
        return [self.index(s) for s in starts], shape, dims

    def gen_slice(self):
        source = self.pick(lambda t: t.rank > 0)
        if source is None:
            return None
        starts, shape, dims = self.gen_box(source)
        lengths, dynamic = [], iter(dims)
        for extent in shape:
            # The type fixes a static length; the operand only spells it.
            lengths.append(next(dynamic) if extent is None else self.index(extent))
        text = "flow.tensor.slice %s[%s for %s] : %s -> %s%s" % (
            source.name,
            ", ".join(s.name for s in starts),
            ", ".join(l.name for l in lengths),
            source.typed(),
            tensor_type(source.elem, shape),
            dims_suffix(d.name for d in dims),
        )
        return self.add(self.emit_value(text, source.elem, shape, dims))

    def writable(self, tensor):
        return tensor.storage.writable

    def gen_update(self):
        target = self.pick(lambda t: t.rank > 0 and self.writable(t))
        if target is None:
            return None
        starts, shape, dims = self.gen_box(target)
        probe = Tensor(None, target.elem, shape, dims, None)
        updates = [t for t in self.live if t.same_type(probe) and t.storage is not target.storage]
        if updates and self.rng.random() < 0.7:
            update = self.rng.choice(updates)
        elif not dims and self.rng.random() < 0.3:
            update = self.gen_constant(target.elem, shape)
        else:
            update = self.gen_splat(target.elem, shape, dims)
        text = "flow.tensor.update %s, %s[%s] : %s -> %s as %s" % (
            update.name,
            target.name,
            ", ".join(s.name for s in starts),
            update.typed(),
            target.name,
            target.typed(),
        )
        result = self.emit_value(text, target.elem, target.shape, target.dims, target.storage)
        return self.write(target.storage, result)

    def gen_dispatch(self):
        arguments = []  # (text, type text, Tensor or None)
        for _ in range(self.rng.randint(0, 3)):
            tensor = self.pick()
            arguments.append((tensor.name, tensor.typed(), tensor))
        for _ in range(self.rng.randint(0, 2)):
            if self.rng.random() < 0.5:
                scalar = self.index(self.rng.randint(0, 100))
            else:
                scalar = self.element_value("i32")
            arguments.append((scalar.name, scalar.type, None))
        self.rng.shuffle(arguments)
        push_constants = [i for i, a in enumerate(arguments) if a[2] is None]
        tensors = [i for i, a in enumerate(arguments) if a[2] is not None]

        results = []  # (tied operand index, None) or (None, (elem, shape, dims))
        tied = set()
        for _ in range(self.rng.randint(1, 2)):
            candidates = [
                i
                for i in tensors
                if i not in tied
                and self.writable(arguments[i][2])
                # Nothing else this dispatch reads may share the storage.
                and sum(arguments[j][2].storage is arguments[i][2].storage for j in tensors) == 1
            ]
            if candidates and self.rng.random() < 0.4:
                index = self.rng.choice(candidates)
                tied.add(index)
                results.append((index, None))
                continue
            if tensors and self.rng.random() < 0.3:
                like = arguments[self.rng.choice(tensors)][2]
                results.append((None, (like.elem, like.shape, like.dims)))
            else:
                elem = self.rng.choice(list(ELEMENT_BYTES))
                shape, dims = self.random_shape()
                results.append((None, (elem, shape, dims)))

        # The executable: one binding per tensor operand and untied result.
        bindings, interface = [], []
        ordinal = 0
        for i in tensors:
            access = "Read|Write" if i in tied else "Read"
            interface.append('hal.interface.binding @arg%d, set=0, binding=%d, type="StorageBuffer", access="%s"' % (i, ordinal, access))
            bindings.append('#hal.ex.operand_buffer<"arg%d", %d : index>' % (i, i))
            ordinal += 1
        for r, (operand, _) in enumerate(results):
            if operand is not None:
                continue
            set_index = 1 if self.rng.random() < 0.2 else 0
            interface.append('hal.interface.binding @ret%d, set=%d, binding=%d, type="StorageBuffer", access="Write|Discard"' % (r, set_index, ordinal))
            bindings.append('#hal.ex.result_buffer<"ret%d", %d : index>' % (r, r))
            ordinal += 1
        if self.rng.random() < 0.3:
            length = self.rng.choice([16, 64, 256])
            offset = self.module.pool_range(length)
            interface.append('hal.interface.binding @cst, set=0, binding=%d, type="StorageBuffer", access="Read"' % ordinal)
            bindings.append('#hal.ex.constant_storage<"cst", "pool", %d : index, %d : index>' % (offset, length))
        push_count = len(push_constants) + self.rng.randint(0, 1)
        ordinals = self.rng.sample(range(push_count), len(push_constants))
        for i, o in zip(push_constants, ordinals):
            bindings.append("#hal.ex.push_constant<%d : index, %d : index>" % (o, i))
        self.rng.shuffle(bindings)

        workload = [self.index(self.rng.randint(1, 64)) for _ in range(self.rng.randint(1, 4))]
        self.dispatches += 1
        executable = "@ex_%s_%d" % (self.name, self.dispatches)
        self.module.executables.append(self.executable_text(executable, interface, push_count, len(workload)))

        # The results: tied ones are new versions of their operand.
        result_types, made = [], []
        for operand, untied in results:
            if operand is not None:
                result_types.append(arguments[operand][0])
            else:
                elem, shape, dims = untied
                result_types.append(tensor_type(elem, shape) + dims_suffix(d.name for d in dims))
        name = self.fresh("v")
        count = len(results)
        text = "%s%s = flow.dispatch %s::@entry[%s](%s) {hal.bindings = [%s]} : (%s) -> %s" % (
            name,
            ":%d" % count if count > 1 else "",
            executable,
            ", ".join(w.name for w in workload),
            ", ".join(a[0] for a in arguments),
            ", ".join(bindings),
            ", ".join(a[1] for a in arguments),
            result_types[0] if count == 1 else "(" + ", ".join(result_types) + ")",
        )
        self.body.append(text)
        for r, (operand, untied) in enumerate(results):
            value = name + ("#%d" % r if count > 1 else "")
            if operand is not None:
                source = arguments[operand][2]
                made.append(self.write(source.storage, Tensor(value, source.elem, source.shape, source.dims, source.storage)))
            else:
                elem, shape, dims = untied
                made.append(self.add(Tensor(value, elem, shape, dims, StorageClass("transient"))))
        return made

    def executable_text(self, name, interface, push_count, workload_size):
        lines = ["hal.executable private %s {" % name]
        attributes = " attributes {push_constants = %d : index}" % push_count if push_count else ""
        lines.append("  hal.interface @io%s {" % attributes)
        lines += ["    " + b for b in interface]
        lines.append("  }")
        targets = [("vmvx", "vmvx", "vmvx-bytecode-fb"), ("llvm", "llvm-cpu", "embedded-elf-x86_64")]
        for variant, backend, format in targets[: self.rng.randint(1, 2)]:
            lines.append('  hal.executable.variant @%s, target = #hal.executable.target<"%s", "%s"> {' % (variant, backend, format))
            entry = "    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}"
            if self.rng.random() < 0.4:
                # No constants in the region: `--canonicalize` hoists them
                # into the hal.executable body, and the dispatch lowering
                # then clones a region that uses a value from outside it
                # (finding region_constant_after_canonicalize.mlir).
                arguments = ["%%w%d" % i for i in range(workload_size)]
                returned = (arguments * 3)[:3]
                lines.append(entry + " {")
                lines.append("    ^bb0(%s):" % ", ".join(a + ": index" for a in arguments))
                lines.append("      hal.return %s : index, index, index" % ", ".join(returned))
                lines.append("    }")
            else:
                lines.append(entry)
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines)

    def gen_unused_operand(self):
        """An operand whose block argument nothing uses (which may pass a
        value passed already)."""
        choice = self.rng.random()
        if choice < 0.3:
            outer, type = self.param("tensor<4xf32>"), "tensor<4xf32>"
        elif choice < 0.6:
            outer, type = self.outer_constant(self.rng.randint(0, 9), "index"), "index"
        elif choice < 0.8:
            outer, type = self.param("index"), "index"
        else:
            outer, type = self.outer_constant("2.5", "f32"), "f32"
        self.operands.append((outer, type))
        self.block_args.append(self.fresh("b") + ": " + type)

    # ===------------------------------------------------------------------===#
    # The function
    # ===------------------------------------------------------------------===#

    def generate_ops(self, count):
        for _ in range(self.rng.randint(0, 2)):
            self.new_input()
        ops = [
            (self.gen_splat, 2),
            (self.gen_clone, 1),
            (self.gen_slice, 3),
            (self.gen_update, 3),
            (self.gen_reshape, 1),
            (self.gen_dispatch, 2),
            (self.gen_constant, 1),
            (self.duplicate_input, 0.4),
            (self.gen_unused_operand, 0.4),
        ]
        for _ in range(count):
            op = self.rng.choices([o for o, _ in ops], [w for _, w in ops])[0]
            op()

    def results(self):
        """(inner value, inner type, outer result type)s: a tied result for
        every written input, sometimes one for an input left alone, and a
        few untied ones."""
        chosen = []
        for tensor in self.inputs:
            storage = tensor.storage
            # An input passed twice is never written, and a tie names the
            # first operand passing its value (the syntax names the value).
            first = next(t for t in self.inputs if t.storage.operand[0] == storage.operand[0])
            ties = storage.written or (tensor is first and self.rng.random() < 0.2)
            if not ties:
                continue
            versions = [t for t in self.live if t.storage is storage]
            value = self.rng.choice(versions)
            outer, argument, outer_dims = storage.operand
            if value.same_type(argument) and self.rng.random() < 0.7:
                outer_type = outer
            else:
                outer_type = "%s as %s" % (outer, value.type() + dims_suffix(self.outer_of(d) for d in value.dims))
            chosen.append((value, outer_type))
        untied = self.rng.randint(0 if chosen else 1, 3)
        for _ in range(untied):
            if not self.live:
                self.gen_splat()
            value = self.rng.choice(self.live)
            chosen.append((value, value.type() + dims_suffix(self.outer_of(d) for d in value.dims)))
        return chosen

    def text(self):
        results = self.results()
        lines = []
        if self.preconditions:
            lines.append("// The caller passes " + ", ".join(self.preconditions) + ".")
        result_types = [r.type() for r, _ in results]
        lines.append(
            "func.func @%s(%s) -> (%s) {" % (self.name, ", ".join(self.params), ", ".join(result_types))
        )
        lines += ["  " + l for l in self.prologue]
        count = len(results)
        lines.append(
            "  %%r%s = flow.ex.stream.fragment(%s) : (%s) -> (%s) ="
            % (
                ":%d" % count if count > 1 else "",
                ", ".join(o for o, _ in self.operands),
                ", ".join(t for _, t in self.operands),
                ", ".join(t for _, t in results),
            )
        )
        lines.append("      (%s) -> (%s) {" % (", ".join(self.block_args), ", ".join(result_types)))
        lines += ["    " + l for l in self.body]
        lines.append("    flow.return %s : %s" % (", ".join(r.name for r, _ in results), ", ".join(result_types)))
        lines.append("  }")
        returned = ["%r" + ("#%d" % i if count > 1 else "") for i in range(count)]
        lines.append("  return %s : %s" % (", ".join(returned), ", ".join(result_types)))
        lines.append("}")
        return "\n".join(lines)


# ===----------------------------------------------------------------------===#
# Invalid boxes (issue class 4)
# ===----------------------------------------------------------------------===#


def gen_invalid(builder):
    """Some valid ops, then one slice or update whose box leaves its tensor
    in one dim. Its start there is a constant passed in (or the outer dim is
    one), so only a lowering that looks through the operands sees it."""
    rng = builder.rng
    builder.generate_ops(rng.randint(0, 3))
    kind = rng.choice(["slice", "update"])
    outer = None
    while outer is None:
        candidate = rng.choice([builder.new_input, builder.new_input, builder.gen_constant])()
        if candidate.rank > 0 and all(candidate.extent_known(d) for d in range(candidate.rank)):
            if kind == "slice" or builder.writable(candidate):
                outer = candidate
    bad = rng.randrange(outer.rank)
    starts, shape = [], []
    for d in range(outer.rank):
        extent = outer.extent(d)
        length = rng.randint(1, extent) if d == bad else rng.randint(min(1, extent), extent)
        shape.append(length)
        if d != bad:
            starts.append(builder.index(rng.randint(0, extent - length)))
            continue
        negative = rng.random() < 0.2
        start = -rng.randint(1, 3) if negative else extent - length + rng.randint(1, 3)
        if outer.shape[d] is None and not negative:
            # The outer dim itself is only known through an operand.
            start_scalar = builder.index(start, allow_unknown=False)
        else:
            # A constant written inside would already fail the verifier.
            start_scalar = builder.pass_in(builder.outer_constant(start, "index"), "index", start, True)
        starts.append(start_scalar)
        if negative:
            message = "has start index %d in dimension %d, below 0" % (start, d)
        else:
            message = "copies a box out of bounds of '%s': dimension %d spans [%d, %d) but has %d elements" % (
                outer.type(),
                d,
                start,
                start + length,
                extent,
            )
    if kind == "slice":
        lengths = [builder.index(l) for l in shape]
        text = "flow.tensor.slice %s[%s for %s] : %s -> %s" % (
            outer.name,
            ", ".join(s.name for s in starts),
            ", ".join(l.name for l in lengths),
            outer.typed(),
            tensor_type(outer.elem, shape),
        )
    else:
        update = builder.gen_splat(outer.elem, shape, [])
        text = "flow.tensor.update %s, %s[%s] : %s -> %s as %s" % (
            update.name,
            outer.name,
            ", ".join(s.name for s in starts),
            update.typed(),
            outer.name,
            outer.typed(),
        )
    # The marker names the next line: everything the op uses is emitted.
    builder.body.append("// expected-error @+1 {{%s}}" % message)
    if kind == "slice":
        builder.add(builder.emit_value(text, outer.elem, shape, []))
    else:
        result = builder.emit_value(text, outer.elem, outer.shape, outer.dims, outer.storage)
        builder.write(outer.storage, result)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=50, help="functions (fragments) in the module")
    parser.add_argument("--ops", type=int, default=8, help="most ops generated per fragment")
    parser.add_argument("--max-extent", type=int, default=6, help="largest tensor dim")
    parser.add_argument("--invalid", action="store_true", help="one out-of-bounds box per fragment")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    module = Module(args.max_extent)
    functions = []
    for i in range(args.count):
        builder = FragmentBuilder(rng, module, "s%d_f%d" % (args.seed, i))
        if args.invalid:
            gen_invalid(builder)
        else:
            builder.generate_ops(rng.randint(1, args.ops))
        functions.append(builder.text())

    out = sys.stdout if args.output == "-" else open(args.output, "w")
    mode = "invalid" if args.invalid else "valid"
    out.write("// Generated by utils/gen_valid_fragments.py --seed %d --count %d (%s).\n\n" % (args.seed, args.count, mode))
    out.write("util.global private @pool : !hal.buffer\n\n")
    for executable in module.executables:
        out.write(executable + "\n\n")
    out.write("\n\n".join(functions) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
