#!/usr/bin/env python3
# ===- gen_cow_fragments.py - Programs that need copy on write -*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Writes random programs whose value semantics need copies, from --seed.

gen_fragments.py keeps every value dead once its storage is written in
place, so that storage and value semantics agree without any copy. This
generator makes the opposite on purpose, one class per function (random
element types, shapes, static or dynamic rows, which op writes, which op
reads), each observed by a result or by the caller's inputs:
  - tied:     a value written in place (tied dispatch or update) and read
              afterwards: directly, through a reshape taken before the
              write, or as a second operand of the writing dispatch;
  - untied:   a fragment operand written in place while no result is tied
              to it (the caller keeps the operand);
  - after:    a fragment tied to a function argument, the argument read
              again by a later fragment or returned;
  - call:     a callee whose fragment writes its argument (tied or not),
              the caller reading the argument after the call;
  - twice:    one tensor passed as two operands, one written, the other
              read afterwards;
  - written:  a kernel that writes an operand through a writable binding
              while no result is tied to it (the operand read afterwards,
              or kept by the caller), sometimes the same value also passed
              at a read-only position;
  - fresh:    a fresh value returned tied to an operand that a later wave
              still reads (scheduling must keep the order);
  - clone:    a clone of a donated operand written in place and returned
              tied (a copy onto itself if lowered naively);
  - concat:   pieces written into a target made after them;
  - global:   a global updated by a tied fragment and stored back (in place
              when nothing reads the global in between), sometimes read
              again before the store;
  - pipeline: (only with --classes=pipeline) 2-6 fragments whose results flow into later ones (chains and
              independent branches joined later), with host loads of
              earlier results between them whose values the next fragment
              splats: submission=async must order every dependent pair by
              a fence and await exactly before each load and the return;
  - argmove:  (only with --classes=argmove) a private callee that clones
              its argument and writes the clone (sometimes twice in a
              chain, sometimes reading the argument again in the fragment
              or in a later one), called once or twice by a public caller
              passing a fresh value it never uses again, one it keeps
              (returns), its own argument, or one value to both calls:
              argument moves must leave every kept value intact;
  - peer:     (only with --classes=peer) the other call and emplacement
              patterns of IREE's copy tests: a callee reading a clone of
              its argument only (read-only clone across a call), a callee
              writing its argument through a tied chain (by reference), a
              callee updating a result into an output its caller provides,
              and a dispatch result, made from a value of the same
              fragment, consumed only by an update (emplacement);
  - shared:   (only with --classes=shared) a callee returning one value
              at two results, or a value and its clone (read-only clones
              share storage), or its argument and a clone of it, and a
              caller writing one result in place and returning the other:
              callers must know which results share storage;
  - mayalias: (only with --classes=mayalias) a dispatch reading and
              writing one value through two MayAlias bindings: a fresh
              value, an operand the caller keeps, a value also returned
              (still needed), or a private callee's clone of its argument
              (an argument move);
  - program:  (only with --classes=program) a pipeline over a module: a
              callee with its own fragments (sometimes a host load between
              them, a global read or stored through an address) called
              between the caller's fragments, its results flowing on; a
              global read and written directly (util.global.load/store,
              sometimes written in place by a tied fragment) and one read
              and written through util.global.address and the indirect
              ops; the latter's initial value computed by a fragment in a
              util.initializer (sometimes from the first global); host
              loads of results and of loaded globals between fragments;
              both globals loaded again and returned at the end.

  gen_cow_fragments.py --seed=1 --count=60 > cow.mlir
  hal-exec cow.mlir --check-lowering --orders=4
"""

import argparse
import random
import sys

from fragments.executables import device_targets, executables

ELEMENT_TYPES = ["f32", "i32", "f16", "i8", "i16"]
COLUMNS = [1, 2, 4, 8]
DYNAMIC_EXTENT = 3  # hal-exec's value for a dynamic dim
CLASSES = ["tied", "untied", "after", "call", "twice", "fresh", "clone",
           "concat", "global", "written"]
# Classes only --classes names, so that the default sets stay as they were.
EXTRA_CLASSES = ["pipeline", "program", "argmove", "peer", "shared", "mayalias"]


class Tensor:
    def __init__(self, etype, rows, cols, dynamic):
        self.etype, self.rows, self.cols, self.dynamic = etype, rows, cols, dynamic

    def type(self):
        rows = "?" if self.dynamic else self.rows
        return f"tensor<{rows}x{self.cols}x{self.etype}>"

    def typed(self, dim):
        return self.type() + (f"{{{dim}}}" if self.dynamic else "")


class Body:
    """The lines of one fragment body, with fresh names and constants."""

    def __init__(self, rng, dim):
        self.rng, self.dim, self.lines, self.next, self.consts = rng, dim, [], 0, {}

    def name(self):
        self.next += 1
        return f"%v{self.next}"

    def const(self, value, type_="index"):
        key = (value, type_)
        if key not in self.consts:
            self.consts[key] = f"%k{len(self.consts)}"
            self.lines.append(f"    {self.consts[key]} = arith.constant {value} : {type_}")
        return self.consts[key]

    def splat(self, tensor, scalar=None):
        if scalar is None:
            literal = "1.5" if tensor.etype.startswith("f") else str(self.rng.randint(1, 99))
            scalar = self.const(literal, tensor.etype)
        v = self.name()
        self.lines.append(f"    {v} = flow.tensor.splat {scalar} : {tensor.typed(self.dim)}")
        return v

    def dispatch(self, reads, tensor, tied=None, second=None):
        """A dispatch reading `reads`, writing `tied` in place (binding io0)
        or a new `tensor`; `second` is read as well (through in2)."""
        operands, bindings, types = [], [], []
        for slot, value in zip(["in0", "in1"], reads):
            bindings.append(f'#hal.ex.operand_buffer<"{slot}", {len(operands)} : index>')
            operands.append(value)
            types.append(tensor.typed(self.dim))
        if second is not None:
            bindings.append(f'#hal.ex.operand_buffer<"in2", {len(operands)} : index>')
            operands.append(second)
            types.append(tensor.typed(self.dim))
        if tied is not None:
            bindings.append(f'#hal.ex.operand_buffer<"io0", {len(operands)} : index>')
            operands.append(tied)
            types.append(tensor.typed(self.dim))
            result = tied
        else:
            bindings.append('#hal.ex.result_buffer<"out0", 0 : index>')
            result = tensor.typed(self.dim)
        v = self.name()
        workload = self.const(self.rng.randint(1, 9))
        self.lines.append(
            f"    {v} = flow.dispatch @exA::@w1[{workload}]({', '.join(operands)}) "
            f"{{hal.bindings = [{', '.join(bindings)}]}} : ({', '.join(types)}) -> {result}")
        return v

    def untied_write(self, tensor, value, also_read=False):
        """A dispatch whose kernel writes `value` through io0 without a
        result tied to it, returning a new `tensor` through out0; with
        `also_read`, `value` is passed again through in2."""
        operands, bindings = [], []
        if also_read:
            bindings.append('#hal.ex.operand_buffer<"in2", 0 : index>')
            operands.append(value)
        bindings.append(f'#hal.ex.operand_buffer<"io0", {len(operands)} : index>')
        operands.append(value)
        bindings.append('#hal.ex.result_buffer<"out0", 0 : index>')
        types = [tensor.typed(self.dim)] * len(operands)
        v = self.name()
        workload = self.const(self.rng.randint(1, 9))
        self.lines.append(
            f"    {v} = flow.dispatch @exA::@w1[{workload}]({', '.join(operands)}) "
            f"{{hal.bindings = [{', '.join(bindings)}]}} : ({', '.join(types)}) -> {tensor.typed(self.dim)}")
        return v

    def alias_write(self, tensor, target):
        """A dispatch writing `target` in place through io1a while reading it
        through in3a: both bindings MayAlias, so no clone is needed for it."""
        v = self.name()
        workload = self.const(self.rng.randint(1, 9))
        typed = tensor.typed(self.dim)
        self.lines.append(
            f"    {v} = flow.dispatch @exA::@w1[{workload}]({target}, {target}) "
            f"{{hal.bindings = [#hal.ex.operand_buffer<\"io1a\", 0 : index>, "
            f"#hal.ex.operand_buffer<\"in3a\", 1 : index>]}} : ({typed}, {typed}) -> {target}")
        return v

    def update(self, piece_tensor, piece, target_tensor, target, row):
        v = self.name()
        self.lines.append(
            f"    {v} = flow.tensor.update {piece}, {target}[{self.const(row)}, {self.const(0)}] : "
            f"{piece_tensor.typed(self.dim)} -> {target} as {target_tensor.typed(self.dim)}")
        return v

    def reshape(self, tensor, value):
        v = self.name()
        self.lines.append(f"    {v} = flow.tensor.reshape {value} : {tensor.typed(self.dim)} -> {tensor.typed(self.dim)}")
        return v

    def clone(self, tensor, value):
        v = self.name()
        self.lines.append(f"    {v} = flow.tensor.clone {value} : {tensor.typed(self.dim)}")
        return v

    def write(self, tensor, target, second=None):
        """An in-place write of `target`: a tied dispatch or an update."""
        if second is not None or tensor.dynamic or self.rng.random() < 0.6:
            return self.dispatch([], tensor, tied=target, second=second)
        piece = Tensor(tensor.etype, 1, tensor.cols, False)
        return self.update(piece, self.splat(piece), tensor, target,
                           self.rng.randrange(tensor.rows))


class Function:
    """One function: tensor arguments of one type, fragments, a return."""

    def __init__(self, rng, fid, tensor, num_args=1):
        self.rng, self.fid, self.tensor = rng, fid, tensor
        self.num_args = num_args
        self.lines, self.next = [], 0
        self.prefix = []

    def outer_dim(self):
        return "%d" if self.tensor.dynamic else None

    def fragment(self, operands, results, build, scalars=()):
        """A fragment over tensor `operands` (outer names); `results` lists
        for each result the operand index it is tied to, or None; `build`
        fills the body given the block argument names and returns the
        returned inner values. `scalars` (outer names of element-typed
        scalars) follow the tensors; their block arguments are the last
        ones `build` gets."""
        t = self.tensor
        dim = "%id" if t.dynamic else None
        body = Body(self.rng, dim)
        block_args = [f"%a{i}" for i in range(len(operands))]
        scalar_args = [f"%s{i}" for i in range(len(scalars))]
        returned = build(body, block_args + scalar_args)
        outer_ops = list(operands) + list(scalars) + (["%d"] if t.dynamic else [])
        outer_types = ([t.typed("%d")] * len(operands) + [t.etype] * len(scalars) +
                       (["index"] if t.dynamic else []))
        inner_args = ([f"{a}: {t.type()}" for a in block_args] +
                      [f"{a}: {t.etype}" for a in scalar_args] +
                      (["%id: index"] if t.dynamic else []))
        result_types = []
        for tie in results:
            if tie is None:
                result_types.append(t.typed("%d"))
            else:
                result_types.append(operands[tie] if not t.dynamic else f"{operands[tie]} as {t.typed('%d')}")
        self.next += 1
        name = f"%f{self.next}"
        lhs = f"{name}:{len(results)}" if len(results) > 1 else name
        self.lines.append(
            f"  {lhs} = flow.ex.stream.fragment({', '.join(outer_ops)}) : ({', '.join(outer_types)}) -> "
            f"({', '.join(result_types)}) =")
        self.lines.append(f"      ({', '.join(inner_args)}) -> ({', '.join([t.type()] * len(results))}) {{")
        self.lines.extend(body.lines)
        self.lines.append(f"    flow.return {', '.join(returned)} : {', '.join([t.type()] * len(returned))}")
        self.lines.append("  }")
        if len(results) == 1:
            return [name]
        return [f"{name}#{i}" for i in range(len(results))]

    def text(self, name, returns, private=False):
        t = self.tensor
        args = [f"%t{i}: {t.type()}" for i in range(self.num_args)]
        if t.dynamic:
            args.append("%d: index")
        visibility = "private " if private else ""
        head = f"func.func {visibility}@{name}({', '.join(args)}) -> ({', '.join([t.type()] * len(returns))}) {{"
        return "\n".join([head] + self.lines +
                         [f"  return {', '.join(returns)} : {', '.join([t.type()] * len(returns))}", "}"]) + "\n"


def gen_class(rng, fid, kind):
    """Returns the text of one function (and any callee) of class `kind`."""
    etype = rng.choice(ELEMENT_TYPES)
    dynamic = kind not in ("concat", "global", "program") and rng.random() < 0.3
    rows = DYNAMIC_EXTENT if dynamic else rng.randint(1, 6)
    t = Tensor(etype, rows, rng.choice(COLUMNS), dynamic)
    f = Function(rng, fid, t, num_args=1)
    tie_result = rng.random() < 0.5

    if kind == "tied":
        def build(b, args):
            source = rng.choice(["splat", "arg", "dispatch"])
            v = {"splat": lambda: b.splat(t), "arg": lambda: args[0],
                 "dispatch": lambda: b.dispatch([args[0]], t)}[source]()
            how = rng.choice(["direct", "reshape", "second"])
            alias = b.reshape(t, v) if how == "reshape" else v
            if how == "second":
                w = b.write(t, v, second=v)
                r = b.dispatch([w], t)
            else:
                w = b.write(t, v)
                r = b.dispatch([alias, w], t)
            return [w, r]
        returns = f.fragment(["%t0"], [0 if tie_result else None, None], build)
        return f.text(f"f{fid}", returns)

    if kind == "untied":
        def build(b, args):
            w = b.write(t, args[0])
            return [b.dispatch([w], t)] if rng.random() < 0.5 else [w]
        returns = f.fragment(["%t0"], [None], build)
        return f.text(f"f{fid}", returns)

    if kind == "after":
        first = f.fragment(["%t0"], [0], lambda b, args: [b.write(t, args[0])])
        if rng.random() < 0.5:
            later = f.fragment(["%t0"], [None], lambda b, args: [b.dispatch([args[0]], t)])
            return f.text(f"f{fid}", first + later)
        return f.text(f"f{fid}", first + ["%t0"])

    if kind == "call":
        callee = Function(rng, fid, t, num_args=1)
        returns = callee.fragment(["%t0"], [0 if tie_result else None],
                                  lambda b, args: [b.write(t, args[0])])
        text = callee.text(f"f{fid}_callee", returns, private=True)
        dims = ", %d" if t.dynamic else ""
        types = f"{t.type()}" + (", index" if t.dynamic else "")
        f.lines.append(f"  %c = call @f{fid}_callee(%t0{dims}) : ({types}) -> {t.type()}")
        later = f.fragment(["%t0"], [None], lambda b, args: [b.dispatch([args[0]], t)])
        return text + f.text(f"f{fid}", ["%c"] + later)

    if kind == "twice":
        def build(b, args):
            w = b.write(t, args[0])
            return [w, b.dispatch([args[1]], t)]
        returns = f.fragment(["%t0", "%t0"], [None, None], build)
        return f.text(f"f{fid}", returns)

    if kind == "written":
        read_after = rng.random() < 0.5

        def build(b, args):
            source = args[0] if rng.random() < 0.5 else b.dispatch([args[0]], t)
            r = b.untied_write(t, source, also_read=rng.random() < 0.5)
            return [r, b.dispatch([source], t)] if read_after else [r]
        returns = f.fragment(["%t0"], [None] * (2 if read_after else 1), build)
        return f.text(f"f{fid}", returns)

    if kind == "fresh":
        def build(b, args):
            p = b.dispatch([args[0]], t)
            q = b.dispatch([p, args[0]], t)
            y = b.dispatch([], t)
            return [y, q]
        returns = f.fragment(["%t0"], [0, None], build)
        return f.text(f"f{fid}", returns)

    if kind == "clone":
        def build(b, args):
            c = b.clone(t, args[0])
            return [b.write(t, c)]
        returns = f.fragment(["%t0"], [0], build)
        return f.text(f"f{fid}", returns)

    if kind == "global":
        literal = "1.5" if t.etype.startswith("f") else "3"
        decl = f"util.global private mutable @g{fid} = dense<{literal}> : {t.type()}\n"
        f.lines.append(f"  %g = util.global.load @g{fid} : {t.type()}")
        read_old = rng.random() < 0.5
        if read_old:
            f.lines.append(f"  %old = util.global.load @g{fid} : {t.type()}")
        new = f.fragment(["%g"], [0], lambda b, args: [b.write(t, args[0])])
        f.lines.append(f"  util.global.store {new[0]}, @g{fid} : {t.type()}")
        return decl + f.text(f"f{fid}", new + (["%old"] if read_old else []))

    if kind == "pipeline":
        return gen_pipeline(rng, fid, t, f)

    if kind == "program":
        return gen_program(rng, fid, t, f)

    if kind == "argmove":
        return gen_argmove(rng, fid, t, f)

    if kind == "peer":
        return gen_peer(rng, fid, t, f)

    if kind == "shared":
        return gen_shared(rng, fid, t, f)

    if kind == "mayalias":
        return gen_mayalias(rng, fid, t, f)

    # concat: pieces first, then the target, then the updates.
    def build(b, args):
        piece = Tensor(t.etype, 1, t.cols, False)
        pieces = [b.dispatch([], piece) if rng.random() < 0.5 else b.splat(piece)
                  for _ in range(t.rows)]
        target = b.splat(t)
        for row, p in enumerate(pieces):
            target = b.update(piece, p, t, target, row)
        return [target]
    returns = f.fragment(["%t0"], [None], build)
    return f.text(f"f{fid}", returns)


def gen_argmove(rng, fid, t, f):
    """A private callee writing a clone of its argument, and its caller."""
    callee = Function(rng, fid, t, num_args=1)
    reread = rng.choice(["none", "none", "fragment", "later"])

    def build(b, args):
        c = b.write(t, b.clone(t, args[0]))
        if rng.random() < 0.3:
            c = b.write(t, b.clone(t, c))
        if reread == "fragment":
            return [c, b.dispatch([args[0]], t)]
        return [c]
    returns = callee.fragment(["%t0"], [None] * (2 if reread == "fragment" else 1), build)
    if reread == "later":
        returns += callee.fragment(["%t0"], [None], lambda b, args: [b.dispatch([args[0]], t)])
    text = callee.text(f"f{fid}_callee", returns, private=True)

    dims = ", %d" if t.dynamic else ""
    types = t.type() + (", index" if t.dynamic else "")
    results = ", ".join([t.type()] * len(returns))
    fresh = None
    caller_returns = []
    for call in range(rng.randint(1, 2)):
        how = rng.choice(["dead", "kept", "argument", "shared"])
        if how == "argument":
            operand = "%t0"
        elif how == "shared" and fresh is not None:
            operand = fresh
        else:
            operand = f.fragment(["%t0"], [None], lambda b, args: [
                b.dispatch([args[0]], t) if rng.random() < 0.5 else b.splat(t)])[0]
            fresh = operand
            if how == "kept":
                caller_returns.append(operand)
        name = f"%c{call}"
        lhs = f"{name}:{len(returns)}" if len(returns) > 1 else name
        f.lines.append(f"  {lhs} = call @f{fid}_callee({operand}{dims}) : ({types}) -> ({results})")
        caller_returns += [f"{name}#{i}" for i in range(len(returns))] if len(returns) > 1 else [name]
    if t.dynamic:
        # hal-exec gives %d its dynamic extent only where it spells a dim.
        caller_returns += f.fragment(["%t0"], [None], lambda b, args: [b.dispatch([args[0]], t)])
    return text + f.text(f"f{fid}", caller_returns)


def write_call(fid, t, f, callee, returns, private, build):
    """Writes the callee @f{fid}_callee (returning `returns`) and, into its
    caller `f`, a fragment over %t0 that `build` fills for the operand, then
    a call of the callee on it, whose results are %c (or %c#i for several).
    Returns the callee's text, the operand and the call's results. It draws
    only what `build` draws, so callers keep their own draws in order."""
    text = callee.text(f"f{fid}_callee", returns, private=private)
    dims = ", %d" if t.dynamic else ""
    types = t.type() + (", index" if t.dynamic else "")
    operand = f.fragment(["%t0"], [None], build)[0]
    n = len(returns)
    calls = [f"%c#{i}" for i in range(n)] if n > 1 else ["%c"]
    lhs = f"%c:{n}" if n > 1 else "%c"
    f.lines.append(f"  {lhs} = call @f{fid}_callee({operand}{dims}) : ({types}) -> "
                   f"({', '.join([t.type()] * n)})")
    return text, operand, calls


def gen_peer(rng, fid, t, f):
    """One of the peer suite's call and emplacement patterns."""
    pattern = rng.choice(["readonly", "chain", "output", "emplace"])
    if pattern == "emplace":
        def build(b, args):
            piece = Tensor(t.etype, 1, t.cols, False)
            source = b.splat(piece)
            target = b.splat(t) if rng.random() < 0.5 else b.clone(t, args[0])
            for row in rng.sample(range(t.rows), min(t.rows, rng.randint(1, 2))):
                target = b.update(piece, b.dispatch([source], piece), t, target, row)
            return [target]
        returns = f.fragment(["%t0"], [None], build)
        return f.text(f"f{fid}", returns)

    callee = Function(rng, fid, t, num_args=1)
    if pattern == "readonly":
        returns = callee.fragment(["%t0"], [None], lambda b, args: [
            b.dispatch([b.clone(t, args[0])], t)])
    elif pattern == "chain":
        def chain(b, args):
            w = b.write(t, args[0])
            return [b.write(t, w) if rng.random() < 0.7 else w]
        returns = callee.fragment(["%t0"], [0], chain)
    else:
        def output(b, args):
            piece = Tensor(t.etype, 1, t.cols, False)
            return [b.update(piece, b.dispatch([], piece), t, args[0],
                             rng.randrange(t.rows))]
        returns = callee.fragment(["%t0"], [0], output)
    # Both draws come before the operand fragment's, as they always have.
    private = rng.random() < 0.7
    kept = rng.random() < 0.5
    text, operand, calls = write_call(fid, t, f, callee, returns, private, lambda b, args: [
        b.splat(t) if rng.random() < 0.5 else b.dispatch([args[0]], t)])
    return text + f.text(f"f{fid}", calls + ([operand] if kept else []))


def gen_shared(rng, fid, t, f):
    """A callee whose results share storage, a caller writing one."""
    callee = Function(rng, fid, t, num_args=1)
    how = rng.choice(["twice", "clone", "argument"])

    def build(b, args):
        if how == "argument":
            return [args[0], b.clone(t, args[0])]
        v = b.dispatch([args[0]], t) if rng.random() < 0.5 else b.splat(t)
        return [v, v] if how == "twice" else [v, b.clone(t, v)]
    returns = callee.fragment(["%t0"], [None, None], build)
    private = how == "argument" or rng.random() < 0.7
    text, operand, calls = write_call(fid, t, f, callee, returns, private, lambda b, args: [
        b.dispatch([args[0]], t)])
    which = rng.randrange(2)
    written = f.fragment([calls[which]], [0], lambda b, args: [b.write(t, args[0])])
    returns = written + [calls[1 - which]]
    if how == "argument" and rng.random() < 0.5:
        returns.append(operand)
    if t.dynamic:
        returns += f.fragment(["%t0"], [None], lambda b, args: [b.dispatch([args[0]], t)])
    return text + f.text(f"f{fid}", returns)


def gen_mayalias(rng, fid, t, f):
    """A dispatch reading and writing one value through MayAlias bindings."""
    how = rng.choice(["fresh", "argument", "kept", "callee"])
    if how == "callee":
        callee = Function(rng, fid, t, num_args=1)
        returns = callee.fragment(["%t0"], [None], lambda b, args: [
            b.alias_write(t, b.clone(t, args[0]))])
        text, operand, calls = write_call(fid, t, f, callee, returns, True, lambda b, args: [
            b.dispatch([args[0]], t)])
        # Unlike gen_peer's, this draw follows the operand fragment's.
        return text + f.text(f"f{fid}", calls + ([operand] if rng.random() < 0.5 else []))

    def build(b, args):
        if how == "fresh":
            v = b.splat(t) if rng.random() < 0.5 else b.dispatch([args[0]], t)
        elif how == "argument":
            v = args[0]
        else:
            v = b.dispatch([args[0]], t)
        w = b.alias_write(t, v)
        return [w, v] if how == "kept" else [w]
    returns = f.fragment(["%t0"], [None] * (2 if how == "kept" else 1), build)
    return f.text(f"f{fid}", returns)


def gen_pipeline(rng, fid, t, f):
    """Fragments over earlier results, host loads between them."""
    values = ["%t0"]
    loads = 0
    f.lines.append("  %c0 = arith.constant 0 : index")
    for _ in range(rng.randint(2, 6)):
        # A chain reads the latest result, a branch any earlier value; a
        # join reads two.
        shape = rng.choice(["chain", "chain", "branch", "join"])
        if shape == "chain" or len(values) == 1:
            reads = [values[-1]]
        elif shape == "branch":
            reads = [rng.choice(values)]
        else:
            reads = rng.sample(values, 2)
        scalars = []
        if len(values) > 1 and rng.random() < 0.6:
            # The host reads an element of an earlier result: it must wait
            # for that fragment (and only for it).
            source = rng.choice(values[1:])
            row = rng.randrange(t.rows)
            col = rng.randrange(t.cols)
            dims = "{%d}" if t.dynamic else ""
            loads += 1
            f.lines.append(f"  %r{loads} = arith.constant {row} : index")
            f.lines.append(f"  %q{loads} = arith.constant {col} : index")
            f.lines.append(f"  %x{loads} = flow.tensor.load {source}[%r{loads}, %q{loads}] : {t.type()}{dims}")
            scalars = [f"%x{loads}"]

        def build(b, args, n=len(reads), scalars=scalars):
            extra = b.splat(t, args[n]) if scalars else None
            tensors = args[:n]
            return [b.dispatch(tensors[:2], t, second=extra)]
        values += f.fragment(reads, [None], build, scalars)
    returns = [values[-1]]
    if len(values) > 2 and rng.random() < 0.5:
        other = rng.choice(values[1:-1])
        returns.append(other)
    return f.text(f"f{fid}", returns)


def host_load(rng, t, f, source):
    """A host load of one element of `source`; returns the scalar's name."""
    f.loads = getattr(f, "loads", 0) + 1
    n = f.loads
    f.lines.append(f"  %r{n} = arith.constant {rng.randrange(t.rows)} : index")
    f.lines.append(f"  %q{n} = arith.constant {rng.randrange(t.cols)} : index")
    f.lines.append(f"  %x{n} = flow.tensor.load {source}[%r{n}, %q{n}] : {t.type()}")
    return f"%x{n}"


def step_fragment(rng, t, f, values, loads_from):
    """A fragment over one or two earlier values (a chain, a branch or a
    join), sometimes splatting a host load of an earlier result."""
    shape = rng.choice(["chain", "chain", "branch", "join"])
    if shape == "chain" or len(values) == 1:
        reads = [values[-1]]
    elif shape == "branch":
        reads = [rng.choice(values)]
    else:
        reads = rng.sample(values, 2)
    scalars = []
    if loads_from and rng.random() < 0.5:
        scalars = [host_load(rng, t, f, rng.choice(loads_from))]

    def build(b, args, n=len(reads), scalars=scalars):
        extra = b.splat(t, args[n]) if scalars else None
        return [b.dispatch(args[:n], t, second=extra)]
    return f.fragment(reads, [None], build, scalars)


def gen_program(rng, fid, t, f):
    """A pipeline with a call, direct and indirect globals and an
    initializer (static shapes: globals have static types)."""
    ty = t.type()
    ptr = f"!util.ptr<{ty}>"
    g, h = f"@g{fid}", f"@h{fid}"
    literal = "1.5" if t.etype.startswith("f") else "3"
    out = [f"util.global private mutable {g} = dense<{literal}> : {ty}\n",
           f"util.global private mutable {h} : {ty}\n"]

    # The initializer: a fragment computes @h's initial value, from a
    # splat or from @g's initial value.
    init = Function(rng, fid, t, num_args=0)
    if rng.random() < 0.5:
        init.lines.append(f"  %g = util.global.load {g} : {ty}")
        first = init.fragment(["%g"], [None], lambda b, args: [b.dispatch([args[0]], t)])
    else:
        first = init.fragment([], [None], lambda b, args: [b.dispatch([], t, second=b.splat(t))])
    init.lines.append(f"  util.global.store {first[0]}, {h} : {ty}")
    out.append("\n".join(["util.initializer {"] + init.lines + ["  util.return", "}"]) + "\n")

    # The callee: one or two fragments over its argument (and sometimes
    # @g), sometimes a host load between them, sometimes storing its
    # result through a pointer to @h.
    callee = Function(rng, fid, t, num_args=1)
    cvalues = ["%t0"]
    if rng.random() < 0.4:
        callee.lines.append(f"  %cg = util.global.load {g} : {ty}")
        cvalues.append("%cg")
    cvalues += callee.fragment(cvalues[-1:] if len(cvalues) == 1 else cvalues, [None],
                               lambda b, args: [b.dispatch(args[:2], t)])
    if rng.random() < 0.6:
        cvalues += step_fragment(rng, t, callee, cvalues, cvalues[-1:])
    cresults = [cvalues[-1]]
    if rng.random() < 0.3:
        callee.lines.append(f"  %cp = util.global.address {h} : {ptr}")
        callee.lines.append(f"  util.global.store.indirect {cvalues[-1]}, %cp : {ty} -> {ptr}")
    two = rng.random() < 0.4
    if two:
        cresults.append(cvalues[-2])
    out.append(callee.text(f"f{fid}_callee", cresults, private=True))

    # The caller: fragments, calls, loads and stores of both globals.
    values = ["%t0"]
    results = []  # values made by the device: results, calls, loads
    n = 0
    steps = ["fragment", "call"] + [rng.choice(["fragment", "fragment", "call",
                                                "load", "load_indirect", "store",
                                                "store_indirect", "tied"])
                                    for _ in range(rng.randint(2, 6))]
    rng.shuffle(steps)
    for step in steps:
        n += 1
        if step == "fragment":
            made = step_fragment(rng, t, f, values, results)
        elif step == "call":
            arg = rng.choice(values)
            if results and rng.random() < 0.3:
                # The host reads an element of the value it passes.
                host_load(rng, t, f, rng.choice(results))
            lhs = f"%c{n}:2" if two else f"%c{n}"
            types = ", ".join([ty] * len(cresults))
            f.lines.append(f"  {lhs} = call @f{fid}_callee({arg}) : ({ty}) -> ({types})")
            made = [f"%c{n}#0", f"%c{n}#1"] if two else [f"%c{n}"]
        elif step == "load":
            f.lines.append(f"  %l{n} = util.global.load {g} : {ty}")
            made = [f"%l{n}"]
        elif step == "load_indirect":
            f.lines.append(f"  %p{n} = util.global.address {h} : {ptr}")
            f.lines.append(f"  %l{n} = util.global.load.indirect %p{n} : {ptr} -> {ty}")
            made = [f"%l{n}"]
        elif step in ("store", "store_indirect"):
            if len(values) == 1:
                continue
            value = rng.choice(values[1:])
            if step == "store":
                f.lines.append(f"  util.global.store {value}, {g} : {ty}")
            else:
                f.lines.append(f"  %p{n} = util.global.address {h} : {ptr}")
                f.lines.append(f"  util.global.store.indirect {value}, %p{n} : {ty} -> {ptr}")
            continue
        else:  # tied: @g written in place by a fragment and stored back
            f.lines.append(f"  %l{n} = util.global.load {g} : {ty}")
            made = f.fragment([f"%l{n}"], [0], lambda b, args: [b.write(t, args[0])])
            f.lines.append(f"  util.global.store {made[0]}, {g} : {ty}")
        values += made
        results += made
    f.lines.append(f"  %end_g = util.global.load {g} : {ty}")
    f.lines.append(f"  %end_p = util.global.address {h} : {ptr}")
    f.lines.append(f"  %end_h = util.global.load.indirect %end_p : {ptr} -> {ty}")
    returns = [values[-1], "%end_g", "%end_h"]
    if len(values) > 2 and rng.random() < 0.5:
        returns.append(rng.choice(values[1:-1]))
    out.append(f.text(f"f{fid}", returns))
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--classes", default=",".join(CLASSES),
                        help="comma-separated classes to generate (also: "
                             + ",".join(EXTRA_CLASSES) + ")")
    parser.add_argument("--alignment", type=int, default=None,
                        help="declare a device with this binding offset and "
                             "range alignment (default: none, 16)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    classes = args.classes.split(",")
    out = [f"// Generated by utils/gen_cow_fragments.py --seed={args.seed} --count={args.count}\n",
           executables()]
    for fid in range(args.count):
        out.append(gen_class(rng, fid, classes[fid % len(classes)]))
    if args.alignment:
        out.insert(1, device_targets(args.alignment))
        out.append("}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
