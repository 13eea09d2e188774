# ===- fragments/function.py - One generated function ----------------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""gen_function: one public function holding one fragment."""

from .fragment import Fragment
from .values import COLUMNS, DYNAMIC_EXTENT, ELEMENT_TYPES, FREE_INDEX, Value


def gen_function(rng, fid, max_ops, constant_writes, view_weight,
                 wide_rng=None, operand_splats=False):
    """One function: arguments, one fragment, return. With `operand_splats`,
    the fragment also returns a splat of narrow elements tied to one of its
    tensor arguments (computed in the argument's buffer, often of a size no
    whole 4-byte fill covers)."""
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
    # Sometimes one tensor argument is passed twice: two block arguments, one
    # buffer. The generator gives both one storage, so a write through one
    # kills the other; results of that storage are never tied (a tie names
    # one block argument).
    shared = set()
    if tensor_values and rng.random() < 0.2:
        i = rng.randrange(len(tensor_values))
        etype, cols, d = tensors[i]
        original = tensor_values[i]
        k = len(tensor_values)
        outer_type = operand_types[i]
        operands.append(f"%t{i}")
        operand_types.append(outer_type)
        block_args.append(f"%a{k}: {original.type()}")
        tensor_values.append(Value(f"%a{k}", etype, original.rows, cols,
                                   original.dyn, original.storage))
        shared.add(original.storage)
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
    operand_splat = None
    if operand_splats:
        narrow = [i for i, tv in enumerate(tensor_values[:len(tensors)])
                  if tv.storage not in shared and tv.etype in ("i8", "i16", "f16")]
        if narrow:
            tv = tensor_values[rng.choice(narrow)]
            literal = "-1.5" if tv.etype == "f16" else str(rng.randint(-100, 100))
            scalar = frag.const(literal, tv.etype)
            operand_splat = Value("%osplat", tv.etype, tv.rows, tv.cols, tv.dyn,
                                  tv.storage)
            frag.lines.append(f"    %osplat = flow.tensor.splat {scalar} : {tv.typed()}")

    # Results: 1-3 live values, sometimes an input; a result aliasing input
    # i may be tied to it.
    live = [v for v in frag.live() if v.storage not in frag.padded_constants]
    if not live:
        frag.op_splat()
        live = frag.live()
    chosen = frag.results()
    if operand_splat:
        chosen.append(operand_splat)
    for _ in range(rng.randint(1, 3)):
        v = rng.choice(live[-6:] if rng.random() < 0.7 else live)
        if v not in chosen:
            chosen.append(v)
    result_outer, result_inner = [], []
    dim_outer = {f"%id{d}": f"%d{d}" for d in range(ndims)}
    for v in chosen:
        outer_dims = f"{{{dim_outer[v.dyn]}}}" if v.dyn else ""
        tie = None
        for i, tv in enumerate(tensor_values[:len(tensors)]):
            if (v.storage == tv.storage and tv.type() == v.type() and
                    v.storage not in shared and
                    (v is operand_splat or rng.random() < 0.7)):
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
