//===- HALOps.td - hal dialect operations ------------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALOPS_TD
#define STREAMHAL_DIALECT_HAL_IR_HALOPS_TD

include "streamhal/Dialect/HAL/IR/HALBase.td"
include "streamhal/Dialect/Util/IR/UtilBase.td"
include "streamhal/Dialect/Util/IR/UtilInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def HAL_IndexArrayAttr : TypedArrayAttrBase<IndexAttr, "index array">;

//===----------------------------------------------------------------------===//
// Device and submission
//===----------------------------------------------------------------------===//

def HAL_ExSharedDeviceOp : HAL_Op<"ex.shared_device", [Pure]> {
  let summary = "the device shared by the whole program";
  let description = [{
    The one device of the program. It is pure: two of them are one value
    (the lowering makes one per function or initializer that needs it).

    ```mlir
    %dev = hal.ex.shared_device : !hal.device
    ```

    No verifier rule beyond the result type.
  }];
  let results = (outs HAL_Device:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def HAL_ExSubmitAndWaitOp : HAL_Op<"ex.submit_and_wait"> {
  let summary = "submits a command buffer and waits for it to finish";
  let description = [{
    Hands an ended command buffer to the device and blocks the host until
    every command has completed. This is the blocking submission the
    conversion records; `--hal-schedule-submissions` (`submission=async`)
    rewrites it into `hal.fence.create` + `hal.device.queue.execute`,
    waiting only where needed (docs/async.md).

    ```mlir
    hal.ex.submit_and_wait %dev, %cmd
    ```

    No verifier rule beyond the operand types.
  }];
  let arguments = (ins HAL_Device:$device, HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = "$device `,` $command_buffer attr-dict";
}

include "streamhal/Dialect/HAL/IR/HALQueueOps.td"

def HAL_DeviceAllocatorOp : HAL_Op<"device.allocator", [Pure]> {
  let summary = "the allocator of a device";
  let description = [{
    The allocator of a device, for allocations and size computations. Pure.

    ```mlir
    %a = hal.device.allocator<%dev : !hal.device> : !hal.allocator
    ```

    No verifier rule beyond the types.
  }];
  let arguments = (ins HAL_Device:$device);
  let results = (outs HAL_Allocator:$result);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` attr-dict `:` type($result)
  }];
}

def HAL_DeviceSwitchOp : HAL_Op<"device.switch", [
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "runs the first case whose condition the device matches";
  let description = [{
    Runs the region of the first condition the device matches (conditions
    are attributes such as `#hal.device.match.executable.format`); its
    `hal.return` values are the switch's results. The lowering makes one
    case per variant of a dispatched executable.

    ```mlir
    %r = hal.device.switch<%dev : !hal.device> -> i32
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        ...
        hal.return %a : i32
      },
      #hal.device.match.executable.format<"embedded-elf"> {
        hal.return %b : i32
      }
    ```

    Verifier: at least one case, one condition per region; each region is
    one block without arguments ending in `hal.return` of exactly the result
    types. `hal-exec` reports a switch with no case for the device's formats.
  }];
  let arguments = (ins HAL_Device:$device, ArrayAttr:$conditions);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<AnyRegion>:$condition_regions);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` (`->` type($results)^)? ``
    custom<SwitchCases>($conditions, $condition_regions) attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def HAL_ReturnOp : HAL_Op<"return", [Pure, Terminator, ReturnLike,
    ParentOneOf<["DeviceSwitchOp", "ExecutableEntryPointOp",
                 "DeviceMemoizeOp"]>]> {
  let summary = "terminator of switch cases, entry point and memoize regions";
  let description = [{
    Ends a case of `hal.device.switch` (returning the switch's results),
    the workgroup count region of `hal.executable.entry_point` (returning
    the x, y and z workgroup counts) or the body of `hal.device.memoize`
    (returning the command buffer it recorded).

    ```mlir
    hal.return %x, %y, %z : index, index, index
    ```

    Verifier: the parent is one of those three ops, which check the
    returned values.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Allocator
//===----------------------------------------------------------------------===//

def HAL_AllocatorComputeSizeOp : HAL_Op<"allocator.compute_size", [Pure]> {
  let summary = "byte size of a dense tensor of the given shape";
  let description = [{
    The byte size of a tensor of the shape, element type and encoding:
    the product of the dims and the element's byte count
    (`ceil(bit_width / 8)` of the `i32` element type value
    `(numerical_type << 24) | bit_width`). Encoding 0, dense row-major, is
    the only encoding. An empty shape is a scalar.

    ```mlir
    %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%n, %c4])
        type(%et) encoding(%enc) : index
    ```

    No verifier rule. Folds to a constant when every operand is constant
    (not for negative dims or 64-bit overflow); canonicalizes to `arith`
    products of the dynamic dims otherwise.
  }];
  let arguments = (ins
    HAL_Allocator:$allocator,
    Variadic<Index>:$shape,
    I32:$element_type,
    I32:$encoding_type
  );
  let results = (outs Index:$result);
  let assemblyFormat = [{
    `<` $allocator `:` type($allocator) `>`
    `shape` `(` `[` $shape `]` `)`
    `type` `(` $element_type `)`
    `encoding` `(` $encoding_type `)`
    attr-dict `:` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def HAL_AllocatorComputeOffsetOp : HAL_Op<"allocator.compute_offset", [
    Pure, AttrSizedOperandSegments]> {
  let summary = "byte offset of an element of a dense tensor";
  let description = [{
    The byte offset, in a dense row-major tensor of the shape and element
    type, of the element at the indices:
    `((i0 * d1 + i1) * d2 + ...) * element_bytes`.

    ```mlir
    %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%i, %j])
        shape([%n, %c4]) type(%et) encoding(%enc) : index
    ```

    Verifier: one index per dim of the shape. Folds to a constant when
    everything is constant and canonicalizes to `arith` index math
    otherwise. Indices are not checked against the dims.
  }];
  let arguments = (ins
    HAL_Allocator:$allocator,
    Variadic<Index>:$indices,
    Variadic<Index>:$shape,
    I32:$element_type,
    I32:$encoding_type
  );
  let results = (outs Index:$offset);
  let assemblyFormat = [{
    `<` $allocator `:` type($allocator) `>`
    `indices` `(` `[` $indices `]` `)`
    `shape` `(` `[` $shape `]` `)`
    `type` `(` $element_type `)`
    `encoding` `(` $encoding_type `)`
    attr-dict `:` type($offset)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def HAL_AllocatorAllocateOp : HAL_Op<"allocator.allocate"> {
  let summary = "allocates a buffer";
  let description = [{
    A new buffer of `%size` bytes with the given memory type and usage;
    its contents are undefined until written (`hal-exec` reports reads of
    never-written bytes). There is no explicit free: the buffer lives as
    long as it is referenced, also by pending submissions.

    ```mlir
    %b = hal.allocator.allocate<%a : !hal.allocator>
        type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%size}
    ```

    No verifier rule beyond the operand types; `max_allocation_size` is
    checked by `--hal-verify-command-buffers`. The enums print bare.
  }];
  let arguments = (ins
    HAL_Allocator:$allocator,
    HAL_MemoryTypeAttr:$memory_types,
    HAL_BufferUsageAttr:$buffer_usage,
    Index:$result_size
  );
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $allocator `:` type($allocator) `>`
    `type` `(` custom<BitEnum>($memory_types) `)`
    `usage` `(` custom<BitEnum>($buffer_usage) `)`
    attr-dict `:` type($result) `{` $result_size `}`
  }];
}

def HAL_AllocatorPackOp : HAL_Op<"allocator.pack", [
    Pure, AttrSizedOperandSegments]> {
  let summary = "places slices with lifetimes inside one slab";
  let description = [{
    Places N slices in one slab: each has a closed lifetime `[start, end]`
    (op indices of the fragment it came from) and an `index` byte size. The
    results are the slab's total length and one offset per slice, each
    plus `offset(%base)` when given. Slices whose lifetimes intersect never
    share bytes.

    ```mlir
    %total, %o:3 = hal.allocator.pack<%a : !hal.allocator> offset(%base)
        slices({[0, 4] = %s0, [1, 2] = %s1, [3, 3] = %s2}) : index
    ```

    `lifetime_intervals` holds `[start0, end0, start1, end1, ...]` as
    `index` attributes; a trailing comma in `slices({...})` is accepted.
    Verifier: two lifetime integers and one result per slice (plus the
    total), `start <= end` for each. `--hal-pack-allocations` replaces packs
    by offsets; a pack of one slice canonicalizes to its aligned size.
  }];
  let arguments = (ins
    HAL_Allocator:$allocator,
    Optional<Index>:$offset,
    HAL_IndexArrayAttr:$lifetime_intervals,
    Variadic<Index>:$dynamic_slice_sizes
  );
  let results = (outs Index:$total_length, Variadic<Index>:$packed_offsets);
  let assemblyFormat = [{
    `<` $allocator `:` type($allocator) `>`
    (`offset` `(` $offset^ `)`)?
    `slices` `(` `{`
    custom<PackSliceRanges>($lifetime_intervals, $dynamic_slice_sizes,
                            type($packed_offsets))
    `}` `)` attr-dict `:` type($total_length)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// One slice of the pack: its closed lifetime and its size operand.
    struct Slice {
      int64_t start;
      int64_t end;
      ::mlir::Value size;
      ::mlir::Value offset;
    };
    /// Returns the slices in order, or an empty list for a malformed op.
    ::llvm::SmallVector<Slice> getSlices();
  }];
}

//===----------------------------------------------------------------------===//
// Buffers and buffer views
//===----------------------------------------------------------------------===//

def HAL_BufferSubspanOp : HAL_Op<"buffer.subspan", [Pure]> {
  let summary = "a byte range of a buffer as a buffer";
  let description = [{
    A view of the bytes `[offset, offset + length)` of a buffer: no copy,
    writes through it are writes of the source. Pure.

    ```mlir
    %sub = hal.buffer.subspan<%b : !hal.buffer>[%off, %len] : !hal.buffer
    ```

    No verifier rule (`hal-exec` checks the range against the buffer). A
    subspan of a subspan canonicalizes into one of the outer buffer, unless
    the inner offset is a pack slice's.
  }];
  let arguments = (ins HAL_Buffer:$source_buffer, Index:$source_offset,
                       Index:$length);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $source_buffer `:` type($source_buffer) `>` ``
    `[` $source_offset `,` $length `]` attr-dict `:` type($result)
  }];
  let hasCanonicalizer = 1;
}

def HAL_BufferLoadOp : HAL_Op<"buffer.load"> {
  let summary = "host read of a scalar from a buffer";
  let description = [{
    Reads, on the host, the scalar at a byte offset of a buffer. The
    buffer's memory must be `HostVisible` (checked by `hal-exec`); under
    `submission=async` the host first awaits pending work that may write
    the buffer.

    ```mlir
    %x = hal.buffer.load<%b : !hal.buffer>[%off] : i32
    ```

    Verifier: the result is a signless integer or a float.
  }];
  let arguments = (ins HAL_Buffer:$source_buffer, Index:$source_offset);
  let results = (outs AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    `<` $source_buffer `:` type($source_buffer) `>` ``
    `[` $source_offset `]` attr-dict `:` type($result)
  }];
}

def HAL_BufferStoreOp : HAL_Op<"buffer.store"> {
  let summary = "host write of a scalar into a buffer";
  let description = [{
    Writes, on the host, a scalar at a byte offset of a buffer. The buffer's
    memory must be `HostVisible` (checked by `hal-exec`); under
    `submission=async` the host first awaits pending work that reads or
    writes the buffer.

    ```mlir
    hal.buffer.store<%b : !hal.buffer>[%off] value(%x : i32)
    ```

    Verifier: the value is a signless integer or a float.
  }];
  let arguments = (ins
    AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$value,
    HAL_Buffer:$target_buffer,
    Index:$target_offset
  );
  let assemblyFormat = [{
    `<` $target_buffer `:` type($target_buffer) `>` ``
    `[` $target_offset `]` `value` `(` $value `:` type($value) `)` attr-dict
  }];
}

def HAL_BufferViewCreateOp : HAL_Op<"buffer_view.create", [Pure]> {
  let summary = "a buffer with a shape, element type and encoding";
  let description = [{
    Wraps a buffer with a shape, an element type (an `i32` element type
    value) and an encoding (0, dense row-major); made by the lowering for
    `hal.tensor.cast` of a tensor to a buffer view. Pure.

    ```mlir
    %bv = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%n, %c4])
        type(%et) encoding(%enc) : !hal.buffer_view
    ```

    No verifier rule beyond the operand types.
  }];
  let arguments = (ins
    HAL_Buffer:$buffer,
    Variadic<Index>:$shape,
    I32:$element_type,
    I32:$encoding_type
  );
  let results = (outs HAL_BufferView:$result);
  let assemblyFormat = [{
    `buffer` `(` $buffer `:` type($buffer) `)`
    `shape` `(` `[` $shape `]` `)`
    `type` `(` $element_type `)`
    `encoding` `(` $encoding_type `)`
    attr-dict `:` type($result)
  }];
}

def HAL_BufferViewBufferOp : HAL_Op<"buffer_view.buffer", [Pure]> {
  let summary = "the buffer of a buffer view";
  let description = [{
    The buffer a buffer view wraps. Folds to the buffer of a
    `hal.buffer_view.create`.

    ```mlir
    %b = hal.buffer_view.buffer<%bv : !hal.buffer_view> : !hal.buffer
    ```

    No verifier rule beyond the types.
  }];
  let arguments = (ins HAL_BufferView:$buffer_view);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` attr-dict `:` type($result)
  }];
  let hasFolder = 1;
}

def HAL_BufferViewDimOp : HAL_Op<"buffer_view.dim", [Pure]> {
  let summary = "one dimension of a buffer view";
  let description = [{
    The size of dimension `index` of a buffer view's shape.

    ```mlir
    %d = hal.buffer_view.dim<%bv : !hal.buffer_view>[1] : index
    ```

    Verifier: the index is not negative (the rank is known only at run
    time).
  }];
  let arguments = (ins HAL_BufferView:$buffer_view, IndexAttr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` attr-dict
    `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor boundary
//===----------------------------------------------------------------------===//

def HAL_TensorCastOp : HAL_Op<"tensor.cast", [
    Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "views a buffer view as a tensor, or a tensor as one";
  let description = [{
    The program's boundary between buffer views and tensors: a buffer view
    seen as a tensor of the given type (the lowering uses its buffer), or a
    tensor exported as a buffer view (the lowering creates one with the
    shape, element type and encoding 0). No bytes are copied.

    ```mlir
    %t = hal.tensor.cast %bv : !hal.buffer_view -> tensor<?x4xf32>{%n}
    ```

    Verifier: one side is a `!hal.buffer_view` and the other a ranked
    tensor; one dim per `?` of the tensor side. Discardable attributes go
    after `attributes`.
  }];
  let arguments = (ins
    AnyType:$source,
    Variadic<Index>:$source_dims,
    Variadic<Index>:$target_dims
  );
  let results = (outs AnyType:$target);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->`
    type($target) (`{` $target_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def HAL_ConstantSubspanOp : HAL_Op<"constant.subspan", [
    Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "a byte range of a `!hal.buffer` global viewed as a tensor";
  let description = [{
    A constant tensor whose bytes are the byte range of the `!hal.buffer`
    global `@pool` (a constant pool). The storage is read-only: the lowering
    reads it in place and copies it before any in-place write.

    ```mlir
    %c = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32>
    ```

    Verifier: one dim per `?` of the result; a static result's byte size
    fits in the range; `@pool` is a `util.global` of type `!hal.buffer`
    (symbol uses). Discardable attributes go after `attributes`.
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$runtime_buffer,
    Util_ByteRangeAttr:$runtime_range,
    Variadic<Index>:$result_dims
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $runtime_buffer `[` qualified($runtime_range) `]` `:` type($result)
    (`{` $result_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

include "streamhal/Dialect/HAL/IR/HALCommandBufferOps.td"

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

def HAL_ExecutableOp : HAL_Op<"executable", [
    Symbol, SymbolTable, IsolatedFromAbove, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "an executable: interfaces and per-target variants";
  let description = [{
    A symbol table holding the `hal.interface`s of an executable and one
    `hal.executable.variant` per target. Isolated from above; one block, no
    terminator. Public executables print no visibility keyword.

    ```mlir
    hal.executable private @ex {
      hal.interface @io { ... }
      hal.executable.variant @vmvx,
          target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> { ... }
    }
    ```

    Verifier: symbol names are unique inside it (symbol table); no other
    rule.
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$sym_visibility,
                       SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `` custom<SymbolVisibility>($sym_visibility) $sym_name
    attr-dict-with-keyword $body
  }];
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
}

def HAL_InterfaceOp : HAL_Op<"interface", [
    Symbol, SymbolTable, SingleBlock, NoTerminator, NoRegionArguments,
    HasParent<"ExecutableOp">]> {
  let summary = "the bindings and push constants an executable takes";
  let description = [{
    Declares the bindings (`hal.interface.binding`) and the push constant
    count (`push_constants`, 0 when absent and then not printed) that the
    entry points naming this interface take.

    ```mlir
    hal.interface @io attributes {push_constants = 2 : index} {
      hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    }
    ```

    Verifier: the parent is a `hal.executable`; `push_constants` is not
    negative; no two bindings share a `set` and `binding` pair.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<IndexAttr>:$push_constants);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the declared push constant count (0 when absent).
    int64_t getPushConstantCount() {
      auto count = getPushConstantsAttr();
      return count ? count.getInt() : 0;
    }
  }];
}

def HAL_InterfaceBindingOp : HAL_Op<"interface.binding", [
    Symbol, HasParent<"InterfaceOp">]> {
  let summary = "one binding of an interface";
  let description = [{
    One binding of an interface: descriptor set, binding number, descriptor
    type and access. `Write` or `Discard` in the access means the kernel
    writes it; `Read` that it reads it.

    ```mlir
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    ```

    Verifier: the parent is a `hal.interface`; `set` and `binding` are not
    negative. The fields print with no spaces around `=`.
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    IndexAttr:$set,
    IndexAttr:$binding,
    HAL_DescriptorTypeAttr:$type,
    HAL_MemoryAccessAttr:$access
  );
  let assemblyFormat = [{
    $sym_name `,` custom<InterfaceBindingFields>($set, $binding, $type,
                                                  $access) attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_ExecutableVariantOp : HAL_Op<"executable.variant", [
    Symbol, SymbolTable, SingleBlock, NoTerminator, NoRegionArguments,
    HasParent<"ExecutableOp">]> {
  let summary = "the executable compiled for one target";
  let description = [{
    The executable for one `#hal.executable.target`: its entry points and
    the code (a `builtin.module`). `hal.device.switch` picks a variant by
    the target's format.

    ```mlir
    hal.executable.variant @vmvx,
        target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
      hal.executable.entry_point @entry
          attributes {interface = @io, ordinal = 0 : index}
      builtin.module {}
    }
    ```

    Verifier: the parent is a `hal.executable`; symbol names are unique
    inside it.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       HAL_ExecutableTargetAttr:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `,` `target` `=` qualified($target)
    attr-dict-with-keyword $body
  }];
}

def HAL_ExecutableEntryPointOp : HAL_Op<"executable.entry_point", [
    Symbol, HasParent<"ExecutableVariantOp">, IsolatedFromAbove,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an exported function of an executable variant";
  let description = [{
    An exported function of a variant: it uses the interface `interface`
    of its executable and has an ordinal. The optional region maps the
    dispatch workload (one `index` argument per workload value) to a
    workgroup count: it returns three `index` values, x, y and z.

    ```mlir
    hal.executable.entry_point @entry
        attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index):
      %c1 = arith.constant 1 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
    ```

    Verifier: the parent is a `hal.executable.variant`; the ordinal is not
    negative; `interface` names a `hal.interface` of the executable; the
    region, when present, takes at least one argument, all `index`, and
    ends in a `hal.return` of exactly three `index` values.
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    FlatSymbolRefAttr:$interface,
    IndexAttr:$ordinal
  );
  let regions = (region MaxSizedRegion<1>:$workgroup_count_region);
  let assemblyFormat = [{
    $sym_name attr-dict-with-keyword ($workgroup_count_region^)?
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the interface this entry point uses, or null.
    InterfaceOp lookupInterface();
  }];
}

#endif // STREAMHAL_DIALECT_HAL_IR_HALOPS_TD
