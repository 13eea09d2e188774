#!/usr/bin/env python3
# ===- mutate_kernels.py - Mutation test of SPIR-V kernels --*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Runs hal-exec's Vulkan device on mutants of modules with SPIR-V kernels.

A `vulkan-spirv-fb` variant's kernel (docs/device.md, "Kernels") is the
user's: its SPIR-V bindings, push-constant block, execution mode and entry
point, the interface it is dispatched through, the workgroup count regions
and the `hal.bindings` of each `flow.dispatch` must agree, and nothing but
hal-exec checks that they do. Whatever the module says, a run must end
correctly or with a clear, located error: exit status 0 (and, under
--validate, no validation message), or 1 with a `FILE:LINE:COL: error:` on
stderr. Anything else is BAD: a signal (the validation layer's or the
driver's crash included), an `LLVM ERROR`, a stack dump, a sanitizer
report, another exit status, exit 1 without a located error, exit 0 with a
validation message or an `error:`, or a run longer than --timeout.

Each case is a file with real kernels and hal-exec's arguments for it,
shell-quoted (the default: examples/mlp_vulkan.mlir with its input, and the
`iota` chunk of test/Exec/Vulkan/Inputs/kernels.mlir):

    mutate_kernels.py --hal-exec=build/bin/hal-exec --seed=1 --count=100 \\
        --case "examples/mlp_vulkan.mlir --lower --device=vulkan \\
                --formats=vulkan-spirv-fb --input=3x16xf32=@IN.bin"

With --split-input-file and --function=NAME only the chunk that defines
func.func @NAME is mutated. Each mutant makes one text edit of one kind
(--list-kinds lists them): a SPIR-V `bind(S, B)`, an interface binding's
binding, set, access or type, the interface's push-constant count, the
SPIR-V push-constant block (members added or dropped consistently
everywhere it is spelled, an offset moved, the block removed), a
`LocalSize` (0, 1, 2048, 65536, huge) or its removal, a workgroup count
region (divui for ceildivui, scaled, zero), a dispatch's `hal.bindings`
(an entry dropped, two ordinals swapped, a push constant or buffer pointed
at another operand), an entry point removed, renamed, of another model or
without its interface variables, a store moved to a Read binding; and
whole-kernel edits: every storage-buffer pointer in another storage class,
every array stride, the module's version, capabilities or addressing
model, a built-in (another one, none, another type), an i32 operand of the
kernel's arithmetic, a duplicated EntryPoint or LocalSize; and, for modules
that record their own dispatches, the workgroups, push constants and
descriptors of the HAL commands. Each mutant runs twice, without and with
--validate (in parallel over --jobs mutants), and is classified `ok` (both
exit 0), `diagnosed` (a run exited 1 with a located error) or `BAD`; the
summary also lists the mutants only the validation layer reported (exit 0
without --validate).
Mutant N of --seed=S is mutant 0 of --seed=S+N (its kind is the seed's
turn among the kinds that apply to the case, its edit drawn from the
seed), so the seed printed on its line reproduces it alone
(`--seed=SEED --count=1`, same --case and --only). BAD mutants are kept
with a diff and their commands under --keep.
The exit status is 1 when any mutant is BAD.
"""

import argparse
import concurrent.futures
import difflib
import os
import random
import re
import shlex
import shutil
import signal
import sys
import tempfile
import time

from mutation_common import abnormal_end, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEFAULT_CASES = [
    "{root}/examples/mlp_vulkan.mlir --lower --device=vulkan "
    "--formats=vulkan-spirv-fb "
    "--input=3x16xf32=@{root}/examples/inputs/mlp_vulkan_3x16xf32.bin",
    "{root}/test/Exec/Vulkan/Inputs/kernels.mlir --split-input-file "
    "--function=iota --device=vulkan --device-limits=max-range=134217728",
]

SPLIT_MARKER = "// -----"

# A location as MLIR prints it: FILE:LINE:COL (the split-input-file form
# is "FILE:LINE offset :LINE:COL").
LOCATED_ERROR = re.compile(r'^\S.*:\d+:\d+: error: ')
# What the layer's messages look like, turned into errors or not.
VALIDATION_TEXT = re.compile(
    r'Vulkan validation|VUID-|Validation (Error|Warning)|SYNC-HAZARD|'
    r'UNASSIGNED-')

BIND = re.compile(r'\bbind\((\d+), (\d+)\)')
IFACE_LINE = re.compile(r'^\s*hal\.interface\.binding @([\w$.-]+),')
IFACE_FIELD = {
    "binding": re.compile(r'\bbinding=(\d+)'),
    "set": re.compile(r'\bset=(\d+)'),
    "access": re.compile(r'\baccess="([^"]*)"'),
    "type": re.compile(r'\btype="([^"]*)"'),
}
PUSH_COUNT = re.compile(r'\bpush_constants = (-?\d+) : index')
PC_STRUCT = re.compile(r'!spirv\.struct<\(([^()]*)\)>, PushConstant>')
PC_MEMBER = re.compile(r'(\w+) \[(\d+)\]')
LOCAL_SIZE = re.compile(
    r'spirv\.ExecutionMode @([\w$.-]+) "LocalSize", (\d+), (\d+), (\d+)')
ENTRY_POINT = re.compile(r'spirv\.EntryPoint "(\w+)" @([\w$.-]+)')
HAL_ENTRY = re.compile(r'^\s*hal\.executable\.entry_point @([\w$.-]+) .*\{\s*$')
HAL_RETURN = re.compile(r'^(\s*)hal\.return (%[\w$.-]+), (%[\w$.-]+), '
                        r'(%[\w$.-]+) : index, index, index\s*$')
INDEX_CONSTANT = re.compile(
    r'^\s*(%[\w$.-]+) = arith\.constant (-?\d+) : index\s*$')
DISPATCH = re.compile(r'flow\.dispatch @[\w$.-]+::@[\w$.-]+\[[^\]]*\]'
                      r'\(([^)]*)\) \{hal\.bindings = \[')
BINDING_ENTRY = re.compile(
    r'^(\s*)#hal\.ex\.(operand_buffer|result_buffer|push_constant)'
    r'<(.*)>(,|\]\})(.*)$')
SPIRV_FUNC = re.compile(r'^\s*spirv\.func @([\w$.-]+)\(')
STORE = re.compile(r'^\s*spirv\.Store "StorageBuffer" (%[\w$.-]+),')
ACCESS_CHAIN = re.compile(r'^\s*(%[\w$.-]+) = spirv\.AccessChain (%[\w$.-]+)\[')
ADDRESS_OF = re.compile(
    r'^\s*(%[\w$.-]+) = spirv\.mlir\.addressof @([\w$.-]+) : '
    r'!spirv\.ptr<.*, StorageBuffer>\s*$')
STORAGE_GLOBAL = re.compile(
    r'^\s*spirv\.GlobalVariable @([\w$.-]+) bind\(\d+, \d+\) : '
    r'!spirv\.ptr<.*, StorageBuffer>\s*$')

# Workgroup counts and sizes that break limits: 0, the edges of 16 and 32
# bits, and values that do not fit 32 or 64 bits.
BIG = [2**16 - 1, 2**16, 2**31, 2**32, 2**32 + 1, 2**63, 2**64 - 1]


def indent_of(line):
    return line[:len(line) - len(line.lstrip())]


def replace_span(line, m, group, new):
    return line[:m.start(group)] + str(new) + line[m.end(group):]


def show(text, limit=70):
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 3] + "..."


# Each mutation takes (rng, lines) and returns (line index, what it did) after
# editing `lines` in place, or None when it does not apply to the module.


def mutate_bind_binding(rng, lines):
    sites = [(i, m) for i, line in enumerate(lines)
             for m in BIND.finditer(line)]
    if not sites:
        return None
    existing = sorted({int(m.group(2)) for _, m in sites})
    i, m = rng.choice(sites)
    old = int(m.group(2))
    new = rng.choice([b for b in existing if b != old] +
                     [max(existing) + 1, 9, 31, 1000])
    before = m.group()
    lines[i] = replace_span(lines[i], m, 2, new)
    return i, f"{before} -> bind({m.group(1)}, {new})"


def mutate_bind_set(rng, lines):
    sites = [(i, m) for i, line in enumerate(lines)
             for m in BIND.finditer(line)]
    if not sites:
        return None
    i, m = rng.choice(sites)
    new = rng.choice([s for s in (1, 2, 7) if s != int(m.group(1))])
    before = m.group()
    lines[i] = replace_span(lines[i], m, 1, new)
    return i, f"{before} -> bind({new}, {m.group(2)})"


def interface_field(rng, lines, field, choose):
    sites = [i for i, line in enumerate(lines) if IFACE_LINE.match(line)
             and IFACE_FIELD[field].search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = IFACE_FIELD[field].search(lines[i])
    values = [IFACE_FIELD[field].search(lines[j]).group(1) for j in sites]
    new = choose(m.group(1), values)
    name = IFACE_LINE.match(lines[i]).group(1)
    before = m.group()
    lines[i] = replace_span(lines[i], m, 1, new)
    after = IFACE_FIELD[field].search(lines[i]).group()
    return i, f"@{name}: {before} -> {after}"


def mutate_iface_binding(rng, lines):
    def choose(old, values):
        existing = sorted({int(v) for v in values})
        return rng.choice([b for b in existing if b != int(old)] +
                          [max(existing) + 1, 9, 31, 1000, 2**32 - 1])
    return interface_field(rng, lines, "binding", choose)


def mutate_iface_set(rng, lines):
    return interface_field(
        rng, lines, "set",
        lambda old, _: rng.choice([s for s in (1, 2, 7) if s != int(old)]))


ACCESSES = ["Read", "Write|Discard", "Read|Write", "Write"]


def mutate_iface_access(rng, lines):
    return interface_field(
        rng, lines, "access",
        lambda old, _: rng.choice([a for a in ACCESSES if a != old]))


def mutate_iface_type(rng, lines):
    return interface_field(
        rng, lines, "type",
        lambda old, _: rng.choice([t for t in ("UniformBuffer",
                                               "StorageBuffer", "Sampler")
                                   if t != old]))


def mutate_push_count(rng, lines):
    sites = [i for i, line in enumerate(lines) if PUSH_COUNT.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = PUSH_COUNT.search(lines[i])
    old = int(m.group(1))
    new = rng.choice(sorted({0, max(old - 1, 0), 1, old + 1, old + 5, 32, 33,
                             1024, -1} - {old}))
    before = m.group()
    lines[i] = replace_span(lines[i], m, 1, new)
    return i, f"{before} -> {PUSH_COUNT.search(lines[i]).group()}"


def push_struct(lines):
    """The first PushConstant struct's member list and the lines spelling it."""
    for line in lines:
        m = PC_STRUCT.search(line)
        if m:
            members = m.group(1)
            sites = [i for i, l in enumerate(lines)
                     if f"<({members})>, PushConstant>" in l]
            return members, sites
    return None, []


def retype_struct(lines, old, new):
    for i, line in enumerate(lines):
        lines[i] = line.replace(f"<({old})>, PushConstant>",
                                f"<({new})>, PushConstant>")


def spell_members(members):
    return ", ".join(f"{t} [{offset}]" for t, offset in members)


def mutate_pc_grow(rng, lines):
    old, sites = push_struct(lines)
    if not old:
        return None
    members = [(t, int(o)) for t, o in PC_MEMBER.findall(old)]
    count = len(members) + rng.choice([1, 2, 3, 29, 30, 32])
    end = max(o for _, o in members) + 4 if members else 0
    while len(members) < count:
        members.append(("i32", end))
        end += 4
    new = spell_members(members)
    retype_struct(lines, old, new)
    return sites[0], (f"PushConstant struct ({old}) -> {len(members)} members"
                      f" up to [{end - 4}], at {len(sites)} places")


def mutate_pc_shrink(rng, lines):
    old, sites = push_struct(lines)
    if not old:
        return None
    members = PC_MEMBER.findall(old)
    if len(members) < 2:
        return None
    keep = rng.choice(range(1, len(members)))
    new = spell_members(members[:keep])
    retype_struct(lines, old, new)
    return sites[0], f"PushConstant struct ({old}) -> ({new}) at " \
                     f"{len(sites)} places"


def mutate_pc_offset(rng, lines):
    old, sites = push_struct(lines)
    if not old:
        return None
    members = [(t, int(o)) for t, o in PC_MEMBER.findall(old)]
    k = rng.randrange(len(members))
    offset = rng.choice([2, 124, 128, 256, 4096] +
                        [o for _, o in members if o != members[k][1]])
    members[k] = (members[k][0], offset)
    new = spell_members(members)
    retype_struct(lines, old, new)
    return sites[0], f"PushConstant struct ({old}) -> ({new}) at " \
                     f"{len(sites)} places"


def mutate_pc_remove(rng, lines):
    sites = [i for i, line in enumerate(lines)
             if "spirv.GlobalVariable" in line and PC_STRUCT.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    removed = lines.pop(i)
    return i, f"removed `{show(removed, 50)}`"


LOCAL_SIZES = [0, 1, 2, 1024, 1025, 2048, 65536, 2**31, 2**32 - 1, 2**32]


def mutate_local_size(rng, lines):
    sites = [i for i, line in enumerate(lines) if LOCAL_SIZE.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = LOCAL_SIZE.search(lines[i])
    dim = rng.choice([2, 2, 3, 4])
    new = rng.choice([v for v in LOCAL_SIZES if v != int(m.group(dim))])
    lines[i] = replace_span(lines[i], m, dim, new)
    after = ", ".join(LOCAL_SIZE.search(lines[i]).groups()[1:])
    return i, f"@{m.group(1)} LocalSize {m.group(2)}, {m.group(3)}, " \
              f"{m.group(4)} -> {after}"


def mutate_local_size_remove(rng, lines):
    sites = [i for i, line in enumerate(lines) if LOCAL_SIZE.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    removed = lines.pop(i)
    return i, f"removed `{show(removed)}`"


def count_regions(lines):
    """(entry name, first body line, hal.return line) of each workgroup count
    region."""
    regions = []
    for i, line in enumerate(lines):
        m = HAL_ENTRY.match(line)
        if not m:
            continue
        for j in range(i + 1, min(i + 40, len(lines))):
            if HAL_RETURN.match(lines[j]):
                regions.append((m.group(1), i + 1, j))
                break
    return regions


def mutate_wg_divui(rng, lines):
    sites = [(name, i) for name, start, end in count_regions(lines)
             for i in range(start, end) if "arith.ceildivui" in lines[i]]
    if not sites:
        return None
    name, i = rng.choice(sites)
    lines[i] = lines[i].replace("arith.ceildivui", "arith.divui")
    return i, f"@{name} count: ceildivui -> divui"


def mutate_wg_scale(rng, lines):
    regions = count_regions(lines)
    if not regions:
        return None
    name, _, j = rng.choice(regions)
    m = HAL_RETURN.match(lines[j])
    dim = rng.choice([2, 2, 3, 4])
    op = rng.choice(["muli", "muli", "divui"])
    factor = rng.choice([2, 1024] + BIG if op == "muli" else [0, 2, 64, 2**32])
    indent = m.group(1)
    value = m.group(dim)
    lines[j] = replace_span(lines[j], m, dim, "%mutant_count")
    lines[j:j] = [f"{indent}%mutant_factor = arith.constant {factor} : index",
                  f"{indent}%mutant_count = arith.{op} {value}, "
                  f"%mutant_factor : index"]
    return j, f"@{name} count: dimension {dim - 2} {value} -> {op} by {factor}"


def mutate_wg_zero(rng, lines):
    regions = count_regions(lines)
    if not regions:
        return None
    name, start, j = rng.choice(regions)
    constants = [i for i in range(start, j) if INDEX_CONSTANT.match(lines[i])]
    if constants and rng.random() < 0.4:
        # A constant of the region (the divisor or the 1s) set to 0 or -1.
        i = rng.choice(constants)
        m = INDEX_CONSTANT.match(lines[i])
        new = rng.choice([0, -1, 3])
        lines[i] = replace_span(lines[i], m, 2, new)
        return i, f"@{name} count: {m.group(1)} = {m.group(2)} -> {new}"
    m = HAL_RETURN.match(lines[j])
    dim = rng.choice([2, 2, 3, 4])
    lines[j] = replace_span(lines[j], m, dim, "%mutant_zero")
    lines[j:j] = [f"{m.group(1)}%mutant_zero = arith.constant 0 : index"]
    return j, f"@{name} count: returns 0 in dimension {dim - 2}"


def dispatch_lists(lines):
    """(dispatch line, its operands, [entry line indices]) of each
    flow.dispatch with hal.bindings one entry a line."""
    lists = []
    for i, line in enumerate(lines):
        m = DISPATCH.search(line)
        if not m:
            continue
        operands = [x.strip() for x in m.group(1).split(",") if x.strip()]
        entries = []
        for j in range(i + 1, len(lines)):
            e = BINDING_ENTRY.match(lines[j])
            if not e:
                break
            entries.append(j)
            if e.group(4) == "]}":
                break
        if entries and BINDING_ENTRY.match(lines[entries[-1]]).group(4) == "]}":
            lists.append((i, operands, entries))
    return lists


def entry_fields(line):
    e = BINDING_ENTRY.match(line)
    return e.group(2), e.group(3)


def set_entry(lines, j, kind, body):
    e = BINDING_ENTRY.match(lines[j])
    lines[j] = f"{e.group(1)}#hal.ex.{kind}<{body}>{e.group(4)}{e.group(5)}"


def numbers(body):
    return [int(x) for x in re.findall(r'(-?\d+) : index', body)]


def with_numbers(body, values):
    it = iter(values)
    return re.sub(r'-?\d+ : index', lambda _: f"{next(it)} : index", body)


def mutate_dispatch_drop(rng, lines):
    lists = dispatch_lists(lines)
    if not lists:
        return None
    i, _, entries = rng.choice(lists)
    j = rng.choice(entries)
    dropped = lines[j].strip().rstrip(",").removesuffix("]}")
    if j == entries[-1]:
        if len(entries) < 2:
            return None
        tail = BINDING_ENTRY.match(lines[j])
        prev = BINDING_ENTRY.match(lines[j - 1])
        lines[j - 1] = f"{prev.group(1)}#hal.ex.{prev.group(2)}<" \
                       f"{prev.group(3)}>]}}{tail.group(5)}"
    del lines[j]
    return i, f"dispatch drops {dropped}"


def mutate_dispatch_swap(rng, lines):
    lists = dispatch_lists(lines)
    pairs = []
    for i, _, entries in lists:
        for a in entries:
            for b in entries:
                ka, ba = entry_fields(lines[a])
                kb, bb = entry_fields(lines[b])
                if a < b and ka == kb:
                    for k in range(len(numbers(ba))):
                        if numbers(ba)[k] != numbers(bb)[k]:
                            pairs.append((i, a, b, k))
    if not pairs:
        return None
    i, a, b, k = rng.choice(pairs)
    kind, ba = entry_fields(lines[a])
    _, bb = entry_fields(lines[b])
    na, nb = numbers(ba), numbers(bb)
    na[k], nb[k] = nb[k], na[k]
    set_entry(lines, a, kind, with_numbers(ba, na))
    set_entry(lines, b, kind, with_numbers(bb, nb))
    what = "push ordinals" if kind == "push_constant" and k == 0 else \
        "operands" if kind == "push_constant" else "ordinals"
    return i, f"dispatch swaps the {what} of <{ba}> and <{bb}>"


def mutate_dispatch_push_operand(rng, lines):
    sites = [(i, j, len(operands)) for i, operands, entries in
             dispatch_lists(lines) for j in entries
             if entry_fields(lines[j])[0] == "push_constant"]
    if not sites:
        return None
    i, j, count = rng.choice(sites)
    kind, body = entry_fields(lines[j])
    values = numbers(body)
    old = values[1]
    values[1] = rng.choice([o for o in range(count) if o != old] +
                           [count, 99])
    set_entry(lines, j, kind, with_numbers(body, values))
    return i, f"dispatch: <{body}> -> operand {values[1]} of {count}"


def mutate_dispatch_push_ordinal(rng, lines):
    sites = [(i, j) for i, _, entries in dispatch_lists(lines)
             for j in entries if entry_fields(lines[j])[0] == "push_constant"]
    if not sites:
        return None
    pushed = 0
    for line in lines:
        m = PUSH_COUNT.search(line)
        if m:
            pushed = int(m.group(1))
    i, j = rng.choice(sites)
    kind, body = entry_fields(lines[j])
    values = numbers(body)
    old = values[0]
    values[0] = rng.choice(sorted({0, 1, pushed, pushed + 1, 31, 32, 1000} -
                                  {old}))
    set_entry(lines, j, kind, with_numbers(body, values))
    return i, f"dispatch: <{body}> -> push constant {values[0]} " \
              f"(interface has {pushed})"


def mutate_dispatch_buffer(rng, lines):
    sites = [(i, j, len(operands)) for i, operands, entries in
             dispatch_lists(lines) for j in entries
             if entry_fields(lines[j])[0] != "push_constant"]
    if not sites:
        return None
    i, j, count = rng.choice(sites)
    kind, body = entry_fields(lines[j])
    values = numbers(body)
    names = sorted({m.group(1) for m in map(IFACE_LINE.match, lines) if m})
    old_name = re.match(r'"([^"]*)"', body)
    if rng.random() < 0.4 and old_name:
        # Another binding's name, or none.
        new = rng.choice([n for n in names if n != old_name.group(1)] +
                         ["missing"])
        set_entry(lines, j, kind, body.replace(old_name.group(0), f'"{new}"'))
        return i, f"dispatch: <{body}> names \"{new}\""
    if kind == "result_buffer":
        values[0] = rng.choice([values[0] + 1, 5])
    else:
        values[0] = rng.choice([o for o in range(count) if o != values[0]] +
                               [count, 99])
    set_entry(lines, j, kind, with_numbers(body, values))
    return i, f"dispatch: {kind}<{body}> -> ordinal {values[0]}"


def mutate_entry_remove(rng, lines):
    sites = [i for i, line in enumerate(lines) if ENTRY_POINT.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    removed = lines.pop(i)
    return i, f"removed `{show(removed)}`"


def mutate_entry_rename(rng, lines):
    sites = [i for i, line in enumerate(lines) if ENTRY_POINT.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    name = ENTRY_POINT.search(lines[i]).group(2)
    new = f"{name}_renamed"
    if rng.random() < 0.5:
        # The entry point only: it names no function.
        lines[i] = lines[i].replace(f"@{name},", f"@{new},")
        return i, f"spirv.EntryPoint @{name} -> @{new} (function not renamed)"
    # The function, its entry point and execution modes: the HAL entry
    # point @name has no spirv.EntryPoint.
    pattern = re.compile(rf'(spirv\.func|spirv\.EntryPoint "\w+"|'
                         rf'spirv\.ExecutionMode) @{re.escape(name)}\b')
    for k, line in enumerate(lines):
        lines[k] = pattern.sub(rf'\1 @{new}', line)
    return i, f"spirv.func, EntryPoint and ExecutionMode @{name} -> @{new}"


def mutate_entry_model(rng, lines):
    sites = [i for i, line in enumerate(lines) if ENTRY_POINT.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = ENTRY_POINT.search(lines[i])
    new = rng.choice([x for x in ("Vertex", "Fragment", "Kernel", "GLCompute")
                      if x != m.group(1)])
    lines[i] = replace_span(lines[i], m, 1, new)
    return i, f"spirv.EntryPoint \"{m.group(1)}\" @{m.group(2)} -> \"{new}\""


def mutate_store_to_read(rng, lines):
    """Points the AccessChain feeding a storage-buffer store at another
    storage buffer: another addressof value of the function, or the
    addressof itself at another global."""
    globals_ = [m.group(1) for m in map(STORAGE_GLOBAL.match, lines) if m]
    funcs = [i for i, line in enumerate(lines) if SPIRV_FUNC.match(line)]
    sites = []
    for n, start in enumerate(funcs):
        end = funcs[n + 1] if n + 1 < len(funcs) else len(lines)
        chains = {m.group(1): (k, m) for k, m in
                  ((k, ACCESS_CHAIN.match(lines[k])) for k in range(start, end))
                  if m}
        addresses = {m.group(1): (k, m.group(2)) for k, m in
                     ((k, ADDRESS_OF.match(lines[k]))
                      for k in range(start, end))
                     if m}
        for k in range(start, end):
            s = STORE.match(lines[k])
            if s and s.group(1) in chains and \
                    chains[s.group(1)][1].group(2) in addresses:
                sites.append((chains[s.group(1)], addresses))
    if not sites:
        return None
    (k, m), addresses = rng.choice(sites)
    base = m.group(2)
    others = [v for v in addresses if v != base]
    if others and rng.random() < 0.5:
        new = rng.choice(others)
        lines[k] = replace_span(lines[k], m, 2, new)
        return k, f"store through {base} -> {new} ({m.group(1)})"
    a, old_global = addresses[base]
    choices = [g for g in globals_ if g != old_global]
    if not choices:
        return None
    new = rng.choice(choices)
    lines[a] = lines[a].replace(f"addressof @{old_global} ",
                                f"addressof @{new} ")
    return a, f"store through {base} = addressof @{old_global} -> @{new}"


# The HAL level of modules that record their own dispatches (the chunks of
# test/Exec/Vulkan/Inputs/kernels.mlir).
WORKGROUPS = re.compile(r'\bworkgroups\(\[(%[\w$.-]+), (%[\w$.-]+), '
                        r'(%[\w$.-]+)\]\)')
LAYOUT_PUSH = re.compile(r'hal\.executable_layout\.lookup .*'
                         r'\bpush_constants\((\d+)\)')
LAYOUT_BINDING = re.compile(
    r'#hal\.descriptor_set_layout_binding<(\d+), "\w+", (\w+)>')
PUSH_OFFSET = re.compile(r'hal\.command_buffer\.push_constants<.*'
                         r'\boffset\((\d+)\)')
DESCRIPTOR = re.compile(r'hal\.command_buffer\.push_descriptor_set<.*'
                        r'bindings\(\[(%[\w$.-]+) = \((%[\w$.-]+) : '
                        r'!hal\.buffer\)\[(%[\w$.-]+), (%[\w$.-]+)\]\]\)')


def new_constant(lines, i, value):
    """A fresh index constant defined before line `i` (which moves down)."""
    name = f"%mutant{i}"
    lines[i:i] = [f"{indent_of(lines[i])}{name} = arith.constant {value} "
                  ": index"]
    return name


def mutate_hal_workgroups(rng, lines):
    sites = [i for i, line in enumerate(lines) if WORKGROUPS.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = WORKGROUPS.search(lines[i])
    dim = rng.choice([1, 1, 2, 3])
    value = rng.choice([0, 65535, 65536] + BIG[2:] + [-1])
    old = m.group(dim)
    name = new_constant(lines, i, value)
    lines[i + 1] = replace_span(lines[i + 1], m, dim, name)
    return i, f"dispatch workgroups: dimension {dim - 1} {old} -> {value}"


def mutate_hal_push(rng, lines):
    sites = [(i, p) for i, line in enumerate(lines)
             for p in (LAYOUT_PUSH, PUSH_OFFSET) if p.search(line)]
    if not sites:
        return None
    i, p = rng.choice(sites)
    m = p.search(lines[i])
    old = int(m.group(1))
    if p is LAYOUT_PUSH:
        new = rng.choice(sorted({0, 1, old + 1, 32, 33} - {old}))
        lines[i] = replace_span(lines[i], m, 1, new)
        return i, f"executable layout push_constants({old}) -> ({new})"
    new = rng.choice([2, 4, 120, 124, 128, 4096])
    lines[i] = replace_span(lines[i], m, 1, new)
    return i, f"push_constants offset({old}) -> offset({new})"


def mutate_hal_descriptor(rng, lines):
    sites = [(i, p) for i, line in enumerate(lines)
             for p in (LAYOUT_BINDING, DESCRIPTOR) if p.search(line)]
    if not sites:
        return None
    i, p = rng.choice(sites)
    m = p.search(lines[i])
    if p is LAYOUT_BINDING:
        if rng.random() < 0.5:
            new = rng.choice([b for b in (0, 1, 7, 1000)
                              if b != int(m.group(1))])
            lines[i] = replace_span(lines[i], m, 1, new)
            return i, f"layout binding {m.group(1)} -> {new}"
        new = rng.choice([a for a in ("R", "DW", "RW", "W") if a != m.group(2)])
        lines[i] = replace_span(lines[i], m, 2, new)
        return i, f"layout binding access {m.group(2)} -> {new}"
    # The descriptor's binding ordinal, offset or length.
    field = rng.choice([1, 3, 4])
    value = rng.choice({1: [1, 7, 1000], 3: [4, 16, 36, 40, 2**32],
                        4: [0, 4, 39, 41, 4096, 2**32, -1]}[field])
    old = m.group(field)
    name = new_constant(lines, i, value)
    lines[i + 1] = replace_span(lines[i + 1], m, field, name)
    what = {1: "binding", 3: "offset", 4: "length"}[field]
    return i, f"push_descriptor_set {what} {old} -> {value}"


# Whole-kernel edits, spelled the same everywhere so that the module still
# parses: storage classes, strides, the module's requirements, built-ins.
SPIRV_MODULE = re.compile(r'^(\s*)spirv\.module (\w+) (\w+) requires '
                          r'#spirv\.vce<(v[\d.]+), \[([^\]]*)\], '
                          r'\[([^\]]*)\]>')
BUILT_IN = re.compile(r'built_in\("(\w+)"\)')
STRIDE = re.compile(r'stride=(\d+)')


def spirv_lines(lines):
    """The lines inside spirv.modules."""
    inside, depth, found = False, 0, []
    for i, line in enumerate(lines):
        if SPIRV_MODULE.match(line):
            inside, depth = True, 0
        if inside:
            found.append(i)
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                inside = False
    return found


def mutate_storage_class(rng, lines):
    sites = [i for i in spirv_lines(lines) if ", StorageBuffer>" in lines[i]]
    if not sites:
        return None
    new = rng.choice(["Uniform", "Workgroup", "Private", "CrossWorkgroup",
                      "PhysicalStorageBuffer"])
    for i in spirv_lines(lines):
        lines[i] = lines[i].replace(", StorageBuffer>", f", {new}>") \
            .replace('"StorageBuffer"', f'"{new}"')
    return sites[0], f"every StorageBuffer pointer, load and store -> {new}"


def mutate_stride(rng, lines):
    sites = [i for i in spirv_lines(lines) if STRIDE.search(lines[i])]
    if not sites:
        return None
    old = STRIDE.search(lines[sites[0]]).group(1)
    new = rng.choice([s for s in ("0", "1", "2", "8", "16", "4096")
                      if s != old])
    for i in spirv_lines(lines):
        lines[i] = lines[i].replace(f"stride={old}", f"stride={new}")
    return sites[0], f"every stride={old} -> stride={new}"


def mutate_vce(rng, lines):
    sites = [i for i, line in enumerate(lines) if SPIRV_MODULE.match(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = SPIRV_MODULE.match(lines[i])
    field = rng.choice([2, 4, 4, 5, 5, 6])
    choices = {
        2: ["Physical64", "PhysicalStorageBuffer64"],
        4: ["v1.0", "v1.5", "v1.6"],
        5: ["", "Kernel", "Shader, Float64", "Shader, Int64, Int8",
            "Shader, Kernel", "Shader, Addresses"],
        6: ["SPV_KHR_storage_buffer_storage_class",
            "SPV_KHR_variable_pointers", "SPV_KHR_no_such_extension"],
    }[field]
    new = rng.choice([c for c in choices if c != m.group(field)])
    before = show(lines[i][m.start(2):m.end()], 60)
    lines[i] = replace_span(lines[i], m, field, new)
    m = SPIRV_MODULE.match(lines[i])
    after = show(lines[i][m.start(2):m.end()], 60)
    return i, f"spirv.module {before} -> {after}"


def mutate_builtin(rng, lines):
    sites = [i for i, line in enumerate(lines) if BUILT_IN.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    m = BUILT_IN.search(lines[i])
    if rng.random() < 0.15:
        # An Input variable that is no built-in at all.
        lines[i] = lines[i][:m.start()].rstrip() + " " + \
            lines[i][m.end():].lstrip()
        return i, f'{m.group()} removed'
    if rng.random() < 0.25:
        # The built-in's type, everywhere it is spelled.
        new = rng.choice(["vector<4xi32>", "vector<2xi32>", "vector<3xi64>",
                          "vector<3xf32>", "vector<3xi16>"])
        for k in spirv_lines(lines):
            lines[k] = lines[k].replace("vector<3xi32>", new)
        return i, f"every vector<3xi32> (the {m.group(1)} type) -> {new}"
    new = rng.choice([b for b in ("LocalInvocationId", "WorkgroupId",
                                  "NumWorkgroups", "WorkgroupSize",
                                  "FragCoord", "Position", "GlobalInvocationId")
                      if b != m.group(1)])
    lines[i] = replace_span(lines[i], m, 1, new)
    return i, f'built_in("{m.group(1)}") -> built_in("{new}")'


def mutate_entry_interface(rng, lines):
    sites = [i for i, line in enumerate(lines)
             if ENTRY_POINT.search(line) and line.rstrip().count("@") > 1]
    if not sites:
        return None
    i = rng.choice(sites)
    m = re.search(r'(@[\w$.-]+)((?:, @[\w$.-]+)+)\s*$', lines[i])
    lines[i] = lines[i][:m.start(2)]
    return i, f"spirv.EntryPoint {m.group(1)} drops its interface" \
              f"{m.group(2)}"


def mutate_duplicate(rng, lines):
    sites = [i for i, line in enumerate(lines)
             if ENTRY_POINT.search(line) or LOCAL_SIZE.search(line)]
    if not sites:
        return None
    i = rng.choice(sites)
    copy = lines[i]
    m = LOCAL_SIZE.search(copy)
    if m and rng.random() < 0.5:
        copy = replace_span(copy, m, 2, int(m.group(2)) * 2)
    lines.insert(i + 1, copy)
    return i, f"duplicated as `{show(copy.strip(), 60)}`"


# i32 results: those spelled `: i32` but comparisons (whose operands are),
# and a component of an i32 vector.
I32_DEF = re.compile(r'^\s*(%[\w$.-]+) = spirv\.(?!\w*(LessThan|GreaterThan|'
                     r'Equal))[\w.]+ (.* : i32|%[\w$.-]+\[\d+ : i32\] : '
                     r'vector<\d+xi32>)\s*$')
I32_OP = re.compile(r'^(\s*%[\w$.-]+ = spirv\.(?:IAdd|ISub|IMul|UDiv|UMod|'
                    r'ULessThan|SLessThan|IEqual) )(%[\w$.-]+), '
                    r'(%[\w$.-]+)( : i32\s*)$')


def mutate_kernel_operand(rng, lines):
    """An i32 operand of a kernel's arithmetic or comparison replaced by
    another i32 value defined before it in the same function (loop bounds,
    indices and sizes go wrong: a loop that never ends, an index past a
    binding)."""
    funcs = [i for i, line in enumerate(lines) if SPIRV_FUNC.match(line)]
    sites = []
    for n, start in enumerate(funcs):
        end = funcs[n + 1] if n + 1 < len(funcs) else len(lines)
        defined = []
        for k in range(start, end):
            m = I32_OP.match(lines[k])
            if m and defined:
                sites.append((k, list(defined)))
            d = I32_DEF.match(lines[k])
            if d:
                defined.append(d.group(1))
    if not sites:
        return None
    k, defined = rng.choice(sites)
    m = I32_OP.match(lines[k])
    which = rng.choice([2, 3])
    choices = [v for v in defined if v != m.group(which)]
    if not choices:
        return None
    new = rng.choice(choices)
    before = lines[k].strip()
    lines[k] = replace_span(lines[k], m, which, new)
    return k, f"`{show(before, 50)}`: {m.group(which)} -> {new}"


KINDS = {
    "spirv-bind-binding": (mutate_bind_binding,
                           "a SPIR-V bind(S, B): B to another or no binding"),
    "spirv-bind-set": (mutate_bind_set, "a SPIR-V bind(S, B): S to 1, 2, 7"),
    "iface-binding": (mutate_iface_binding,
                      "an interface binding's binding=N"),
    "iface-set": (mutate_iface_set, "an interface binding's set=N"),
    "iface-access": (mutate_iface_access,
                     "an interface binding's access (Read, Write|Discard, "
                     "Read|Write, Write)"),
    "iface-type": (mutate_iface_type, "an interface binding's type="),
    "push-constants": (mutate_push_count,
                       "the interface's push_constants = N"),
    "pc-struct-grow": (mutate_pc_grow,
                       "members added to the PushConstant struct, everywhere"),
    "pc-struct-shrink": (mutate_pc_shrink,
                         "members dropped from the PushConstant struct"),
    "pc-struct-offset": (mutate_pc_offset,
                         "a PushConstant member's offset moved"),
    "pc-struct-remove": (mutate_pc_remove,
                         "the PushConstant global variable removed"),
    "local-size": (mutate_local_size,
                   "a LocalSize dimension: 0, 1, 2048, 65536, huge"),
    "local-size-remove": (mutate_local_size_remove,
                          "a LocalSize execution mode removed"),
    "wg-divui": (mutate_wg_divui, "a count region's ceildivui -> divui"),
    "wg-scale": (mutate_wg_scale,
                 "a count region's result multiplied or divided by a "
                 "constant"),
    "wg-zero": (mutate_wg_zero,
                "a count region returns 0, or its constants are 0, -1, 3"),
    "dispatch-drop": (mutate_dispatch_drop,
                      "an entry of a dispatch's hal.bindings dropped"),
    "dispatch-swap": (mutate_dispatch_swap,
                      "two ordinals of a dispatch's hal.bindings swapped"),
    "dispatch-push-operand": (mutate_dispatch_push_operand,
                              "a push_constant pointed at another operand"),
    "dispatch-push-ordinal": (mutate_dispatch_push_ordinal,
                              "a push_constant's push ordinal changed"),
    "dispatch-buffer": (mutate_dispatch_buffer,
                        "a buffer entry's operand, result or binding name"),
    "entry-point-remove": (mutate_entry_remove, "a spirv.EntryPoint removed"),
    "entry-point-rename": (mutate_entry_rename,
                           "a spirv.EntryPoint renamed (alone or with its "
                           "function)"),
    "entry-point-model": (mutate_entry_model,
                          "a spirv.EntryPoint's execution model changed"),
    "store-to-read": (mutate_store_to_read,
                      "a spirv.Store's AccessChain moved to another "
                      "(Read) binding"),
    "spirv-storage-class": (mutate_storage_class,
                            "every StorageBuffer pointer to another storage "
                            "class"),
    "spirv-stride": (mutate_stride, "every runtime array's stride changed"),
    "spirv-vce": (mutate_vce, "a spirv.module's addressing model, version, "
                  "capabilities or extensions"),
    "spirv-builtin": (mutate_builtin, "a built_in variable's built-in, "
                      "its type everywhere, or none"),
    "entry-point-interface": (mutate_entry_interface,
                              "a spirv.EntryPoint without its interface "
                              "variables"),
    "spirv-duplicate": (mutate_duplicate,
                        "a spirv.EntryPoint or ExecutionMode duplicated "
                        "(the copy's LocalSize maybe doubled)"),
    "kernel-operand": (mutate_kernel_operand,
                       "an i32 operand of a kernel's arithmetic or "
                       "comparison replaced by another i32 value"),
    "hal-workgroups": (mutate_hal_workgroups,
                       "a recorded dispatch's workgroups: 0, 65536, huge"),
    "hal-push-constants": (mutate_hal_push,
                           "an executable layout's push_constants(N) or a "
                           "push_constants offset"),
    "hal-descriptor": (mutate_hal_descriptor,
                       "a layout binding's ordinal or access, or a "
                       "push_descriptor_set binding, offset or length"),
}


class Case:
    """A file, its hal-exec arguments, and the lines a mutant may edit."""

    def __init__(self, spec):
        self.spec = spec
        self.path, *self.args = shlex.split(spec)
        with open(self.path) as f:
            self.text = f.read()
        self.lines = self.text.split("\n")
        self.lo, self.hi = 0, len(self.lines)
        self.applicable = {}
        function = [a.split("=", 1)[1] for a in self.args
                    if a.startswith("--function=")]
        if "--split-input-file" in self.args and function:
            marks = [i for i, line in enumerate(self.lines)
                     if line.strip() == SPLIT_MARKER]
            starts = [0] + [i + 1 for i in marks]
            ends = marks + [len(self.lines)]
            for lo, hi in zip(starts, ends):
                if any(re.match(rf'\s*func\.func @{re.escape(function[0])}\(',
                                line) for line in self.lines[lo:hi]):
                    self.lo, self.hi = lo, hi
                    break
            else:
                sys.exit(f"mutate_kernels: no chunk of {self.path} defines "
                         f"@{function[0]}")

    def edit(self, rng, kind):
        chunk = self.lines[self.lo:self.hi]
        done = KINDS[kind][0](rng, chunk)
        if not done:
            return None
        text = "\n".join(self.lines[:self.lo] + chunk + self.lines[self.hi:])
        if text == self.text:
            return None
        return kind, self.lo + done[0] + 1, done[1], text

    def mutate(self, seed, kinds):
        """(kind, line number, what, mutated text) of mutant `seed`: the
        kinds that apply to the case taken in turn (so that every kind gets
        its share of a short run), the edit drawn from the seed."""
        key = tuple(kinds)
        if key not in self.applicable:
            self.applicable[key] = [
                k for k in kinds
                if any(self.edit(random.Random(s), k) for s in range(8))]
        applicable = self.applicable[key]
        if not applicable:
            return None
        rng = random.Random(seed)
        first = seed % len(applicable)
        for kind in applicable[first:] + applicable[:first]:
            for _ in range(8):
                done = self.edit(rng, kind)
                if done:
                    return done
        return None


def judge(status, stderr, late, validate):
    """(verdict, note) of one run: ok, diagnosed or BAD."""
    why = abnormal_end(status, stderr, late)
    if why and status is not None and status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "signal"
        why = f"signal {-status} ({name})"
    if why:
        return "BAD", why
    lines = stderr.splitlines()
    if status == 0:
        if validate and VALIDATION_TEXT.search(stderr):
            return "BAD", "exit 0 with a validation message"
        if any("error:" in line for line in lines):
            return "BAD", "exit 0 with an error: on stderr"
        return "ok", ""
    located = [line for line in lines if LOCATED_ERROR.match(line)]
    if located:
        return "diagnosed", located[0]
    if validate and VALIDATION_TEXT.search(stderr):
        return "BAD", "exit 1 with an unlocated validation message"
    return "BAD", "exit 1 without a located error:"


def first_line(stderr):
    for line in stderr.splitlines():
        if "error" in line.lower() or "Validation" in line:
            return line
    lines = stderr.strip().splitlines()
    return lines[0] if lines else ""


def run_mutant(job, hal_exec, timeout):
    """Runs one mutant without and with --validate."""
    results = []
    for validate in (False, True):
        command = [hal_exec, job["file"]] + job["args"] + \
            (["--validate"] if validate else [])
        status, stderr, late = run(command, timeout)
        verdict, note = judge(status, stderr, late, validate)
        results.append({"validate": validate, "command": command,
                        "status": status, "stderr": stderr,
                        "verdict": verdict, "note": note})
    return job, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hal-exec", default=os.path.join(
        ROOT, "build", "bin", "hal-exec"))
    parser.add_argument("--case", action="append",
                        help="'FILE [HAL-EXEC ARGS...]', shell-quoted "
                        "(repeatable; default: mlp_vulkan.mlir and the iota "
                        "chunk of Vulkan/Inputs/kernels.mlir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100,
                        help="mutants per case")
    parser.add_argument("--jobs", type=int, default=2,
                        help="mutants run in parallel")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds per run")
    parser.add_argument("--keep", help="directory for BAD mutants, their "
                        "diffs and commands")
    parser.add_argument("--only", action="append", default=[],
                        metavar="KIND", help="mutate only this kind "
                        "(repeatable)")
    parser.add_argument("--list-kinds", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print each BAD run's stderr tail")
    opts = parser.parse_args()
    if opts.list_kinds:
        for name, (_, what) in KINDS.items():
            print(f"{name:22} {what}")
        return 0
    for kind in opts.only:
        if kind not in KINDS:
            parser.error(f"unknown kind {kind} (see --list-kinds)")
    kinds = opts.only or list(KINDS)
    cases = [Case(spec) for spec in
             opts.case or [c.format(root=ROOT) for c in DEFAULT_CASES]]

    workdir = tempfile.mkdtemp(prefix="mutate_kernels.")
    try:
        # The unmutated cases must run clean: otherwise every mutant would
        # fail for the same reason (a path, an option, a missing device).
        for case in cases:
            for validate in (False, True):
                command = [opts.hal_exec, case.path] + case.args + \
                    (["--validate"] if validate else [])
                status, stderr, late = run(command, opts.timeout)
                if judge(status, stderr, late, validate)[0] != "ok":
                    print("mutate_kernels: the unmutated case fails: " +
                          " ".join(map(shlex.quote, command)) + "\n" +
                          stderr, file=sys.stderr)
                    return 2

        jobs = []
        for c, case in enumerate(cases):
            for n in range(opts.count):
                seed = opts.seed + n
                done = case.mutate(seed, kinds)
                if not done:
                    sys.exit(f"mutate_kernels: no kind of {', '.join(kinds)} "
                             f"applies to {case.path}")
                kind, line, what, text = done
                path = os.path.join(workdir, f"c{c}s{seed}.mlir")
                with open(path, "w") as f:
                    f.write(text)
                jobs.append({"case": case, "index": c, "seed": seed,
                             "kind": kind,
                             "line": line, "what": what, "file": path,
                             "text": text, "args": case.args})

        start = time.monotonic()
        verdicts = {"ok": 0, "diagnosed": 0, "BAD": 0}
        by_kind = {}
        bad = []
        layer_only = []
        with concurrent.futures.ThreadPoolExecutor(max(opts.jobs, 1)) as pool:
            for job, results in pool.map(
                    lambda j: run_mutant(j, opts.hal_exec, opts.timeout), jobs):
                names = [r["verdict"] for r in results]
                verdict = "BAD" if "BAD" in names else \
                    "diagnosed" if "diagnosed" in names else "ok"
                verdicts[verdict] += 1
                counts = by_kind.setdefault(job["kind"],
                                            {"ok": 0, "diagnosed": 0, "BAD": 0})
                counts[verdict] += 1
                runs = ", ".join(
                    f"{'validate' if r['validate'] else 'plain'} "
                    f"{r['verdict']}" for r in results)
                if names == ["ok", "diagnosed"] and \
                        "Vulkan validation" in results[1]["note"]:
                    layer_only.append(job)
                if verdict == "BAD":
                    worst = next(r for r in results if r["verdict"] == "BAD")
                    note = f"{worst['note']}" + \
                        (" with --validate" if worst["validate"] else "")
                    detail = first_line(worst["stderr"])
                    bad.append((job, results))
                else:
                    detail = next((r["note"] for r in results if r["note"]),
                                  "")
                detail = detail.replace(workdir + os.sep, "")
                label = f"case {job['index']} " if len(cases) > 1 else ""
                print(f"{label}seed {job['seed']} {job['kind']} "
                      f"line {job['line']}: "
                      f"{job['what']}: {verdict} ({runs})"
                      f"{': ' + note if verdict == 'BAD' else ''}"
                      f"{' | ' + show(detail, 160) if detail else ''}",
                      flush=True)
                if verdict == "BAD" and opts.verbose:
                    for r in results:
                        if r["verdict"] == "BAD":
                            for line in r["stderr"].strip().splitlines()[-5:]:
                                print("  | " + line)
        elapsed = time.monotonic() - start

        if bad and opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            with open(os.path.join(opts.keep, "commands.sh"), "a") as out:
                for job, results in bad:
                    name = os.path.basename(job["file"])
                    kept = os.path.join(opts.keep, name)
                    shutil.copyfile(job["file"], kept)
                    diff = difflib.unified_diff(
                        job["case"].text.splitlines(True),
                        job["text"].splitlines(True),
                        fromfile=job["case"].path, tofile=kept)
                    with open(kept + ".diff", "w") as f:
                        f.writelines(diff)
                    out.write(f"# seed {job['seed']} {job['kind']}: "
                              f"{job['what']}\n")
                    for r in results:
                        if r["verdict"] == "BAD":
                            command = [c.replace(job["file"], kept)
                                       for c in r["command"]]
                            out.write(" ".join(map(shlex.quote, command)) +
                                      f"  # {r['note']}\n")
            print(f"BAD mutants, diffs and commands kept in {opts.keep}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    for kind in sorted(by_kind):
        c = by_kind[kind]
        print(f"  {kind:22} ok {c['ok']:3}  diagnosed {c['diagnosed']:3}  "
              f"BAD {c['BAD']:3}")
    if layer_only:
        # Not BAD (the layer reported it), but only the layer did: without
        # --validate the run exited 0.
        print(f"  {len(layer_only)} diagnosed only by the validation layer "
              "(exit 0 without --validate): seeds " +
              ", ".join(f"{j['seed']} ({j['kind']}"
                        f"{', case %d' % j['index'] if len(cases) > 1 else ''})"
                        for j in layer_only))
    total = len(jobs)
    print(f"mutate_kernels: {total} mutants ({2 * total} runs, seed "
          f"{opts.seed}, {opts.jobs} jobs, {elapsed:.1f} s, "
          f"{elapsed / max(total, 1):.2f} s a mutant): {verdicts['ok']} ok, "
          f"{verdicts['diagnosed']} diagnosed, {verdicts['BAD']} BAD")
    return 1 if verdicts["BAD"] else 0


if __name__ == "__main__":
    sys.exit(main())
