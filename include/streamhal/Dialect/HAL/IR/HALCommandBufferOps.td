//===- HALCommandBufferOps.td - hal command buffer ops ----*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Executable layouts and the commands recorded into command buffers.
// Included by HALOps.td (it uses HALOps.td's includes and definitions).
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Executable layouts and command buffers
//===----------------------------------------------------------------------===//

def HAL_ExecutableLayoutLookupOp : HAL_Op<"executable_layout.lookup", [Pure]> {
  let summary = "the layout for a push constant count and descriptor sets";
  let description = [{
    The executable layout of a push constant count and descriptor set
    layouts: `layouts` holds one list per set, in set order, of
    `#hal.descriptor_set_layout_binding`s. Pure: equal lookups are one
    layout.

    ```mlir
    %l = hal.executable_layout.lookup device(%dev : !hal.device)
        push_constants(1)
        layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>,
                  #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]])
        : !hal.executable_layout
    ```

    Verifier: the push constant count is not negative; `layouts` is a list
    of lists of `#hal.descriptor_set_layout_binding`.
  }];
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
  let description = [{
    A new, empty command buffer for recording. Not pure: every create is a
    command buffer of its own.

    ```mlir
    %cmd = hal.command_buffer.create device(%dev : !hal.device)
        mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch)
        : !hal.command_buffer
    ```

    `mode(OneShot)` allows one submission (`hal-exec` refuses a second);
    `categories` names the kinds of command it holds. No verifier rule
    beyond the types.
  }];
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
  let description = [{
    Starts recording: the commands on this command buffer up to its
    `hal.command_buffer.end` are its contents.

    ```mlir
    hal.command_buffer.begin<%cmd : !hal.command_buffer>
    ```

    No verifier rule.
  }];
  let arguments = (ins HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>` attr-dict
  }];
}

def HAL_CommandBufferEndOp : HAL_CommandBufferOp<"end"> {
  let summary = "ends recording";
  let description = [{
    Ends recording; the command buffer may then be submitted. No barrier is
    needed after the last command: a submission completes as a whole.

    ```mlir
    hal.command_buffer.end<%cmd : !hal.command_buffer>
    ```

    No verifier rule.
  }];
  let arguments = (ins HAL_CommandBuffer:$command_buffer);
  let assemblyFormat = [{
    `<` $command_buffer `:` type($command_buffer) `>` attr-dict
  }];
}

def HAL_CommandBufferFillBufferOp : HAL_CommandBufferOp<"fill_buffer"> {
  let summary = "fills a byte range with a repeated 32-bit pattern";
  let description = [{
    Records a fill of the bytes `[offset, offset + length)` of the target
    with the 32-bit pattern repeated (narrower splats repeat their value
    inside the pattern).

    ```mlir
    hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer>
        target(%b : !hal.buffer)[%off, %len] pattern(%x : i32)
    ```

    No verifier rule; offset (from the root buffer) and length must be
    multiples of 4, which `--hal-verify-command-buffers` and `hal-exec`
    check (`hal-exec` also checks the bounds).
  }];
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
  let description = [{
    Records a copy of `length` bytes from the source at its offset to the
    target at its offset.

    ```mlir
    hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer>
        source(%b : !hal.buffer)[%off] target(%b2 : !hal.buffer)[%c0]
        length(%len)
    ```

    No verifier rule; the two ranges must not overlap when they share a
    root buffer (undefined on a device), which `--hal-verify-command-buffers`
    and `hal-exec` check (`hal-exec` also checks the bounds).
  }];
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
  let description = [{
    Records the descriptor set `set` for the dispatches recorded after it:
    each binding ordinal gets a buffer range (buffer, offset, length). It
    replaces the whole set: bindings of an earlier push of the set are
    unbound.

    ```mlir
    hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer>
        layout(%l : !hal.executable_layout)[%c0]
        bindings([%c0 = (%b : !hal.buffer)[%off, %len],
                  %c1 = (%b : !hal.buffer)[%c0, %len]])
    ```

    No verifier rule beyond the types (the four binding lists have one
    entry per binding by construction); binding offset alignment is checked
    by `--hal-verify-command-buffers` and `hal-exec`.
  }];
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
  let description = [{
    Records the `i32` values of push constants `offset`, `offset + 1`, ...
    (ordinals, not bytes) for the dispatches recorded after it.

    ```mlir
    hal.command_buffer.push_constants<%cmd : !hal.command_buffer>
        layout(%l : !hal.executable_layout) offset(0) values([%x, %y])
        : i32, i32
    ```

    Verifier: the offset is not negative. The limit of 32 push constants is
    checked by `--hal-verify-command-buffers` and `hal-exec`.
  }];
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
  let description = [{
    Records a dispatch of `@ex::@variant::@entry` over `x * y * z`
    workgroups, with the descriptor sets and push constants in effect at
    this point of the recording.

    ```mlir
    hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer>
        target(@ex::@vmvx::@entry) workgroups([%x, %y, %z])
    ```

    Verifier (symbol uses): when the executable `@ex` is in the module, the
    target is one of its `hal.executable.entry_point`s; a target whose
    executable is not in the module is accepted (it may be linked later).
  }];
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
  let description = [{
    Records a barrier: the commands recorded before it complete before those
    recorded after it start. Commands between two barriers may run in any
    order or at once. The stages and flags print quoted.

    ```mlir
    hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer>
        source("CommandRetire|Dispatch") target("CommandIssue|Dispatch")
        flags("None")
    ```

    No verifier rule beyond the types. `--hal-place-barriers` places them
    where commands conflict; streamhal's analyses, `hal-exec` and the Vulkan
    device treat every barrier as a full one, whatever its stage masks.
  }];
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
