#!/usr/bin/env python3
"""The logits of examples/mlp_vulkan.mlir, computed on the CPU without
streamhal: reads the parameters from the example's `@params` and the input
from a raw f32 file, and prints them as `hal-exec --print-values` does.

Usage: mlp_vulkan_reference.py EXAMPLE.mlir INPUT.bin ROWS
"""
import re
import struct
import sys


def f32(value):
    """Rounds to the nearest f32, as the device stores every result."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def main():
    example, input_file, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = open(example, encoding="utf-8").read()
    body = re.search(r"@params : !hal.buffer = dense<\[(.*?)\]>", text,
                     re.S).group(1)
    params = [float(item) for item in body.replace("\n", " ").split(",")]
    w1 = params[0:256]        # 16x16, byte range [0, 1024)
    w2 = params[256:320]      # 16x4, [1024, 1280)
    table = params[320:328]   # 2x4, [1280, 1312)
    data = open(input_file, "rb").read()
    x = list(struct.unpack("<%df" % (rows * 16), data))

    def dense(inputs, weights, bias, depth, cols):
        out = []
        for r in range(rows):
            for c in range(cols):
                total = bias[c]
                for k in range(depth):
                    total = f32(total + f32(inputs[r * depth + k] *
                                            weights[k * cols + c]))
                out.append(total)
        return out

    hidden = [max(v, 0.0) for v in dense(x, w1, [0.0] * 16, 16, 16)]
    logits = dense(hidden, w2, table[4:8], 16, 4)
    print("@predict result 0: %dx4xf32" % rows)
    print("  values: " + " ".join("%.9g" % v for v in logits))


if __name__ == "__main__":
    main()
