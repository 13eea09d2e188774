//===- FlowOps.cpp - flow fragments and dispatches ------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilAsm.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::flow;
using util::parseShapedFunctionType;
using util::printShapedFunctionType;

//===----------------------------------------------------------------------===//
// custom<FragmentBody>: `(%a: type, ...) -> (types) { region }`
//===----------------------------------------------------------------------===//

static ParseResult parseFragmentBody(OpAsmParser &parser,
                                     TypeRange operandTypes,
                                     TypeRange resultTypes, Region &body) {
  SmallVector<OpAsmParser::Argument> arguments;
  SMLoc argumentsLoc = parser.getCurrentLocation();
  if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  if (arguments.size() != operandTypes.size())
    return parser.emitError(argumentsLoc)
           << "fragment region takes " << arguments.size()
           << " arguments but the fragment has " << operandTypes.size()
           << " operands";
  SMLoc resultsLoc = parser.getCurrentLocation();
  SmallVector<Type> regionResultTypes;
  if (parser.parseArrow())
    return failure();
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseTypeList(regionResultTypes) || parser.parseRParen()))
      return failure();
  } else {
    Type type;
    if (parser.parseType(type))
      return failure();
    regionResultTypes.push_back(type);
  }
  if (TypeRange(regionResultTypes) != resultTypes)
    return parser.emitError(resultsLoc)
           << "fragment region result types do not match the fragment's "
              "result types";
  return parser.parseRegion(body, arguments);
}

static void printFragmentBody(OpAsmPrinter &p, Operation *, TypeRange,
                              TypeRange resultTypes, Region &body) {
  p << "(";
  llvm::interleaveComma(body.getArguments(), p, [&](BlockArgument argument) {
    p.printRegionArgument(argument);
  });
  p << ") -> ";
  if (resultTypes.size() == 1) {
    p << resultTypes.front();
  } else {
    p << "(";
    llvm::interleaveComma(resultTypes, p);
    p << ")";
  }
  p << " ";
  p.printRegion(body, /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

//===----------------------------------------------------------------------===//
// custom<TiedTarget>: `%target as` in flow.tensor.update
//===----------------------------------------------------------------------===//

static ParseResult
parseTiedTarget(OpAsmParser &parser,
                const OpAsmParser::UnresolvedOperand &target) {
  OpAsmParser::UnresolvedOperand tied;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(tied))
    return failure();
  if (tied.name != target.name || tied.number != target.number)
    return parser.emitError(loc)
           << "the result of flow.tensor.update is tied to its target "
           << target.name << ", not " << tied.name;
  return parser.parseKeyword("as");
}

static void printTiedTarget(OpAsmPrinter &p, Operation *, Value target) {
  p << target << " as";
}

#define GET_OP_CLASSES
#include "streamhal/Dialect/Flow/IR/FlowOps.cpp.inc"

//===----------------------------------------------------------------------===//
// flow.ex.stream.fragment
//===----------------------------------------------------------------------===//

LogicalResult ExStreamFragmentOp::verify() {
  if (failed(util::verifyDynamicDimCounts(*this, getArguments().getTypes(),
                                          getArgumentDims(), "operand")) ||
      failed(util::verifyDynamicDimCounts(*this, getResultTypes(),
                                          getResultDims(), "result")))
    return failure();
  return util::verifyTiedOperands(*this, getTiedOperandsAttr(),
                                  getArguments().getTypes(), getResultTypes());
}

LogicalResult ExStreamFragmentOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getArguments().size())
    return emitOpError() << "region takes " << block.getNumArguments()
                         << " arguments but the fragment has "
                         << getArguments().size() << " operands";
  for (auto [argument, operand] :
       llvm::zip_equal(block.getArguments(), getArguments()))
    if (argument.getType() != operand.getType())
      return emitOpError() << "region argument " << argument.getArgNumber()
                           << " has type " << argument.getType()
                           << " but its operand has type " << operand.getType();
  auto terminator = dyn_cast<ReturnOp>(block.getTerminator());
  if (!terminator)
    return emitOpError() << "region must end with flow.return";
  if (terminator.getOperandTypes() != getResultTypes())
    return terminator.emitOpError()
           << "returns types that do not match the fragment results";
  return success();
}

std::optional<unsigned>
ExStreamFragmentOp::getTiedResultOperandIndex(unsigned resultIndex) {
  std::optional<unsigned> index =
      util::getStoredTiedOperandIndex(getTiedOperandsAttr(), resultIndex);
  if (!index || *index >= getArguments().size())
    return std::nullopt;
  return getArgumentsBeginIndex() + *index;
}

ValueRange ExStreamFragmentOp::getOperandDynamicDims(unsigned operandIndex) {
  unsigned begin = getArgumentsBeginIndex();
  if (operandIndex < begin || operandIndex >= begin + getArguments().size())
    return {};
  return util::findDynamicDimsInList(
      operandIndex - begin, getArguments().getTypes(), getArgumentDims());
}

ValueRange ExStreamFragmentOp::getResultDynamicDims(unsigned resultIndex) {
  return util::findDynamicDimsInList(resultIndex, getResultTypes(),
                                     getResultDims());
}

//===----------------------------------------------------------------------===//
// flow.dispatch
//===----------------------------------------------------------------------===//

/// Verifies that an index stored in a binding attribute names an existing
/// operand or result.
static LogicalResult verifyBindingIndex(Operation *op, Attribute binding,
                                        IntegerAttr index, size_t count,
                                        StringRef what) {
  // Compares as APInt: the attribute may be wider than 64 bits.
  if (index && !index.getValue().isNegative() && index.getValue().ult(count))
    return success();
  std::string text = index ? llvm::toString(index.getValue(), /*Radix=*/10,
                                            /*Signed=*/true)
                           : std::string("<none>");
  return op->emitOpError() << "binding " << binding << " references " << what
                           << " " << text << " but the op has " << count << " "
                           << what << "s";
}

/// True when `first` and `second` are an `operand_buffer` and a
/// `result_buffer` (in either order) whose result is tied to that operand:
/// the pair is one storage, so naming one interface binding for both is one
/// buffer on one binding, not two values competing for it.
static bool isTiedPairOnOneBinding(DispatchOp op, Attribute first,
                                   Attribute second) {
  auto operand = dyn_cast<hal::ExOperandBufferAttr>(first);
  auto result = dyn_cast<hal::ExResultBufferAttr>(second);
  if (!operand || !result) {
    operand = dyn_cast<hal::ExOperandBufferAttr>(second);
    result = dyn_cast<hal::ExResultBufferAttr>(first);
  }
  if (!operand || !result || !operand.getOperand() || !result.getResult())
    return false;
  // Indices wider than 64 bits or negative name nothing; the index checks
  // below report them.
  const APInt &operandIndex = operand.getOperand().getValue();
  const APInt &resultIndex = result.getResult().getValue();
  if (operandIndex.isNegative() || resultIndex.isNegative() ||
      !operandIndex.isIntN(32) || !resultIndex.isIntN(32) ||
      resultIndex.getZExtValue() >= op->getNumResults())
    return false;
  std::optional<unsigned> tied = util::getStoredTiedOperandIndex(
      op.getTiedOperandsAttr(),
      static_cast<unsigned>(resultIndex.getZExtValue()));
  return tied && *tied == operandIndex.getZExtValue();
}

LogicalResult DispatchOp::verify() {
  if (getWorkload().empty())
    return emitOpError() << "needs a workload of at least one index value";
  if (failed(util::verifyDynamicDimCounts(*this, getArguments().getTypes(),
                                          getArgumentDims(), "operand")) ||
      failed(util::verifyDynamicDimCounts(*this, getResultTypes(),
                                          getResultDims(), "result")) ||
      failed(util::verifyTiedOperands(*this, getTiedOperandsAttr(),
                                      getArguments().getTypes(),
                                      getResultTypes())))
    return failure();
  // Only well-formed entries are checked here; malformed lists are reported
  // by the lowering, which is where they stop being usable.
  ArrayAttr bindings = getBindings();
  if (!bindings)
    return success();
  size_t operandCount = getArguments().size();
  size_t resultCount = getNumResults();
  // One interface binding takes one buffer: binding it twice would leave one
  // of the two values unbound (for a result: never written).
  // Likewise one push constant ordinal takes one value.
  llvm::SmallDenseMap<Attribute, Attribute> boundNames;
  for (Attribute binding : bindings) {
    Attribute name =
        llvm::TypeSwitch<Attribute, Attribute>(binding)
            .Case<hal::ExOperandBufferAttr, hal::ExResultBufferAttr,
                  hal::ExConstantStorageAttr>(
                [](auto attr) { return attr.getBinding(); })
            .Case(
                [](hal::ExPushConstantAttr attr) { return attr.getOrdinal(); })
            .Default([](Attribute) { return Attribute(); });
    if (!name)
      continue;
    auto [it, inserted] = boundNames.try_emplace(name, binding);
    if (!inserted && isTiedPairOnOneBinding(*this, it->second, binding))
      continue;
    if (!inserted && isa<IntegerAttr>(name))
      return emitOpError() << "sets push constant ordinal "
                           << llvm::toString(cast<IntegerAttr>(name).getValue(),
                                             /*Radix=*/10, /*Signed=*/true)
                           << " twice in hal.bindings: " << it->second
                           << " and " << binding;
    if (!inserted)
      return emitOpError() << "binds interface binding @"
                           << cast<StringAttr>(name).getValue()
                           << " twice in hal.bindings: " << it->second
                           << " and " << binding;
  }
  for (Attribute binding : bindings) {
    LogicalResult result =
        llvm::TypeSwitch<Attribute, LogicalResult>(binding)
            .Case([&](hal::ExOperandBufferAttr attr) {
              return verifyBindingIndex(*this, attr, attr.getOperand(),
                                        operandCount, "operand");
            })
            .Case([&](hal::ExResultBufferAttr attr) {
              return verifyBindingIndex(*this, attr, attr.getResult(),
                                        resultCount, "result");
            })
            .Case([&](hal::ExPushConstantAttr attr) {
              return verifyBindingIndex(*this, attr, attr.getOperand(),
                                        operandCount, "operand");
            })
            .Default([](Attribute) { return success(); });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  SymbolRefAttr entryPoint = getEntryPointAttr();
  if (entryPoint.getNestedReferences().size() != 1)
    return emitOpError() << "entry point " << entryPoint
                         << " must have the form @executable::@entry";
  auto executable = symbolTable.lookupNearestSymbolFrom<hal::ExecutableOp>(
      *this, entryPoint.getRootReference());
  if (!executable)
    return emitOpError() << "callee executable @"
                         << entryPoint.getRootReference().getValue()
                         << " not found";
  StringAttr entryName = entryPoint.getLeafReference();
  bool found = false;
  for (auto variant : executable.getBody().getOps<hal::ExecutableVariantOp>()) {
    auto entry = dyn_cast_or_null<hal::ExecutableEntryPointOp>(
        SymbolTable::lookupSymbolIn(variant, entryName));
    if (!entry)
      continue;
    found = true;
    Region &region = entry.getWorkgroupCountRegion();
    if (!region.empty() && region.getNumArguments() != getWorkload().size())
      return emitOpError() << "workload has " << getWorkload().size()
                           << " values but entry point " << entryPoint
                           << " takes " << region.getNumArguments();
  }
  if (!found)
    return emitOpError() << "entry point " << entryPoint
                         << " not found in any variant of @"
                         << entryPoint.getRootReference().getValue();
  return success();
}

std::optional<unsigned>
DispatchOp::getTiedResultOperandIndex(unsigned resultIndex) {
  std::optional<unsigned> index =
      util::getStoredTiedOperandIndex(getTiedOperandsAttr(), resultIndex);
  if (!index || *index >= getArguments().size())
    return std::nullopt;
  return getArgumentsBeginIndex() + *index;
}

ValueRange DispatchOp::getOperandDynamicDims(unsigned operandIndex) {
  unsigned begin = getArgumentsBeginIndex();
  if (operandIndex < begin || operandIndex >= begin + getArguments().size())
    return {};
  return util::findDynamicDimsInList(
      operandIndex - begin, getArguments().getTypes(), getArgumentDims());
}

ValueRange DispatchOp::getResultDynamicDims(unsigned resultIndex) {
  return util::findDynamicDimsInList(resultIndex, getResultTypes(),
                                     getResultDims());
}

//===----------------------------------------------------------------------===//
// Dims lookup
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> streamhal::flow::findDynamicDims(Value value) {
  unsigned expected = util::getDynamicDimCount(value.getType());
  if (expected == 0)
    return SmallVector<Value>();
  ValueRange dims;
  if (auto result = dyn_cast<OpResult>(value)) {
    if (auto shapeAware =
            dyn_cast<util::ShapeAwareOpInterface>(result.getOwner()))
      dims = shapeAware.getResultDynamicDims(result.getResultNumber());
  } else if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (auto fragment =
            dyn_cast<ExStreamFragmentOp>(argument.getOwner()->getParentOp()))
      dims = fragment.getOperandDynamicDims(fragment.getArgumentsBeginIndex() +
                                            argument.getArgNumber());
  }
  if (dims.size() != expected)
    return failure();
  return llvm::to_vector(dims);
}

Value streamhal::flow::getCapturedValue(Value value) {
  // Fragments can only capture through their operands (they are isolated
  // from above), so following block arguments outwards ends.
  while (auto argument = dyn_cast<BlockArgument>(value)) {
    auto fragment = dyn_cast_or_null<ExStreamFragmentOp>(
        argument.getOwner()->getParentOp());
    if (!fragment || &fragment.getBody().front() != argument.getOwner() ||
        argument.getArgNumber() >= fragment.getArguments().size())
      break;
    value = fragment.getArguments()[argument.getArgNumber()];
  }
  return value;
}

std::optional<int64_t>
streamhal::flow::getConstantIntThroughCaptures(Value value) {
  APInt constant;
  if (!matchPattern(getCapturedValue(value), m_ConstantInt(&constant)) ||
      constant.getSignificantBits() > 64)
    return std::nullopt;
  return constant.getSExtValue();
}

StringRef streamhal::flow::getWaveAttrName() {
  return FlowDialect::WaveAttrHelper::getNameStr();
}

std::optional<int64_t> streamhal::flow::getWave(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(getWaveAttrName());
  if (!attr)
    return std::nullopt;
  const APInt &value = attr.getValue();
  if (value.isNegative() || value.getActiveBits() > 63)
    return std::nullopt;
  return static_cast<int64_t>(value.getZExtValue());
}

void streamhal::flow::setWave(Operation *op, int64_t wave) {
  op->setAttr(getWaveAttrName(),
              IntegerAttr::get(IntegerType::get(op->getContext(), 64), wave));
}
