//===- UtilOps.cpp - util dialect operations ------------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace streamhal::util;

//===----------------------------------------------------------------------===//
// custom<TypeOrAttr>($type, $initial_value)
//===----------------------------------------------------------------------===//

/// Parses `: type`, `: type = attr` or `= typed-attr`.
static ParseResult parseTypeOrAttr(OpAsmParser &parser, TypeAttr &typeAttr,
                                   Attribute &initialValue) {
  if (succeeded(parser.parseOptionalEqual())) {
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseAttribute(initialValue)))
      return failure();
    auto typed = dyn_cast<TypedAttr>(initialValue);
    if (!typed)
      return parser.emitError(loc)
             << "expected a typed initial value or `: type`";
    typeAttr = TypeAttr::get(typed.getType());
    return success();
  }
  Type type;
  if (parser.parseColonType(type))
    return failure();
  typeAttr = TypeAttr::get(type);
  if (succeeded(parser.parseOptionalEqual()))
    return parser.parseAttribute(initialValue);
  return success();
}

static void printTypeOrAttr(OpAsmPrinter &p, Operation *, TypeAttr typeAttr,
                            Attribute initialValue) {
  auto typed = dyn_cast_or_null<TypedAttr>(initialValue);
  if (typed && typed.getType() == typeAttr.getValue()) {
    p << "= ";
    p.printAttribute(initialValue);
    return;
  }
  p << ": ";
  p.printType(typeAttr.getValue());
  if (initialValue) {
    p << " = ";
    p.printAttribute(initialValue);
  }
}

#define GET_OP_CLASSES
#include "streamhal/Dialect/Util/IR/UtilOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GlobalOp
//===----------------------------------------------------------------------===//

LogicalResult GlobalOp::verify() {
  // Builtin value types must match their initial value; a handle type such
  // as !hal.buffer takes its initial contents from the attribute.
  bool isValueType =
      isa<ShapedType, IntegerType, FloatType, IndexType>(getType());
  if (auto typed = dyn_cast_or_null<TypedAttr>(getInitialValueAttr()))
    if (isValueType && typed.getType() != getType())
      return emitOpError() << "initial value type " << typed.getType()
                           << " does not match global type " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalLoadOp / GlobalStoreOp
//===----------------------------------------------------------------------===//

/// Resolves `symbol` to a util.global, reporting a located error otherwise.
static FailureOr<GlobalOp> lookupGlobal(Operation *user,
                                        FlatSymbolRefAttr symbol,
                                        SymbolTableCollection &symbolTable) {
  auto global =
      symbolTable.lookupNearestSymbolFrom<GlobalOp>(user, symbol.getAttr());
  if (!global)
    return user->emitOpError() << "references undefined global " << symbol;
  return global;
}

LogicalResult
GlobalLoadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<GlobalOp> global =
      lookupGlobal(*this, getGlobalAttr(), symbolTable);
  if (failed(global))
    return failure();
  if (global->getType() != getResult().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " does not match global type " << global->getType();
  return success();
}

LogicalResult
GlobalStoreOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<GlobalOp> global =
      lookupGlobal(*this, getGlobalAttr(), symbolTable);
  if (failed(global))
    return failure();
  if (!global->getIsMutable())
    return emitOpError() << "cannot store to immutable global "
                         << getGlobalAttr();
  if (global->getType() != getValue().getType())
    return emitOpError() << "value type " << getValue().getType()
                         << " does not match global type " << global->getType();
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalAddressOp / GlobalLoadIndirectOp / GlobalStoreIndirectOp
//===----------------------------------------------------------------------===//

LogicalResult
GlobalAddressOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<GlobalOp> global =
      lookupGlobal(*this, getGlobalAttr(), symbolTable);
  if (failed(global))
    return failure();
  Type target = getResult().getType().getTargetType();
  if (global->getType() != target)
    return emitOpError() << "pointer target type " << target
                         << " does not match global type " << global->getType();
  return success();
}

LogicalResult GlobalLoadIndirectOp::verify() {
  Type target = getGlobal().getType().getTargetType();
  if (getResult().getType() != target)
    return emitOpError() << "result type " << getResult().getType()
                         << " does not match pointer target type " << target;
  return success();
}

LogicalResult GlobalStoreIndirectOp::verify() {
  Type target = getGlobal().getType().getTargetType();
  if (getValue().getType() != target)
    return emitOpError() << "value type " << getValue().getType()
                         << " does not match pointer target type " << target;
  return success();
}

LogicalResult
GlobalStoreIndirectOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // Only a pointer made right here by util.global.address names its global;
  // any other pointer (an argument, a loaded one) is checked by no one.
  auto address = getGlobal().getDefiningOp<GlobalAddressOp>();
  if (!address)
    return success();
  auto global = symbolTable.lookupNearestSymbolFrom<GlobalOp>(
      address, address.getGlobalAttr().getAttr());
  // An undefined global is reported by the address op itself.
  if (global && !global.getIsMutable())
    return emitOpError() << "cannot store through the address of immutable "
                            "global "
                         << address.getGlobalAttr();
  return success();
}

//===----------------------------------------------------------------------===//
// InitializerOp
//===----------------------------------------------------------------------===//

LogicalResult InitializerOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 0)
    return emitOpError() << "body takes no arguments, but has "
                         << body.getNumArguments();
  return success();
}
