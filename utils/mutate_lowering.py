#!/usr/bin/env python3
# ===- mutate_lowering.py - Mutation test of the lowering ----*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Runs hal-opt pipelines and hal-exec on mutants of flow-level modules.

Users hand the lowering their own flow modules, so any input must be
lowered or refused with a located error: exit status 0, or 1 with an
`error:` at a location on stderr. Anything else is a failure: a signal
(abort, segfault, SIGFPE), an `LLVM ERROR`, a stack dump, an assertion or
sanitizer report (recognized by their text), another exit status, an
error without a location, or a run longer than --timeout. A module that a
pipeline lowers must also lower correctly: `hal-exec MUTANT
--check-lowering=PIPELINE` must agree with the flow level, or the flow
level alone must refuse the module (`hal-exec MUTANT`); a mismatch or a
HAL-level error on a module whose flow level runs is a miscompile.

Each case is a flow-level .mlir file, split on `// -----`; chunks that do
not parse and verify unmutated (the error tests) are skipped:

    mutate_lowering.py --hal-opt=build/bin/hal-opt \\
        --hal-exec=build/bin/hal-exec --seed=1 --count=100 \\
        --case test/Conversion/FlowToHAL/dispatch.mlir --case gen.mlir

Each mutant changes a chunk in 1-3 places: an integer literal or a tensor
dim set to an extreme, a neighbour, 0 or a negative value (in one place, or
in every occurrence of that tensor type, which keeps the module well
typed), a dim made dynamic or static, an element type changed (i1, i8, f16,
f64, index, complex, ...), an SSA use swapped for another value, an op line
deleted, duplicated or swapped with the next, a tied-operand `-> %x`
retargeted, dropped or added, a binding, workgroup count, push constant,
access or memory type changed, or a terminator's operands altered. Every
mutant runs through each --pipeline (defaults below); for those that lower,
one pipeline (in turn) is checked with hal-exec. Everything is
deterministic from --seed; failures are kept under --keep with the
commands that reproduce them.
"""

import argparse
import os
import random
import re
import shlex
import shutil
import sys
import tempfile

from mutation_common import abnormal_end, run

# The lowering as README.md describes it, and variants over every option of
# convert-flow-to-hal and the passes users put around it.
PIPELINES = [
    "streamhal-lower-to-hal",
    "flow-materialize-copy-on-write,convert-flow-to-hal{copies=always "
    "barriers=full submission=blocking},hal-pack-allocations,canonicalize",
    "convert-flow-to-hal{copies=elide barriers=hazard submission=async},"
    "canonicalize,hal-place-barriers,hal-verify-command-buffers",
    "canonicalize,flow-schedule-fragments,convert-flow-to-hal{barriers=none "
    "submission=blocking},hal-pack-allocations{strategy=optimal},"
    "canonicalize,hal-place-barriers,hal-schedule-submissions,"
    "hal-verify-command-buffers",
    "flow-schedule-fragments,convert-flow-to-hal{barriers=full},"
    "hal-pack-allocations{strategy=in-order},hal-verify-command-buffers",
]

EXTREMES = [
    0, 1, -1, 2, 3, 7, 15, 16, 17, 63, 64, 65, 255, 256, 1023, 1024, 1025,
    2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33, 2**62,
    2**63 - 1, -(2**63), -(2**31),
]
DIMS = [0, 1, 2, 3, 5, 7, 8, 1024, 2**16 + 1, 2**31, 2**32, 2**62, 2**63 - 1]
ELEMENTS = ["i1", "i2", "i8", "i16", "i32", "i64", "i128", "f16", "bf16",
            "f32", "f64", "index", "complex<f32>", "complex<f64>", "si8",
            "ui32", "f8E4M3FN", "i7", "tensor<2xf32>"]

# Text that marks an abort or undefined behaviour, whatever the exit status.
# hal-exec's reports of a lowering that computes something else.
MISMATCH_MARKERS = [
    "differs from the flow level", "share bytes in memory but are different",
    "was changed by the HAL level", "but the flow level returns",
    "the HAL level runs", "the lowering pipeline",
]

INT_LITERAL = re.compile(r'(?<![\w%@#."$<-])-?\d+(?![\w."])')
SSA_USE = re.compile(r'%[\w$.-]+')
# tensor<...> with at most one level of nested <> (complex<f32>).
TENSOR = re.compile(r'tensor<((?:[^<>]|<[^<>]*>)*)>')
OP_LINE = re.compile(r'^\s*(%[\w$.-]+(:\d+)?\s*=\s*)?'
                     r'(flow|hal|util|arith|func)\.(?!func\b)[\w.]+')
TIE = re.compile(r'->\s*(%[\w$.-]+)')
BINDING = re.compile(r'#hal\.ex\.(operand_buffer|result_buffer|push_constant)'
                     r'<("[\w$.-]*",\s*)?(-?\d+) : index>')
KEYWORDS = [
    ('access="Read"', 'access="Write|Discard"'),
    ('access="Write|Discard"', 'access="Read"'),
    ('access="Read"', 'access="Read|Write"'),
    ('access="Read|Write"', 'access="Read"'),
    ('access="Write|Discard"', 'access="Read|Write"'),
    ('type="StorageBuffer"', 'type="UniformBuffer"'),
    ("type(DeviceLocal|HostVisible)", "type(DeviceLocal)"),
    ("type(DeviceLocal)", "type(HostVisible)"),
    ("operand_buffer", "result_buffer"),
    ("result_buffer", "operand_buffer"),
    ("push_constant<", "operand_buffer<"),
    ("flow.tensor.clone", "flow.tensor.reshape"),
    ("flow.tensor.slice", "flow.tensor.update"),
    ("private", "public"),
    ("public", "private"),
]


def pick(rng, pattern, text):
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def splice(text, start, end, new):
    return text[:start] + new + text[end:]


def mutate_int(rng, text):
    m = pick(rng, INT_LITERAL, text)
    if not m:
        return None
    value = int(m.group())
    new = rng.choice(EXTREMES + [value + 1, value - 1, -value, value * 2])
    return splice(text, m.start(), m.end(), str(new)), f"int {value} -> {new}"


def split_tensor(body):
    """['4', '?', 'f32'] for 4x?xf32; a rank-0 type is just its element."""
    parts = []
    rest = body
    while True:
        m = re.match(r'(\?|-?\d+)x', rest)
        if not m:
            break
        parts.append(m.group(1))
        rest = rest[m.end():]
    return parts + [rest]


def join_tensor(parts):
    return "tensor<" + "x".join(parts) + ">"


def rewrite_tensor(rng, text, change, everywhere):
    """Applies `change` (parts -> parts or None) to one tensor type, or to
    every occurrence of that type in the text."""
    m = pick(rng, TENSOR, text)
    if not m:
        return None
    parts = change(split_tensor(m.group(1)))
    if parts is None:
        return None
    new = join_tensor(parts)
    if everywhere:
        return text.replace(m.group(), new), f"every {m.group()} -> {new}"
    return splice(text, m.start(), m.end(), new), f"{m.group()} -> {new}"


def mutate_dim(rng, text):
    def change(parts):
        if len(parts) < 2:
            return None
        d = rng.randrange(len(parts) - 1)
        old = parts[d]
        choices = DIMS + ["-1", "?"]
        if old.isdigit():
            choices += [int(old) + 1, int(old) - 1, int(old) * 2]
        parts[d] = str(rng.choice(choices))
        return parts
    return rewrite_tensor(rng, text, change, rng.random() < 0.6)


def mutate_rank(rng, text):
    def change(parts):
        if len(parts) > 1 and rng.random() < 0.5:
            del parts[rng.randrange(len(parts) - 1)]
        else:
            parts.insert(rng.randrange(len(parts)), str(rng.choice([1, 2])))
        return parts
    return rewrite_tensor(rng, text, change, rng.random() < 0.6)


def mutate_element(rng, text):
    def change(parts):
        parts[-1] = rng.choice(ELEMENTS)
        return parts
    return rewrite_tensor(rng, text, change, rng.random() < 0.7)


def mutate_dynamic(rng, text):
    """A `?` made static (and its dims operand dropped), or a static dim made
    dynamic (with some index value as its dims operand)."""
    m = pick(rng, TENSOR, text)
    if not m:
        return None
    parts = split_tensor(m.group(1))
    if len(parts) < 2:
        return None
    d = rng.randrange(len(parts) - 1)
    dims = re.match(r'\{([^{}]*)\}', text[m.end():])
    end = m.end() + (dims.end() if dims else 0)
    values = [v.strip() for v in dims.group(1).split(",")] if dims else []
    values = [v for v in values if v]
    if parts[d] == "?":
        parts[d] = str(rng.choice([0, 1, 4, 8, 2**32]))
        if values and rng.random() < 0.8:
            del values[rng.randrange(len(values))]
    else:
        parts[d] = "?"
        names = sorted(set(SSA_USE.findall(text)))
        if names and rng.random() < 0.8:
            values.insert(rng.randrange(len(values) + 1), rng.choice(names))
    new = join_tensor(parts) + ("{" + ", ".join(values) + "}"
                                if values or dims else "")
    return splice(text, m.start(), end, new), \
        f"{text[m.start():end]} -> {new}"


def function_spans(lines):
    """[start, end) line ranges of func.func and util.initializer bodies."""
    starts = [i for i, line in enumerate(lines)
              if "func.func" in line or "util.initializer" in line]
    return [(s, starts[k + 1] if k + 1 < len(starts) else len(lines))
            for k, s in enumerate(starts)]


def defined_values(lines):
    defined = set()
    for line in lines:
        m = re.match(r'\s*(%[\w$.-]+)(:\d+)?\s*(,\s*%[\w$.-]+\s*)*=', line)
        if m:
            defined.update(SSA_USE.findall(line.split("=")[0]))
        # Block and region arguments: `(%a: tensor<...>, %n: index)`.
        defined.update(re.findall(r'(%[\w$.-]+)\s*:\s*[\w!<]', line))
    return defined


def mutate_use(rng, text):
    lines = text.split("\n")
    spans = function_spans(lines)
    if not spans:
        return None
    start, end = rng.choice(spans)
    defined = defined_values(lines[start:end])
    uses = []
    for i in range(start, end):
        rhs_at = lines[i].find("=") + 1 if re.match(r'\s*%', lines[i]) else 0
        for m in SSA_USE.finditer(lines[i], rhs_at):
            uses.append((i, m))
    if not uses or len(defined) < 2:
        return None
    i, m = rng.choice(uses)
    other = rng.choice(sorted(defined - {m.group()}))
    lines[i] = splice(lines[i], m.start(), m.end(), other)
    return "\n".join(lines), f"line {i + 1}: {m.group()} -> {other}"


def mutate_op(rng, text):
    lines = text.split("\n")
    ops = [i for i, line in enumerate(lines) if OP_LINE.match(line)]
    if not ops:
        return None
    i = rng.choice(ops)
    kind = rng.choice(["delete", "duplicate", "swap"])
    if kind == "delete":
        # A region opener goes with its region, up to the matching brace.
        end = i + 1
        depth = lines[i].count("{") - lines[i].count("}")
        while depth > 0 and end < len(lines):
            depth += lines[end].count("{") - lines[end].count("}")
            end += 1
        del lines[i:end]
    elif kind == "duplicate":
        # A fresh name for the copy's results; sometimes later uses read it.
        copy = re.sub(r'^(\s*)(%[\w$.-]+)', r'\1\2_dup', lines[i])
        lines.insert(i + 1, copy)
        m = re.match(r'\s*(%[\w$.-]+)\s*=', lines[i])
        if m and rng.random() < 0.5:
            name = m.group(1)
            for j in range(i + 2, len(lines)):
                if re.search(re.escape(name) + r'\b', lines[j]):
                    lines[j] = re.sub(re.escape(name) + r'(?![\w$.-])',
                                      name + "_dup", lines[j], count=1)
                    break
    elif i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines), f"{kind} line {i + 1}"


def split_top(text):
    """Splits on commas outside <>, () and {}."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(text):
        if c in "<({[":
            depth += 1
        elif c in ">)}]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def operand_types(line):
    """(operands, types) of `op(%a, %b) : (T, U) -> ...` on one line."""
    ops = re.search(r'\(([^()]*)\)\s*(\{[^{}]*\})?\s*:\s*\(((?:[^()]|\([^()]*\))*)\)', line)
    if not ops:
        return [], []
    names = [n.strip() for n in ops.group(1).split(",") if n.strip()]
    types = split_top(ops.group(3))
    return names, types


def mutate_tie(rng, text):
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines)
                  if "->" in line and ("flow." in line)]
    if not candidates:
        return None
    i = rng.choice(candidates)
    line = lines[i]
    names, types = operand_types(line)
    ties = list(TIE.finditer(line))
    kind = rng.choice(["retarget", "drop", "add"])
    if ties and kind in ("retarget", "drop"):
        m = rng.choice(ties)
        if kind == "retarget":
            others = sorted((set(names) | defined_values(lines)) - {m.group(1)})
            if not others:
                return None
            new = rng.choice(others)
            lines[i] = splice(line, m.start(1), m.end(1), new)
            return "\n".join(lines), f"line {i + 1}: tie {m.group(1)} -> {new}"
        # `-> %x as T` becomes `-> T`; `-> %x` becomes the operand's type.
        after = re.match(r'\s*as\s+', line[m.end():])
        if after:
            lines[i] = line[:m.start(1)] + line[m.end() + after.end():]
        elif m.group(1) in names and len(types) == len(names):
            lines[i] = splice(line, m.start(1), m.end(1),
                              types[names.index(m.group(1))])
        else:
            lines[i] = splice(line, m.start(1), m.end(1), "tensor<4xf32>")
        return "\n".join(lines), f"line {i + 1}: drop tie {m.group(1)}"
    # Tie a result typed like one of the operands to that operand.
    tensors = [k for k, t in enumerate(types) if t.startswith("tensor<")]
    arrow = line.rfind("->")
    if not tensors or arrow < 0:
        return None
    k = rng.choice(tensors)
    rest = line[arrow + 2:]
    at = rest.find(types[k])
    if at < 0:
        at = rest.find("tensor<")
        if at < 0:
            return None
        tm = TENSOR.match(rest, at)
        length = tm.end() - at if tm else len("tensor<")
    else:
        length = len(types[k])
    lines[i] = line[:arrow + 2] + splice(rest, at, at + length, names[k])
    return "\n".join(lines), f"line {i + 1}: tie a result to {names[k]}"


def mutate_binding(rng, text):
    m = pick(rng, BINDING, text)
    if not m:
        return None
    kind = rng.choice(["index", "name", "kind", "delete", "duplicate"])
    whole = m.group()
    if kind == "index":
        new = whole.replace(m.group(3) + " : index",
                            f"{rng.choice([0, 1, 2, 3, -1, 7, 2**31, 2**63 - 1])} : index")
    elif kind == "name":
        names = sorted(set(re.findall(r'hal\.interface\.binding @([\w$.-]+)',
                                      text))) or ["none"]
        new = re.sub(r'"[\w$.-]*"', f'"{rng.choice(names + ["zz", ""])}"',
                     whole, count=1) if m.group(2) else whole
    elif kind == "kind":
        new = whole.replace(m.group(1), rng.choice(
            ["operand_buffer", "result_buffer", "push_constant"]), 1)
    elif kind == "delete":
        start, end = m.start(), m.end()
        if text[end:end + 2] == ", ":
            end += 2
        elif text[start - 2:start] == ", ":
            start -= 2
        return splice(text, start, end, ""), f"delete {whole}"
    else:
        new = whole + ", " + whole
    return splice(text, m.start(), m.end(), new), f"{whole} -> {new}"


def mutate_workload(rng, text):
    """A dispatch's workload list or an entry point's workgroup count."""
    if rng.random() < 0.5:
        m = pick(rng, re.compile(r'(flow\.dispatch @[\w$.:@-]+)\[([^\]]*)\]'),
                 text)
        if not m:
            return None
        values = [v.strip() for v in m.group(2).split(",") if v.strip()]
        names = sorted(set(SSA_USE.findall(text))) or ["%c0"]
        kind = rng.choice(["drop", "add", "empty", "swap"])
        if kind == "drop" and values:
            del values[rng.randrange(len(values))]
        elif kind == "add":
            values.insert(rng.randrange(len(values) + 1), rng.choice(names))
        elif kind == "swap" and values:
            values[rng.randrange(len(values))] = rng.choice(names)
        else:
            values = []
        new = f"{m.group(1)}[{', '.join(values)}]"
        return splice(text, m.start(), m.end(), new), f"workload -> {new}"
    return mutate_terminator(rng, text, "hal.return")


def mutate_terminator(rng, text, op=None):
    op = op or rng.choice(["flow.return", "hal.return", "return"])
    m = pick(rng, re.compile(r'(?<![\w.])' + re.escape(op) +
                             r'(\s+([^:\n]*?)\s*:\s*([^\n]*))?$', re.M), text)
    if not m:
        return None
    values = [v.strip() for v in (m.group(2) or "").split(",") if v.strip()]
    types = split_top(m.group(3) or "")
    kind = rng.choice(["drop", "duplicate", "reverse", "empty"])
    if kind == "drop" and values:
        k = rng.randrange(len(values))
        del values[k]
        if k < len(types):
            del types[k]
    elif kind == "duplicate" and values:
        k = rng.randrange(len(values))
        values.insert(k, values[k])
        if k < len(types):
            types.insert(k, types[k])
    elif kind == "reverse":
        values.reverse()
    else:
        values, types = [], []
    new = op if not values else \
        f"{op} {', '.join(values)} : {', '.join(types)}"
    return splice(text, m.start(), m.end(), new), f"{m.group()} -> {new}"


def mutate_keyword(rng, text):
    present = [(a, b) for a, b in KEYWORDS if a in text]
    if not present:
        return None
    a, b = rng.choice(present)
    starts = [m.start() for m in re.finditer(re.escape(a), text)]
    at = rng.choice(starts)
    return splice(text, at, at + len(a), b), f"{a} -> {b}"


MUTATIONS = [mutate_int, mutate_int, mutate_dim, mutate_dim, mutate_rank,
             mutate_element, mutate_element, mutate_dynamic, mutate_use,
             mutate_use, mutate_op, mutate_op, mutate_tie, mutate_tie,
             mutate_binding, mutate_workload, mutate_terminator,
             mutate_keyword]


def mutate(rng, text):
    notes = []
    for _ in range(rng.randint(1, 3)):
        result = rng.choice(MUTATIONS)(rng, text)
        if result:
            text, note = result
            notes.append(note)
    return text, notes


def failure(status, stderr, late):
    """Why a run is a failure, or None."""
    why = abnormal_end(status, stderr, late)
    if why or status == 0:
        return why
    # Every error names a place: `file:line:col: error:` (or, for one
    # without a file position, at least `loc(...)` rather than nothing).
    errors = [line for line in stderr.splitlines() if "error:" in line]
    if not errors:
        return "exit status 1 without an error"
    for line in errors:
        if not re.match(r'\S+:\d+:\d+: error:', line):
            return "an error without a location"
    return None


def chunks_of(path):
    with open(path) as f:
        return [c for c in re.split(r'^// -----\s*$', f.read(), flags=re.M)
                if c.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hal-opt", required=True)
    parser.add_argument("--hal-exec", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100,
                        help="mutants per case file")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--max-memory", default="268435456",
                        help="hal-exec --max-memory for every run")
    parser.add_argument("--case", action="append", required=True,
                        help="a flow-level .mlir file (split on // -----)")
    parser.add_argument("--pipeline", action="append",
                        help="a pass pipeline (repeatable; default: "
                        f"{len(PIPELINES)} variants of the lowering)")
    parser.add_argument("--no-exec", action="store_true",
                        help="do not check lowered mutants with hal-exec")
    parser.add_argument("--keep", help="directory for failing mutants")
    parser.add_argument("-v", "--verbose", action="store_true")
    opts = parser.parse_args()
    pipelines = opts.pipeline or PIPELINES

    rng = random.Random(opts.seed)
    workdir = tempfile.mkdtemp(prefix="mutate_lowering.")
    mutants = runs = clean = diagnosed = checked = 0
    failures = []
    exec_common = ["--orders=2", f"--max-memory={opts.max_memory}"] \
        if opts.max_memory else ["--orders=2"]

    def record(why, command, notes, stderr, mutant):
        failures.append((why, command, notes, stderr, mutant))

    for case_index, case in enumerate(opts.case):
        # Only chunks that parse and verify: mutants of the error tests
        # mostly fail where the original does.
        chunks = []
        for k, chunk in enumerate(chunks_of(case)):
            path = os.path.join(workdir, f"c{case_index}k{k}.mlir")
            with open(path, "w") as f:
                f.write(chunk)
            status, stderr, late = run([opts.hal_opt, path, "-o", os.devnull],
                                       opts.timeout)
            if status == 0:
                chunks.append(chunk)
            elif failure(status, stderr, late):
                record("unmutated: " + failure(status, stderr, late),
                       [opts.hal_opt, path], [], stderr, path)
        if not chunks:
            # An error test only: nothing to mutate, but not a failure.
            print(f"mutate_lowering: no chunk of {case} verifies, skipped",
                  file=sys.stderr)
            continue
        for n in range(opts.count):
            tag = f"c{case_index}m{n}"
            text, notes = mutate(rng, rng.choice(chunks))
            mutant = os.path.join(workdir, f"{tag}.mlir")
            with open(mutant, "w") as f:
                f.write(text)
            mutants += 1
            lowered_by = []
            for p, pipeline in enumerate(pipelines):
                command = [opts.hal_opt, mutant,
                           f"--pass-pipeline=builtin.module({pipeline})",
                           "-o", os.devnull]
                runs += 1
                status, stderr, late = run(command, opts.timeout)
                why = failure(status, stderr, late)
                if opts.verbose:
                    print(f"{tag} p{p}: {'; '.join(notes)}: status {status}"
                          f"{': ' + why if why else ''}")
                if why:
                    record(why, command, notes, stderr, mutant)
                elif status == 0:
                    clean += 1
                    lowered_by.append(pipeline)
                else:
                    diagnosed += 1
            if opts.no_exec or not lowered_by:
                continue
            # One pipeline per mutant, in turn, is checked by running.
            pipeline = lowered_by[n % len(lowered_by)]
            command = [opts.hal_exec, mutant,
                       f"--check-lowering={pipeline}"] + exec_common
            runs += 1
            checked += 1
            status, stderr, late = run(command, opts.timeout)
            why = failure(status, stderr, late)
            if not why and status == 1:
                # Refused: fine if the flow level alone refuses the module
                # (a located error in the user's program); a mismatch or a
                # HAL-level error where the flow level runs is a miscompile.
                alone = [opts.hal_exec, mutant] + exec_common
                runs += 1
                flow_status, flow_stderr, flow_late = run(alone, opts.timeout)
                flow_why = failure(flow_status, flow_stderr, flow_late)
                if flow_why:
                    record(flow_why, alone, notes, flow_stderr, mutant)
                    continue
                if flow_status == 0:
                    marker = next((m for m in MISMATCH_MARKERS
                                   if m in stderr), None)
                    why = f"miscompile ({marker or 'the HAL level fails'})"
                elif any(m in stderr for m in MISMATCH_MARKERS):
                    why = "miscompile (a mismatch where the flow level fails)"
            if opts.verbose:
                print(f"{tag} exec: status {status}"
                      f"{': ' + why if why else ''}")
            if why:
                record(why, command, notes, stderr, mutant)
            elif status == 0:
                clean += 1
            else:
                diagnosed += 1

    for why, command, notes, stderr, _ in failures:
        print(f"FAILURE ({why}): {'; '.join(notes)}")
        print("  " + " ".join(shlex.quote(c) for c in command))
        for line in stderr.strip().splitlines()[-3:]:
            print("  | " + line)
    if failures and opts.keep:
        os.makedirs(opts.keep, exist_ok=True)
        with open(os.path.join(opts.keep, "commands.sh"), "w") as f:
            for why, command, notes, _, mutant in failures:
                kept = os.path.join(opts.keep, os.path.basename(mutant))
                if not os.path.exists(kept):
                    shutil.copy(mutant, kept)
                f.write(f"# {why}: {'; '.join(notes)}\n")
                f.write(" ".join(shlex.quote(c.replace(workdir, opts.keep))
                                 for c in command) + "\n")
        print(f"mutants and commands kept in {opts.keep}")
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"mutate_lowering: {mutants} mutants, {runs} runs (seed "
          f"{opts.seed}, {len(pipelines)} pipelines, {checked} checked by "
          f"hal-exec): {clean} exited 0, {diagnosed} exited 1 with a "
          f"located error, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
