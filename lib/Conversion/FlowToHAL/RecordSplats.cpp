//===- RecordSplats.cpp - recording splats as fills ----------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A splat of narrow elements is one fill of its value repeated across 32
// bits. A fill repeats a 32-bit pattern, so an 8-byte element whose two halves
// differ cannot be written by one fill. The splat then writes its first
// element with two 4-byte fills (low half, high half) and doubles the
// written prefix with copies: [0, L) -> [L, min(2L, n)) for L = 8, 16, ...
// Each copy reads what the previous command wrote, so the barrier policy
// separates them. A length unknown at compile time records the copies for
// every power of two a tensor the device can allocate can need, each clamped
// to the tensor (a copy past the end has length zero and starts at the end).
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "FragmentStorage.h"
#include "Splats.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Element types and constant values
//===----------------------------------------------------------------------===//

std::optional<uint32_t> getSplatPatternMultiplier(Type elementType) {
  if (!elementType.isIntOrFloat())
    return std::nullopt;
  switch ((elementType.getIntOrFloatBitWidth() + 7) / 8) {
  case 1:
    return 0x01010101u;
  case 2:
    return 0x00010001u;
  case 4:
    return 1u;
  default:
    return std::nullopt;
  }
}

bool isWideSplatElementType(Type type) {
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth() == 64;
  auto complex = dyn_cast<ComplexType>(type);
  return complex && complex.getElementType().isF32();
}

/// The bits of an integer or float attribute.
static std::optional<uint64_t> getScalarBits(Attribute attr) {
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getValue().getZExtValue();
  if (auto floating = dyn_cast<FloatAttr>(attr))
    return floating.getValue().bitcastToAPInt().getZExtValue();
  return std::nullopt;
}

std::optional<uint64_t> getWideSplatConstant(Value value) {
  Type type = value.getType();
  if (!isWideSplatElementType(type))
    return std::nullopt;
  Attribute attr;
  if (!matchPattern(flow::getCapturedValue(value), m_Constant(&attr)))
    return std::nullopt;
  if (!isa<ComplexType>(type))
    return getScalarBits(attr);
  // A complex constant folds to [real, imaginary].
  auto parts = dyn_cast<ArrayAttr>(attr);
  if (!parts || parts.size() != 2)
    return std::nullopt;
  std::optional<uint64_t> real = getScalarBits(parts[0]);
  std::optional<uint64_t> imaginary = getScalarBits(parts[1]);
  if (!real || !imaginary)
    return std::nullopt;
  return (*real & 0xFFFFFFFFu) | (*imaginary << 32);
}

std::optional<uint32_t> getWideSplatPattern(Value value) {
  std::optional<uint64_t> word = getWideSplatConstant(value);
  if (!word)
    return std::nullopt;
  uint32_t low = static_cast<uint32_t>(*word);
  if (static_cast<uint32_t>(*word >> 32) != low)
    return std::nullopt;
  return low;
}

LogicalResult checkWideSplat(flow::TensorSplatOp op,
                             const ErrorReporter &report) {
  Type type = op.getValue().getType();
  assert(isWideSplatElementType(type) && "not a wide splat");
  // Splitting a runtime complex value into its parts would need the complex
  // dialect, which the lowering does not depend on.
  if (isa<ComplexType>(type) && !getWideSplatConstant(op.getValue()))
    return report.emitOpError(op)
           << "splats a " << type
           << " value that is not a constant: only constant complex splats "
              "can be lowered (the lowering cannot split a runtime complex "
              "value into its real and imaginary parts)";
  return success();
}

unsigned getWideSplatDynamicCopies(int64_t maxAllocationSize) {
  unsigned copies = 0;
  // `copied < maxAllocationSize` needs a copy to `copied`; stop before the
  // shift would pass 2^62.
  for (int64_t copied = kWideSplatElementBytes;
       copied < maxAllocationSize && copies < 60; copied <<= 1)
    ++copies;
  return copies;
}

SmallVector<WideSplatCopy> planWideSplatCopies(int64_t length) {
  SmallVector<WideSplatCopy> copies;
  // `copied + chunk <= length`: no overflow, even near INT64_MAX.
  for (int64_t copied = kWideSplatElementBytes; copied < length;) {
    int64_t chunk = std::min(copied, length - copied);
    copies.push_back({copied, chunk});
    copied += chunk;
  }
  return copies;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

void CommandRecorder::recordSplat(flow::TensorSplatOp op) {
  if (isWideSplatElementType(op.getValue().getType())) {
    recordWideSplat(op);
    return;
  }
  RewriterBase &rewriter = builder.getRewriter();
  BufferRange range = storage.getRange(op.getResult());
  Value value = builder.lookupScalar(op.getValue());
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type i32 = rewriter.getI32Type();
  Value pattern = value;
  // Floats fill with their bits; narrow values are zero-extended and then
  // repeated across the 32-bit pattern by one multiply.
  if (isa<FloatType>(type))
    pattern = builder.createInPrologue<arith::BitcastOp>(
        rewriter.getIntegerType(width), pattern);
  if (width < 32)
    pattern = builder.createInPrologue<arith::ExtUIOp>(i32, pattern);
  uint32_t multiplier = getSplatPatternMultiplier(type).value_or(1);
  if (multiplier != 1)
    pattern = builder.createInPrologue<arith::MulIOp>(
        pattern, builder.getI32(static_cast<int32_t>(multiplier)));
  // Fills take 4-byte aligned lengths: padded storage is filled with its
  // rounded length; otherwise (storage sized exactly, such as an operand)
  // the aligned prefix is filled and the tail copied from bytes holding the
  // pattern (it repeats every 4 bytes, and the tail starts at a multiple of
  // 4): the prefix itself, or scratch when the prefix may be empty.
  Location loc = op.getLoc();
  auto fill = [&](Value buffer, Value length) {
    finishCommand(hal::CommandBufferFillBufferOp::create(
        rewriter, loc, commandBuffer, buffer, builder.getIndex(0), length,
        pattern));
  };
  if (range.fillBuffer) {
    fill(range.fillBuffer, range.fillLength);
    return;
  }
  std::optional<int64_t> length = getConstantIntValue(range.length);
  if (Value scratch = storage.getFillScratch(op)) {
    Value prefix = builder.getIndex(0);
    Value tail = range.length;
    if (!length) {
      prefix = builder.createInPrologue<arith::AndIOp>(
          range.length, builder.getIndex(~int64_t(3)));
      tail = builder.createInPrologue<arith::AndIOp>(range.length,
                                                     builder.getIndex(3));
      fill(range.buffer, prefix);
    }
    fill(scratch, builder.getIndex(4));
    recordCopy(scratch, builder.getIndex(0), range.buffer, prefix, tail);
    return;
  }
  if (!length || *length % 4 == 0) {
    fill(range.buffer, range.length);
    return;
  }
  assert(*length > 4 && "a sub-word splat into exact storage has scratch");
  int64_t prefix = llvm::alignDown(*length, 4);
  fill(range.buffer, builder.getIndex(prefix));
  recordCopy(range.buffer, builder.getIndex(0), range.buffer,
             builder.getIndex(prefix), builder.getIndex(*length - prefix));
}

/// The two 32-bit halves of the splat value, as `i32` values outside the
/// fragment.
static std::pair<Value, Value> getHalves(FragmentBuilder &builder,
                                         flow::TensorSplatOp op) {
  if (std::optional<uint64_t> word = getWideSplatConstant(op.getValue()))
    return {builder.getI32(static_cast<int32_t>(static_cast<uint32_t>(*word))),
            builder.getI32(static_cast<int32_t>(*word >> 32))};
  RewriterBase &rewriter = builder.getRewriter();
  Value value = builder.lookupScalar(op.getValue());
  Type i64 = rewriter.getI64Type();
  Type i32 = rewriter.getI32Type();
  if (isa<FloatType>(value.getType()))
    value = builder.createInPrologue<arith::BitcastOp>(i64, value);
  Value low = builder.createInPrologue<arith::TruncIOp>(i32, value);
  Value shifted = builder.createInPrologue<arith::ShRUIOp>(
      value, builder.createInPrologue<arith::ConstantIntOp>(i64, 32));
  Value high = builder.createInPrologue<arith::TruncIOp>(i32, shifted);
  return {low, high};
}

void CommandRecorder::recordWideSplat(flow::TensorSplatOp op) {
  RewriterBase &rewriter = builder.getRewriter();
  BufferRange range = storage.getRange(op.getResult());
  auto fill = [&](Value offset, Value length, Value pattern) {
    finishCommand(hal::CommandBufferFillBufferOp::create(
        rewriter, op.getLoc(), commandBuffer, range.buffer, offset, length,
        pattern));
  };
  auto copy = [&](Value targetOffset, Value length) {
    recordCopy(range.buffer, builder.getIndex(0), range.buffer, targetOffset,
               length);
  };
  // Equal halves: one fill repeats either half over the whole range.
  if (std::optional<uint32_t> pattern = getWideSplatPattern(op.getValue())) {
    fill(builder.getIndex(0), range.length,
         builder.getI32(static_cast<int32_t>(*pattern)));
    return;
  }

  std::optional<int64_t> length = getConstantIntValue(range.length);
  if (length == 0)
    return;
  auto [low, high] = getHalves(builder, op);
  const int64_t half = kWideSplatElementBytes / 2;

  // A static length: the first element, then exactly the copies needed.
  if (length) {
    assert(*length % kWideSplatElementBytes == 0 && "a partial element");
    fill(builder.getIndex(0), builder.getIndex(half), low);
    fill(builder.getIndex(half), builder.getIndex(half), high);
    for (WideSplatCopy planned : planWideSplatCopies(*length))
      copy(builder.getIndex(planned.offset), builder.getIndex(planned.length));
    return;
  }

  // A dynamic length n (a multiple of 8, possibly 0): the first element's
  // halves at [0, h) and [h, 2h) with h = min(n, 4), so that nothing is
  // written when n = 0; then for every L = 8 * 2^k a copy to
  // start = min(L, n) of min(L, n - start) bytes, which is zero once L >= n.
  Value n = range.length;
  Value halfLength =
      builder.createInPrologue<arith::MinUIOp>(n, builder.getIndex(half));
  fill(builder.getIndex(0), halfLength, low);
  fill(halfLength, halfLength, high);
  unsigned copies = getWideSplatDynamicCopies(
      hal::getDeviceLimits(plan.getFragment()).maxAllocationSize);
  for (unsigned k = 0; k < copies; ++k) {
    Value copied = builder.getIndex(kWideSplatElementBytes << k);
    Value start = builder.createInPrologue<arith::MinUIOp>(copied, n);
    Value rest = builder.createInPrologue<arith::SubIOp>(n, start);
    copy(start, builder.createInPrologue<arith::MinUIOp>(copied, rest));
  }
}

} // namespace streamhal
