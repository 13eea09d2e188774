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
    A module-level variable, a symbol with optional visibility (`private`,
    `public`, `nested`, printed as written). Only a `mutable` global may be
    stored to. The optional initial value is any attribute: a value of the
    global's type, or, for a handle type such as `!hal.buffer`, the initial
    contents.

    ```mlir
    util.global private @pool : !hal.buffer
    util.global public mutable @v : tensor<i32>
    util.global private @c = dense<1> : tensor<i32>
    util.global private @w : !hal.buffer = dense<[1, 2]> : tensor<2xi32>
    ```

    An initial value whose type equals the global's type is printed as
    `= value`; otherwise the type is printed first (`: type = value`).

    Verifier: when the global's type is a builtin value type (a shaped,
    integer, float or index type), a typed initial value has that type.
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
  let description = [{
    Reads the current value of a global: its initial value, or what the
    latest `util.global.store` (direct or indirect) put there.

    ```mlir
    %v = util.global.load @counter : tensor<i32>
    ```

    Verifier (symbol uses): `@counter` is a `util.global` and the result
    type is the global's type.
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$global attr-dict `:` type($result)";
}

def Util_GlobalStoreOp : Util_Op<"global.store", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "stores a value into a mutable global";
  let description = [{
    Replaces the value of a global; later loads see it.

    ```mlir
    util.global.store %v, @counter : tensor<i32>
    ```

    Verifier (symbol uses): `@counter` is a `util.global`, it is `mutable`,
    and the value's type is the global's type.
  }];
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
    The address of a global, through which the indirect ops read and write
    it.

    ```mlir
    %p = util.global.address @g : !util.ptr<tensor<4xf32>>
    ```

    Verifier (symbol uses): `@g` is a `util.global` whose type is the
    pointer's target type. Taking the address of an immutable global is
    allowed; storing through it is not (see `util.global.store.indirect`).
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs Util_PtrType:$result);
  let assemblyFormat = "$global attr-dict `:` qualified(type($result))";
}

def Util_GlobalLoadIndirectOp : Util_Op<"global.load.indirect"> {
  let summary = "loads the value of the global a pointer addresses";
  let description = [{
    Reads the current value of the global whose address `%p` holds, as
    `util.global.load` of that global would.

    ```mlir
    %v = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
    ```

    Verifier: the result type is the pointer's target type.
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
    Replaces the value of the global whose address `%p` holds.

    ```mlir
    util.global.store.indirect %v, %p : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
    ```

    Verifier: the value's type is the pointer's target type. The global
    must be `mutable`; where the pointer comes straight from
    `util.global.address`, the verifier checks that it is (symbol uses).
    Any other pointer (an argument, a call result, a loaded pointer) is
    accepted, and `hal-exec` reports a store into an immutable global when
    it runs.
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
    ending in `util.return`; it may hold stream fragments, which the
    lowering turns into command buffers as in a function body. The
    `util.return` is always printed.

    Verifier: the parent is the `builtin.module`; the region is isolated
    from above and its one block takes no arguments and ends in a
    terminator (`util.return`).
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Util_ReturnOp : Util_Op<"return", [Pure, Terminator, ReturnLike,
    HasParent<"InitializerOp">]> {
  let summary = "ends a util.initializer";
  let description = [{
    Terminates the body of a `util.initializer`; it returns nothing. Under
    `submission=async` the host awaits all pending device work before it.

    ```mlir
    util.return
    ```

    Verifier: the parent is a `util.initializer`; no operands.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILOPS_TD
