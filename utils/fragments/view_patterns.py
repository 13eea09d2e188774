# ===- fragments/view_patterns.py - Views that may or may not be shared ----===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""ViewPatterns: the situations where a lowering may make a slice or a
clone a view of its source's storage, each with an observer."""

from .values import ELEMENT_TYPES


class ViewPatterns:
    """The view patterns of Fragment (mixed into it, using its state), and
    the values they return."""

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
        return self.emit_clone(self.emit_reshape(x))

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

    def emit_reading_dispatch(self, result, inputs):
        """`result` = an untied dispatch of @w1 reading `inputs`."""
        slots = [f'#hal.ex.operand_buffer<"in{i}", {i} : index>' for i in range(len(inputs))]
        slots.append('#hal.ex.result_buffer<"out0", 0 : index>')
        ex = self.rng.choice(["exA", "exB", "exC"])
        self.lines.append(
            f"    {result.name} = flow.dispatch @{ex}::@w1[{self.const(1)}]({', '.join(v.name for v in inputs)}) "
            f"{{hal.bindings = [{', '.join(slots)}]}} : ({', '.join(v.typed() for v in inputs)}) -> {result.typed()}")
        return result

    def observe(self, values):
        """A dispatch reading `values` now; its result is returned."""
        rows, cols, dyn = self.random_shape()
        r = self.new_value(self.rng.choice(ELEMENT_TYPES), rows, cols, dyn)
        self.observed.append(self.emit_reading_dispatch(r, values))

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
                                   self.constant_rows,
                                   self.update_sink,
                                   self.shared_buffer])
        pattern()

    def shared_buffer(self):
        """Two live names of one buffer (a tensor argument passed twice):
        a view of one, or a value sunk into one, must not outlive a write
        through the other, nor be computed while the other is read."""
        pairs = [(a, b) for a in self.live() for b in self.live()
                 if a is not b and a.storage == b.storage and
                 a.type() == b.type() and a.dyn is None and self.writable(b)]
        if not pairs:
            return
        a, b = self.rng.choice(pairs)
        if self.rng.random() < 0.5:
            view = self.emit_view(a)
            b = self.emit_write(b)
            self.observe([view])
            return
        nr = self.rng.randint(1, b.rows)
        h = self.emit_produced(b.etype, nr, b.cols)
        self.observe([a])
        u = self.write_in_place(b, b.etype, b.rows, b.cols, None)
        self.lines.append(
            f"    {u.name} = flow.tensor.update {h.name}, {b.name}[{self.const(b.rows - nr)}, {self.const(0)}] : "
            f"{h.type()} -> {b.name} as {b.typed()}")
        self.observe([u])

    def emit_produced(self, etype, rows, cols):
        """An untied dispatch result of the given static shape, reading a
        live value when there is one."""
        inputs = [x for x in [self.pick()] if x]
        return self.emit_reading_dispatch(self.new_value(etype, rows, cols, None), inputs)

    def update_sink_pair(self, etype, rows, cols):
        """Two values updated into one target, computed before or between
        the updates, the second sometimes reading the first, in boxes that
        may overlap: sound to compute in place exactly when nothing reads or
        writes the second box early."""
        t = self.emit_splat(etype, rows, cols)
        n1, n2 = self.rng.randint(1, rows), self.rng.randint(1, rows)
        r1, r2 = self.rng.randint(0, rows - n1), self.rng.randint(0, rows - n2)
        both_first = self.rng.random() < 0.5
        h1 = self.emit_produced(etype, n1, cols)
        h2 = None
        if both_first:
            h2 = self.emit_produced_from(etype, n2, cols, h1)
        u1 = self.write_in_place(t, etype, rows, cols, None)
        self.lines.append(
            f"    {u1.name} = flow.tensor.update {h1.name}, {t.name}[{self.const(r1)}, {self.const(0)}] : "
            f"{h1.type()} -> {t.name} as {t.typed()}")
        if not both_first:
            h2 = self.emit_produced_from(etype, n2, cols, h1)
        u2 = self.write_in_place(u1, etype, rows, cols, None)
        self.lines.append(
            f"    {u2.name} = flow.tensor.update {h2.name}, {u1.name}[{self.const(r2)}, {self.const(0)}] : "
            f"{h2.type()} -> {u1.name} as {u1.typed()}")
        self.observe([u2] + ([h1] if self.rng.random() < 0.5 else []))

    def emit_produced_from(self, etype, rows, cols, source):
        """An untied dispatch result reading `source` half of the time."""
        if self.rng.random() < 0.5:
            return self.emit_produced(etype, rows, cols)
        return self.emit_reading_dispatch(self.new_value(etype, rows, cols, None), [source])

    def update_sink(self):
        """A value computed and then updated into a target's row block: a
        lowering may compute it in the target's box directly. Sound when the
        target is initialized first and untouched until the update; not when
        the target is initialized after the value, read in between, or when
        either is written in place after the update while the other is
        still read."""
        kind = self.rng.choice(["sound", "sound", "target_after",
                                "target_read", "value_written",
                                "target_written", "pair", "pair"])
        etype = self.rng.choice(ELEMENT_TYPES)
        cols = self.rng.choice([1, 2, 4, 8])
        rows = self.rng.randint(2, 6)
        nr = self.rng.randint(1, rows)
        if kind == "pair":
            return self.update_sink_pair(etype, rows, cols)
        if kind == "target_after":
            h = self.emit_produced(etype, nr, cols)
            t = self.emit_splat(etype, rows, cols)
        else:
            t = self.emit_splat(etype, rows, cols)
            h = self.emit_produced(etype, nr, cols)
        if kind == "target_read":
            self.observe([t])
        r0 = self.rng.randint(0, rows - nr)
        u = self.write_in_place(t, etype, rows, cols, None)
        self.lines.append(
            f"    {u.name} = flow.tensor.update {h.name}, {t.name}[{self.const(r0)}, {self.const(0)}] : "
            f"{h.type()} -> {t.name} as {t.typed()}")
        if kind == "value_written":
            h2 = self.emit_write(h)
            self.observe([u, h2])
        elif kind == "target_written":
            u2 = self.emit_write(u)
            self.observe([h, u2])
        else:
            self.observe([u] + ([h] if self.rng.random() < 0.5 else []))

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
