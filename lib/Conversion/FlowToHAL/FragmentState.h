//===- FragmentState.h - shared state of one fragment lowering --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything the stages of one fragment lowering share: the device and
// allocator, the caches that make each constant, global load, layout and size
// appear once, the mapping of the fragment's scalar values to values outside
// it, and the buffer range of every alias class.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTATE_H
#define STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTATE_H

#include "BoxCopy.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/StorageViews.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include <map>

namespace streamhal {

/// The bytes a tensor value occupies: the whole of `buffer` up to `length`.
/// Every range starts at offset 0 of its buffer (transients and constants
/// get their own `hal.buffer.subspan`).
struct BufferRange {
  mlir::Value buffer;
  mlir::Value length;
  /// When set, a buffer at the same start holding `fillLength` bytes (the
  /// length rounded up to 4) that belong to this range's storage only: a
  /// splat fills that instead (fills take 4-byte aligned lengths).
  mlir::Value fillBuffer;
  mlir::Value fillLength;
};

/// Where the storage of an alias class comes from.
enum class StorageKind {
  Input,     ///< a fragment operand (block argument)
  Constant,  ///< a read-only view of a hal.constant.subspan's pool
  Output,    ///< returned, not an input: a new allocation
  Transient, ///< born and dead inside the fragment: a slice of the slab
  View,      ///< a subspan of another class's storage (StorageViews)
};

/// Returns the function's `hal.ex.shared_device`, creating it at the start
/// of the entry block of the function around `op` when missing.
mlir::Value getOrCreateSharedDevice(mlir::RewriterBase &rewriter,
                                    mlir::Operation *op);
/// Returns the function's `hal.device.allocator`, created right after the
/// shared device when missing.
mlir::Value getOrCreateDeviceAllocator(mlir::RewriterBase &rewriter,
                                       mlir::Operation *op);

/// Shared state of the lowering of one `flow.ex.stream.fragment`.
class FragmentState {
public:
  FragmentState(mlir::RewriterBase &rewriter, flow::ExStreamFragmentOp fragment,
                mlir::ValueRange convertedArguments,
                const ValueAliasing &aliasing,
                const LivenessIntervals &liveness, const StorageViews &views,
                llvm::ArrayRef<StorageKind> storageKinds);

  mlir::RewriterBase &getRewriter() { return rewriter; }
  flow::ExStreamFragmentOp getFragment() { return fragment; }
  mlir::Location getLoc() { return fragment.getLoc(); }
  const ValueAliasing &getAliasing() const { return aliasing; }
  const LivenessIntervals &getLiveness() const { return liveness; }
  const StorageViews &getViews() const { return views; }
  /// The storage kind of every alias class, in class order.
  llvm::ArrayRef<StorageKind> getStorageKinds() const { return storageKinds; }
  StorageKind getStorageKind(mlir::Value tensor) const {
    return storageKinds[aliasing.getClassIndex(tensor)];
  }

  /// The converted operand for fragment argument `index`.
  mlir::Value getConvertedArgument(unsigned index) const {
    return convertedArguments[index];
  }

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

  /// Buffer range of an alias class / a tensor value of the body.
  void setClassRange(unsigned classIndex, BufferRange range);
  bool hasClassRange(unsigned classIndex) const {
    return classRanges[classIndex].buffer != nullptr;
  }
  BufferRange getRange(mlir::Value tensor) const;

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
  llvm::SmallVector<mlir::Value> convertedArguments;
  const ValueAliasing &aliasing;
  const LivenessIntervals &liveness;
  const StorageViews &views;
  llvm::ArrayRef<StorageKind> storageKinds;
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
  llvm::SmallVector<BufferRange> classRanges;
};

} // namespace streamhal

#endif // STREAMHAL_LIB_CONVERSION_FLOWTOHAL_FRAGMENTSTATE_H
