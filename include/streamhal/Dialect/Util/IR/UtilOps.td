//===- UtilOps.td - util dialect operations ----------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILOPS_TD
#define STREAMHAL_DIALECT_UTIL_IR_UTILOPS_TD

include "streamhal/Dialect/Util/IR/UtilBase.td"
include "streamhal/Dialect/Util/IR/UtilInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//

def Util_GlobalOp : Util_Op<"global", [Symbol]> {
  let summary = "a module-level variable";
  let description = [{
    ```mlir
    util.global private @pool : !hal.buffer
    util.global public mutable @v : tensor<i32>
    util.global private @c = dense<1> : tensor<i32>
    ```
    An initial value whose type equals the global's type is printed as
    `= value`; otherwise the type is printed first (`: type = value`).
  }];
  let arguments = (ins
    OptionalAttr<StrAttr>:$sym_visibility,
    SymbolNameAttr:$sym_name,
    TypeAttr:$type,
    UnitAttr:$is_mutable,
    OptionalAttr<AnyAttr>:$initial_value
  );
  let assemblyFormat = [{
    `` custom<SymbolVisibility>($sym_visibility) (`mutable` $is_mutable^)?
    $sym_name attr-dict custom<TypeOrAttr>($type, $initial_value)
  }];
  let hasVerifier = 1;
}

def Util_GlobalLoadOp : Util_Op<"global.load", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "loads the value of a global";
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$global attr-dict `:` type($result)";
}

def Util_GlobalStoreOp : Util_Op<"global.store", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "stores a value into a mutable global";
  let arguments = (ins AnyType:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Indirect access to globals
//===----------------------------------------------------------------------===//

def Util_GlobalAddressOp : Util_Op<"global.address", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the address of a global";
  let description = [{
    ```mlir
    %p = util.global.address @g : !util.ptr<tensor<4xf32>>
    ```
    `@g` must be a `util.global` whose type is the pointer's target type.
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs Util_PtrType:$result);
  let assemblyFormat = "$global attr-dict `:` qualified(type($result))";
}

def Util_GlobalLoadIndirectOp : Util_Op<"global.load.indirect"> {
  let summary = "loads the value of the global a pointer addresses";
  let description = [{
    ```mlir
    %v = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
    ```
    The result type is the pointer's target type.
  }];
  let arguments = (ins Util_PtrType:$global);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $global attr-dict `:` qualified(type($global)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Util_GlobalStoreIndirectOp : Util_Op<"global.store.indirect", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "stores a value into the global a pointer addresses";
  let description = [{
    ```mlir
    util.global.store.indirect %v, %p : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
    ```
    The value's type is the pointer's target type. The global must be
    `mutable`; where the pointer comes straight from `util.global.address`,
    the verifier checks that it is.
  }];
  let arguments = (ins AnyType:$value, Util_PtrType:$global);
  let assemblyFormat = [{
    $value `,` $global attr-dict `:` type($value) `->` qualified(type($global))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Initializers
//===----------------------------------------------------------------------===//

def Util_InitializerOp : Util_Op<"initializer", [
    IsolatedFromAbove, HasParent<"::mlir::ModuleOp">]> {
  let summary = "code run once when the module is loaded";
  let description = [{
    ```mlir
    util.initializer {
      %v = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> { ... }
      util.global.store %v, @g : tensor<4xf32>
      util.return
    }
    ```
    The initializers of a module run once each, in module order, before any
    of its functions is called. The body is one block without arguments
    ending in `util.return`; it may hold stream fragments.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Util_ReturnOp : Util_Op<"return", [Pure, Terminator, ReturnLike,
    HasParent<"InitializerOp">]> {
  let summary = "ends a util.initializer";
  let assemblyFormat = "attr-dict";
}

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILOPS_TD
