#!/usr/bin/env python3
# ===- mutate_exec.py - Mutation test of hal-exec ------------*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Runs hal-exec on mutants of lowered modules and of their arguments.

hal-exec reads users' IR and input files, so any input must give a correct
run or a clear, located error: exit status 0, or 1 with an `error:` on
stderr. Anything else is a failure: a signal (abort, segfault, SIGFPE), an
`LLVM ERROR`, a stack dump, a sanitizer report (ASan exits 1 by default,
UBSan goes on: both are recognized by their text), another exit status, or
a run longer than --timeout.

Each case is a flow module, its lowered module and the flow function's
arguments:

    mutate_exec.py --hal-exec=build/bin/hal-exec --seed=1 --count=100 \\
        --case "flow.mlir lowered.mlir --input=8x4xf32=@a.bin --input=7"

Each mutant changes the lowered module in 1-3 places (an integer literal
set to an extreme or a neighbour, an SSA use swapped for another value of
the function, a command deleted, duplicated or swapped with the next, a
memory type or access keyword changed, a symbol reference or definition
renamed: an entry point, a global, a callee) and, in modules with timeline
ops (docs/async.md), the fences and submissions too (a fence dropped,
duplicated, swapped or replaced in a wait, until or at list, a command
buffer list changed, an await, execute, join, alloca or dealloca deleted,
duplicated or moved earlier or later, a signal swapped with a wait or
replaced with another fence), and sometimes the arguments (a shape
or element type, a truncated, extended or empty file, /dev/zero, an
extreme scalar, an extra or missing --input, --dims). It runs
`hal-exec FLOW --check-against=MUTANT`, and, for cases with explicit
inputs (or all, with --alone), `hal-exec MUTANT` alone; with --hal-opt,
also `hal-opt MUTANT --hal-verify-command-buffers` and
`hal-opt MUTANT --hal-schedule-submissions` (or each --hal-opt-pass), whose
runs are judged by the same rules. Everything is deterministic from --seed.
Failures are kept with the command that reproduces them under --keep.
"""

import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from mutation_common import abnormal_end, run

# Values that break sizes, offsets and counts: 0, +-1, the edges of 32 and
# 64 bits, and the executor's 4 GiB limit and its neighbours.
EXTREMES = [
    0, 1, -1, 2, 3, 7, 15, 16, 17, 63, 64, 65, 255, 256, 1023, 1024, 1025,
    2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**32 + 16, 2**33,
    2**62, 2**63 - 16, 2**63 - 1, -(2**63), -(2**31),
]


INT_LITERAL = re.compile(r'(?<![\w%@#."$-])-?\d+(?![\w."])')
SSA_USE = re.compile(r'%[\w$.-]+')
COMMAND_LINE = re.compile(r'^\s*hal\.(command_buffer\.[\w.]+|ex\.submit_and_wait)\b')
KEYWORDS = [
    ("type(DeviceLocal|HostVisible)", "type(DeviceLocal)"),
    ("type(DeviceLocal)", "type(DeviceLocal|HostVisible)"),
    ('access="Read"', 'access="Write|Discard"'),
    ('access="Write|Discard"', 'access="Read"'),
    ('access="Read"', 'access="Read|Write"'),
    ("mode(OneShot", "mode(AllowInlineExecution"),
]


def mutate_int(rng, text):
    matches = list(INT_LITERAL.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    value = int(m.group())
    new = rng.choice(EXTREMES + [value + 1, value - 1, value * 2, value * 4096])
    return text[:m.start()] + str(new) + text[m.end():], f"int {value} -> {new}"


def function_spans(lines):
    """[start, end) line ranges of func.func bodies."""
    starts = [i for i, line in enumerate(lines) if "func.func" in line]
    return [(s, starts[k + 1] if k + 1 < len(starts) else len(lines))
            for k, s in enumerate(starts)]


def mutate_use(rng, text):
    lines = text.split("\n")
    spans = function_spans(lines)
    if not spans:
        return None
    start, end = rng.choice(spans)
    defined = set()
    for line in lines[start:end]:
        m = re.match(r'\s*(%[\w$.-]+)(:\d+)?\s*(,\s*%[\w$.-]+\s*)*=', line)
        if m:
            defined.update(SSA_USE.findall(line.split("=")[0]))
    uses = []
    for i in range(start, end):
        rhs_at = lines[i].find("=") + 1 if re.match(r'\s*%', lines[i]) else 0
        for m in SSA_USE.finditer(lines[i], rhs_at):
            uses.append((i, m))
    if not uses or len(defined) < 2:
        return None
    i, m = rng.choice(uses)
    other = rng.choice(sorted(defined - {m.group()}))
    lines[i] = lines[i][:m.start()] + other + lines[i][m.end():]
    return "\n".join(lines), f"line {i + 1}: {m.group()} -> {other}"


def mutate_command(rng, text):
    lines = text.split("\n")
    commands = [i for i, line in enumerate(lines) if COMMAND_LINE.match(line)]
    if not commands:
        return None
    i = rng.choice(commands)
    kind = rng.choice(["delete", "duplicate", "swap"])
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines), f"{kind} line {i + 1}"


def mutate_keyword(rng, text):
    present = [(a, b) for a, b in KEYWORDS if a in text]
    if not present:
        return None
    a, b = rng.choice(present)
    starts = [m.start() for m in re.finditer(re.escape(a), text)]
    at = rng.choice(starts)
    return text[:at] + b + text[at + len(a):], f"{a} -> {b}"


# The timeline ops (docs/async.md): their lines, and the fence lists in them.
TIMELINE_LINE = re.compile(
    r'^\s*(%[\w$.-]+\s*=\s*)?hal\.(fence\.(create|join|await)|'
    r'device\.queue\.(execute|alloca|dealloca))\b')
FENCE_LIST = re.compile(r'\b(wait|until|at|commands)\(\[([^\]]*)\]\)')
SIGNAL = re.compile(r'\bsignal\((%[\w$.-]+)\)')
FENCE_DEF = re.compile(r'^\s*(%[\w$.-]+)\s*=\s*hal\.fence\.(create|join)\b')


def defined_fences(lines):
    return sorted({m.group(1) for m in map(FENCE_DEF.match, lines) if m})


def mutate_fence_list(rng, text):
    """Drops, duplicates, swaps or replaces a fence (or command buffer) of a
    wait, until, at or commands list."""
    lines = text.split("\n")
    sites = [(i, m) for i, line in enumerate(lines)
             for m in FENCE_LIST.finditer(line)]
    if not sites:
        return None
    i, m = rng.choice(sites)
    items = [x.strip() for x in m.group(2).split(",") if x.strip()]
    fences = defined_fences(lines)
    kind = rng.choice(["drop", "duplicate", "swap", "replace", "add"])
    if kind == "drop" and items:
        del items[rng.randrange(len(items))]
    elif kind == "duplicate" and items:
        items.insert(0, rng.choice(items))
    elif kind == "swap" and len(items) > 1:
        items.reverse()
    elif kind == "replace" and items and fences and m.group(1) != "commands":
        items[rng.randrange(len(items))] = rng.choice(fences)
    elif fences and m.group(1) != "commands":
        kind = "add"
        items.append(rng.choice(fences))
    else:
        return None
    body = f"{m.group(1)}([{', '.join(items)}])"
    lines[i] = lines[i][:m.start()] + body + lines[i][m.end():]
    return "\n".join(lines), f"line {i + 1}: {kind} in {m.group(1)} list"


def mutate_timeline(rng, text):
    """Deletes, duplicates or moves a timeline op (an await twice or never,
    an execute or dealloca twice, a fence used before its creation or a
    dealloca before a use), or swaps an execute's signal with one of its
    waits, or signals another fence."""
    lines = text.split("\n")
    ops = [i for i, line in enumerate(lines) if TIMELINE_LINE.match(line)]
    if not ops:
        return None
    i = rng.choice(ops)
    kind = rng.choice(["delete", "duplicate", "later", "earlier", "swap",
                       "resignal", "again", "again"])
    if kind == "again":
        # The op once more, ordered after the first by a fresh fence: an
        # execute of the same command buffers, a second release, a second
        # allocation into the same value.
        m = SIGNAL.search(lines[i])
        w = FENCE_LIST.search(lines[i])
        dev = re.search(r'<(%[\w$.-]+)', lines[i])
        if not m or not w or w.group(1) != "wait" or not dev or \
                lines[i].lstrip().startswith("%"):
            return None
        fresh = f"%mutant_fence{i}"
        indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        line = lines[i][:m.start()] + f"signal({fresh})" + lines[i][m.end():]
        w = FENCE_LIST.search(line)
        line = line[:w.start()] + f"wait([{m.group(1)}])" + line[w.end():]
        create = (f"{indent}{fresh} = hal.fence.create device({dev.group(1)}"
                  " : !hal.device) : !hal.fence")
        lines[i + 1:i + 1] = [create, line]
        # The next await covers it too: otherwise the return would be the
        # first to object, to work left pending.
        for j in range(i + 3, len(lines)):
            if "until([" in lines[j]:
                lines[j] = lines[j].replace("until([", f"until([{fresh}, ", 1)
                break
    elif kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i + 1, lines[i])
    elif kind in ("later", "earlier"):
        # Within the function and its top-level ops: a line that ends a
        # region or opens one would only make the module unparsable.
        step = 1 if kind == "later" else -1
        j = i
        for _ in range(rng.randint(1, 8)):
            k = j + step
            if not 0 <= k < len(lines) or "func.func" in lines[k] or \
                    lines[k].strip() in ("}", "return") or \
                    lines[k].rstrip().endswith("{"):
                break
            j = k
        if j == i:
            return None
        line = lines.pop(i)
        lines.insert(j, line)
        kind = f"move to line {j + 1}"
    elif kind == "swap":
        m = SIGNAL.search(lines[i])
        w = FENCE_LIST.search(lines[i])
        if not m or not w or w.group(1) != "wait" or not w.group(2).strip():
            return None
        waits = [x.strip() for x in w.group(2).split(",")]
        k = rng.randrange(len(waits))
        waits[k], signal = m.group(1), waits[k]
        line = lines[i]
        line = line[:m.start()] + f"signal({signal})" + line[m.end():]
        w = FENCE_LIST.search(line)
        lines[i] = line[:w.start()] + f"wait([{', '.join(waits)}])" + \
            line[w.end():]
    else:
        m = SIGNAL.search(lines[i])
        fences = defined_fences(lines)
        if not m or not fences:
            return None
        lines[i] = lines[i][:m.start()] + f"signal({rng.choice(fences)})" + \
            lines[i][m.end():]
    return "\n".join(lines), f"{kind} timeline line {i + 1}"


# Notes of mutations that no run may accept (mutate_timeline's "again").
MUST_FAIL = "again"

SYMBOL_REF = re.compile(r'@[\w$.-]+')


def mutate_symbol(rng, text):
    """Renames one reference or one definition of a symbol (an entry point
    in @ex::@variant::@entry, a global, a callee) to a fresh name or to
    another symbol of the module."""
    matches = list(SYMBOL_REF.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    names = sorted({x.group() for x in matches} - {m.group()})
    new = rng.choice(names) if names and rng.random() < 0.5 else \
        m.group() + "_renamed"
    return text[:m.start()] + new + text[m.end():], \
        f"symbol {m.group()} -> {new}"


MODULE_MUTATIONS = [mutate_int, mutate_int, mutate_int, mutate_use,
                    mutate_command, mutate_keyword, mutate_symbol]
# Modules with timeline ops get those mutated as often as the rest.
ASYNC_MUTATIONS = [mutate_fence_list, mutate_fence_list, mutate_timeline,
                   mutate_timeline, mutate_timeline]


def mutate_module(rng, text):
    notes = []
    mutations = MODULE_MUTATIONS
    if "hal.fence." in text or "hal.device.queue." in text:
        mutations = MODULE_MUTATIONS + ASYNC_MUTATIONS
    for _ in range(rng.randint(1, 3)):
        result = rng.choice(mutations)(rng, text)
        if result:
            text, note = result
            notes.append(note)
    return text, notes


def mutate_file(rng, path, workdir, tag):
    with open(path, "rb") as f:
        data = f.read()
    kind = rng.choice(["truncate", "extend", "empty", "zero", "missing"])
    if kind == "zero":
        return "/dev/zero", kind
    out = os.path.join(workdir, f"{tag}.bin")
    if kind == "missing":
        return out + ".missing", kind
    if kind == "truncate":
        data = data[:rng.randrange(len(data) + 1)]
    elif kind == "extend":
        data = data + bytes(rng.randrange(1, 64))
    else:
        data = b""
    with open(out, "wb") as f:
        f.write(data)
    return out, kind


def mutate_input(rng, spec, workdir, tag):
    head, sep, tail = spec.partition("=")
    if tail.startswith("@"):
        parts = head.split("x")
        choice = rng.choice(["dim", "type", "file"])
        if choice == "dim" and len(parts) > 1:
            d = rng.randrange(len(parts) - 1)
            parts[d] = str(rng.choice([0, 1, 3, 2**31, 2**32, 2**62, -1]))
        elif choice == "type":
            parts[-1] = rng.choice(["i1", "i8", "i64", "i128", "f16", "f64",
                                    "bf16", "index", "f80", "x", ""])
        else:
            path, kind = mutate_file(rng, tail[1:], workdir, tag)
            return f"{head}=@{path}", f"file {kind}"
        return "x".join(parts) + sep + tail, f"spec {'x'.join(parts)}"
    value = rng.choice(["-9223372036854775808", "9223372036854775807",
                        "18446744073709551616", "0x", "1e400", "nan",
                        "i64=5", "f32=1.5", "zzz", "", "4294967296"])
    return value, f"scalar {value!r}"


def mutate_args(rng, args, workdir, tag):
    args = list(args)
    inputs = [i for i, a in enumerate(args) if a.startswith("--input=")]
    kind = rng.choice(["input", "input", "extra", "drop", "dims"])
    if kind == "input" and inputs:
        i = rng.choice(inputs)
        spec, note = mutate_input(rng, args[i][len("--input="):], workdir, tag)
        args[i] = "--input=" + spec
        return args, note
    if kind == "drop" and inputs:
        del args[rng.choice(inputs)]
        return args, "drop an --input"
    if kind == "dims":
        dims = ",".join(str(rng.choice([0, 1, 2, 5])) for _ in range(3))
        return args + [f"--dims={dims}"], f"--dims={dims}"
    return args + ["--input=1"], "extra --input"


def failure(status, stderr, elapsed_out):
    """Why a run is a failure, or None."""
    why = abnormal_end(status, stderr, elapsed_out)
    if why or status == 0:
        return why
    # A located diagnostic, or a usage error of the command line.
    if "error:" not in stderr and not re.search(r"^[\w.-]+: ", stderr, re.M):
        return "exit status 1 without a diagnostic"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hal-exec", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100,
                        help="mutants per case")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--max-memory", default="268435456",
                        help="hal-exec --max-memory for every run (empty: "
                        "none, for a hal-exec without the option)")
    parser.add_argument("--case", action="append", required=True,
                        help="'FLOW LOWERED [ARGS...]', shell-quoted")
    parser.add_argument("--hal-opt", help="also run this hal-opt on each "
                        "mutant, with each of --hal-opt-pass")
    parser.add_argument("--hal-opt-pass", action="append",
                        help="a hal-opt pass option for --hal-opt (default: "
                        "--hal-verify-command-buffers and "
                        "--hal-schedule-submissions)")
    parser.add_argument("--alone", action="store_true",
                        help="run `hal-exec MUTANT` alone for every case, "
                        "not only for those with explicit inputs")
    parser.add_argument("--keep", help="directory for failing mutants")
    parser.add_argument("--save", help="write every mutant into this "
                        "directory (and keep it) instead of a temporary one")
    parser.add_argument("-v", "--verbose", action="store_true")
    opts = parser.parse_args()

    rng = random.Random(opts.seed)
    passes = opts.hal_opt_pass or ["--hal-verify-command-buffers",
                                   "--hal-schedule-submissions"]
    if opts.save:
        os.makedirs(opts.save, exist_ok=True)
    workdir = opts.save or tempfile.mkdtemp(prefix="mutate_exec.")
    runs = clean = diagnosed = 0
    failures = []
    common = ["--orders=2"]
    if opts.max_memory:
        common.append(f"--max-memory={opts.max_memory}")
    for case_index, case in enumerate(opts.case):
        flow, lowered, *args = shlex.split(case)
        with open(lowered) as f:
            original = f.read()
        explicit = any(a.startswith("--input=") and "@" in a for a in args)
        # The unmutated case must match: otherwise every mutant would fail
        # for the same reason (a wrong path or option) and prove nothing.
        baseline = [opts.hal_exec, flow, f"--check-against={lowered}"] + \
            args + common
        done = subprocess.run(baseline, capture_output=True, text=True,
                              errors="replace", timeout=opts.timeout)
        if done.returncode != 0:
            sys.exit("mutate_exec: the unmutated case fails: " +
                     " ".join(shlex.quote(c) for c in baseline) + "\n" +
                     done.stderr)
        for n in range(opts.count):
            tag = f"c{case_index}m{n}"
            text, notes = mutate_module(rng, original)
            run_args = args
            if rng.random() < 0.3:
                run_args, note = mutate_args(rng, args, workdir, tag)
                notes.append(note)
            mutant = os.path.join(workdir, f"{tag}.mlir")
            with open(mutant, "w") as f:
                f.write(text)
            commands = [[opts.hal_exec, flow, f"--check-against={mutant}"] +
                        run_args + common]
            if explicit or opts.alone:
                commands.append([opts.hal_exec, mutant] + run_args + common)
            if opts.hal_opt:
                for option in passes:
                    commands.append([opts.hal_opt, mutant, option,
                                     "-o", os.devnull])
            for command in commands:
                runs += 1
                status, stderr, late = run(command, opts.timeout)
                why = failure(status, stderr, late)
                # Some mutants are wrong whatever the module: a second
                # submission of a command buffer, a second release. Only
                # the executor must see it: a static pass cannot in general
                # (the two may be in exclusive branches).
                if not why and status == 0 and command[0] == opts.hal_exec \
                        and \
                        any(n.startswith(MUST_FAIL) for n in notes):
                    why = "accepted a mutant that must be rejected"
                if opts.verbose:
                    print(f"{tag} {os.path.basename(command[0])}"
                          f"{' ' + command[2] if len(command) > 2 else ''}: "
                          f"{'; '.join(notes)}: status {status}"
                          f"{': ' + why if why else ''}")
                if why:
                    failures.append((why, command, notes, stderr))
                elif status == 0:
                    clean += 1
                else:
                    diagnosed += 1

    for why, command, notes, stderr in failures:
        print(f"FAILURE ({why}): {'; '.join(notes)}")
        print("  " + " ".join(shlex.quote(c) for c in command))
        tail = stderr.strip().splitlines()[-3:]
        for line in tail:
            print("  | " + line)
    if failures and opts.keep and not opts.save:
        # The mutants and files move to --keep; the commands follow them.
        os.makedirs(opts.keep, exist_ok=True)
        with open(os.path.join(opts.keep, "commands.sh"), "w") as f:
            for _, command, _, _ in failures:
                f.write(" ".join(shlex.quote(c.replace(workdir, opts.keep))
                                 for c in command) + "\n")
        for name in os.listdir(workdir):
            shutil.move(os.path.join(workdir, name),
                        os.path.join(opts.keep, name))
        print(f"mutants and commands kept in {opts.keep}")
    if not opts.save:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"mutate_exec: {runs} runs (seed {opts.seed}): {clean} exited 0, "
          f"{diagnosed} exited 1 with a diagnostic, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
