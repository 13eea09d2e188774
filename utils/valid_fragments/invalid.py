# ===- valid_fragments/invalid.py - Invalid boxes (issue class 4) ----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""gen_invalid: fragments with one slice or update whose box is out of
bounds only when the operands are looked through (--invalid)."""

from .values import tensor_type


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
