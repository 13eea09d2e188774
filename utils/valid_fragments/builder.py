# ===- valid_fragments/builder.py - One generated valid fragment -----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""FragmentBuilder: names, scalars and inputs of one function, the op mix,
its results and its text."""

from .dispatch import DispatchOps
from .ops import TensorOps
from .values import ELEMENT_BYTES, FLOAT_VALUES, Scalar, StorageClass, Tensor, dims_suffix, tensor_type


class FragmentBuilder(TensorOps, DispatchOps):
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
