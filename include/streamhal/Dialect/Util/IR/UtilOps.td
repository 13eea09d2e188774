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

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILOPS_TD
