//===- HALDialect.cpp - hal dialect registration, types, attributes -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal::hal;

#include "streamhal/Dialect/HAL/IR/HALDialect.cpp.inc"
#include "streamhal/Dialect/HAL/IR/HALEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "streamhal/Dialect/HAL/IR/HALTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "streamhal/Dialect/HAL/IR/HALAttrs.cpp.inc"

void HALDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "streamhal/Dialect/HAL/IR/HALTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "streamhal/Dialect/HAL/IR/HALAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "streamhal/Dialect/HAL/IR/HALOps.cpp.inc"
      >();
}

Operation *HALDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// #hal.ex.* dispatch bindings
//===----------------------------------------------------------------------===//

/// The integers of a binding (operand and result indices, push constant
/// ordinals, byte ranges) may be of any width, but not zero bits: a
/// zero-width integer has no value to compare.
static LogicalResult verifyBindingIntegers(
    function_ref<InFlightDiagnostic()> emitError,
    std::initializer_list<std::pair<IntegerAttr, StringRef>> integers) {
  for (auto [integer, name] : integers)
    if (!integer || integer.getValue().getBitWidth() == 0)
      return emitError() << "binding " << name
                         << " must be an integer of at least one bit, got "
                         << integer;
  return success();
}

LogicalResult
ExOperandBufferAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            StringAttr, IntegerAttr operand) {
  return verifyBindingIntegers(emitError, {{operand, "operand index"}});
}

LogicalResult
ExResultBufferAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringAttr, IntegerAttr result) {
  return verifyBindingIntegers(emitError, {{result, "result index"}});
}

LogicalResult
ExPushConstantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           IntegerAttr ordinal, IntegerAttr operand) {
  return verifyBindingIntegers(emitError, {{ordinal, "push constant ordinal"},
                                           {operand, "operand index"}});
}

LogicalResult
ExConstantStorageAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringAttr, StringAttr, IntegerAttr offset,
                              IntegerAttr length) {
  return verifyBindingIntegers(emitError,
                               {{offset, "offset"}, {length, "length"}});
}

//===----------------------------------------------------------------------===//
// BufferConstraintsAttr / DeviceTargetAttr
//===----------------------------------------------------------------------===//

LogicalResult BufferConstraintsAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t maxAllocationSize,
    int64_t minBufferOffsetAlignment, int64_t maxBufferRange,
    int64_t minBufferRangeAlignment) {
  if (maxAllocationSize <= 0 || maxBufferRange <= 0)
    return emitError() << "buffer constraint sizes must be positive";
  for (int64_t alignment : {minBufferOffsetAlignment, minBufferRangeAlignment})
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
      return emitError() << "buffer constraint alignments must be powers of "
                            "two, got "
                         << alignment;
  return success();
}

BufferConstraintsAttr DeviceTargetAttr::getBufferConstraints() const {
  if (!getConfiguration())
    return {};
  return getConfiguration().getAs<BufferConstraintsAttr>("buffer_constraints");
}

//===----------------------------------------------------------------------===//
// DescriptorSetLayoutBindingAttr: <ordinal, "Type", access>
//===----------------------------------------------------------------------===//

/// Short spellings of the common access masks.
static constexpr std::pair<llvm::StringLiteral, MemoryAccess>
    kShortAccessNames[] = {
        {"R", MemoryAccess::Read},
        {"W", MemoryAccess::Write},
        {"RW", MemoryAccess::Read | MemoryAccess::Write},
        {"DW", MemoryAccess::Discard | MemoryAccess::Write},
};

Attribute DescriptorSetLayoutBindingAttr::parse(AsmParser &parser, Type) {
  int64_t ordinal = 0;
  std::string typeName;
  if (parser.parseLess() || parser.parseInteger(ordinal) || parser.parseComma())
    return {};
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseString(&typeName))
    return {};
  std::optional<DescriptorType> type = symbolizeDescriptorType(typeName);
  if (!type) {
    parser.emitError(typeLoc) << "unknown descriptor type '" << typeName << "'";
    return {};
  }
  if (parser.parseComma())
    return {};
  SMLoc accessLoc = parser.getCurrentLocation();
  std::string spelling;
  do {
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return {};
    if (!spelling.empty())
      spelling += "|";
    spelling += keyword.str();
  } while (succeeded(parser.parseOptionalVerticalBar()));
  std::optional<MemoryAccess> access;
  for (const auto &[name, value] : kShortAccessNames)
    if (spelling == name)
      access = value;
  if (!access)
    access = symbolizeMemoryAccess(spelling);
  if (!access) {
    parser.emitError(accessLoc) << "unknown access '" << spelling
                                << "' (expected R, W, RW, DW or "
                                   "MemoryAccess bits)";
    return {};
  }
  if (parser.parseGreater())
    return {};
  if (ordinal < 0) {
    parser.emitError(parser.getNameLoc())
        << "binding ordinal must be non-negative";
    return {};
  }
  return DescriptorSetLayoutBindingAttr::get(parser.getContext(), ordinal,
                                             *type, *access);
}

void DescriptorSetLayoutBindingAttr::print(AsmPrinter &printer) const {
  printer << "<" << getOrdinal() << ", \"" << stringifyEnum(getType())
          << "\", ";
  for (const auto &[name, value] : kShortAccessNames) {
    if (getAccess() == value) {
      printer << name << ">";
      return;
    }
  }
  printer << stringifyEnum(getAccess()) << ">";
}
