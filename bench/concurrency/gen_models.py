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
# dispatches; views the reference takes (`split`, `chunk`, head reshapes)
# are contiguous `flow.tensor.slice`s along the outermost dim, `cat` into a
# preallocated buffer is `flow.tensor.update`s, and `.clone()` /
# `.contiguous()` are `flow.tensor.clone`s. Shapes are static, so slab
# sizes are constants.
#
#===------------------------------------------------------------------------===#

import os
import re
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


#: Set by bench/memory/gen.py: render every op as a fragment of its own.
SPLIT_FRAGMENTS = False


class Fragment:
    """Builds the body of one fragment with one function argument."""

    def __init__(self, name, input_shape):
        self.split = SPLIT_FRAGMENTS
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

    def index(self, value):
        """An index constant, defined once."""
        name = "%%c%d" % value
        if value != 1 and name not in self.types:
            self.lines.insert(0, "    %s = arith.constant %d : index"
                              % (name, value))
            self.types[name] = None
        return name

    def splat(self, shape, hint="z"):
        """A zero-filled `shape` tensor (`torch.zeros`)."""
        if "%zero" not in self.types:
            self.lines.insert(0, "    %zero = arith.constant 0.0 : f32")
            self.types["%zero"] = None
        name = self._fresh(hint)
        self.lines.append("    %s = flow.tensor.splat %%zero : %s"
                          % (name, tensor(shape)))
        self.types[name] = shape
        return name

    def rows(self, value, start, count, hint="s"):
        """Rows [start, start + count) of `value`: a contiguous slice."""
        name = self._fresh(hint)
        shape = self.types[value]
        result = [count] + shape[1:]
        starts = [self.index(start)] + [self.index(0)] * (len(shape) - 1)
        sizes = [self.index(d) for d in result]
        self.lines.append(
            "    %s = flow.tensor.slice %s[%s for %s] : %s -> %s"
            % (name, value, ", ".join(starts), ", ".join(sizes),
               tensor(shape), tensor(result)))
        self.types[name] = result
        return name

    def update(self, update, target, row, hint="cat"):
        """Writes `update` into `target` at `row` in place."""
        name = self._fresh(hint)
        shape = self.types[target]
        starts = [self.index(row)] + [self.index(0)] * (len(shape) - 1)
        self.lines.append(
            "    %s = flow.tensor.update %s, %s[%s] : %s -> %s as %s"
            % (name, update, target, ", ".join(starts),
               tensor(self.types[update]), target, tensor(shape)))
        self.types[name] = shape
        return name

    def clone(self, value, hint="clone"):
        name = self._fresh(hint)
        self.lines.append("    %s = flow.tensor.clone %s : %s"
                          % (name, value, tensor(self.types[value])))
        self.types[name] = self.types[value]
        return name

    def render(self, *results):
        if self.split:
            return self.render_split(*results)
        types = [tensor(self.types[r]) for r in results]
        joined = ", ".join(types)
        if len(types) > 1:
            joined = "(" + joined + ")"
        values = "%0" if len(results) == 1 else "%%0:%d" % len(results)
        returned = ("%0" if len(results) == 1 else
                    ", ".join("%%0#%d" % i for i in range(len(results))))
        lines = [
            "func.func @%s(%%arg0: %s) -> %s {" % (
                self.name, tensor(self.input_shape), joined),
            "  %s = flow.ex.stream.fragment(%%arg0) : (%s) -> %s =" % (
                values, tensor(self.input_shape), joined),
            "      (%%x: %s) -> %s {" % (tensor(self.input_shape), joined),
        ]
        lines += self.lines
        lines.append("    flow.return %s : %s" % (", ".join(results),
                                                  ", ".join(types)))
        lines.append("  }")
        lines.append("  return %s : %s" % (returned, ", ".join(types)))
        lines.append("}")
        return EXECUTABLE + "\n".join(lines) + "\n"


    def render_split(self, *results):
        """The function as a frontend that does not fuse emits it: one
        fragment per op (constants and weights in the fragments that use
        them), each capturing the earlier values it reads."""
        definitions = {}  # constant or weight name -> its line
        for line in self.lines:
            name = line.split("=")[0].strip()
            if "arith.constant" in line or "hal.constant.subspan" in line:
                definitions[name] = line
        outer = lambda value: "%arg0" if value == "%x" else "%o_" + value[1:]
        body = []
        for line in self.lines:
            name, rest = [part.strip() for part in line.split("=", 1)]
            if name in definitions:
                continue
            used = []
            for token in re.findall(r"%[A-Za-z_][A-Za-z0-9_]*", rest):
                if token not in used:
                    used.append(token)
            captures = [v for v in used if v not in definitions]
            inner = [definitions[v] for v in used if v in definitions]
            capture_types = [tensor(self.types[v]) for v in captures]
            result_type = tensor(self.types[name])
            body.append("  %s = flow.ex.stream.fragment(%s) : (%s) -> %s =" % (
                outer(name), ", ".join(outer(v) for v in captures),
                ", ".join(capture_types), result_type))
            body.append("      (%s) -> %s {" % (", ".join(
                "%s: %s" % (v, t) for v, t in zip(captures, capture_types)),
                result_type))
            body += ["  " + d for d in inner]
            body.append("  " + line)
            body.append("      flow.return %s : %s" % (name, result_type))
            body.append("  }")
        types = [tensor(self.types[r]) for r in results]
        joined = ", ".join(types)
        if len(types) > 1:
            joined = "(" + joined + ")"
        lines = ["func.func @%s(%%arg0: %s) -> %s {" % (
            self.name, tensor(self.input_shape), joined)]
        lines += body
        lines.append("  return %s : %s" % (
            ", ".join(outer(r) for r in results), ", ".join(types)))
        lines.append("}")
        return EXECUTABLE + "\n".join(lines) + "\n"


def encoder_layer(f, x):
    """The dispatches of one encoder layer (below) on value `x` of `f`."""
    seq, d, ff = 128, 256, 1024
    ln1 = f.op([x], [seq, d], "ln")
    q = f.op([ln1, f.weight([d, d])], [seq, d], "q")
    k = f.op([ln1, f.weight([d, d])], [seq, d], "k")
    v = f.op([ln1, f.weight([d, d])], [seq, d], "v")
    scores = f.op([q, k], [seq, seq], "scores")
    probs = f.in_place(scores, "softmax")
    attn = f.op([probs, v], [seq, d], "attn")
    proj = f.op([attn, f.weight([d, d])], [seq, d], "proj")
    res1 = f.op([x, proj], [seq, d], "res")
    ln2 = f.op([res1], [seq, d], "ln")
    h = f.op([ln2, f.weight([d, ff])], [seq, ff], "fc")
    h = f.in_place(h, "gelu")
    mlp = f.op([h, f.weight([ff, d])], [seq, d], "fc")
    return f.op([res1, mlp], [seq, d], "res")


def transformer_encoder_layer():
    """One post-2017 (pre-norm) Transformer encoder layer (Vaswani et al.,
    BERT/ViT block): LN, independent Q/K/V projections, scores = Q K^T,
    softmax in place, P V, output projection, residual; LN, MLP with GELU in
    place, residual. Sequence 128, model width 256, MLP width 1024, heads
    folded into the kernels."""
    f = Fragment("transformer_encoder_layer", [128, 256])
    return f.render(encoder_layer(f, "%x"))


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


def decoder_layer(f, x, presents=True):
    """The dispatches of one decoder layer (below) on value `x` of `f`;
    returns its output and, with `presents`, the K and V clones."""
    seq, d, heads, ff = 128, 256, 4, 1024
    dh = d // heads
    h = f.op([x], [d, seq], "embed")
    residual = f.clone(h, "residual")
    h = f.in_place(h, "ln")
    qkv = f.op([h, f.weight([d, 3 * d])], [3 * d, seq], "qkv")
    q = f.rows(qkv, 0, d, "q")
    k = f.rows(qkv, d, d, "k")
    v = f.rows(qkv, 2 * d, d, "v")
    context = f.splat([d, seq], "context")
    for head in range(heads):
        q_h = f.rows(q, head * dh, dh, "q_h")
        k_h = f.rows(k, head * dh, dh, "k_h")
        v_h = f.rows(v, head * dh, dh, "v_h")
        scores = f.op([q_h, k_h], [seq, seq], "scores")
        probs = f.in_place(scores, "softmax")
        head_out = f.op([probs, v_h], [dh, seq], "head")
        context = f.update(head_out, context, head * dh)
    kept = []
    if presents:
        kept = [f.clone(k, "present_k"), f.clone(v, "present_v")]
    context = f.clone(context, "contiguous")
    context = f.in_place(context, "dropout")
    proj = f.op([context, f.weight([d, d])], [d, seq], "proj")
    res1 = f.op([residual, proj], [d, seq], "res")
    ln2 = f.op([res1], [d, seq], "ln")
    mlp = f.op([ln2, f.weight([d, ff])], [ff, seq], "fc")
    mlp = f.in_place(mlp, "gelu")
    mlp = f.op([mlp, f.weight([ff, d])], [d, seq], "fc")
    return [f.op([res1, mlp], [d, seq], "res")] + kept


def transformer_qkv_split():
    """A pre-norm Transformer decoder layer as GPT-2 computes it (Radford et
    al. 2019, `c_attn` + `split`): the residual stream is cloned before LN
    runs in place on it (a clone whose source is written while the clone is
    live: it needs its own bytes); one fused QKV projection into a
    [3 * width, seq] tensor (feature-major, so every split is a contiguous
    row range); `split` into Q, K, V and each into 4 heads of 64 rows
    (slices of slices); per head scores = Q_h^T K_h, softmax in place,
    P V_h; the heads concatenated by updates into a zero buffer, which is
    cloned (`.contiguous()`: its source dies there) before dropout runs in
    place on the clone; output projection, residual; the MLP as in the
    encoder layer. K and V are cloned and returned as the layer's
    `present` key/value cache after their last use (clones of dead
    sources). Sequence 128, width 256, 4 heads, MLP width 1024."""
    f = Fragment("transformer_qkv_split", [256, 128])
    return f.render(*decoder_layer(f, "%x"))


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
    "transformer_qkv_split": transformer_qkv_split,
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
