//===- Scalars.cpp - Reference executor: arith on scalars -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Integer and index `arith` ops on the bits of scalars (index is 64-bit),
// plus float constants and bitcasts: what programs use to compute sizes,
// offsets, workloads, push constants and splat values.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

static uint64_t truncate(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

static int64_t toSigned(uint64_t bits, unsigned width) {
  if (width == 0 || width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits = truncate(bits, width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

/// arith.constant: an integer or float constant's bits.
static LogicalResult runArithConstant(arith::ConstantOp constant,
                                      Frame &frame) {
  Attribute value = constant.getValue();
  uint64_t bits;
  if (auto integer = dyn_cast<IntegerAttr>(value))
    bits = getLowBits(integer.getValue());
  else if (auto floating = dyn_cast<FloatAttr>(value))
    bits = getLowBits(floating.getValue().bitcastToAPInt());
  else
    return constant.emitError() << "is a constant the executor cannot hold";
  frame[constant.getResult()] =
      ScalarValue{truncate(bits, getScalarWidth(constant.getType()))};
  return success();
}

namespace {
/// The operands of an arith op on scalars of `width` bits, and the errors
/// its evaluation found.
struct ArithOperands {
  SmallVector<uint64_t, 3> bits;
  unsigned width = 64;
  bool divideByZero = false;
  bool signedOverflow = false;

  uint64_t u(unsigned i) const { return truncate(bits[i], width); }
  int64_t s(unsigned i) const { return toSigned(bits[i], width); }
  bool checkDivisor(uint64_t divisor) {
    if (truncate(divisor, width) == 0)
      divideByZero = true;
    return divideByZero;
  }
  // INT64_MIN / -1 overflows int64_t (and traps on x86). Narrower types are
  // sign-extended to 64 bits, where their quotient fits.
  bool checkSigned() {
    if (s(0) == INT64_MIN && s(1) == -1)
      signedOverflow = true;
    return signedOverflow;
  }
};
} // namespace

/// arith.cmpi: whether `predicate` holds between the two operands.
static std::optional<uint64_t> compareIntegers(arith::CmpIPredicate predicate,
                                               const ArithOperands &args) {
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return args.u(0) == args.u(1);
  case arith::CmpIPredicate::ne:
    return args.u(0) != args.u(1);
  case arith::CmpIPredicate::ult:
    return args.u(0) < args.u(1);
  case arith::CmpIPredicate::ule:
    return args.u(0) <= args.u(1);
  case arith::CmpIPredicate::ugt:
    return args.u(0) > args.u(1);
  case arith::CmpIPredicate::uge:
    return args.u(0) >= args.u(1);
  case arith::CmpIPredicate::slt:
    return args.s(0) < args.s(1);
  case arith::CmpIPredicate::sle:
    return args.s(0) <= args.s(1);
  case arith::CmpIPredicate::sgt:
    return args.s(0) > args.s(1);
  case arith::CmpIPredicate::sge:
    return args.s(0) >= args.s(1);
  }
  return std::nullopt;
}

/// The result bits of integer arith op `op` (untruncated); std::nullopt for
/// an op the executor does not support or a division `args` flags.
static std::optional<uint64_t> evaluateArith(Operation &op,
                                             ArithOperands &args) {
  auto u = [&](unsigned i) { return args.u(i); };
  auto s = [&](unsigned i) { return args.s(i); };
  unsigned width = args.width;
  return llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(&op)
      .Case([&](arith::AddIOp) { return u(0) + u(1); })
      .Case([&](arith::SubIOp) { return u(0) - u(1); })
      .Case([&](arith::MulIOp) { return u(0) * u(1); })
      .Case([&](arith::AndIOp) { return u(0) & u(1); })
      .Case([&](arith::OrIOp) { return u(0) | u(1); })
      .Case([&](arith::XOrIOp) { return u(0) ^ u(1); })
      .Case([&](arith::ShLIOp) -> std::optional<uint64_t> {
        return u(1) >= width ? 0 : u(0) << u(1);
      })
      .Case([&](arith::ShRUIOp) -> std::optional<uint64_t> {
        return u(1) >= width ? 0 : u(0) >> u(1);
      })
      .Case([&](arith::ShRSIOp) -> std::optional<uint64_t> {
        return static_cast<uint64_t>(s(0) >>
                                     std::min<uint64_t>(u(1), width - 1));
      })
      .Case([&](arith::DivUIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)))
          return std::nullopt;
        return u(0) / u(1);
      })
      .Case([&](arith::RemUIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)))
          return std::nullopt;
        return u(0) % u(1);
      })
      .Case([&](arith::CeilDivUIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)))
          return std::nullopt;
        return u(0) / u(1) + (u(0) % u(1) != 0);
      })
      .Case([&](arith::DivSIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)) || args.checkSigned())
          return std::nullopt;
        return static_cast<uint64_t>(s(0) / s(1));
      })
      .Case([&](arith::RemSIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)) || args.checkSigned())
          return std::nullopt;
        return static_cast<uint64_t>(s(0) % s(1));
      })
      .Case([&](arith::CeilDivSIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)) || args.checkSigned())
          return std::nullopt;
        int64_t q = s(0) / s(1);
        if ((s(0) % s(1) != 0) && ((s(0) < 0) == (s(1) < 0)))
          ++q;
        return static_cast<uint64_t>(q);
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<uint64_t> {
        if (args.checkDivisor(u(1)) || args.checkSigned())
          return std::nullopt;
        int64_t q = s(0) / s(1);
        if ((s(0) % s(1) != 0) && ((s(0) < 0) != (s(1) < 0)))
          --q;
        return static_cast<uint64_t>(q);
      })
      .Case([&](arith::MaxUIOp) { return std::max(u(0), u(1)); })
      .Case([&](arith::MinUIOp) { return std::min(u(0), u(1)); })
      .Case([&](arith::MaxSIOp) {
        return static_cast<uint64_t>(std::max(s(0), s(1)));
      })
      .Case([&](arith::MinSIOp) {
        return static_cast<uint64_t>(std::min(s(0), s(1)));
      })
      .Case([&](arith::SelectOp) {
        return (args.bits[0] & 1) ? args.bits[1] : args.bits[2];
      })
      .Case([&](arith::CmpIOp cmp) {
        return compareIntegers(cmp.getPredicate(), args);
      })
      .Case([&](arith::IndexCastOp) { return static_cast<uint64_t>(s(0)); })
      .Case([&](arith::IndexCastUIOp) { return u(0); })
      .Case([&](arith::ExtUIOp) { return u(0); })
      .Case([&](arith::ExtSIOp) { return static_cast<uint64_t>(s(0)); })
      .Case([&](arith::TruncIOp) { return u(0); })
      .Case([&](arith::BitcastOp) { return u(0); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult ExecutorImpl::runArith(Operation &op, Frame &frame) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return runArithConstant(constant, frame);
  if (op.getNumResults() != 1 || getScalarWidth(op.getResult(0).getType()) == 0)
    return op.emitOpError() << "is not supported by the executor";
  ArithOperands args;
  for (Value operand : op.getOperands()) {
    FailureOr<ScalarValue> scalar = get<ScalarValue>(frame, operand, &op);
    if (failed(scalar))
      return failure();
    args.bits.push_back(scalar->bits);
  }
  args.width =
      op.getNumOperands() ? getScalarWidth(op.getOperand(0).getType()) : 64;
  unsigned resultWidth = getScalarWidth(op.getResult(0).getType());
  std::optional<uint64_t> result = evaluateArith(op, args);
  if (args.divideByZero)
    return op.emitError() << "divides by zero";
  if (args.signedOverflow)
    return op.emitError() << "divides " << INT64_MIN
                          << " by -1, which overflows (signed)";
  if (!result)
    return op.emitOpError() << "is not supported by the executor";
  frame[op.getResult(0)] = ScalarValue{truncate(*result, resultWidth)};
  return success();
}
