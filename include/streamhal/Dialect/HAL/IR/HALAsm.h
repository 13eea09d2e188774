//===- HALAsm.h - custom assembly directives of hal ops ---------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALASM_H
#define STREAMHAL_DIALECT_HAL_IR_HALASM_H

#include "mlir/IR/OpImplementation.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include <string>

namespace streamhal::hal {

//===----------------------------------------------------------------------===//
// custom<BitEnum>: `A|B`;  custom<QuotedBitEnum>: `"A|B"`
//===----------------------------------------------------------------------===//

/// The C++ enum wrapped by an enum attribute class.
template <typename AttrT>
using EnumOf = decltype(std::declval<AttrT>().getValue());

/// Turns `spelling` into an enum attribute, or reports the valid spellings.
template <typename AttrT>
mlir::ParseResult buildEnumAttr(mlir::OpAsmParser &parser, llvm::SMLoc loc,
                                llvm::StringRef spelling, AttrT &attr) {
  std::optional<EnumOf<AttrT>> value = symbolizeEnum<EnumOf<AttrT>>(spelling);
  if (!value)
    return parser.emitError(loc) << "invalid " << AttrT::getMnemonic()
                                 << " value '" << spelling << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return mlir::success();
}

/// Parses `A|B|...` (bare keywords separated by `|`).
template <typename AttrT>
mlir::ParseResult parseBitEnum(mlir::OpAsmParser &parser, AttrT &attr) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string spelling;
  do {
    llvm::StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return mlir::failure();
    if (!spelling.empty())
      spelling += "|";
    spelling += keyword.str();
  } while (succeeded(parser.parseOptionalVerticalBar()));
  return buildEnumAttr(parser, loc, spelling, attr);
}

template <typename AttrT>
void printBitEnum(mlir::OpAsmPrinter &p, mlir::Operation *, AttrT attr) {
  p << stringifyEnum(attr.getValue());
}

/// Parses `"A|B"` (one string).
template <typename AttrT>
mlir::ParseResult parseQuotedBitEnum(mlir::OpAsmParser &parser, AttrT &attr) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string spelling;
  if (parser.parseString(&spelling))
    return mlir::failure();
  return buildEnumAttr(parser, loc, spelling, attr);
}

template <typename AttrT>
void printQuotedBitEnum(mlir::OpAsmPrinter &p, mlir::Operation *, AttrT attr) {
  p << "\"" << stringifyEnum(attr.getValue()) << "\"";
}

/// custom<QuotedEnum>: a plain enum as a string, e.g. `"StorageBuffer"`.
template <typename AttrT>
mlir::ParseResult parseQuotedEnum(mlir::OpAsmParser &parser, AttrT &attr) {
  return parseQuotedBitEnum(parser, attr);
}

template <typename AttrT>
void printQuotedEnum(mlir::OpAsmPrinter &p, mlir::Operation *op, AttrT attr) {
  printQuotedBitEnum(p, op, attr);
}

//===----------------------------------------------------------------------===//
// Op-specific directives
//===----------------------------------------------------------------------===//

/// `#cond { ... }, #cond { ... }` of hal.device.switch.
mlir::ParseResult
parseSwitchCases(mlir::OpAsmParser &parser, mlir::ArrayAttr &conditions,
                 llvm::SmallVectorImpl<std::unique_ptr<mlir::Region>> &regions);
void printSwitchCases(mlir::OpAsmPrinter &p, mlir::Operation *op,
                      mlir::ArrayAttr conditions,
                      mlir::MutableArrayRef<mlir::Region> regions);

/// `[0, 4] = %s0, [1, 2] = %s1` of hal.allocator.pack (trailing comma ok).
mlir::ParseResult parsePackSliceRanges(
    mlir::OpAsmParser &parser, mlir::ArrayAttr &lifetimeIntervals,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &sizes,
    llvm::SmallVectorImpl<mlir::Type> &offsetTypes);
void printPackSliceRanges(mlir::OpAsmPrinter &p, mlir::Operation *op,
                          mlir::ArrayAttr lifetimeIntervals,
                          mlir::ValueRange sizes, mlir::TypeRange offsetTypes);

/// `%c0 = (%b : !hal.buffer)[%off, %len], ...` of push_descriptor_set.
mlir::ParseResult parseDescriptorSetBindings(
    mlir::OpAsmParser &parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &ordinals,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &buffers,
    llvm::SmallVectorImpl<mlir::Type> &bufferTypes,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &offsets,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &lengths);
void printDescriptorSetBindings(mlir::OpAsmPrinter &p, mlir::Operation *op,
                                mlir::ValueRange ordinals,
                                mlir::ValueRange buffers,
                                mlir::TypeRange bufferTypes,
                                mlir::ValueRange offsets,
                                mlir::ValueRange lengths);

/// `set=0, binding=1, type="StorageBuffer", access="Write|Discard"` of
/// hal.interface.binding (no spaces around `=`, as IREE printed it).
mlir::ParseResult parseInterfaceBindingFields(mlir::OpAsmParser &parser,
                                              mlir::IntegerAttr &set,
                                              mlir::IntegerAttr &binding,
                                              DescriptorTypeAttr &type,
                                              MemoryAccessAttr &access);
void printInterfaceBindingFields(mlir::OpAsmPrinter &p, mlir::Operation *op,
                                 mlir::IntegerAttr set,
                                 mlir::IntegerAttr binding,
                                 DescriptorTypeAttr type,
                                 MemoryAccessAttr access);

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_HALASM_H
