//===- UtilInterfaces.td - tied and shape-aware interfaces -*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_TD
#define STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_TD

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// TiedOpInterface
//===----------------------------------------------------------------------===//

def Util_TiedOpInterface : OpInterface<"TiedOpInterface"> {
  let description = [{
    An op whose results may reuse the storage of one of its operands (an
    in-place update). A tied result aliases its operand: both name the same
    bytes. Ops with a variable list of ties store them in an `i64` array
    attribute `tied_operands`, one entry per result (`-1`: not tied,
    otherwise an index into the op's `arguments` operand list), printed as
    `%a` or `%a as type{dims}` in the result list; `flow.tensor.update`,
    `flow.tensor.reshape` and `flow.tensor.store` are tied by definition.
    A tied result and its operand are tensors of one element type and, when
    both are static, of one byte size.
  }];
  let cppNamespace = "::streamhal::util";

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Returns the index (into the op's full operand list) of the operand the
        result `resultIndex` is tied to, or std::nullopt when it is not tied.
      }],
      /*retTy=*/"std::optional<unsigned>",
      /*methodName=*/"getTiedResultOperandIndex",
      /*args=*/(ins "unsigned":$resultIndex)
    >,
  ];

  let extraSharedClassDeclaration = [{
    /// Returns the operand value `result` is tied to, or null.
    ::mlir::Value getTiedResultOperand(::mlir::Value result) {
      auto opResult = ::llvm::dyn_cast<::mlir::OpResult>(result);
      if (!opResult || opResult.getOwner() != $_op.getOperation())
        return {};
      std::optional<unsigned> index =
          $_op.getTiedResultOperandIndex(opResult.getResultNumber());
      if (!index)
        return {};
      return $_op->getOperand(*index);
    }
  }];
}

//===----------------------------------------------------------------------===//
// ShapeAwareOpInterface
//===----------------------------------------------------------------------===//

def Util_ShapeAwareOpInterface : OpInterface<"ShapeAwareOpInterface"> {
  let description = [{
    An op that carries the dynamic dimensions of its tensor operands and
    results as `index` operands, so a pass can find the dims of any tensor
    value without knowing the op. In the assembly the dims follow the type
    in braces, one value per `?` in order (`tensor<?x4x?xf32>{%d0, %d2}`);
    the implementing ops verify that count. Values that are not ranked
    tensors, and static tensors, have no dims.
  }];
  let cppNamespace = "::streamhal::util";

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Returns the dynamic dimensions of operand `operandIndex` (index into
        the op's full operand list), in order; empty for static shapes and
        non-tensor operands.
      }],
      /*retTy=*/"::mlir::ValueRange",
      /*methodName=*/"getOperandDynamicDims",
      /*args=*/(ins "unsigned":$operandIndex)
    >,
    InterfaceMethod<
      /*desc=*/[{
        Returns the dynamic dimensions of result `resultIndex`, in order.
      }],
      /*retTy=*/"::mlir::ValueRange",
      /*methodName=*/"getResultDynamicDims",
      /*args=*/(ins "unsigned":$resultIndex)
    >,
  ];
}

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILINTERFACES_TD
