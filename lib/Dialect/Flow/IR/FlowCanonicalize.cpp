//===- FlowCanonicalize.cpp - canonicalization of flow ops ----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Frontends pass constants into stream fragments as operands and often pass
// one value twice. Canonicalization moves such constants into the body,
// merges duplicate operands and drops unused ones, so that the lowering sees
// every constant where it is used and no storage is bound twice.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::flow;

namespace {

/// What becomes of one fragment operand.
struct OperandFate {
  enum class Kind { Keep, SinkConstant, MergeInto, Drop };
  Kind kind = Kind::Keep;
  /// MergeInto: the earlier operand (old index) that stands for this one.
  unsigned mergedInto = 0;
};

/// Sinks constant-like operands into the body, merges operands that pass the
/// same value with the same type, and drops operands the body never uses.
/// Results and their ties follow the operands they name.
struct SimplifyFragmentOperands : public OpRewritePattern<ExStreamFragmentOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ExStreamFragmentOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    OperandRange operands = op.getArguments();
    unsigned numOperands = operands.size();
    if (body.getNumArguments() != numOperands)
      return rewriter.notifyMatchFailure(op, "malformed fragment region");

    // Operands named by a tied result must stay: the result is their storage.
    llvm::BitVector tied(numOperands);
    for (unsigned result = 0, e = op.getNumResults(); result < e; ++result)
      if (std::optional<unsigned> index =
              util::getStoredTiedOperandIndex(op.getTiedOperandsAttr(), result);
          index && *index < numOperands)
        tied.set(*index);

    SmallVector<OperandFate> fates(numOperands);
    bool changed = false;
    for (unsigned index = 0; index < numOperands; ++index) {
      Value operand = operands[index];
      BlockArgument argument = body.getArgument(index);
      OperandFate &fate = fates[index];
      if (!tied.test(index) && argument.use_empty()) {
        fate.kind = OperandFate::Kind::Drop;
      } else if (!tied.test(index) && !isa<ShapedType>(operand.getType()) &&
                 matchPattern(operand, m_Constant())) {
        fate.kind = OperandFate::Kind::SinkConstant;
      } else {
        // The first earlier operand passing the same value with the same
        // dims (tensors are identical then) takes this one's place.
        ValueRange dims =
            op.getOperandDynamicDims(op.getArgumentsBeginIndex() + index);
        for (unsigned earlier = 0; earlier < index; ++earlier) {
          if (fates[earlier].kind != OperandFate::Kind::Keep ||
              operands[earlier] != operand)
            continue;
          ValueRange earlierDims =
              op.getOperandDynamicDims(op.getArgumentsBeginIndex() + earlier);
          if (!llvm::equal(dims, earlierDims))
            continue;
          fate.kind = OperandFate::Kind::MergeInto;
          fate.mergedInto = earlier;
          break;
        }
      }
      changed |= fate.kind != OperandFate::Kind::Keep;
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "operands are already minimal");

    // Rewrite the body's uses first, while every block argument exists.
    rewriter.setInsertionPointToStart(&body);
    for (auto [index, fate] : llvm::enumerate(fates)) {
      BlockArgument argument = body.getArgument(index);
      if (fate.kind == OperandFate::Kind::SinkConstant) {
        Operation *constant = rewriter.clone(*operands[index].getDefiningOp());
        rewriter.replaceAllUsesWith(
            argument, constant->getResult(
                          cast<OpResult>(operands[index]).getResultNumber()));
      } else if (fate.kind == OperandFate::Kind::MergeInto) {
        rewriter.replaceAllUsesWith(argument,
                                    body.getArgument(fate.mergedInto));
      }
    }

    // The new operand list, its dims, and the new index of each old operand.
    SmallVector<Value> newOperands, newDims;
    SmallVector<int64_t> newIndex(numOperands, -1);
    llvm::BitVector erased(numOperands);
    for (auto [index, fate] : llvm::enumerate(fates)) {
      if (fate.kind != OperandFate::Kind::Keep) {
        erased.set(index);
        continue;
      }
      newIndex[index] = newOperands.size();
      newOperands.push_back(operands[index]);
      llvm::append_range(newDims, op.getOperandDynamicDims(
                                      op.getArgumentsBeginIndex() + index));
    }
    for (auto [index, fate] : llvm::enumerate(fates))
      if (fate.kind == OperandFate::Kind::MergeInto)
        newIndex[index] = newIndex[fate.mergedInto];

    ArrayAttr tiedOperands = op.getTiedOperandsAttr();
    if (tiedOperands) {
      SmallVector<int64_t> remapped;
      for (unsigned result = 0, e = op.getNumResults(); result < e; ++result) {
        std::optional<unsigned> index =
            util::getStoredTiedOperandIndex(tiedOperands, result);
        remapped.push_back(index && *index < numOperands ? newIndex[*index]
                                                         : -1);
      }
      tiedOperands = rewriter.getI64ArrayAttr(remapped);
    }

    rewriter.setInsertionPoint(op);
    auto newOp = ExStreamFragmentOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), newOperands, newDims,
        op.getResultDims(), tiedOperands);
    // Discardable attributes (schedules, annotations) stay with the op.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setDiscardableAttr(attr.getName(), attr.getValue());
    rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                                newOp.getBody().end());
    rewriter.modifyOpInPlace(
        newOp, [&] { newOp.getBody().front().eraseArguments(erased); });
    rewriter.replaceOp(op, newOp.getResults());
    return success();
  }
};

} // namespace

void ExStreamFragmentOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                     MLIRContext *context) {
  results.add<SimplifyFragmentOperands>(context);
}
