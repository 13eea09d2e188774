//===- UtilAsm.h - shared custom assembly directives ------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parsers and printers for `custom<...>` directives that several dialects
// share: symbol visibility keywords and shaped function signatures with
// dynamic dims and tied results:
//
//   (tensor<?x4xf32>{%d}, index) -> (%a as tensor<?x4xf32>{%d}, tensor<4xf32>)
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_UTIL_IR_UTILASM_H
#define STREAMHAL_DIALECT_UTIL_IR_UTILASM_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace streamhal::util {

//===----------------------------------------------------------------------===//
// custom<SymbolVisibility>($sym_visibility)
//===----------------------------------------------------------------------===//

/// Parses an optional `public`, `private` or `nested` keyword.
mlir::ParseResult parseSymbolVisibility(mlir::OpAsmParser &parser,
                                        mlir::StringAttr &visibility);
/// Prints a space and the visibility keyword, if any. Formats put `` before
/// the directive so that a missing keyword leaves a single space.
void printSymbolVisibility(mlir::OpAsmPrinter &p, mlir::Operation *op,
                           mlir::StringAttr visibility);

//===----------------------------------------------------------------------===//
// custom<ShapedFunctionType>(ref($operands), type($operands), $operand_dims,
//                            type($results), $result_dims, $tied_operands)
//===----------------------------------------------------------------------===//

/// Parses `(type{dims}, ...) -> result` where each result is a type with
/// optional dims or `%operand [as type{dims}]` (a tied result). A bare
/// `%operand` takes the operand's type and dims.
mlir::ParseResult parseShapedFunctionType(
    mlir::OpAsmParser &parser,
    llvm::ArrayRef<mlir::OpAsmParser::UnresolvedOperand> operands,
    llvm::SmallVectorImpl<mlir::Type> &operandTypes,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &operandDims,
    llvm::SmallVectorImpl<mlir::Type> &resultTypes,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &resultDims,
    mlir::ArrayAttr &tiedOperands);

/// Prints the form parsed by parseShapedFunctionType.
void printShapedFunctionType(mlir::OpAsmPrinter &p, mlir::Operation *op,
                             mlir::ValueRange operands,
                             mlir::TypeRange operandTypes,
                             mlir::ValueRange operandDims,
                             mlir::TypeRange resultTypes,
                             mlir::ValueRange resultDims,
                             mlir::ArrayAttr tiedOperands);

/// Parses `type` followed by optional `{%d0, %d1}`.
mlir::ParseResult parseShapedType(
    mlir::OpAsmParser &parser, mlir::Type &type,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &dims);
/// Prints `type` followed by `{dims}` when there are any.
void printShapedType(mlir::OpAsmPrinter &p, mlir::Type type,
                     mlir::ValueRange dims);

} // namespace streamhal::util

#endif // STREAMHAL_DIALECT_UTIL_IR_UTILASM_H
