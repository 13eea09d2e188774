#!/usr/bin/env python3
"""The class probabilities of examples/softmax_vulkan.mlir, computed on the
CPU without streamhal (plain Python 3, no numpy).

    probabilities = softmax(relu(x * W1 + b1) * W2 + b2)   (softmax per row)
    x: ROWSx24xf32, W1: 24x12, b1: 12, W2: 12x3, b2: 3

Every operation is rounded to f32 (struct pack/unpack), in the order the
example's SPIR-V kernels compute it: the dense sums start from the bias and
add the products in order of k; the softmax takes the row's maximum, sums
exp(v - max) in column order and divides each exp(v - max) by that sum.
The parameters are read from the example's `@params`.

Usage:
  softmax_vulkan_reference.py generate ROWS INPUT.bin
      writes a deterministic ROWSx24xf32 input (multiples of 1/4 in
      [-1.5, 1.5], from a linear congruential generator)
  softmax_vulkan_reference.py expected EXAMPLE.mlir INPUT.bin EXPECTED.bin
      writes the ROWSx3xf32 probabilities (ROWS from the input's size) as
      raw little-endian f32
  softmax_vulkan_reference.py print EXPECTED.bin
      prints a raw f32 result as `hal-exec --print-values` does (no digest)
  softmax_vulkan_reference.py compare EXPECTED.bin PRINTED.txt
          [--tolerance=REL] [--sum-tolerance=ABS]
      compares the result `hal-exec --print-values` printed (PRINTED.txt,
      `-` for stdin) with EXPECTED.bin: same shape, every element within a
      relative error of REL (default 1e-5), every row summing to 1 within
      ABS (default 1e-5); prints the largest errors, exits 1 on a mismatch
"""
import math
import re
import struct
import sys

IN, HIDDEN, OUT = 24, 12, 3

# Offsets in @params, in f32 elements (bytes / 4); see the example's header.
W1_AT, B1_AT, W2_AT, B2_AT = 0, 288, 300, 336


def f32(value):
    """Rounds to the nearest f32, as the device stores every result."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def read_f32(path):
    data = open(path, "rb").read()
    if len(data) % 4:
        sys.exit("%s: %d bytes, not a whole number of f32" % (path, len(data)))
    return list(struct.unpack("<%df" % (len(data) // 4), data))


def write_f32(path, values):
    with open(path, "wb") as out:
        out.write(struct.pack("<%df" % len(values), *values))


def generate(rows):
    """ROWS x 24 multiples of 1/4 in [-1.5, 1.5]: exact in f32."""
    state, values = 2024, []
    for _ in range(rows * IN):
        state = (state * 1103515245 + 12345) % 2**31
        values.append(((state >> 16) % 13 - 6) / 4)
    return values


def read_params(example):
    text = open(example, encoding="utf-8").read()
    body = re.search(r"@params : !hal.buffer = dense<\[(.*?)\]>", text,
                     re.S).group(1)
    return [float(item) for item in body.replace("\n", " ").split(",")]


def dense(inputs, rows, weights, bias, depth, cols):
    out = []
    for r in range(rows):
        for c in range(cols):
            total = bias[c]
            for k in range(depth):
                total = f32(total + f32(inputs[r * depth + k] *
                                        weights[k * cols + c]))
            out.append(total)
    return out


def softmax(values, rows, cols):
    out = []
    for r in range(rows):
        row = values[r * cols:(r + 1) * cols]
        top = row[0]
        for v in row[1:]:
            top = v if v > top else top
        total = 0.0
        for v in row:
            total = f32(total + f32(math.exp(f32(v - top))))
        for v in row:
            out.append(f32(f32(math.exp(f32(v - top))) / total))
    return out


def expected(example, input_file):
    params = read_params(example)
    w1 = params[W1_AT:W1_AT + IN * HIDDEN]
    b1 = params[B1_AT:B1_AT + HIDDEN]
    w2 = params[W2_AT:W2_AT + HIDDEN * OUT]
    b2 = params[B2_AT:B2_AT + OUT]
    x = read_f32(input_file)
    if len(x) % IN:
        sys.exit("%s: %d f32, not rows of %d" % (input_file, len(x), IN))
    rows = len(x) // IN
    hidden = [max(v, 0.0) for v in dense(x, rows, w1, b1, IN, HIDDEN)]
    logits = dense(hidden, rows, w2, b2, HIDDEN, OUT)
    return softmax(logits, rows, OUT)


def parse_printed(path):
    """(shape, values) of the first result `--print-values` printed."""
    text = (sys.stdin if path == "-" else open(path, encoding="utf-8")).read()
    header = re.search(r"^@\w+ result 0: (\S+)", text, re.M)
    line = re.search(r"^\s*values:(.*)$", text, re.M)
    if not header or not line:
        sys.exit("%s: no `@... result 0: SHAPE` and `values:` lines" % path)
    return header.group(1), [float(item) for item in line.group(1).split()]


def compare(expected_file, printed, tolerance, sum_tolerance):
    want = read_f32(expected_file)
    shape, got = parse_printed(printed)
    failures = []
    wanted_shape = "%dx%dxf32" % (len(want) // OUT, OUT)
    if shape != wanted_shape:
        failures.append("shape %s, expected %s" % (shape, wanted_shape))
    if len(got) != len(want):
        failures.append("%d values printed, %d expected" %
                        (len(got), len(want)))
    worst, worst_at = 0.0, None
    for i, (g, w) in enumerate(zip(got, want)):
        error = abs(g - w) / max(abs(w), 1e-30)
        if error > worst or not math.isfinite(g):
            worst, worst_at = error if math.isfinite(g) else math.inf, i
        if not error <= tolerance:
            failures.append("element %d (row %d, column %d): %.9g, expected "
                            "%.9g (relative error %.3g)" %
                            (i, i // OUT, i % OUT, g, w, error))
    worst_sum = 0.0
    for r in range(len(got) // OUT):
        total = math.fsum(got[r * OUT:(r + 1) * OUT])
        worst_sum = max(worst_sum, abs(total - 1.0))
        if not abs(total - 1.0) <= sum_tolerance:
            failures.append("row %d sums to %.9g" % (r, total))
    print("%s: %d values, max relative error %.3g%s, max |row sum - 1| %.3g" %
          (shape, len(got), worst,
           "" if worst_at is None else " (element %d)" % worst_at, worst_sum))
    for failure in failures[:20]:
        print("mismatch: " + failure)
    if failures:
        print("FAILED: %d mismatches (tolerance %g, row-sum tolerance %g)" %
              (len(failures), tolerance, sum_tolerance))
        return 1
    print("OK (tolerance %g, row-sum tolerance %g)" % (tolerance, sum_tolerance))
    return 0


def main(argv):
    options = {}
    args = []
    for arg in argv[1:]:
        if arg.startswith("--") and "=" in arg:
            key, value = arg[2:].split("=", 1)
            options[key] = value
        else:
            args.append(arg)
    command = args[0] if args else ""
    if command == "generate" and len(args) == 3:
        write_f32(args[2], generate(int(args[1])))
        return 0
    if command == "expected" and len(args) == 4:
        write_f32(args[3], expected(args[1], args[2]))
        return 0
    if command == "print" and len(args) == 2:
        values = read_f32(args[1])
        print("@predict result 0: %dx%dxf32" % (len(values) // OUT, OUT))
        print("  values: " + " ".join("%.9g" % v for v in values))
        return 0
    if command == "compare" and len(args) == 3:
        unknown = set(options) - {"tolerance", "sum-tolerance"}
        if not unknown:
            return compare(args[1], args[2],
                           float(options.get("tolerance", "1e-5")),
                           float(options.get("sum-tolerance", "1e-5")))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
