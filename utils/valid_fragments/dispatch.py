# ===- valid_fragments/dispatch.py - Dispatches of valid fragments ---------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""DispatchOps: dispatches with tied and untied results, push constants and
constant storage, each with an executable of its own."""

from .values import ELEMENT_BYTES, StorageClass, Tensor, dims_suffix, tensor_type


class DispatchOps:
    """The dispatches of FragmentBuilder (mixed into it, using its state)."""

    def gen_dispatch(self):
        arguments = []  # (text, type text, Tensor or None)
        for _ in range(self.rng.randint(0, 3)):
            tensor = self.pick()
            arguments.append((tensor.name, tensor.typed(), tensor))
        for _ in range(self.rng.randint(0, 2)):
            if self.rng.random() < 0.5:
                scalar = self.index(self.rng.randint(0, 100))
            else:
                scalar = self.element_value("i32")
            arguments.append((scalar.name, scalar.type, None))
        self.rng.shuffle(arguments)
        push_constants = [i for i, a in enumerate(arguments) if a[2] is None]
        tensors = [i for i, a in enumerate(arguments) if a[2] is not None]

        results = []  # (tied operand index, None) or (None, (elem, shape, dims))
        tied = set()
        for _ in range(self.rng.randint(1, 2)):
            candidates = [
                i
                for i in tensors
                if i not in tied
                and self.writable(arguments[i][2])
                # Nothing else this dispatch reads may share the storage.
                and sum(arguments[j][2].storage is arguments[i][2].storage for j in tensors) == 1
            ]
            if candidates and self.rng.random() < 0.4:
                index = self.rng.choice(candidates)
                tied.add(index)
                results.append((index, None))
                continue
            if tensors and self.rng.random() < 0.3:
                like = arguments[self.rng.choice(tensors)][2]
                results.append((None, (like.elem, like.shape, like.dims)))
            else:
                elem = self.rng.choice(list(ELEMENT_BYTES))
                shape, dims = self.random_shape()
                results.append((None, (elem, shape, dims)))

        # The executable: one binding per tensor operand and untied result.
        bindings, interface = [], []
        ordinal = 0
        for i in tensors:
            access = "Read|Write" if i in tied else "Read"
            interface.append('hal.interface.binding @arg%d, set=0, binding=%d, type="StorageBuffer", access="%s"' % (i, ordinal, access))
            bindings.append('#hal.ex.operand_buffer<"arg%d", %d : index>' % (i, i))
            ordinal += 1
        for r, (operand, _) in enumerate(results):
            if operand is not None:
                continue
            set_index = 1 if self.rng.random() < 0.2 else 0
            interface.append('hal.interface.binding @ret%d, set=%d, binding=%d, type="StorageBuffer", access="Write|Discard"' % (r, set_index, ordinal))
            bindings.append('#hal.ex.result_buffer<"ret%d", %d : index>' % (r, r))
            ordinal += 1
        if self.rng.random() < 0.3:
            length = self.rng.choice([16, 64, 256])
            offset = self.module.pool_range(length)
            interface.append('hal.interface.binding @cst, set=0, binding=%d, type="StorageBuffer", access="Read"' % ordinal)
            bindings.append('#hal.ex.constant_storage<"cst", "pool", %d : index, %d : index>' % (offset, length))
        push_count = len(push_constants) + self.rng.randint(0, 1)
        ordinals = self.rng.sample(range(push_count), len(push_constants))
        for i, o in zip(push_constants, ordinals):
            bindings.append("#hal.ex.push_constant<%d : index, %d : index>" % (o, i))
        self.rng.shuffle(bindings)

        workload = [self.index(self.rng.randint(1, 64)) for _ in range(self.rng.randint(1, 4))]
        self.dispatches += 1
        executable = "@ex_%s_%d" % (self.name, self.dispatches)
        self.module.executables.append(self.executable_text(executable, interface, push_count, len(workload)))

        # The results: tied ones are new versions of their operand.
        result_types, made = [], []
        for operand, untied in results:
            if operand is not None:
                result_types.append(arguments[operand][0])
            else:
                elem, shape, dims = untied
                result_types.append(tensor_type(elem, shape) + dims_suffix(d.name for d in dims))
        name = self.fresh("v")
        count = len(results)
        text = "%s%s = flow.dispatch %s::@entry[%s](%s) {hal.bindings = [%s]} : (%s) -> %s" % (
            name,
            ":%d" % count if count > 1 else "",
            executable,
            ", ".join(w.name for w in workload),
            ", ".join(a[0] for a in arguments),
            ", ".join(bindings),
            ", ".join(a[1] for a in arguments),
            result_types[0] if count == 1 else "(" + ", ".join(result_types) + ")",
        )
        self.body.append(text)
        for r, (operand, untied) in enumerate(results):
            value = name + ("#%d" % r if count > 1 else "")
            if operand is not None:
                source = arguments[operand][2]
                made.append(self.write(source.storage, Tensor(value, source.elem, source.shape, source.dims, source.storage)))
            else:
                elem, shape, dims = untied
                made.append(self.add(Tensor(value, elem, shape, dims, StorageClass("transient"))))
        return made

    def executable_text(self, name, interface, push_count, workload_size):
        lines = ["hal.executable private %s {" % name]
        attributes = " attributes {push_constants = %d : index}" % push_count if push_count else ""
        lines.append("  hal.interface @io%s {" % attributes)
        lines += ["    " + b for b in interface]
        lines.append("  }")
        targets = [("vmvx", "vmvx", "vmvx-bytecode-fb"), ("llvm", "llvm-cpu", "embedded-elf-x86_64")]
        for variant, backend, format in targets[: self.rng.randint(1, 2)]:
            lines.append('  hal.executable.variant @%s, target = #hal.executable.target<"%s", "%s"> {' % (variant, backend, format))
            entry = "    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}"
            if self.rng.random() < 0.4:
                # No constants in the region: `--canonicalize` hoists them
                # into the hal.executable body, and the dispatch lowering
                # then clones a region that uses a value from outside it
                # (finding region_constant_after_canonicalize.mlir).
                arguments = ["%%w%d" % i for i in range(workload_size)]
                returned = (arguments * 3)[:3]
                lines.append(entry + " {")
                lines.append("    ^bb0(%s):" % ", ".join(a + ": index" for a in arguments))
                lines.append("      hal.return %s : index, index, index" % ", ".join(returned))
                lines.append("    }")
            else:
                lines.append(entry)
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines)
