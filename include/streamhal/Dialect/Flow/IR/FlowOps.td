//===- FlowOps.td - flow dialect operations ----------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_TD
#define STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_TD

include "streamhal/Dialect/Flow/IR/FlowBase.td"
include "streamhal/Dialect/Util/IR/UtilInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Stream fragments
//===----------------------------------------------------------------------===//

def Flow_ExStreamFragmentOp : Flow_Op<"ex.stream.fragment", [
    IsolatedFromAbove,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Util_TiedOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "a block of device work executed as one unit";
  let description = [{
    One block of device work that the lowering records into one command
    buffer and submits as a unit. The region is isolated from above: every
    value it uses arrives as an operand, whose block argument has the
    operand's type. Results are the values of the terminating `flow.return`;
    a result tied to an operand may reuse that operand's storage.

    ```mlir
    %r0, %r1 = flow.ex.stream.fragment(%a, %n, %d)
        : (tensor<?x4xf32>{%d}, index, index)
        -> (tensor<?x4xf32>{%d}, %a as tensor<?x4xf32>{%d}) =
        (%ia: tensor<?x4xf32>, %in: index, %id: index)
        -> (tensor<?x4xf32>, tensor<?x4xf32>) {
      ...
      flow.return %x, %y : tensor<?x4xf32>, tensor<?x4xf32>
    }
    ```

    The outer signature carries dims and ties; the region signature carries
    neither. A single result needs no parentheses (`-> %s`, `-> tensor<4xf32>`).

    Verifier: one dim per `?` of every operand and result type;
    `tied_operands`, when present, has one entry per result, each `-1` or
    the index of an existing operand with the tie rules of the dialect
    (tensors, same element type, same static byte size); the region takes one
    argument per operand, of the operand's type, and ends in a `flow.return`
    of the result types. Canonicalization sinks constant scalar operands into
    the body, merges operands passing one value and drops unused ones
    (operands named by a tie stay).
  }];
  let arguments = (ins
    Variadic<AnyType>:$arguments,
    Flow_IndexList:$argument_dims,
    Flow_IndexList:$result_dims,
    OptionalAttr<I64ArrayAttr>:$tied_operands
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $arguments `)` `:`
    custom<ShapedFunctionType>(ref($arguments), type($arguments), $argument_dims,
                               type($results), $result_dims, $tied_operands)
    attr-dict-with-keyword `=`
    custom<FragmentBody>(ref(type($arguments)), ref(type($results)), $body)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Index of the first `arguments` operand in the full operand list
    /// (valid even when there are no arguments).
    unsigned getArgumentsBeginIndex() {
      return getODSOperandIndexAndLength(0).first;
    }
  }];
}

def Flow_ReturnOp : Flow_Op<"return", [
    Pure, Terminator, ReturnLike, HasParent<"ExStreamFragmentOp">]> {
  let summary = "returns values from a stream fragment";
  let description = [{
    Terminates the body of a `flow.ex.stream.fragment`; its operands become
    the fragment's results, in order.

    ```mlir
    flow.return %x, %n : tensor<?x4xf32>, index
    ```

    Verifier: the parent is a `flow.ex.stream.fragment`, whose verifier
    checks that the returned types are exactly its result types.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

def Flow_DispatchOp : Flow_Op<"dispatch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Util_TiedOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "runs an executable entry point over a workload";
  let description = [{
    Runs the entry point `@entry` of the `hal.executable @ex` over a workload
    of one or more `index` values. The lowering records a
    `hal.device.switch` with one case per variant of the executable; the
    workgroup count is the entry point's region applied to the workload, or
    else the workload itself (missing values 1). Results may be
    tied to operands (`-> %a`): the kernel then writes in place.
    `tied_operands` indexes the `arguments` list.

    ```mlir
    %r = flow.dispatch @ex::@entry[%w0, %w1](%a, %n)
        {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>,
                         #hal.ex.push_constant<0 : index, 1 : index>]}
        : (tensor<?x4xf32>{%d}, index) -> %a
    ```

    `hal.bindings` lists how each operand and result reaches the
    executable's interface (`#hal.ex.operand_buffer`, `result_buffer`,
    `push_constant`, `constant_storage`).

    Verifier: the workload is not empty; dims and ties as for a fragment;
    the entry point has the form `@executable::@entry`, the executable exists
    and at least one of its variants has the entry point, and every variant
    whose entry point has a workgroup count region takes the workload's
    arity. In `hal.bindings`, operand and result indices exist, no interface
    binding is named twice (except an `operand_buffer` and a `result_buffer`
    of a tied pair) and no push constant ordinal twice. Binding names, a
    variant without the entry point and malformed lists are reported by
    `--convert-flow-to-hal`.
  }];
  let arguments = (ins
    SymbolRefAttr:$entry_point,
    Flow_IndexList:$workload,
    Variadic<AnyType>:$arguments,
    Flow_IndexList:$argument_dims,
    Flow_IndexList:$result_dims,
    OptionalAttr<I64ArrayAttr>:$tied_operands
  );
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $entry_point `[` $workload `]` `` `(` $arguments `)` attr-dict `:`
    custom<ShapedFunctionType>(ref($arguments), type($arguments), $argument_dims,
                               type($results), $result_dims, $tied_operands)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding the interface bindings.
    static constexpr ::llvm::StringLiteral getBindingsAttrName() {
      return ::llvm::StringLiteral("hal.bindings");
    }
    /// Index of the first `arguments` operand in the full operand list
    /// (valid even when there are no arguments).
    unsigned getArgumentsBeginIndex() {
      return getODSOperandIndexAndLength(1).first;
    }
    /// Returns the `hal.bindings` array, or null when absent or not an array.
    ::mlir::ArrayAttr getBindings() {
      return (*this)->getAttrOfType<::mlir::ArrayAttr>(getBindingsAttrName());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Tensor ops
//===----------------------------------------------------------------------===//

def Flow_TensorSplatOp : Flow_Op<"tensor.splat", [
    Pure,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>,
    TypesMatchWith<"value type matches the element type of the result",
                   "result", "value",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">
  ]> {
  let summary = "a tensor whose every element equals a scalar";
  let description = [{
    A new tensor of the result type whose elements all equal `%v`. Lowered
    to `fill_buffer` commands (elements of up to 8 bytes).

    ```mlir
    %t = flow.tensor.splat %v : tensor<?x4xf32>{%n}
    ```

    Verifier: the value's type is the result's element type; one dim per
    `?` of the result type. Discardable attributes go after `attributes`
    (a bare `{` after the type would be its dims).
  }];
  let arguments = (ins AnyType:$value, Flow_IndexList:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `:` type($result) (`{` $result_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorCloneOp : Flow_Op<"tensor.clone", [
    Pure,
    AllTypesMatch<["operand", "result"]>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "a copy of a tensor with its own storage";
  let description = [{
    A new value equal to its operand, in storage of its own: writing one in
    place never changes the other. The lowering records a copy, or makes the
    clone a view of its source when nothing can tell (`copies=elide`).

    ```mlir
    %t = flow.tensor.clone %s : tensor<?x4xf32>{%n}
    ```

    Verifier: the result has the operand's type (the dims are the operand's
    and the result's); one dim per `?`.
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       Flow_IndexList:$operand_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `:` type($result) (`{` $operand_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorSliceOp : Flow_Op<"tensor.slice", [
    Pure,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "a copy of a box of a tensor";
  let description = [{
    A new tensor holding the box of `%s` that starts at the start indices:
    one start and one length per dimension. The box is the result type; the
    lengths only spell it (an SSA length is fine for a static dim).

    ```mlir
    %t = flow.tensor.slice %s[%o0, %o1 for %l0, %l1]
        : tensor<8x4xf32> -> tensor<2x4xf32>
    ```

    Verifier: dims counts of source and result; as many starts and lengths
    as the source has dims; the result has the source's rank and element
    type; a constant length equals a static result dim; constant starts and
    lengths are not negative; where a start, the box extent and the source
    dim are all known the box lies inside the source (`slice at [7, 2] is
    out of bounds`).
  }];
  let arguments = (ins
    AnyRankedTensor:$source,
    Flow_IndexList:$source_dims,
    Flow_IndexList:$start_indices,
    Flow_IndexList:$lengths,
    Flow_IndexList:$result_dims
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `[` $start_indices `for` $lengths `]` `:`
    type($source) (`{` $source_dims^ `}`)? `->`
    type($result) (`{` $result_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorUpdateOp : Flow_Op<"tensor.update", [
    AttrSizedOperandSegments,
    AllTypesMatch<["target", "result"]>,
    DeclareOpInterfaceMethods<Util_TiedOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "writes a tensor into another at start indices, in place";
  let description = [{
    The target with the box starting at the start indices replaced by
    `%u`. The result is tied to the target by definition (spelled
    `%target as type`): the lowering writes in place, after
    `--flow-materialize-copy-on-write` cloned any target still needed.

    ```mlir
    %t = flow.tensor.update %u, %target[%o0, %o1]
        : tensor<1x4xf32> -> %target as tensor<8x4xf32>
    ```

    Verifier: the result has the target's type; the name before `as` is the
    target; dims counts of update and target; one start per target dim; the
    update has the target's rank and element type; constant starts are not
    negative; where a start, the update's static dim and the target dim are
    known the update lies inside the target (an update at `[4, 1, 1]` into
    `tensor<5x1x10xf32>` is rejected).
  }];
  let arguments = (ins
    AnyRankedTensor:$update,
    Flow_IndexList:$update_dims,
    AnyRankedTensor:$target,
    Flow_IndexList:$target_dims,
    Flow_IndexList:$start_indices
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $update `,` $target `[` $start_indices `]` `:`
    type($update) (`{` $update_dims^ `}`)? `->`
    custom<TiedTarget>(ref($target)) type($result)
    (`{` $target_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorReshapeOp : Flow_Op<"tensor.reshape", [
    Pure,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Util_TiedOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>]> {
  let summary = "the same bytes viewed with a new shape";
  let description = [{
    The source's bytes, in row-major order, under a new shape. The result
    is tied to the source by definition; the lowering records nothing.

    ```mlir
    %t = flow.tensor.reshape %s : tensor<?x4xf32>{%n} -> tensor<?x2x2xf32>{%m}
    ```

    Verifier: dims counts of source and result; the result has the source's
    element type and, when both shapes are static, its byte size.
  }];
  let arguments = (ins
    AnyRankedTensor:$source,
    Flow_IndexList:$source_dims,
    Flow_IndexList:$result_dims
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->`
    type($result) (`{` $result_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorLoadOp : Flow_Op<"tensor.load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>,
    TypesMatchWith<"result type matches the element type of the source",
                   "source", "result",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">
  ]> {
  let summary = "host read of one element";
  let description = [{
    Reads the element at the indices, on the host, outside fragments (the
    lowering rejects it inside one and lowers it to
    `hal.allocator.compute_offset` + `hal.buffer.load`).

    ```mlir
    %x = flow.tensor.load %t[%i, %j] : tensor<2x3xi32>
    ```

    Verifier: the result type is the tensor's element type; one dim per
    `?`; one index per dimension (`%z[]` for rank 0); constant indices are
    not negative and lie inside static dims.
  }];
  let arguments = (ins
    AnyRankedTensor:$source,
    Flow_IndexList:$source_dims,
    Flow_IndexList:$indices
  );
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `:` type($source) (`{` $source_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Flow_TensorStoreOp : Flow_Op<"tensor.store", [
    AttrSizedOperandSegments,
    AllTypesMatch<["target", "result"]>,
    DeclareOpInterfaceMethods<Util_TiedOpInterface>,
    DeclareOpInterfaceMethods<Util_ShapeAwareOpInterface>,
    TypesMatchWith<"value type matches the element type of the target",
                   "target", "value",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">
  ]> {
  let summary = "host write of one element, in place";
  let description = [{
    The target with the element at the indices replaced by `%x`, written on
    the host outside fragments. The result is tied to the target, so the
    write is in place when copy on write allows it (otherwise the target is
    cloned first); lowered to `hal.allocator.compute_offset` +
    `hal.buffer.store`.

    ```mlir
    %t2 = flow.tensor.store %x, %t[%i, %j] : tensor<2x3xi32>
    ```

    Verifier: the value type is the target's element type and the result
    has the target's type; dims and indices as for `flow.tensor.load`.
  }];
  let arguments = (ins
    AnyType:$value,
    AnyRankedTensor:$target,
    Flow_IndexList:$target_dims,
    Flow_IndexList:$indices
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `,` $target `[` $indices `]` `:` type($target)
    (`{` $target_dims^ `}`)?
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

#endif // STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_TD
