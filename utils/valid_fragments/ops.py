# ===- valid_fragments/ops.py - Tensor ops of valid fragments --------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""TensorOps: splats, constants, clones, reshapes, slices and updates with
boxes inside their tensors, and operands nothing uses."""

from .values import (
    ELEMENT_BYTES,
    StorageClass,
    Tensor,
    dims_suffix,
    element_count,
    factorizations,
    tensor_type,
)


class TensorOps:
    """The tensor ops of FragmentBuilder (mixed into it, using its state)."""

    def emit_value(self, text, elem, shape, dims, storage=None):
        name = self.fresh("v")
        self.body.append(name + " = " + text)
        return Tensor(name, elem, shape, dims, storage or StorageClass("transient"))

    def gen_splat(self, elem=None, shape=None, dims=None):
        elem = elem or self.rng.choice(list(ELEMENT_BYTES))
        if shape is None:
            shape, dims = self.random_shape()
        value = self.element_value(elem)
        text = "flow.tensor.splat %s : %s%s" % (
            value.name,
            tensor_type(elem, shape),
            dims_suffix(d.name for d in dims),
        )
        return self.add(self.emit_value(text, elem, shape, dims))

    def gen_constant(self, elem=None, shape=None):
        elem = elem or self.rng.choice(list(ELEMENT_BYTES))
        if shape is None:
            shape, _ = self.random_shape(allow_dynamic=False, allow_empty=False)
        size = element_count(shape) * ELEMENT_BYTES[elem]
        length = size + self.rng.choice([0, 0, 4, 16, 100])
        offset = self.module.pool_range(length)
        text = "hal.constant.subspan @pool[#util.byte_range<%d, %d>] : %s" % (
            offset,
            length,
            tensor_type(elem, shape),
        )
        return self.add(self.emit_value(text, elem, shape, [], StorageClass("const")))

    def gen_clone(self):
        source = self.pick()
        text = "flow.tensor.clone %s : %s" % (source.name, source.typed())
        return self.add(self.emit_value(text, source.elem, source.shape, source.dims))

    def gen_reshape(self):
        source = self.pick()
        static = [s for s in source.shape if s is not None]
        count = element_count(static)
        rank = self.rng.randint(0, 3)
        shapes = factorizations(count, rank) if count > 0 else [[0] * max(rank, 1)]
        shape = self.rng.choice(shapes or [[count]])
        # Dynamic dims keep their values and order; only the static part is
        # refactored, so the element count matches whatever they hold.
        for _ in range(len(source.dims)):
            shape.insert(self.rng.randint(0, len(shape)), None)
        text = "flow.tensor.reshape %s : %s -> %s%s" % (
            source.name,
            source.typed(),
            tensor_type(source.elem, shape),
            dims_suffix(d.name for d in source.dims),
        )
        return self.add(self.emit_value(text, source.elem, shape, source.dims, source.storage))

    def gen_box(self, tensor):
        """A box inside `tensor`: (starts, box shape, box dims). A box whose
        outer shape the lowering cannot see is provably contiguous: leading
        unit dims, one free dim, then whole dims."""
        rank = tensor.rank
        extents = [tensor.extent(d) for d in range(rank)]
        starts, shape, dims = [], [], []
        if all(tensor.extent_known(d) for d in range(rank)) and self.rng.random() < 0.6:
            for extent in extents:
                if self.rng.random() < 0.04:
                    length = 0
                else:
                    length = self.rng.randint(min(1, extent), extent)
                starts.append(self.rng.randint(0, extent - length))
                if self.rng.random() < 0.15:
                    # A dynamic box dim the lowering sees as a constant.
                    shape.append(None)
                    dims.append(self.index(length, allow_unknown=False))
                else:
                    shape.append(length)
        else:
            free = self.rng.choice([k for k in range(rank) if all(extents[d] >= 1 for d in range(k))])
            for d in range(rank):
                if d < free:
                    starts.append(self.rng.randint(0, extents[d] - 1))
                    shape.append(1)
                elif d == free:
                    length = self.rng.randint(min(1, extents[d]), extents[d])
                    starts.append(self.rng.randint(0, extents[d] - length))
                    if self.rng.random() < 0.3:
                        shape.append(None)
                        dims.append(self.index(length))
                    else:
                        shape.append(length)
                else:
                    starts.append(0)
                    if tensor.shape[d] is None and (not tensor.dim_scalar(d).known or self.rng.random() < 0.5):
                        shape.append(None)
                        dims.append(self.same_value(tensor.dim_scalar(d)))
                    else:
                        shape.append(extents[d])
        return [self.index(s) for s in starts], shape, dims

    def gen_slice(self):
        source = self.pick(lambda t: t.rank > 0)
        if source is None:
            return None
        starts, shape, dims = self.gen_box(source)
        lengths, dynamic = [], iter(dims)
        for extent in shape:
            # The type fixes a static length; the operand only spells it.
            lengths.append(next(dynamic) if extent is None else self.index(extent))
        text = "flow.tensor.slice %s[%s for %s] : %s -> %s%s" % (
            source.name,
            ", ".join(s.name for s in starts),
            ", ".join(l.name for l in lengths),
            source.typed(),
            tensor_type(source.elem, shape),
            dims_suffix(d.name for d in dims),
        )
        return self.add(self.emit_value(text, source.elem, shape, dims))

    def writable(self, tensor):
        return tensor.storage.writable

    def gen_update(self):
        target = self.pick(lambda t: t.rank > 0 and self.writable(t))
        if target is None:
            return None
        starts, shape, dims = self.gen_box(target)
        probe = Tensor(None, target.elem, shape, dims, None)
        updates = [t for t in self.live if t.same_type(probe) and t.storage is not target.storage]
        if updates and self.rng.random() < 0.7:
            update = self.rng.choice(updates)
        elif not dims and self.rng.random() < 0.3:
            update = self.gen_constant(target.elem, shape)
        else:
            update = self.gen_splat(target.elem, shape, dims)
        text = "flow.tensor.update %s, %s[%s] : %s -> %s as %s" % (
            update.name,
            target.name,
            ", ".join(s.name for s in starts),
            update.typed(),
            target.name,
            target.typed(),
        )
        result = self.emit_value(text, target.elem, target.shape, target.dims, target.storage)
        return self.write(target.storage, result)


    def gen_unused_operand(self):
        """An operand whose block argument nothing uses (which may pass a
        value passed already)."""
        choice = self.rng.random()
        if choice < 0.3:
            outer, type = self.param("tensor<4xf32>"), "tensor<4xf32>"
        elif choice < 0.6:
            outer, type = self.outer_constant(self.rng.randint(0, 9), "index"), "index"
        elif choice < 0.8:
            outer, type = self.param("index"), "index"
        else:
            outer, type = self.outer_constant("2.5", "f32"), "f32"
        self.operands.append((outer, type))
        self.block_args.append(self.fresh("b") + ": " + type)
