//===- UtilAsm.cpp - shared custom assembly directives --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Util/IR/UtilAsm.h"
#include "mlir/IR/Builders.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

using namespace mlir;

namespace streamhal::util {

//===----------------------------------------------------------------------===//
// Symbol visibility
//===----------------------------------------------------------------------===//

ParseResult parseSymbolVisibility(OpAsmParser &parser, StringAttr &visibility) {
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword,
                                            {"public", "private", "nested"})))
    visibility = parser.getBuilder().getStringAttr(keyword);
  return success();
}

void printSymbolVisibility(OpAsmPrinter &p, Operation *,
                           StringAttr visibility) {
  // Formats put `` before the directive, so the leading space here keeps a
  // single space before the symbol name whether or not a keyword prints.
  if (visibility)
    p << " " << visibility.getValue();
}

//===----------------------------------------------------------------------===//
// Shaped types with dims
//===----------------------------------------------------------------------===//

ParseResult
parseShapedType(OpAsmParser &parser, Type &type,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  if (parser.parseType(type))
    return failure();
  if (succeeded(parser.parseOptionalLBrace())) {
    if (parser.parseOperandList(dims) || parser.parseRBrace())
      return failure();
  }
  return success();
}

void printShapedType(OpAsmPrinter &p, Type type, ValueRange dims) {
  p.printType(type);
  if (dims.empty())
    return;
  p << "{";
  p.printOperands(dims);
  p << "}";
}

//===----------------------------------------------------------------------===//
// Shaped function types
//===----------------------------------------------------------------------===//

/// Returns the position of `operand` in `operands`, comparing SSA names.
static std::optional<unsigned>
findOperandByName(ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                  const OpAsmParser::UnresolvedOperand &operand) {
  for (auto [index, candidate] : llvm::enumerate(operands))
    if (candidate.name == operand.name && candidate.number == operand.number)
      return index;
  return std::nullopt;
}

ParseResult parseShapedFunctionType(
    OpAsmParser &parser, ArrayRef<OpAsmParser::UnresolvedOperand> operands,
    SmallVectorImpl<Type> &operandTypes,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operandDims,
    SmallVectorImpl<Type> &resultTypes,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &resultDims,
    ArrayAttr &tiedOperands) {
  // Operand dims are remembered per operand so that a bare tied result
  // (`-> %a`) can take the operand's dims.
  SmallVector<SmallVector<OpAsmParser::UnresolvedOperand>> dimsPerOperand;
  auto parseOperandType = [&]() -> ParseResult {
    Type type;
    SmallVector<OpAsmParser::UnresolvedOperand> dims;
    if (parseShapedType(parser, type, dims))
      return failure();
    operandTypes.push_back(type);
    llvm::append_range(operandDims, dims);
    dimsPerOperand.push_back(std::move(dims));
    return success();
  };
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseOperandType))
    return failure();
  if (operandTypes.size() != operands.size())
    return parser.emitError(operandsLoc)
           << "expected " << operands.size() << " operand types but got "
           << operandTypes.size();
  if (parser.parseArrow())
    return failure();

  SmallVector<int64_t> ties;
  bool anyTied = false;
  auto parseResult = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand tiedOperand;
    SMLoc loc = parser.getCurrentLocation();
    OptionalParseResult hasOperand = parser.parseOptionalOperand(tiedOperand);
    if (hasOperand.has_value()) {
      if (failed(*hasOperand))
        return failure();
      std::optional<unsigned> index = findOperandByName(operands, tiedOperand);
      if (!index)
        return parser.emitError(loc) << "tied result names " << tiedOperand.name
                                     << " which is not an operand of this op";
      ties.push_back(*index);
      anyTied = true;
      if (succeeded(parser.parseOptionalKeyword("as"))) {
        Type type;
        SmallVector<OpAsmParser::UnresolvedOperand> dims;
        if (parseShapedType(parser, type, dims))
          return failure();
        resultTypes.push_back(type);
        llvm::append_range(resultDims, dims);
      } else {
        resultTypes.push_back(operandTypes[*index]);
        llvm::append_range(resultDims, dimsPerOperand[*index]);
      }
      return success();
    }
    Type type;
    SmallVector<OpAsmParser::UnresolvedOperand> dims;
    if (parseShapedType(parser, type, dims))
      return failure();
    resultTypes.push_back(type);
    llvm::append_range(resultDims, dims);
    ties.push_back(kUntiedIndex);
    return success();
  };
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen())) {
      if (parser.parseCommaSeparatedList(parseResult) || parser.parseRParen())
        return failure();
    }
  } else if (parseResult()) {
    return failure();
  }
  if (anyTied)
    tiedOperands = parser.getBuilder().getI64ArrayAttr(ties);
  return success();
}

void printShapedFunctionType(OpAsmPrinter &p, Operation *op,
                             ValueRange operands, TypeRange operandTypes,
                             ValueRange operandDims, TypeRange resultTypes,
                             ValueRange resultDims, ArrayAttr tiedOperands) {
  p << "(";
  for (auto [index, type] : llvm::enumerate(operandTypes)) {
    if (index > 0)
      p << ", ";
    printShapedType(p, type,
                    findDynamicDimsInList(index, operandTypes, operandDims));
  }
  p << ") -> ";
  bool parens = resultTypes.size() != 1;
  if (parens)
    p << "(";
  for (auto [index, type] : llvm::enumerate(resultTypes)) {
    if (index > 0)
      p << ", ";
    ValueRange dims = findDynamicDimsInList(index, resultTypes, resultDims);
    std::optional<unsigned> tied =
        getStoredTiedOperandIndex(tiedOperands, index);
    if (tied && *tied < operands.size()) {
      p.printOperand(operands[*tied]);
      ValueRange tiedDims =
          findDynamicDimsInList(*tied, operandTypes, operandDims);
      bool sameDims = llvm::equal(dims, tiedDims);
      if (type == operandTypes[*tied] && sameDims)
        continue;
      p << " as ";
    }
    printShapedType(p, type, dims);
  }
  if (parens)
    p << ")";
}

} // namespace streamhal::util
