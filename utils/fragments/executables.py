# ===- fragments/executables.py - Executables of generated modules ---------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""The three executables (@exA, @exB, @exC) every generated module declares:
one interface, entry points @w1-@w4 for workloads of 1-4 values, variants
with and without workgroup regions."""

# One interface for every executable: three read bindings, two write
# bindings, one read-write binding for a tied result, a read and a
# read-write binding that may alias each other, two push constants.
INTERFACE = """  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @out1, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @io0, set=0, binding=5, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @in3a, set=0, binding=6, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @io1a, set=0, binding=7, type="StorageBuffer", access="Read|Write|MayAlias"
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


def device_targets(alignment):
    """The module attribute giving the device's buffer constraints, with
    `alignment` as both the binding offset and the range alignment."""
    return ("module attributes {hal.device.targets = [#hal.device.target<\"vmvx\", "
            "{buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, "
            f"min_buffer_offset_alignment = {alignment}, max_buffer_range = 1073741824, "
            f"min_buffer_range_alignment = {alignment}>}}>]}} {{\n")


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
