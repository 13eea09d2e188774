#!/usr/bin/env python3
# ===- gen.py - fragments of N dispatches for the compile-time benchmark ---=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Writes one func.func holding one flow.ex.stream.fragment of about N
dispatches, in one of the shapes whose cost a quadratic pass shows first.

Shapes:
  chain        each dispatch reads the previous result into a fresh one
               (every result a short-lived transient of the slab).
  tied         each dispatch updates the previous result in place (one alias
               class of N + 1 values, tied to the argument).
  fan          N dispatches all read the argument; their results are
               concatenated by `flow.tensor.update`s into one splat target.
  tree         a binary tree of 2-input joins, computed level by level: N/2
               leaves read the argument, then each level joins pairs.
  wide         N independent dispatches, each on its own row slice of the
               argument, concatenated as in `fan` (no two depend).
  mix          the analysis benchmark's mix (in place, fresh, splat +
               update, reshapes, clones, dead dispatches).
  transformer  pre-norm Transformer encoder layers stacked (14 dispatches a
               layer; bench/concurrency's transformer_encoder_layer).
  gpt          GPT-2 style decoder layers stacked (QKV split by slices,
               per-head attention, heads concatenated by updates, clones;
               bench/concurrency's transformer_qkv_split).
  fragments    N fragments of one dispatch in one function (as a frontend
               that does not fuse emits them), each reading the argument
               and the previous fragment's result: N submissions.

Every dispatch carries `hal.bindings`, so the output is valid input for
`--streamhal-lower-to-hal` and `hal-exec`.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "analysis"))
sys.path.insert(0, os.path.join(HERE, "..", "concurrency"))

import gen_fragments  # noqa: E402
import gen_models  # noqa: E402

T4 = "tensor<4xf32>"


def dispatch(body, result, operands, in_type=T4, out_type=T4):
    bindings = [f'#hal.ex.operand_buffer<"arg{i}", {i} : index>'
                for i in range(len(operands))]
    bindings.append('#hal.ex.result_buffer<"ret0", 0 : index>')
    types = ", ".join([in_type] * len(operands))
    body.append(f"    {result} = flow.dispatch @ex::@entry[%c1]"
                f"({', '.join(operands)}) {{hal.bindings = [{', '.join(bindings)}]}}"
                f" : ({types}) -> {out_type}\n")


def concat(body, results, n):
    """Updates every 4-float result into row i of a splat [n x 4] target."""
    target = f"tensor<{n}x4xf32>"
    body.append(f"    %cat = flow.tensor.splat %f : {target}\n")
    current = "%cat"
    for i, result in enumerate(results):
        row = f"%row{i}"
        body.append(f"    {row} = arith.constant {i} : index\n")
        body.append(f"    %u{i} = flow.tensor.reshape {result} : {T4} -> "
                    f"tensor<1x4xf32>\n")
        body.append(f"    %cat{i} = flow.tensor.update %u{i}, {current}"
                    f"[{row}, %c0] : tensor<1x4xf32> -> {current} as "
                    f"{target}\n")
        current = f"%cat{i}"
    return current, target


def gen_chain(body, n):
    current = "%in"
    for i in range(n):
        dispatch(body, f"%v{i}", [current])
        current = f"%v{i}"
    return current, T4, T4


def gen_fan(body, n):
    results = []
    for i in range(n):
        dispatch(body, f"%v{i}", ["%in"])
        results.append(f"%v{i}")
    final, final_type = concat(body, results, n)
    return final, final_type, T4


def gen_wide(body, n):
    source = f"tensor<{n}x4xf32>"
    results = []
    for i in range(n):
        body.append(f"    %r{i} = arith.constant {i} : index\n")
        body.append(f"    %s{i} = flow.tensor.slice %in[%r{i}, %c0 for %c1, "
                    f"%c4] : {source} -> tensor<1x4xf32>\n")
        body.append(f"    %t{i} = flow.tensor.reshape %s{i} : "
                    f"tensor<1x4xf32> -> {T4}\n")
        dispatch(body, f"%v{i}", [f"%t{i}"])
        results.append(f"%v{i}")
    final, final_type = concat(body, results, n)
    return final, final_type, source


def gen_tree(body, n):
    leaves = max(1, (n + 1) // 2)
    level = []
    for i in range(leaves):
        dispatch(body, f"%l{i}", ["%in"])
        level.append(f"%l{i}")
    count = 0
    while len(level) > 1:
        joined = []
        for i in range(0, len(level) - 1, 2):
            dispatch(body, f"%j{count}", [level[i], level[i + 1]])
            joined.append(f"%j{count}")
            count += 1
        if len(level) % 2:
            joined.append(level[-1])
        level = joined
    return level[0], T4, T4


def wrap(name, body, final, final_type, arg_type, tied=False):
    result = f"%a as {final_type}" if tied else final_type
    out = [gen_fragments.EXECUTABLE]
    out.append(f"func.func @{name}(%a: {arg_type}) -> {final_type} {{\n")
    out.append(f"  %r = flow.ex.stream.fragment(%a) : ({arg_type}) -> "
               f"{result} =\n      (%in: {arg_type}) -> {final_type} {{\n")
    out.append("    %c0 = arith.constant 0 : index\n")
    out.append("    %c1 = arith.constant 1 : index\n")
    out.append("    %c4 = arith.constant 4 : index\n")
    out.append("    %f = arith.constant 1.0 : f32\n")
    out.extend(body)
    out.append(f"    flow.return {final} : {final_type}\n")
    out.append("  }\n")
    out.append(f"  return %r : {final_type}\n}}\n")
    return "".join(out)


def decoder_layer(f, x):
    """A decoder layer whose present key/value clones are left out: only the
    last layer's output returns."""
    return gen_models.decoder_layer(f, x, presents=False)[0]


def stacked(name, layer, per_layer, input_shape, n):
    f = gen_models.Fragment(name, input_shape)
    x = "%x"
    for _ in range(max(1, n // per_layer)):
        x = layer(f, x)
    return f.render(x)


def gen_fragments_function(n):
    out = [gen_fragments.EXECUTABLE]
    out.append(f"func.func @fragments(%a: {T4}) -> {T4} {{\n")
    previous = "%a"
    for i in range(n):
        out.append(f"  %f{i} = flow.ex.stream.fragment(%a, {previous}) : "
                   f"({T4}, {T4}) -> {T4} =\n"
                   f"      (%x: {T4}, %y: {T4}) -> {T4} {{\n"
                   f"    %c1 = arith.constant 1 : index\n")
        body = []
        dispatch(body, "%v", ["%x", "%y"])
        out.extend(body)
        out.append(f"    flow.return %v : {T4}\n  }}\n")
        previous = f"%f{i}"
    out.append(f"  return {previous} : {T4}\n}}\n")
    return "".join(out)


SHAPES = ["chain", "tied", "fan", "tree", "wide", "mix", "transformer", "gpt",
          "fragments"]


def generate(shape, n):
    if shape == "tied":
        return gen_fragments.generate(n, "chain").replace("@chain", "@tied")
    if shape == "mix":
        return gen_fragments.generate(n * 8 // 3, "mix")
    if shape == "transformer":
        return stacked("transformer", gen_models.encoder_layer, 14,
                       [128, 256], n)
    if shape == "gpt":
        return stacked("gpt", decoder_layer, 23, [256, 128], n)
    if shape == "fragments":
        return gen_fragments_function(n)
    body = []
    final, final_type, arg_type = {"chain": gen_chain, "fan": gen_fan,
                                   "wide": gen_wide, "tree": gen_tree}[shape](
        body, n)
    return wrap(shape, body, final, final_type, arg_type)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=SHAPES, required=True)
    parser.add_argument("--dispatches", type=int, required=True)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    if args.dispatches < 1:
        parser.error("--dispatches must be at least 1")
    text = generate(args.shape, args.dispatches)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
