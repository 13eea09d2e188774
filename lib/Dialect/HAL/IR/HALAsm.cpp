//===- HALAsm.cpp - custom assembly directives of hal ops -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/HALAsm.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace streamhal::hal {

//===----------------------------------------------------------------------===//
// hal.device.switch cases
//===----------------------------------------------------------------------===//

ParseResult
parseSwitchCases(OpAsmParser &parser, ArrayAttr &conditions,
                 SmallVectorImpl<std::unique_ptr<Region>> &regions) {
  SmallVector<Attribute> conditionAttrs;
  auto parseCase = [&]() -> ParseResult {
    Attribute condition;
    auto region = std::make_unique<Region>();
    if (parser.parseAttribute(condition) ||
        parser.parseRegion(*region, /*arguments=*/{}))
      return failure();
    conditionAttrs.push_back(condition);
    regions.push_back(std::move(region));
    return success();
  };
  if (parser.parseCommaSeparatedList(parseCase))
    return failure();
  conditions = parser.getBuilder().getArrayAttr(conditionAttrs);
  return success();
}

void printSwitchCases(OpAsmPrinter &p, Operation *, ArrayAttr conditions,
                      MutableArrayRef<Region> regions) {
  p.increaseIndent();
  for (auto [index, condition, region] : llvm::enumerate(conditions, regions)) {
    if (index > 0)
      p << ",";
    p.printNewline();
    p.printAttribute(condition);
    p << " ";
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
  p.decreaseIndent();
}

//===----------------------------------------------------------------------===//
// hal.allocator.pack slices
//===----------------------------------------------------------------------===//

ParseResult
parsePackSliceRanges(OpAsmParser &parser, ArrayAttr &lifetimeIntervals,
                     SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                     SmallVectorImpl<Type> &offsetTypes) {
  Builder &builder = parser.getBuilder();
  SmallVector<Attribute> bounds;
  // An empty list and a trailing comma are both accepted.
  while (succeeded(parser.parseOptionalLSquare())) {
    int64_t start = 0, end = 0;
    OpAsmParser::UnresolvedOperand size;
    if (parser.parseInteger(start) || parser.parseComma() ||
        parser.parseInteger(end) || parser.parseRSquare() ||
        parser.parseEqual() || parser.parseOperand(size))
      return failure();
    bounds.push_back(builder.getIndexAttr(start));
    bounds.push_back(builder.getIndexAttr(end));
    sizes.push_back(size);
    offsetTypes.push_back(builder.getIndexType());
    if (failed(parser.parseOptionalComma()))
      break;
  }
  lifetimeIntervals = builder.getArrayAttr(bounds);
  return success();
}

void printPackSliceRanges(OpAsmPrinter &p, Operation *,
                          ArrayAttr lifetimeIntervals, ValueRange sizes,
                          TypeRange) {
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if (index > 0)
      p << ", ";
    int64_t start = 0, end = 0;
    if (2 * index + 1 < lifetimeIntervals.size()) {
      start = cast<IntegerAttr>(lifetimeIntervals[2 * index]).getInt();
      end = cast<IntegerAttr>(lifetimeIntervals[2 * index + 1]).getInt();
    }
    p << "[" << start << ", " << end << "] = ";
    p.printOperand(size);
  }
}

//===----------------------------------------------------------------------===//
// hal.command_buffer.push_descriptor_set bindings
//===----------------------------------------------------------------------===//

ParseResult parseDescriptorSetBindings(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &ordinals,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &buffers,
    SmallVectorImpl<Type> &bufferTypes,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &offsets,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &lengths) {
  // Parses `= (%b : type)[%offset, %length]` after a binding's ordinal.
  auto parseBindingRange = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand buffer, offset, length;
    Type bufferType;
    if (parser.parseEqual() || parser.parseLParen() ||
        parser.parseOperand(buffer) || parser.parseColonType(bufferType) ||
        parser.parseRParen() || parser.parseLSquare() ||
        parser.parseOperand(offset) || parser.parseComma() ||
        parser.parseOperand(length) || parser.parseRSquare())
      return failure();
    buffers.push_back(buffer);
    bufferTypes.push_back(bufferType);
    offsets.push_back(offset);
    lengths.push_back(length);
    return success();
  };
  OpAsmParser::UnresolvedOperand ordinal;
  OptionalParseResult first = parser.parseOptionalOperand(ordinal);
  if (!first.has_value())
    return success(); // `bindings([])`
  do {
    if (failed(*first) || parseBindingRange())
      return failure();
    ordinals.push_back(ordinal);
    if (failed(parser.parseOptionalComma()))
      return success();
    first = OptionalParseResult(parser.parseOperand(ordinal));
  } while (true);
}

void printDescriptorSetBindings(OpAsmPrinter &p, Operation *,
                                ValueRange ordinals, ValueRange buffers,
                                TypeRange bufferTypes, ValueRange offsets,
                                ValueRange lengths) {
  for (unsigned i = 0, e = ordinals.size(); i < e; ++i) {
    if (i > 0)
      p << ", ";
    p << ordinals[i] << " = (" << buffers[i] << " : " << bufferTypes[i] << ")["
      << offsets[i] << ", " << lengths[i] << "]";
  }
}

//===----------------------------------------------------------------------===//
// hal.interface.binding fields
//===----------------------------------------------------------------------===//

ParseResult parseInterfaceBindingFields(OpAsmParser &parser, IntegerAttr &set,
                                        IntegerAttr &binding,
                                        DescriptorTypeAttr &type,
                                        MemoryAccessAttr &access) {
  int64_t setValue = 0, bindingValue = 0;
  Builder &builder = parser.getBuilder();
  if (parser.parseKeyword("set") || parser.parseEqual() ||
      parser.parseInteger(setValue) || parser.parseComma() ||
      parser.parseKeyword("binding") || parser.parseEqual() ||
      parser.parseInteger(bindingValue) || parser.parseComma() ||
      parser.parseKeyword("type") || parser.parseEqual() ||
      parseQuotedEnum(parser, type) || parser.parseComma() ||
      parser.parseKeyword("access") || parser.parseEqual() ||
      parseQuotedBitEnum(parser, access))
    return failure();
  set = builder.getIndexAttr(setValue);
  binding = builder.getIndexAttr(bindingValue);
  return success();
}

void printInterfaceBindingFields(OpAsmPrinter &p, Operation *op,
                                 IntegerAttr set, IntegerAttr binding,
                                 DescriptorTypeAttr type,
                                 MemoryAccessAttr access) {
  p << "set=" << set.getValue().getSExtValue()
    << ", binding=" << binding.getValue().getSExtValue() << ", type=";
  printQuotedEnum(p, op, type);
  p << ", access=";
  printQuotedBitEnum(p, op, access);
}

} // namespace streamhal::hal
