# ===- fragments/fragment.py - One generated fragment ----------------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Fragment: the state of one fragment (live values, alias classes,
constants, arguments) and the weighted mix of ops that fills it."""

from .ops import OpGenerators
from .values import COLUMNS, DYNAMIC_EXTENT, Value
from .view_patterns import ViewPatterns


class Fragment(OpGenerators, ViewPatterns):
    """The body of one `flow.ex.stream.fragment`, built op by op."""

    def __init__(self, rng, fid, outer_args, max_ops, wide_rng=None):
        self.rng = rng
        # Widens splats when set (see WIDE_FUNCTION_CHANCE in values.py).
        self.wide_rng = wide_rng
        self.fid = fid
        self.lines = []
        self.next = 0
        self.values = []        # live values
        self.generation = {}    # storage -> in-place writes so far
        # A constant range longer than its value: a dispatch binds the whole
        # range while the constant is read in place, but a returned constant
        # gets an output of exactly the value's size. Such values are not
        # returned, so that both levels bind the same bytes.
        self.padded_constants = set()
        # Constants written in place (the lowering copies them first); with
        # --no-constant-writes they are only read.
        self.constant_storages = set()
        self.constant_writes = True
        self.consts = {}
        self.outer_args = outer_args  # [(outer name, kind, Value or None)]
        self.max_ops = max_ops
        self.index_args = []    # inner index block args
        self.i32_args = []
        self.index_values = {}  # inner index block arg -> hal-exec's value
        self.input_storages = set()
        # Values the view patterns return (or, once written in place, the
        # last live value of their storage): observer results and values
        # returned as they are.
        self.observed = []
        self.returned = []

    def fresh(self, prefix="v"):
        self.next += 1
        return f"%{prefix}{self.next}"

    def const(self, value, type_="index"):
        key = (value, type_)
        if key not in self.consts:
            name = f"%k{len(self.consts)}"
            self.consts[key] = name
            self.lines.append(f"    {name} = arith.constant {value} : {type_}")
        return self.consts[key]

    def live(self):
        return [v for v in self.values
                if v.gen == self.generation.get(v.storage, 0)]

    def pick(self, pred=lambda v: True):
        live = [v for v in self.live() if pred(v)]
        if not live:
            return None
        # Prefer old values half of the time: long lifetimes.
        if self.rng.random() < 0.5:
            return live[self.rng.randrange(max(1, len(live) // 2))]
        return self.rng.choice(live)

    def new_value(self, etype, rows, cols, dyn, storage=None):
        name = self.fresh()
        storage = storage if storage is not None else name
        value = Value(name, etype, rows, cols, dyn, storage,
                      self.generation.get(storage, 0))
        self.values.append(value)
        return value

    def write_in_place(self, operand, etype, rows, cols, dyn):
        """The result of an in-place write into `operand`'s storage: every
        other alias of that storage is dead from here on."""
        self.generation[operand.storage] = self.generation.get(operand.storage, 0) + 1
        return self.new_value(etype, rows, cols, dyn, storage=operand.storage)

    def random_shape(self):
        cols = self.rng.choice(COLUMNS)
        if self.dim_args and self.rng.random() < 0.3:
            return DYNAMIC_EXTENT, cols, self.rng.choice(self.dim_args)
        return self.rng.randint(1, 6), cols, None

    def body(self):
        kinds = [(self.op_dispatch, 5), (self.op_splat, 2), (self.op_clone, 1),
                 (self.op_slice, 2), (self.op_update, 2), (self.op_reshape, 1),
                 (self.op_constant, 1), (self.op_views, self.view_weight)]
        ops, weights = zip(*kinds)
        count = self.rng.randint(2, self.max_ops)
        while len([l for l in self.lines if " flow." in l or "hal.constant" in l]) < count:
            self.rng.choices(ops, weights)[0]()
