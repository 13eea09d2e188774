#!/usr/bin/env python3
# ===- gen.py - multi-fragment programs for the memory benchmark -----------=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Writes the programs of bench/memory/run.sh into OUTPUT_DIR, one file each:

  <model>_split       each model of bench/concurrency/gen_models.py with one
                      fragment per op, as a frontend that does not fuse
                      emits it: every value passed between ops crosses
                      fragments.
  encoder_stack_split four pre-norm Transformer encoder layers, split the
                      same way (56 fragments).
  decoder_stack_split four GPT-2 decoder layers (without the key/value
                      cache), split the same way.
  three_chains        three fragments in a row, each a chain of four 4 KiB
                      dispatches (the example of docs/lowering.md's
                      "Transients per function").

Usage: gen.py OUTPUT_DIR
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "concurrency"))

import gen_models  # noqa: E402

T = "tensor<1024xf32>"

THREE_CHAINS_EXECUTABLE = """hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
"""


def three_chains():
    lines = [THREE_CHAINS_EXECUTABLE,
             f"func.func @three_chains(%arg0: {T}) -> {T} {{"]
    value = "%arg0"
    for fragment in range(3):
        result = f"%f{fragment}"
        lines.append(f"  {result} = flow.ex.stream.fragment({value}) : ({T})"
                     f" -> {T} =\n      (%x: {T}) -> {T} {{")
        lines.append("    %c1 = arith.constant 1 : index")
        inner = "%x"
        for step in range(4):
            lines.append(
                f"    %d{step} = flow.dispatch @ex::@entry[%c1]({inner}) "
                "{hal.bindings = [#hal.ex.operand_buffer<\"arg0\", 0 : index>, "
                "#hal.ex.result_buffer<\"ret0\", 0 : index>]} "
                f": ({T}) -> {T}")
            inner = f"%d{step}"
        lines.append(f"    flow.return {inner} : {T}\n  }}")
        value = result
    lines.append(f"  return {value} : {T}\n}}\n")
    return "\n".join(lines)


def encoder_stack():
    f = gen_models.Fragment("encoder_stack_split", [128, 256])
    x = "%x"
    for _ in range(4):
        x = gen_models.encoder_layer(f, x)
    return f.render(x)


def decoder_stack():
    f = gen_models.Fragment("decoder_stack_split", [256, 128])
    x = "%x"
    for _ in range(4):
        x = gen_models.decoder_layer(f, x, presents=False)[0]
    return f.render(x)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gen.py OUTPUT_DIR\n")
        return 1
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    gen_models.SPLIT_FRAGMENTS = True
    programs = {name + "_split": build
                for name, build in gen_models.MODELS.items()}
    programs["encoder_stack_split"] = encoder_stack
    programs["decoder_stack_split"] = decoder_stack
    for name, build in programs.items():
        text = build()
        # The split models keep their names with a suffix, so a row says
        # which program it is.
        if name.endswith("_split") and name not in ("encoder_stack_split",
                                                     "decoder_stack_split"):
            text = text.replace("func.func @%s(" % name[:-len("_split")],
                                "func.func @%s(" % name, 1)
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)
    gen_models.SPLIT_FRAGMENTS = False
    with open(os.path.join(out, "three_chains.mlir"), "w") as f:
        f.write(three_chains())
    return 0


if __name__ == "__main__":
    sys.exit(main())
