#!/usr/bin/env python3
#===- gen_models.py - model-shaped stream fragments ------------------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: gen_models.py OUTPUT_DIR
#
# Writes one .mlir file per model: a function holding one
# flow.ex.stream.fragment whose dispatches follow the published structure of
# the network, in the order its reference implementation computes them
# (PyTorch `forward` order). Every kernel is one dispatch of a generic
# executable; weights are constant subspans of one parameter pool; ops that
# the reference runs in place (ReLU, GELU, softmax, normalization) are tied
# dispatches. Shapes are static, so slab sizes are constants.
#
#===------------------------------------------------------------------------===#

import os
import sys

EXECUTABLE = """hal.executable private @k {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=2, type="StorageBuffer", access="Read"
    hal.interface.binding @in3, set=0, binding=3, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @op attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
util.global private @params : !hal.buffer
"""


def tensor(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


class Fragment:
    """Builds the body of one fragment with one function argument."""

    def __init__(self, name, input_shape):
        self.name = name
        self.input_shape = input_shape
        self.lines = ["    %c1 = arith.constant 1 : index"]
        self.types = {"%x": input_shape}
        self.count = 0
        self.pool_offset = 0

    def _fresh(self, hint):
        self.count += 1
        return "%%%s%d" % (hint, self.count)

    def weight(self, shape):
        """A constant subspan of the parameter pool."""
        name = self._fresh("w")
        size = 4
        for d in shape:
            size *= d
        self.lines.append(
            "    %s = hal.constant.subspan @params[#util.byte_range<%d, %d>] : %s"
            % (name, self.pool_offset, size, tensor(shape)))
        self.pool_offset += size
        self.types[name] = shape
        return name

    def op(self, inputs, shape, hint="t"):
        """A dispatch reading `inputs` and writing a fresh `shape` result."""
        name = self._fresh(hint)
        bindings = ["#hal.ex.operand_buffer<\"in%d\", %d : index>" % (i, i)
                    for i in range(len(inputs))]
        bindings.append("#hal.ex.result_buffer<\"out\", 0 : index>")
        operand_types = ", ".join(tensor(self.types[i]) for i in inputs)
        self.lines.append(
            "    %s = flow.dispatch @k::@op[%%c1](%s) {hal.bindings = [%s]} : (%s) -> %s"
            % (name, ", ".join(inputs), ", ".join(bindings), operand_types,
               tensor(shape)))
        self.types[name] = shape
        return name

    def in_place(self, value, hint="t"):
        """A dispatch updating `value` in place (tied result)."""
        name = self._fresh(hint)
        self.lines.append(
            "    %s = flow.dispatch @k::@op[%%c1](%s) {hal.bindings = "
            "[#hal.ex.operand_buffer<\"inout\", 0 : index>]} : (%s) -> %s"
            % (name, value, tensor(self.types[value]), value))
        self.types[name] = self.types[value]
        return name

    def render(self, result):
        shape = self.types[result]
        lines = [
            "func.func @%s(%%arg0: %s) -> %s {" % (
                self.name, tensor(self.input_shape), tensor(shape)),
            "  %%0 = flow.ex.stream.fragment(%%arg0) : (%s) -> %s =" % (
                tensor(self.input_shape), tensor(shape)),
            "      (%%x: %s) -> %s {" % (tensor(self.input_shape), tensor(shape)),
        ]
        lines += self.lines
        lines.append("    flow.return %s : %s" % (result, tensor(shape)))
        lines.append("  }")
        lines.append("  return %%0 : %s" % tensor(shape))
        lines.append("}")
        return EXECUTABLE + "\n".join(lines) + "\n"


def transformer_encoder_layer():
    """One post-2017 (pre-norm) Transformer encoder layer (Vaswani et al.,
    BERT/ViT block): LN, independent Q/K/V projections, scores = Q K^T,
    softmax in place, P V, output projection, residual; LN, MLP with GELU in
    place, residual. Sequence 128, model width 256, MLP width 1024, heads
    folded into the kernels."""
    seq, d, ff = 128, 256, 1024
    f = Fragment("transformer_encoder_layer", [seq, d])
    ln1 = f.op(["%x"], [seq, d], "ln")
    q = f.op([ln1, f.weight([d, d])], [seq, d], "q")
    k = f.op([ln1, f.weight([d, d])], [seq, d], "k")
    v = f.op([ln1, f.weight([d, d])], [seq, d], "v")
    scores = f.op([q, k], [seq, seq], "scores")
    probs = f.in_place(scores, "softmax")
    attn = f.op([probs, v], [seq, d], "attn")
    proj = f.op([attn, f.weight([d, d])], [seq, d], "proj")
    res1 = f.op(["%x", proj], [seq, d], "res")
    ln2 = f.op([res1], [seq, d], "ln")
    h = f.op([ln2, f.weight([d, ff])], [seq, ff], "fc")
    h = f.in_place(h, "gelu")
    mlp = f.op([h, f.weight([ff, d])], [seq, d], "fc")
    out = f.op([res1, mlp], [seq, d], "res")
    return f.render(out)


def inception_block():
    """GoogLeNet inception (3a) (Szegedy et al. 2015): four parallel branches
    over one 28x28x192 input, 1x1 (64); 1x1 (96) -> 3x3 (128); 1x1 (16) ->
    5x5 (32); 3x3 max pool -> 1x1 (32); concatenated to 256 channels. The
    reference computes the branches one after the other."""
    hw = 28 * 28
    f = Fragment("inception_block", [hw, 192])
    b1 = f.op(["%x", f.weight([192, 64])], [hw, 64], "b1_")
    b2 = f.op(["%x", f.weight([192, 96])], [hw, 96], "b2_")
    b2 = f.in_place(b2, "relu")
    b2 = f.op([b2, f.weight([9 * 96, 128])], [hw, 128], "b2_")
    b3 = f.op(["%x", f.weight([192, 16])], [hw, 16], "b3_")
    b3 = f.in_place(b3, "relu")
    b3 = f.op([b3, f.weight([25 * 16, 32])], [hw, 32], "b3_")
    b4 = f.op(["%x"], [hw, 192], "pool")
    b4 = f.op([b4, f.weight([192, 32])], [hw, 32], "b4_")
    out = f.op([b1, b2, b3, b4], [hw, 256], "concat")
    return f.render(out)


def residual_stage():
    """A ResNet-18 stage (He et al. 2016, torchvision BasicBlock order): two
    basic blocks at 28x28, 64 -> 128 channels. Block 1: conv3x3 -> BN+ReLU in
    place -> conv3x3 -> BN in place; the 1x1 projection shortcut is computed
    after the main path (as `downsample(x)` is in `forward`); add; ReLU in
    place. Block 2: the same with the identity shortcut."""
    hw = 28 * 28
    f = Fragment("residual_stage", [hw, 64])
    t = f.op(["%x", f.weight([9 * 64, 128])], [hw, 128], "conv")
    t = f.in_place(t, "bnrelu")
    t = f.op([t, f.weight([9 * 128, 128])], [hw, 128], "conv")
    t = f.in_place(t, "bn")
    shortcut = f.op(["%x", f.weight([64, 128])], [hw, 128], "proj")
    y = f.op([t, shortcut], [hw, 128], "add")
    y = f.in_place(y, "relu")
    t = f.op([y, f.weight([9 * 128, 128])], [hw, 128], "conv")
    t = f.in_place(t, "bnrelu")
    t = f.op([t, f.weight([9 * 128, 128])], [hw, 128], "conv")
    t = f.in_place(t, "bn")
    z = f.op([t, y], [hw, 128], "add")
    z = f.in_place(z, "relu")
    return f.render(z)


def plain_chain():
    """Eight layers of an MLP with nothing to overlap (each reads only the
    previous one): the case where barriers cannot be saved."""
    f = Fragment("plain_chain", [64, 512])
    t = "%x"
    for _ in range(8):
        t = f.op([t, f.weight([512, 512])], [64, 512], "fc")
    return f.render(t)


MODELS = {
    "transformer_encoder_layer": transformer_encoder_layer,
    "inception_block": inception_block,
    "residual_stage": residual_stage,
    "plain_chain": plain_chain,
}


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gen_models.py OUTPUT_DIR\n")
        return 1
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, build in MODELS.items():
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
