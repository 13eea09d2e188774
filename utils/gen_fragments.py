#!/usr/bin/env python3
# ===- gen_fragments.py - Random stream fragments for hal-exec --*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Writes a module of random stream fragments, deterministic from --seed.

Each public function holds one `flow.ex.stream.fragment`: a DAG of
2-60 ops mixing dispatches (tied and untied results, push constants,
workloads of 1-4 values, executables with several variants with and without
workgroup regions), splats of 8/16/32/64-bit elements, clones, contiguous and
split slices and updates, reshapes, and constant-pool subspans of a
`!hal.buffer` global, over static and dynamic shapes. Values stay live for
long stretches so the transient slab gets reused; results may be inputs or
tied to inputs.

Only programs the lowering accepts are generated: split (non-contiguous)
slices and updates only on static shapes with constant offsets, scalars in
fragments only from fragment arguments and constants. A value whose storage
is written in place (update target, tied dispatch operand) and every alias
of it (reshapes) are dead afterwards, so the flow level's value semantics
and the HAL level's in-place storage agree on valid programs. Slices and
clones are copies at the flow level, not aliases: they stay live when their
source is written, and the reverse.

View patterns (part of the mix; `--views` makes them most of it) are the
situations where a lowering may or may not make a contiguous slice or a
clone a view of its source's storage instead of a copy, each observed by a
dispatch that reads the bytes a wrong view would change, whose result is
returned:
  - a view (rows, rows of rows, clone, clone of a reshape) whose source is
    then written in place (tied dispatch or update, sometimes one reading
    the view itself) while the view is read: unsound to share;
  - a view written in place while its source, often a fragment input or a
    constant subspan, is read afterwards: unsound to share;
  - a clone returned whose source (mostly a transient) dies at the clone:
    sound to share when the source is a transient;
  - a clone returned together with its source, sometimes written in place
    first: unsound to share;
  - rows (or rows of rows) of a constant subspan, read or returned: a sound
    read-only view of the pool (a returned one still needs its own buffer).
Row slices take an index argument as their start when hal-exec's value for
it fits (dims are 3, other index arguments 1).

hal-exec gives every dynamic dim of a generated function the value 3
(its default), which the generator assumes for bounds.

  gen_fragments.py --seed=1 --count=100 [--views] > fragments.mlir
  hal-exec fragments.mlir --check-lowering --orders=4
"""

import argparse
import random
import sys

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

# One interface for every executable: three read bindings, two write
# bindings, one read-write binding for a tied result, two push constants.
INTERFACE = """  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @out1, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @io0, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
"""


def entry_point(arity, region):
    """Entry point @wN taking an N-value workload, optionally with a region."""
    head = f"    hal.executable.entry_point @w{arity} attributes {{interface = @io, ordinal = {arity - 1} : index}}"
    if not region:
        return head + "\n"
    args = ", ".join(f"%a{i}: index" for i in range(arity))
    lines = [head + " {", f"    ^bb0({args}):",
             "      %c1 = arith.constant 1 : index",
             "      %c2 = arith.constant 2 : index",
             "      %x = arith.ceildivui %a0, %c2 : index"]
    y = "%a1" if arity > 1 else "%c1"
    z = "%c1"
    for i in range(2, arity):
        lines.append(f"      %z{i} = arith.muli {z}, %a{i} : index")
        z = f"%z{i}"
    lines.append(f"      hal.return %x, {y}, {z} : index, index, index")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def variant(name, backend, fmt, region):
    body = "".join(entry_point(a, region) for a in range(1, 5))
    return (f"  hal.executable.variant @{name}, target = #hal.executable.target<\"{backend}\", \"{fmt}\"> {{\n"
            f"{body}    builtin.module {{}}\n  }}\n")


def executables():
    vmvx = ("vmvx", "vmvx", "vmvx-bytecode-fb")
    cpu = ("cpu", "llvm-cpu", "embedded-elf-x86_64")
    out = []
    # @exA: one variant, no region; @exB: region first; @exC: region second.
    for name, variants in [("exA", [(vmvx, False)]),
                           ("exB", [(cpu, True), (vmvx, False)]),
                           ("exC", [(vmvx, False), (cpu, True)])]:
        out.append(f"hal.executable private @{name} {{\n{INTERFACE}")
        for (vname, backend, fmt), region in variants:
            out.append(variant(vname, backend, fmt, region))
        out.append("}\n")
    return "".join(out)


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


class Fragment:
    def __init__(self, rng, fid, outer_args, max_ops, wide_rng=None):
        self.rng = rng
        # Widens splats when set (see WIDE_FUNCTION_CHANCE).
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

    # --- ops ---------------------------------------------------------------

    def op_splat(self):
        etype = self.rng.choice(ELEMENT_TYPES)
        rows, cols, dyn = self.random_shape()
        if etype.startswith("f"):
            literal = self.rng.choice(["1.5", "-2.0", "0.25", "3.0"])
        else:
            literal = str(self.rng.randint(-100, 100))
        if self.wide_rng and self.wide_rng.random() < WIDE_SPLAT_CHANCE:
            etype, literal = self.widen_splat(etype, literal)
        scalar = self.const(literal, etype)
        v = self.new_value(etype, rows, cols, dyn)
        self.lines.append(f"    {v.name} = flow.tensor.splat {scalar} : {v.typed()}")

    def widen_splat(self, etype, literal):
        """An 8-byte element type and value for a splat of `etype`: mostly
        with 32-bit halves that differ (two fills and doubling copies),
        sometimes equal (one fill)."""
        equal = self.wide_rng.random() < 0.25
        if etype.startswith("f"):
            return "f64", "0.0" if equal else literal
        low = int(literal) & 0xFFFFFFFF
        high = low if equal else (low + 0x10001) & 0xFFFFFFFF
        bits = (high << 32) | low
        return "i64", str(bits - (1 << 64) if bits >= 1 << 63 else bits)

    def op_constant(self):
        etype = self.rng.choice(ELEMENT_TYPES)
        rows, cols = self.rng.randint(1, 5), self.rng.choice(COLUMNS)
        size = rows * cols * ELEMENT_BYTES[etype]
        length = size + self.rng.choice([0, 0, 4, 16])
        offset = 16 * self.rng.randint(0, 255)
        v = self.new_value(etype, rows, cols, None)
        self.constant_storages.add(v.storage)
        if length != size:
            self.padded_constants.add(v.storage)
        self.lines.append(
            f"    {v.name} = hal.constant.subspan @pool[#util.byte_range<{offset}, {length}>] : {v.type()}")

    def op_clone(self):
        s = self.pick()
        if not s:
            return
        v = self.new_value(s.etype, s.rows, s.cols, s.dyn)
        self.lines.append(f"    {v.name} = flow.tensor.clone {s.name} : {s.typed()}")

    def op_slice(self):
        s = self.pick()
        if not s:
            return
        if s.dyn is None and s.cols > 1 and self.rng.random() < 0.4:
            # A split box: some columns of some rows (one copy per row).
            c0 = self.rng.randrange(s.cols)
            nc = self.rng.randint(1, s.cols - c0)
            r0 = self.rng.randrange(s.rows)
            nr = self.rng.randint(1, s.rows - r0)
        else:
            c0, nc = 0, s.cols
            r0 = self.rng.randrange(s.rows)
            nr = self.rng.randint(1, s.rows - r0)
        v = self.new_value(s.etype, nr, nc, None)
        offs = f"{self.const(r0)}, {self.const(c0)}"
        lens = f"{self.const(nr)}, {self.const(nc)}"
        self.lines.append(
            f"    {v.name} = flow.tensor.slice {s.name}[{offs} for {lens}] : {s.typed()} -> {v.type()}")

    def writable(self, v):
        return self.constant_writes or v.storage not in self.constant_storages

    def op_update(self):
        t = self.pick(self.writable)
        if not t:
            return
        u = self.pick(lambda v: v.etype == t.etype and v.dyn is None and
                      v.rows <= t.rows and v.storage != t.storage and
                      (v.cols == t.cols or (t.dyn is None and v.cols <= t.cols)))
        if not u:
            return
        r0 = self.rng.randint(0, t.rows - u.rows)
        c0 = self.rng.randint(0, t.cols - u.cols)
        v = self.write_in_place(t, t.etype, t.rows, t.cols, t.dyn)
        self.lines.append(
            f"    {v.name} = flow.tensor.update {u.name}, {t.name}[{self.const(r0)}, {self.const(c0)}] : "
            f"{u.type()} -> {t.name} as {t.typed()}")

    def op_reshape(self):
        s = self.pick()
        if not s:
            return
        if s.dyn:
            rows, cols = s.rows, s.cols
        else:
            total = s.rows * s.cols
            cols = self.rng.choice([d for d in range(1, 9) if total % d == 0])
            rows = total // cols
        v = self.new_value(s.etype, rows, cols, s.dyn, storage=s.storage)
        self.lines.append(f"    {v.name} = flow.tensor.reshape {s.name} : {s.typed()} -> {v.typed()}")

    def op_dispatch(self):
        operands = []
        for _ in range(self.rng.randint(0, 3)):
            s = self.pick(lambda v: v not in operands)
            if s:
                operands.append(s)
        tied = None
        writable = [o for o in operands if self.writable(o)]
        if writable and self.rng.random() < 0.3:
            tied = self.rng.choice(writable)
        args = [o.name for o in operands]
        types = [o.typed() for o in operands]
        bindings = []
        read_slots = iter(["in0", "in1", "in2"])
        for i, o in enumerate(operands):
            slot = "io0" if o is tied else next(read_slots)
            bindings.append(f'#hal.ex.operand_buffer<"{slot}", {i} : index>')
        # Push constants: from index or i32 fragment arguments.
        scalars = self.index_args + self.i32_args
        for ordinal in range(2):
            if scalars and self.rng.random() < 0.4:
                scalar, stype = self.rng.choice(scalars)
                args.append(scalar)
                types.append(stype)
                bindings.append(f"#hal.ex.push_constant<{ordinal} : index, {len(args) - 1} : index>")
        results, result_types, new_values = [], [], []
        if tied is not None:
            result_types.append(tied.name)
            new_values.append(None)  # made after the operands are read
        untied = self.rng.randint(0 if tied is not None else 1, 2)
        for r in range(untied):
            rows, cols, dyn = self.random_shape()
            rv = self.new_value(self.rng.choice(ELEMENT_TYPES), rows, cols, dyn)
            index = len(new_values)
            bindings.append(f'#hal.ex.result_buffer<"out{r}", {index} : index>')
            result_types.append(rv.typed())
            new_values.append(rv)
        if tied is not None:
            new_values[0] = self.write_in_place(tied, tied.etype, tied.rows,
                                                tied.cols, tied.dyn)
        # Workload: 1-4 values, constants or index arguments.
        arity = self.rng.randint(1, 4)
        workload = []
        for _ in range(arity):
            if self.dim_args and self.rng.random() < 0.3:
                workload.append(self.rng.choice(self.index_args)[0])
            else:
                workload.append(self.const(self.rng.randint(1, 9)))
        ex = self.rng.choice(["exA", "exB", "exC"])
        names = ", ".join(v.name for v in new_values)
        rtypes = ", ".join(result_types)
        if len(result_types) > 1:
            rtypes = f"({rtypes})"
        self.lines.append(
            f"    {names} = flow.dispatch @{ex}::@w{arity}[{', '.join(workload)}]({', '.join(args)}) "
            f"{{hal.bindings = [{', '.join(bindings)}]}} : ({', '.join(types)}) -> {rtypes}")

    # --- view patterns ------------------------------------------------------
    #
    # At the flow level a slice or a clone is a copy; a lowering may instead
    # make it a view of its source's storage when no in-place write reaches
    # either storage while both are live. Each pattern below makes one such
    # situation, sound or not to share, and observes the bytes that a wrong
    # view would change: an observer dispatch reads them right away and its
    # result (or the value itself) is returned.

    def emit_splat(self, etype, rows, cols):
        literal = "0.5" if etype.startswith("f") else str(self.rng.randint(1, 9))
        v = self.new_value(etype, rows, cols, None)
        self.lines.append(f"    {v.name} = flow.tensor.splat {self.const(literal, etype)} : {v.typed()}")
        return v

    def emit_rows(self, s):
        """A contiguous slice of whole rows of `s`; its start is an index
        argument (a value hal-exec knows) when one fits, else a constant."""
        starts = [(name, value) for name, value in self.index_values.items()
                  if value < s.rows]
        if starts and self.rng.random() < 0.4:
            start, r0 = self.rng.choice(starts)
        else:
            r0 = self.rng.randrange(s.rows)
            start = self.const(r0)
        nr = self.rng.randint(1, s.rows - r0)
        v = self.new_value(s.etype, nr, s.cols, None)
        self.lines.append(
            f"    {v.name} = flow.tensor.slice {s.name}[{start}, {self.const(0)} for "
            f"{self.const(nr)}, {self.const(s.cols)}] : {s.typed()} -> {v.type()}")
        return v

    def emit_clone(self, s):
        v = self.new_value(s.etype, s.rows, s.cols, s.dyn)
        self.lines.append(f"    {v.name} = flow.tensor.clone {s.name} : {s.typed()}")
        return v

    def emit_view(self, x):
        """A value that a lowering could make a view of `x`'s storage: a
        contiguous slice, a slice of a slice, a clone, or a clone of a
        reshape of `x`."""
        kind = self.rng.choice(["rows", "rows", "rows_of_rows", "clone",
                                "clone_of_reshape"])
        if kind == "rows":
            return self.emit_rows(x)
        if kind == "rows_of_rows":
            return self.emit_rows(self.emit_rows(x))
        if kind == "clone":
            return self.emit_clone(x)
        if x.dyn:
            rows, cols = x.rows, x.cols
        else:
            total = x.rows * x.cols
            cols = self.rng.choice([d for d in range(1, 9) if total % d == 0])
            rows = total // cols
        r = self.new_value(x.etype, rows, cols, x.dyn, storage=x.storage)
        self.lines.append(f"    {r.name} = flow.tensor.reshape {x.name} : {x.typed()} -> {r.typed()}")
        return self.emit_clone(r)

    def emit_write(self, t, read=None):
        """Writes `t`'s storage in place: a tied dispatch (also reading
        `read`, if given) or an update (from `read`, if it fits)."""
        fits = lambda v: (v.etype == t.etype and v.dyn is None and
                          v.rows <= t.rows and v.cols == t.cols and
                          v.storage != t.storage)
        if self.rng.random() < 0.5:
            u = read if read and fits(read) else self.pick(fits)
            if not u:
                u = self.emit_splat(t.etype, self.rng.randint(1, t.rows), t.cols)
            r0 = self.rng.randint(0, t.rows - u.rows)
            v = self.write_in_place(t, t.etype, t.rows, t.cols, t.dyn)
            self.lines.append(
                f"    {v.name} = flow.tensor.update {u.name}, {t.name}[{self.const(r0)}, {self.const(0)}] : "
                f"{u.type()} -> {t.name} as {t.typed()}")
            return v
        operands = [t] + ([read] if read else [])
        bindings = ['#hal.ex.operand_buffer<"io0", 0 : index>']
        if read:
            bindings.append('#hal.ex.operand_buffer<"in0", 1 : index>')
        v = self.write_in_place(t, t.etype, t.rows, t.cols, t.dyn)
        ex = self.rng.choice(["exA", "exB", "exC"])
        self.lines.append(
            f"    {v.name} = flow.dispatch @{ex}::@w1[{self.const(self.rng.randint(1, 9))}]"
            f"({', '.join(o.name for o in operands)}) {{hal.bindings = [{', '.join(bindings)}]}} : "
            f"({', '.join(o.typed() for o in operands)}) -> {t.name}")
        return v

    def observe(self, values):
        """A dispatch reading `values` now; its result is returned."""
        rows, cols, dyn = self.random_shape()
        r = self.new_value(self.rng.choice(ELEMENT_TYPES), rows, cols, dyn)
        slots = [f'#hal.ex.operand_buffer<"in{i}", {i} : index>' for i in range(len(values))]
        slots.append('#hal.ex.result_buffer<"out0", 0 : index>')
        ex = self.rng.choice(["exA", "exB", "exC"])
        self.lines.append(
            f"    {r.name} = flow.dispatch @{ex}::@w1[{self.const(1)}]({', '.join(v.name for v in values)}) "
            f"{{hal.bindings = [{', '.join(slots)}]}} : ({', '.join(v.typed() for v in values)}) -> {r.typed()}")
        self.observed.append(r)

    def kill(self, value):
        """Ends the life of `value`'s storage (no later use of any alias)."""
        self.generation[value.storage] = self.generation.get(value.storage, 0) + 1

    def returnable(self, v):
        return v.storage not in self.padded_constants

    def op_views(self):
        pattern = self.rng.choice([self.view_then_source_written,
                                   self.view_written_source_read,
                                   self.clone_returned_source_dies,
                                   self.clone_returned_with_source,
                                   self.constant_rows])
        pattern()

    def view_then_source_written(self):
        """Unsound to share: the view must keep the old bytes."""
        x = self.pick(self.writable)
        if not x:
            return
        view = self.emit_view(x)
        # Sometimes the write reads the view too: a shared view would make
        # the command overlap itself.
        x = self.emit_write(x, view if self.rng.random() < 0.3 else None)
        self.observe([view] + ([x] if self.rng.random() < 0.5 else []))

    def view_written_source_read(self):
        """Unsound to share: writing the view would change its source, and
        never allowed into a fragment input or a constant's storage."""
        outside = self.input_storages | self.constant_storages
        x = None
        if self.rng.random() < 0.5:
            x = self.pick(lambda v: v.storage in outside)
        x = x or self.pick()
        if not x:
            return
        view = self.emit_write(self.emit_view(x))
        self.observe([x, view] if self.rng.random() < 0.5 else [view, x])

    def clone_returned_source_dies(self):
        """Sound to share when the source is a transient: the clone is the
        only use of the storage left, and it is returned."""
        x = self.pick(lambda v: v.storage not in self.input_storages and
                      v.storage not in self.constant_storages)
        if not x or self.rng.random() < 0.2:
            x = self.pick(self.returnable)
        if not x:
            return
        clone = self.emit_clone(x)
        self.kill(x)
        self.returned.append(clone)

    def clone_returned_with_source(self):
        """Unsound to share: two results, one storage; sometimes the source
        is also written in place before it is returned."""
        x = self.pick(lambda v: self.returnable(v) and self.writable(v))
        if not x:
            return
        clone = self.emit_clone(x)
        if self.rng.random() < 0.5:
            x = self.emit_write(x)
        self.returned += [clone, x]

    def constant_rows(self):
        """Sound to share: rows (or rows of rows) of a constant, only read;
        sometimes returned (a result never aliases the pool)."""
        k = self.pick(lambda v: v.storage in self.constant_storages and v.dyn is None)
        if not k or self.rng.random() < 0.5:
            self.op_constant()
            k = self.values[-1]
        view = self.emit_rows(k)
        if self.rng.random() < 0.3:
            view = self.emit_rows(view)
        if self.rng.random() < 0.3:
            self.returned.append(view)
        else:
            self.observe([view])

    def results(self):
        """The values the patterns return: each returned value and observer
        result, or the last live value of its storage if one is."""
        live = self.live()
        out = []
        for value in self.returned + self.observed:
            if value not in live:
                last = [v for v in live if v.storage == value.storage]
                value = last[-1] if last else None
            if value and value not in out:
                out.append(value)
        return out

    def body(self):
        kinds = [(self.op_dispatch, 5), (self.op_splat, 2), (self.op_clone, 1),
                 (self.op_slice, 2), (self.op_update, 2), (self.op_reshape, 1),
                 (self.op_constant, 1), (self.op_views, self.view_weight)]
        ops, weights = zip(*kinds)
        count = self.rng.randint(2, self.max_ops)
        while len([l for l in self.lines if " flow." in l or "hal.constant" in l]) < count:
            self.rng.choices(ops, weights)[0]()


def gen_function(rng, fid, max_ops, constant_writes, view_weight,
                 wide_rng=None):
    """One function: arguments, one fragment, return."""
    outer = []
    frag = Fragment(rng, fid, outer, max_ops, wide_rng)
    frag.constant_writes = constant_writes
    frag.view_weight = view_weight
    frag.dim_args = []
    ndims = rng.choice([0, 0, 1, 2])
    tensors = []
    for t in range(rng.randint(0, 3)):
        etype = rng.choice(ELEMENT_TYPES)
        cols = rng.choice(COLUMNS)
        dim = rng.randrange(ndims) if ndims > 0 and rng.random() < 0.5 else None
        tensors.append((etype, cols, dim))
    # Every dim argument spells a dim of some tensor argument, so that
    # hal-exec gives it DYNAMIC_EXTENT.
    for d in range(ndims):
        if not any(dim == d for (_, _, dim) in tensors):
            tensors.append((rng.choice(ELEMENT_TYPES), rng.choice(COLUMNS), d))
    for d in range(ndims):
        outer.append((f"%d{d}", "index"))
        frag.dim_args.append(f"%id{d}")
    n_index = rng.choice([0, 1])
    n_i32 = rng.choice([0, 1])
    # Outer arguments: tensors first, then dims, index and i32 scalars.
    func_args, operands, operand_types, block_args = [], [], [], []
    tensor_values = []
    for i, (etype, cols, d) in enumerate(tensors):
        dyn = d is not None
        rows = DYNAMIC_EXTENT if dyn else rng.randint(1, 6)
        outer_type = f"tensor<{'?' if dyn else rows}x{cols}x{etype}>"
        func_args.append(f"%t{i}: {outer_type}")
        operands.append(f"%t{i}")
        operand_types.append(outer_type + (f"{{%d{d}}}" if dyn else ""))
        block_args.append(f"%a{i}: {outer_type}")
        v = Value(f"%a{i}", etype, rows, cols, f"%id{d}" if dyn else None, f"%a{i}")
        tensor_values.append(v)
    for d in range(ndims):
        func_args.append(f"%d{d}: index")
        operands.append(f"%d{d}")
        operand_types.append("index")
        block_args.append(f"%id{d}: index")
        frag.index_args.append((f"%id{d}", "index"))
        frag.index_values[f"%id{d}"] = DYNAMIC_EXTENT
    for i in range(n_index):
        func_args.append(f"%n{i}: index")
        operands.append(f"%n{i}")
        operand_types.append("index")
        block_args.append(f"%in{i}: index")
        frag.index_args.append((f"%in{i}", "index"))
        frag.index_values[f"%in{i}"] = FREE_INDEX
    for i in range(n_i32):
        func_args.append(f"%s{i}: i32")
        operands.append(f"%s{i}")
        operand_types.append("i32")
        block_args.append(f"%is{i}: i32")
        frag.i32_args.append((f"%is{i}", "i32"))
    frag.values.extend(tensor_values)
    frag.input_storages = {v.storage for v in tensor_values}
    frag.body()

    # Results: 1-3 live values, sometimes an input; a result aliasing input
    # i may be tied to it.
    live = [v for v in frag.live() if v.storage not in frag.padded_constants]
    if not live:
        frag.op_splat()
        live = frag.live()
    chosen = frag.results()
    for _ in range(rng.randint(1, 3)):
        v = rng.choice(live[-6:] if rng.random() < 0.7 else live)
        if v not in chosen:
            chosen.append(v)
    result_outer, result_inner = [], []
    dim_outer = {f"%id{d}": f"%d{d}" for d in range(ndims)}
    for v in chosen:
        outer_dims = f"{{{dim_outer[v.dyn]}}}" if v.dyn else ""
        tie = None
        for i, tv in enumerate(tensor_values):
            if v.storage == tv.storage and tv.type() == v.type() and rng.random() < 0.7:
                tie = i
        if tie is not None and v is not tensor_values[tie]:
            result_outer.append(f"%t{tie}" if not v.dyn else f"%t{tie} as {v.type()}{outer_dims}")
        else:
            result_outer.append(v.type() + outer_dims)
        result_inner.append(v.type())
    outer_results = ", ".join(f"tensor<{'?' if v.dyn else v.rows}x{v.cols}x{v.etype}>" for v in chosen)
    lines = [f"func.func @f{fid}({', '.join(func_args)}) -> ({outer_results}) {{"]
    rets = ", ".join(f"%r#{i}" for i in range(len(chosen))) if len(chosen) > 1 else "%r"
    res = f"%r:{len(chosen)}" if len(chosen) > 1 else "%r"
    lines.append(
        f"  {res} = flow.ex.stream.fragment({', '.join(operands)}) : ({', '.join(operand_types)}) -> "
        f"({', '.join(result_outer)}) =")
    lines.append(f"      ({', '.join(block_args)}) -> ({', '.join(result_inner)}) {{")
    lines.extend(frag.lines)
    lines.append(f"    flow.return {', '.join(v.name for v in chosen)} : {', '.join(result_inner)}")
    lines.append("  }")
    lines.append(f"  return {rets} : {outer_results}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--max-ops", type=int, default=60)
    parser.add_argument("--no-constant-writes", dest="constant_writes",
                        action="store_false",
                        help="never write constants in place")
    parser.add_argument("--views", action="store_true",
                        help="make the view patterns most of the mix")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    wide_rng = random.Random(f"wide splats {args.seed}")
    views = " --views" if args.views else ""
    view_weight = 10 if args.views else 2
    out = [f"// Generated by utils/gen_fragments.py --seed={args.seed} --count={args.count}{views}\n",
           "util.global private @pool : !hal.buffer\n", executables()]
    for fid in range(args.count):
        before = rng.getstate()
        function = gen_function(rng, fid, args.max_ops, args.constant_writes,
                                view_weight)
        if wide_rng.random() < WIDE_FUNCTION_CHANCE:
            after = rng.getstate()
            rng.setstate(before)
            function = gen_function(rng, fid, args.max_ops,
                                    args.constant_writes, view_weight, wide_rng)
            rng.setstate(after)
        out.append(function)
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
