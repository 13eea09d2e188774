# ===- fragments/ops.py - The op mix of a generated fragment ---------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""OpGenerators: one method per op of the general mix (splats, constants,
clones, slices, updates, reshapes, dispatches)."""

from .values import COLUMNS, ELEMENT_BYTES, ELEMENT_TYPES, WIDE_SPLAT_CHANCE


class OpGenerators:
    """The random ops of the general mix, mixed into Fragment, whose state
    they use: each appends its op's lines and makes its values."""

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
        if s:
            self.emit_reshape(s)

    def emit_reshape(self, s):
        """A reshape of `s` (same storage): static values get a random shape
        with the same element count, dynamic ones keep theirs."""
        if s.dyn:
            rows, cols = s.rows, s.cols
        else:
            total = s.rows * s.cols
            cols = self.rng.choice([d for d in range(1, 9) if total % d == 0])
            rows = total // cols
        v = self.new_value(s.etype, rows, cols, s.dyn, storage=s.storage)
        self.lines.append(f"    {v.name} = flow.tensor.reshape {s.name} : {s.typed()} -> {v.typed()}")
        return v

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
