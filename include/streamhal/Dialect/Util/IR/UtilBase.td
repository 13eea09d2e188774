//===- UtilBase.td - util dialect base definitions ---------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILBASE_TD
#define STREAMHAL_DIALECT_UTIL_IR_UTILBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Util_Dialect : Dialect {
  let name = "util";
  let cppNamespace = "::streamhal::util";
  let summary = "Utilities shared by the flow and hal dialects.";
  let description = [{
    Globals (`util.global` and direct or pointer-based access to them),
    module initializers, byte ranges, and the interfaces
    (`TiedOpInterface`, `ShapeAwareOpInterface`) that the flow and hal
    dialects implement. The ops work on any type: the lowering rewrites
    globals, pointers and initializers of tensors into the same ops on
    `!hal.buffer` values.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

class Util_Op<string mnemonic, list<Trait> traits = []> :
    Op<Util_Dialect, mnemonic, traits>;

class Util_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Util_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Util_ByteRangeAttr : Util_Attr<"ByteRange", "byte_range"> {
  let summary = "a byte range `<offset, length>` inside a buffer";
  let description = [{
    The bytes `[offset, offset + length)` of a buffer, as named by
    `hal.constant.subspan @pool[#util.byte_range<0, 32>]`. A length of 0 is
    an empty range.

    ```mlir
    #util.byte_range<16, 64>
    ```

    Verifier: offset and length are not negative and `offset + length`
    does not pass the largest 64-bit offset (`2^63 - 1`).
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$length);
  let assemblyFormat = "`<` $offset `,` $length `>`";
  let genVerifyDecl = 1;
}

class Util_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Util_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Util_PtrType : Util_Type<"Ptr", "ptr"> {
  let summary = "the address of a global holding a value of `targetType`";
  let description = [{
    `!util.ptr<tensor<4xf32>>` is the address of a `util.global` of type
    `tensor<4xf32>`, as made by `util.global.address` and read or written
    through by `util.global.load.indirect` / `util.global.store.indirect`.
    Pointers are values like any other: they may be passed to and returned
    from functions and stored in globals. The lowering turns
    `!util.ptr<tensor<...>>` into `!util.ptr<!hal.buffer>`. Any type may be
    the target; nothing else is verified.
  }];
  let parameters = (ins "::mlir::Type":$targetType);
  let assemblyFormat = "`<` $targetType `>`";
}

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILBASE_TD
