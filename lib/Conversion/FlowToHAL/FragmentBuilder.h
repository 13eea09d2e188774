//===- FragmentBuilder.h - values outside a fragment, made once -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the lowering of one fragment creates around its commands: the device
// and allocator, and the prologue of constants, global loads, layouts, sizes
// and offsets the commands use, each created once; and the mapping of the
// fragment's scalar values to values outside it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTBUILDER_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "streamhal/Analysis/BoxGeometry.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include <map>
#include <optional>

namespace streamhal {

/// Returns the function's `hal.ex.shared_device`, creating it at the start
/// of the entry block of the function around `op` when missing.
mlir::Value getOrCreateSharedDevice(mlir::RewriterBase &rewriter,
                                    mlir::Operation *op);
/// Returns the function's `hal.device.allocator`, created right after the
/// shared device when missing.
mlir::Value getOrCreateDeviceAllocator(mlir::RewriterBase &rewriter,
                                       mlir::Operation *op);

/// Creates the values outside one `flow.ex.stream.fragment` that its
/// storage and commands use, each once, in a prologue that dominates them.
class FragmentBuilder {
public:
  /// Builds in front of `fragment` until setPrologueAnchor moves the
  /// prologue.
  FragmentBuilder(mlir::RewriterBase &rewriter,
                  flow::ExStreamFragmentOp fragment);

  mlir::RewriterBase &getRewriter() { return rewriter; }
  mlir::Location getLoc() { return fragment.getLoc(); }

  /// The shared device and its allocator, created once per function.
  mlir::Value getDevice();
  mlir::Value getAllocator();

  /// Cached constants, created in the prologue.
  mlir::Value getIndex(int64_t value);
  mlir::Value getI32(int32_t value);
  /// The `i32` encoding of `elementType` (validated by the fragment check).
  mlir::Value getElementType(mlir::Type elementType);
  /// Hoists a scalar constant of the body into the prologue, sharing one
  /// value with the index / i32 constants the lowering makes itself.
  mlir::Value hoistConstant(mlir::arith::ConstantOp constant);
  /// The dense row-major encoding constant.
  mlir::Value getEncoding() { return getI32(0); }

  /// A push constant value as `i32`: `index` values go through one
  /// `arith.index_cast` per value, `i32` values are returned as is.
  mlir::Value getI32PushConstant(mlir::Value value);

  /// `util.global.load @name : !hal.buffer`, once per global.
  mlir::Value getGlobalBuffer(mlir::StringAttr name);

  /// `hal.executable_layout.lookup`, once per distinct layout.
  mlir::Value getLayout(int64_t pushConstants, mlir::ArrayAttr setLayouts);

  /// Byte size of a tensor of `type` with the given outer dynamic dims, once
  /// per (type, dims).
  mlir::Value getSize(mlir::ShapedType type, mlir::ValueRange dims);
  /// Byte size of a tensor value of the fragment body.
  mlir::Value getValueSize(mlir::Value tensor);

  /// Byte offset of the first element of `box` in its outer tensor: a
  /// constant (also returned as `staticOffset`) when the starts and the
  /// outer shape are, else a `hal.allocator.compute_offset` in the prologue.
  mlir::Value getBoxOffset(const CopyBox &box,
                           std::optional<int64_t> *staticOffset = nullptr);

  /// Dynamic dims of a tensor value of the body, as values outside it.
  llvm::SmallVector<mlir::Value> getOuterDims(mlir::Value tensor);

  /// Records the outer value standing for a scalar of the body.
  void mapScalar(mlir::Value inner, mlir::Value outer) {
    scalarMapping.map(inner, outer);
  }
  /// Returns the outer value for a scalar of the body (block argument or
  /// hoisted constant); values defined outside the body map to themselves.
  mlir::Value lookupScalar(mlir::Value inner) const {
    return scalarMapping.lookupOrDefault(inner);
  }
  llvm::SmallVector<mlir::Value> lookupScalars(mlir::ValueRange inner) const;

  /// From now on, prologue values go right before `anchor` (the command
  /// buffer creation) so that they dominate every recorded command.
  void setPrologueAnchor(mlir::Operation *anchor) { prologueAnchor = anchor; }

  /// Creates an op in the prologue, whatever the current insertion point.
  template <typename OpTy, typename... Args>
  OpTy createInPrologue(Args &&...args) {
    mlir::OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(prologueAnchor);
    return OpTy::create(rewriter, getLoc(), std::forward<Args>(args)...);
  }

private:
  mlir::RewriterBase &rewriter;
  flow::ExStreamFragmentOp fragment;
  mlir::Operation *prologueAnchor;

  mlir::Value device;
  mlir::Value allocator;
  /// Constants by value. std::map, not DenseMap: every int64_t (INT64_MAX
  /// and INT64_MIN included, which DenseMap reserves) is a valid key.
  std::map<int64_t, mlir::Value> indexConstants;
  std::map<int32_t, mlir::Value> i32Constants;
  llvm::DenseMap<mlir::Value, mlir::Value> i32PushConstants;
  llvm::DenseMap<mlir::Attribute, mlir::Value> globalBuffers;
  llvm::DenseMap<std::pair<int64_t, mlir::Attribute>, mlir::Value> layouts;
  /// Sizes keyed by the type and the dims (by identity).
  std::map<std::pair<const void *, std::vector<const void *>>, mlir::Value>
      sizes;
  mlir::IRMapping scalarMapping;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTBUILDER_H
