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
  let results = (outs HAL_Device:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def HAL_ExSubmitAndWaitOp : HAL_Op<"ex.submit_and_wait"> {
  let summary = "submits a command buffer and waits for it to finish";
  let arguments = (ins HAL_Device:$device, HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = "$device `,` $command_buffer attr-dict";
}

include "streamhal/Dialect/HAL/IR/HALQueueOps.td"

def HAL_DeviceAllocatorOp : HAL_Op<"device.allocator", [Pure]> {
  let summary = "the allocator of a device";
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
    ```mlir
    hal.device.switch<%dev : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        ...
        hal.return
      },
      #hal.device.match.executable.format<"embedded-elf"> {
        hal.return
      }
    ```
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
    ParentOneOf<["DeviceSwitchOp", "ExecutableEntryPointOp"]>]> {
  let summary = "terminator of switch cases and entry point regions";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Allocator
//===----------------------------------------------------------------------===//

def HAL_AllocatorComputeSizeOp : HAL_Op<"allocator.compute_size", [Pure]> {
  let summary = "byte size of a dense tensor of the given shape";
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
    ```mlir
    %total, %o:3 = hal.allocator.pack<%a : !hal.allocator> offset(%base)
        slices({[0, 4] = %s0, [1, 2] = %s1, [3, 3] = %s2}) : index
    ```
    Slices whose closed lifetime intervals intersect never share bytes.
    `lifetime_intervals` holds `[start0, end0, start1, end1, ...]`.
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
  let arguments = (ins HAL_Buffer:$source_buffer, Index:$source_offset);
  let results = (outs AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    `<` $source_buffer `:` type($source_buffer) `>` ``
    `[` $source_offset `]` attr-dict `:` type($result)
  }];
}

def HAL_BufferStoreOp : HAL_Op<"buffer.store"> {
  let summary = "host write of a scalar into a buffer";
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
  let arguments = (ins HAL_BufferView:$buffer_view);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` attr-dict `:` type($result)
  }];
  let hasFolder = 1;
}

def HAL_BufferViewDimOp : HAL_Op<"buffer_view.dim", [Pure]> {
  let summary = "one dimension of a buffer view";
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

//===----------------------------------------------------------------------===//
// Executable layouts and command buffers
//===----------------------------------------------------------------------===//

def HAL_ExecutableLayoutLookupOp : HAL_Op<"executable_layout.lookup", [Pure]> {
  let summary = "the layout for a push constant count and descriptor sets";
  let arguments = (ins
    HAL_Device:$device,
    IndexAttr:$push_constants,
    ArrayAttr:$set_layouts
  );
  let results = (outs HAL_ExecutableLayout:$result);
  let assemblyFormat = [{
    `device` `(` $device `:` type($device) `)`
    `push_constants` `(` $push_constants `)`
    `layouts` `(` $set_layouts `)`
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def HAL_CommandBufferCreateOp : HAL_Op<"command_buffer.create"> {
  let summary = "creates a command buffer";
  let arguments = (ins
    HAL_Device:$device,
    HAL_CommandBufferModeAttr:$modes,
    HAL_CommandCategoryAttr:$command_categories
  );
  let results = (outs HAL_CommandBuffer:$result);
  let assemblyFormat = [{
    `device` `(` $device `:` type($device) `)`
    `mode` `(` custom<BitEnum>($modes) `)`
    `categories` `(` custom<BitEnum>($command_categories) `)`
    attr-dict `:` type($result)
  }];
}

class HAL_CommandBufferOp<string mnemonic, list<Trait> traits = []>
    : HAL_Op<"command_buffer." # mnemonic, traits>;

def HAL_CommandBufferBeginOp : HAL_CommandBufferOp<"begin"> {
  let summary = "starts recording";
  let arguments = (ins HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>` attr-dict
  }];
}

def HAL_CommandBufferEndOp : HAL_CommandBufferOp<"end"> {
  let summary = "ends recording";
  let arguments = (ins HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>` attr-dict
  }];
}

def HAL_CommandBufferFillBufferOp : HAL_CommandBufferOp<"fill_buffer"> {
  let summary = "fills a byte range with a repeated 32-bit pattern";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    HAL_Buffer:$target_buffer,
    Index:$target_offset,
    Index:$length,
    I32:$pattern
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `target` `(` $target_buffer `:` type($target_buffer) `)` ``
    `[` $target_offset `,` $length `]`
    `pattern` `(` $pattern `:` type($pattern) `)`
    attr-dict
  }];
}

def HAL_CommandBufferCopyBufferOp : HAL_CommandBufferOp<"copy_buffer"> {
  let summary = "copies bytes between buffers";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    HAL_Buffer:$source_buffer,
    Index:$source_offset,
    HAL_Buffer:$target_buffer,
    Index:$target_offset,
    Index:$length
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `source` `(` $source_buffer `:` type($source_buffer) `)` ``
    `[` $source_offset `]`
    `target` `(` $target_buffer `:` type($target_buffer) `)` ``
    `[` $target_offset `]`
    `length` `(` $length `)`
    attr-dict
  }];
}

def HAL_CommandBufferPushDescriptorSetOp
    : HAL_CommandBufferOp<"push_descriptor_set", [SameVariadicOperandSize]> {
  let summary = "binds buffer ranges to a descriptor set";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    HAL_ExecutableLayout:$executable_layout,
    Index:$set,
    Variadic<Index>:$binding_ordinals,
    Variadic<HAL_Buffer>:$binding_buffers,
    Variadic<Index>:$binding_offsets,
    Variadic<Index>:$binding_lengths
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `layout` `(` $executable_layout `:` type($executable_layout) `)` ``
    `[` $set `]`
    `bindings` `(` `[`
    custom<DescriptorSetBindings>($binding_ordinals, $binding_buffers,
                                  type($binding_buffers), $binding_offsets,
                                  $binding_lengths)
    `]` `)` attr-dict
  }];
}

def HAL_CommandBufferPushConstantsOp
    : HAL_CommandBufferOp<"push_constants"> {
  let summary = "sets push constants for the next dispatches";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    HAL_ExecutableLayout:$executable_layout,
    IndexAttr:$offset,
    Variadic<I32>:$values
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `layout` `(` $executable_layout `:` type($executable_layout) `)`
    `offset` `(` $offset `)`
    `values` `(` `[` $values `]` `)` attr-dict `:` type($values)
  }];
  let hasVerifier = 1;
}

def HAL_CommandBufferDispatchSymbolOp
    : HAL_CommandBufferOp<"dispatch.symbol", [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "dispatches an entry point over a workgroup count";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    SymbolRefAttr:$entry_point,
    Index:$workgroup_x,
    Index:$workgroup_y,
    Index:$workgroup_z
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `target` `(` $entry_point `)`
    `workgroups` `(` `[` $workgroup_x `,` $workgroup_y `,` $workgroup_z `]` `)`
    attr-dict
  }];
}

def HAL_CommandBufferExecutionBarrierOp
    : HAL_CommandBufferOp<"execution_barrier"> {
  let summary = "orders commands recorded before and after it";
  let arguments = (ins
    HAL_CommandBuffer:$command_buffer,
    HAL_ExecutionStageAttr:$source_stage_mask,
    HAL_ExecutionStageAttr:$target_stage_mask,
    HAL_ExecutionBarrierFlagAttr:$flags
  );
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>`
    `source` `(` custom<QuotedBitEnum>($source_stage_mask) `)`
    `target` `(` custom<QuotedBitEnum>($target_stage_mask) `)`
    `flags` `(` custom<QuotedBitEnum>($flags) `)`
    attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

def HAL_ExecutableOp : HAL_Op<"executable", [
    Symbol, SymbolTable, IsolatedFromAbove, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "an executable: interfaces and per-target variants";
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
    The optional region maps the dispatch workload (one `index` argument per
    workload value) to a workgroup count: it returns three `index` values.
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
