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
    neither. Block arguments correspond one-to-one with operands.
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
    ```mlir
    %r = flow.dispatch @ex::@entry[%w0, %w1](%a, %n)
        {hal.bindings = [...]} : (tensor<?x4xf32>{%d}, index) -> %a
    ```
    `@ex::@entry` names an entry point of every variant of the
    `hal.executable @ex`. `tied_operands` indexes the `arguments` list.
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
