//===- HALQueueOps.td - hal fences and queue submission ----*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device timeline (docs/async.md), included by HALOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALQUEUEOPS_TD
#define STREAMHAL_DIALECT_HAL_IR_HALQUEUEOPS_TD

//===----------------------------------------------------------------------===//
// Fences and queue submission (docs/async.md)
//===----------------------------------------------------------------------===//

def HAL_FenceCreateOp : HAL_Op<"fence.create"> {
  let summary = "creates an unsignalled fence";
  let description = [{
    ```mlir
    %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
    ```
    The fence is signalled once, by the one queue operation that names it
    in `signal(...)`. No trait: two creates are two fences, so neither CSE
    nor DCE may touch one.

    Verifier: at most one `hal.device.queue.execute`, `.alloca` or
    `.dealloca` names the fence in `signal(...)`.
  }];
  let arguments = (ins HAL_Device:$device);
  let results = (outs HAL_Fence:$result);
  let assemblyFormat = [{
    `device` `(` $device `:` type($device) `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def HAL_DeviceQueueExecuteOp : HAL_Op<"device.queue.execute", [
    AttrSizedOperandSegments]> {
  let summary = "submits command buffers ordered by fences";
  let description = [{
    ```mlir
    hal.device.queue.execute<%dev : !hal.device> wait([%a, %b]) signal(%f)
        commands([%cmd])
    ```
    The command buffers start once every `wait` fence is signalled and run
    one after another as if recorded as one; `%f` is signalled when they
    have completed. The host does not block. Lists may be empty
    (`wait([])`, `commands([])`).

    Verifier: the signal fence is not one of the wait fences (the
    submission would never start) and not a `hal.fence.join` (a join is
    signalled by its parts); no command buffer is listed twice, and none is a
    `hal.device.memoize` result (those take `.indirect`).
  }];
  let arguments = (ins
    HAL_Device:$device,
    Variadic<HAL_Fence>:$wait_fences,
    HAL_Fence:$signal_fence,
    Variadic<HAL_CommandBuffer>:$command_buffers
  );
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    `wait` `(` `[` $wait_fences `]` `)`
    `signal` `(` $signal_fence `)`
    `commands` `(` `[` $command_buffers `]` `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_DeviceQueueAllocaOp : HAL_Op<"device.queue.alloca"> {
  let summary = "allocates a buffer on the device timeline";
  let description = [{
    ```mlir
    %buf = hal.device.queue.alloca<%dev> wait([%a]) signal(%f)
        type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%size}
    ```
    The buffer may be used by work ordered after `%f` (and by the host once
    `%f` is awaited); the allocation itself waits for the `wait` fences.
    The device operand is written without its type.

    Verifier: as for `hal.device.queue.execute`, the signal fence is
    neither a wait fence nor a join.
  }];
  let arguments = (ins
    HAL_Device:$device,
    Variadic<HAL_Fence>:$wait_fences,
    HAL_Fence:$signal_fence,
    HAL_MemoryTypeAttr:$memory_types,
    HAL_BufferUsageAttr:$buffer_usage,
    Index:$result_size
  );
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $device `>`
    `wait` `(` `[` $wait_fences `]` `)`
    `signal` `(` $signal_fence `)`
    `type` `(` custom<BitEnum>($memory_types) `)`
    `usage` `(` custom<BitEnum>($buffer_usage) `)`
    attr-dict `:` type($result) `{` $result_size `}`
  }];
  let hasVerifier = 1;
}

def HAL_DeviceQueueDeallocaOp : HAL_Op<"device.queue.dealloca"> {
  let summary = "releases a buffer on the device timeline";
  let description = [{
    ```mlir
    hal.device.queue.dealloca<%dev> wait([%f]) signal(%g)
        buffer(%buf : !hal.buffer)
    ```
    The buffer is released once every `wait` fence is signalled (the work
    using it is done), with no host wait; `%g` is signalled then.

    Verifier: the signal fence is neither a wait fence nor a join; the
    buffer is the result of a `hal.device.queue.alloca`.
  }];
  let arguments = (ins
    HAL_Device:$device,
    Variadic<HAL_Fence>:$wait_fences,
    HAL_Fence:$signal_fence,
    HAL_Buffer:$buffer
  );
  let assemblyFormat = [{
    `<` $device `>`
    `wait` `(` `[` $wait_fences `]` `)`
    `signal` `(` $signal_fence `)`
    `buffer` `(` $buffer `:` type($buffer) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_FenceJoinOp : HAL_Op<"fence.join", [Pure]> {
  let summary = "a fence signalled when all of the given fences are";
  let description = [{
    A fence signalled once every given fence is. Pure. No queue operation
    may signal it.

    ```mlir
    %j = hal.fence.join at([%a, %b]) : !hal.fence
    ```

    Verifier: at least one fence.
  }];
  let arguments = (ins Variadic<HAL_Fence>:$fences);
  let results = (outs HAL_Fence:$result);
  let assemblyFormat = [{
    `at` `(` `[` $fences `]` `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def HAL_FenceAwaitOp : HAL_Op<"fence.await"> {
  let summary = "blocks the host until every given fence is signalled";
  let description = [{
    Blocks the host until every given fence is signalled; the work they
    order is then complete. The async lowering awaits before host accesses
    to pending results and before every return.

    ```mlir
    hal.fence.await until([%a, %b])
    ```

    Verifier: at least one fence. `hal-exec` reports an await of a fence
    that nothing signals.
  }];
  let arguments = (ins Variadic<HAL_Fence>:$fences);
  let assemblyFormat = [{
    `until` `(` `[` $fences `]` `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reusable command buffers (docs/replay.md)
//===----------------------------------------------------------------------===//

def HAL_DeviceMemoizeOp : HAL_Op<"device.memoize", [IsolatedFromAbove]> {
  let summary = "a command buffer recorded once per device and replayed";
  let description = [{
    ```mlir
    %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 1])
        : !hal.command_buffer {
    ^bb0(%d: !hal.device, %in: !hal.buffer, %out: !hal.buffer, %n: index):
      %c0 = arith.constant 0 : index
      %cb = hal.command_buffer.create device(%d : !hal.device) mode(None)
          categories(Transfer) : !hal.command_buffer
      hal.command_buffer.begin<%cb : !hal.command_buffer>
      hal.command_buffer.copy_buffer<%cb : !hal.command_buffer>
          source(%in : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0]
          length(%n)
      hal.command_buffer.end<%cb : !hal.command_buffer>
      hal.return %cb : !hal.command_buffer
    }
    ```
    The body runs the first time the op runs on a device; every later run
    returns the same command buffer without recording anything. The entry
    block's arguments are the device, then one `!hal.buffer` per binding
    table slot, then the uniforms (`index` or `i32`): the recording names
    slots and uniforms, never a buffer or value of one call, and
    `hal.device.queue.execute.indirect` supplies both at each submission.

    `slots` gives each slot an alias class. Slots of one class may share
    bytes (the barriers recorded assume nothing between them beyond what
    the recording's own offsets prove); slots of different classes are
    assumed disjoint, and every submission must bind them to bytes that do
    not overlap.

    Verifier: one block; arguments as above; the body creates the command
    buffer it returns with a mode without `OneShot`; it holds only command
    buffer ops, device switches over them, layouts and constants.
  }];
  let arguments = (ins HAL_Device:$device, DenseI64ArrayAttr:$slot_classes);
  let results = (outs HAL_CommandBuffer:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` `slots` `(` $slot_classes `)`
    attr-dict `:` type($result) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The slot block arguments, in slot order.
    mlir::Block::BlockArgListType getSlotArguments() {
      return getBody().front().getArguments().slice(
          1, getSlotClasses().size());
    }
    /// The uniform block arguments, in uniform order.
    mlir::Block::BlockArgListType getUniformArguments() {
      return getBody().front().getArguments().drop_front(
          1 + getSlotClasses().size());
    }
    /// The value a submission binds to `argument` (a slot or uniform of
    /// this op's body) when the command buffer has exactly one submission,
    /// a `hal.device.queue.execute.indirect`; null otherwise.
    mlir::Value getSoleSubmittedValue(mlir::BlockArgument argument);
  }];
}

def HAL_DeviceQueueExecuteIndirectOp : HAL_Op<"device.queue.execute.indirect",
    [AttrSizedOperandSegments]> {
  let summary = "submits a memoized command buffer with bindings and uniforms";
  let description = [{
    ```mlir
    hal.device.queue.execute.indirect<%dev : !hal.device> wait([%a])
        signal(%f) commands(%cmd) bindings([%in, %out])
        uniforms([%n] : index)
    ```
    As `hal.device.queue.execute` of one command buffer, which reads slot
    `i` from binding `i` and uniform `j` from uniform `j` of this
    submission. Buffers bound to slots of different alias classes must not
    share bytes (`hal-exec` checks every submission).

    Verifier: the fences as for `hal.device.queue.execute`; when the
    command buffer is a visible `hal.device.memoize`, as many bindings as
    it has slots and uniforms of its uniforms' types.
  }];
  let arguments = (ins
    HAL_Device:$device,
    Variadic<HAL_Fence>:$wait_fences,
    HAL_Fence:$signal_fence,
    HAL_CommandBuffer:$command_buffer,
    Variadic<HAL_Buffer>:$bindings,
    Variadic<AnyTypeOf<[Index, I32]>>:$uniforms
  );
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    `wait` `(` `[` $wait_fences `]` `)`
    `signal` `(` $signal_fence `)`
    `commands` `(` $command_buffer `)`
    `bindings` `(` `[` $bindings `]` `)`
    (`uniforms` `(` `[` $uniforms^ `]` `:` type($uniforms) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

#endif // STREAMHAL_DIALECT_HAL_IR_HALQUEUEOPS_TD
