#!/usr/bin/env python3
# ===- gen_fragments.py - stream fragments for the analysis benchmark -----=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Writes one func.func holding one flow.ex.stream.fragment of N work ops.

Shapes:
  chain   N dispatches, each tied to (updating in place) the previous result;
          the fragment result is tied to the operand, so the whole fragment is
          one alias class of N + 1 values.
  fanout  N dispatches that all read the block argument (one value with N
          users); dispatch i also reads the result of dispatch i - 1, so every
          result is a short-lived transient.
  mix     a repeating pattern of in-place dispatches, fresh dispatches,
          splat + update, reshape there and back, clone, and a dead dispatch.

Besides the N work ops the body holds a few constants (first) and the
flow.return (last). Every dispatch carries `hal.bindings` naming bindings of
the generated `hal.executable @ex`, and the fragment returns the final value,
so the output is also valid input for `--convert-flow-to-hal`.
"""

import argparse
import sys

EXECUTABLE = """\
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=3, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
"""

T4 = "tensor<4xf32>"
T22 = "tensor<2x2xf32>"
T1 = "tensor<1xf32>"

IN_PLACE = '{hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]}'
ONE_IN = ('{hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, '
          '#hal.ex.result_buffer<"ret0", 0 : index>]}')
TWO_IN = ('{hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, '
          '#hal.ex.operand_buffer<"arg1", 1 : index>, '
          '#hal.ex.result_buffer<"ret0", 0 : index>]}')


def dispatch_in_place(out, result, operand):
    out.append(f"    {result} = flow.dispatch @ex::@entry[%c1]({operand}) "
               f"{IN_PLACE} : ({T4}) -> {operand}\n")


def dispatch_fresh(out, result, operands):
    bindings = ONE_IN if len(operands) == 1 else TWO_IN
    types = ", ".join([T4] * len(operands))
    out.append(f"    {result} = flow.dispatch @ex::@entry[%c1]"
               f"({', '.join(operands)}) {bindings} : ({types}) -> {T4}\n")


def gen_chain(out, n):
    current = "%in"
    for i in range(n):
        result = f"%v{i}"
        dispatch_in_place(out, result, current)
        current = result
    return current, T4, True


def gen_fanout(out, n):
    current = None
    for i in range(n):
        result = f"%v{i}"
        dispatch_fresh(out, result, ["%in"] if current is None
                       else ["%in", current])
        current = result
    return current, T4, False


def gen_mix(out, n):
    current, current_type = "%in", T4
    i = 0
    while i < n:
        step = i % 8
        result = f"%v{i}"
        if step == 0:
            dispatch_in_place(out, result, current)
        elif step == 1:
            dispatch_fresh(out, result, ["%in", current])
        elif step == 2:
            out.append(f"    {result} = flow.tensor.splat %f : {T1}\n")
            i += 1
            if i >= n:
                break
            update = f"%v{i}"
            out.append(f"    {update} = flow.tensor.update {result}, "
                       f"{current}[%c0] : {T1} -> {current} as {T4}\n")
            result = update
        elif step == 4:
            out.append(f"    {result} = flow.tensor.reshape {current} : "
                       f"{T4} -> {T22}\n")
            current_type = T22
        elif step == 5:
            out.append(f"    {result} = flow.tensor.reshape {current} : "
                       f"{T22} -> {T4}\n")
            current_type = T4
        elif step == 6:
            out.append(f"    {result} = flow.tensor.clone {current} : {T4}\n")
        elif step == 7:
            # A dead dispatch: written, never read, not returned.
            dispatch_fresh(out, result, [current])
            i += 1
            continue
        current = result
        i += 1
    if current_type == T22:
        out.append(f"    %back = flow.tensor.reshape {current} : "
                   f"{T22} -> {T4}\n")
        current = "%back"
    return current, T4, False


SHAPES = {"chain": gen_chain, "fanout": gen_fanout, "mix": gen_mix}


def generate(n, shape):
    body = []
    final, final_type, tied = SHAPES[shape](body, n)
    result = f"%a as {final_type}" if tied else final_type
    out = [EXECUTABLE]
    out.append(f"func.func @{shape}(%a: {T4}) -> {final_type} {{\n")
    out.append(f"  %r = flow.ex.stream.fragment(%a) : ({T4}) -> {result} =\n"
               f"      (%in: {T4}) -> {final_type} {{\n")
    out.append("    %c0 = arith.constant 0 : index\n")
    out.append("    %c1 = arith.constant 1 : index\n")
    out.append("    %f = arith.constant 1.0 : f32\n")
    out.extend(body)
    out.append(f"    flow.return {final} : {final_type}\n")
    out.append("  }\n")
    out.append(f"  return %r : {final_type}\n")
    out.append("}\n")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, required=True,
                        help="number of work ops in the fragment body")
    parser.add_argument("--shape", choices=sorted(SHAPES), required=True)
    parser.add_argument("-o", "--output", default="-",
                        help="output file (default: stdout)")
    args = parser.parse_args()
    if args.ops < 1:
        parser.error("--ops must be at least 1")
    text = generate(args.ops, args.shape)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
