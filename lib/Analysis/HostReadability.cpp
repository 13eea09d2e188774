//===- HostReadability.cpp - which fragment results the host reads --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/HostReadability.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/Support/Debug.h"
#include <memory>

#define DEBUG_TYPE "host-readability"

using namespace mlir;

namespace streamhal {

HostReadability::HostReadability(Operation *root)
    : HostReadability(root, nullptr) {}

HostReadability::HostReadability(Operation *root, AnalysisManager &analyses)
    : HostReadability(root, &analyses) {}

HostReadability::HostReadability(Operation *root, AnalysisManager *analyses) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Executables keep their own device code.
    if (isa<hal::ExecutableOp>(op))
      return WalkResult::skip();
    if (auto fragment = dyn_cast<flow::ExStreamFragmentOp>(op)) {
      fragments.push_back(fragment);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });

  // For each fragment and result, the argument indices whose block argument
  // shares the result's storage (same alias class as the returned value).
  llvm::DenseMap<Operation *, SmallVector<SmallVector<unsigned, 1>>>
      sharingArguments;
  for (flow::ExStreamFragmentOp fragment : fragments) {
    SmallVector<SmallVector<unsigned, 1>> &sharing = sharingArguments[fragment];
    sharing.resize(fragment->getNumResults());
    if (fragment.getBody().empty())
      continue;
    std::unique_ptr<ValueAliasing> ownAliasing;
    const ValueAliasing *aliasing =
        analyses ? &analyses->getChildAnalysis<ValueAliasing>(fragment)
                 : nullptr;
    if (!aliasing) {
      ownAliasing = std::make_unique<ValueAliasing>(fragment);
      aliasing = ownAliasing.get();
    }
    Block &body = fragment.getBody().front();
    llvm::DenseMap<unsigned, SmallVector<unsigned, 1>> argumentsOfClass;
    for (BlockArgument argument : body.getArguments())
      if (aliasing->getOrdinal(argument))
        argumentsOfClass[aliasing->getClassIndex(argument)].push_back(
            argument.getArgNumber());
    for (auto [index, returned] :
         llvm::enumerate(body.getTerminator()->getOperands())) {
      if (index >= sharing.size() || !aliasing->getOrdinal(returned))
        continue;
      auto it = argumentsOfClass.find(aliasing->getClassIndex(returned));
      if (it != argumentsOfClass.end())
        sharing[index] = it->second;
    }
  }

  // A use keeps a result device-only only when it is a tensor operand of an
  // analysed fragment; that fragment's results sharing the operand's storage
  // are checked by the propagation below.
  auto isDeviceUse = [&](OpOperand &use) {
    auto user = dyn_cast<flow::ExStreamFragmentOp>(use.getOwner());
    if (!user || !sharingArguments.contains(user))
      return false;
    unsigned begin = user.getArgumentsBeginIndex();
    unsigned number = use.getOperandNumber();
    return number >= begin && number - begin < user.getArguments().size();
  };
  SmallVector<Value> worklist;
  for (flow::ExStreamFragmentOp fragment : fragments)
    for (OpResult result : fragment->getResults()) {
      if (!ValueAliasing::isTrackedType(result.getType()))
        continue;
      if (llvm::all_of(result.getUses(), isDeviceUse))
        deviceOnly.insert(result);
      else
        worklist.push_back(result);
    }

  // A host-readable result makes every operand sharing its storage
  // host-readable: it is the same buffer.
  while (!worklist.empty()) {
    auto result = cast<OpResult>(worklist.pop_back_val());
    auto fragment = cast<flow::ExStreamFragmentOp>(result.getOwner());
    for (unsigned argument :
         sharingArguments[fragment][result.getResultNumber()]) {
      Value operand = fragment.getArguments()[argument];
      if (deviceOnly.erase(operand))
        worklist.push_back(operand);
    }
  }
  LLVM_DEBUG(print(llvm::dbgs()));
}

HostReadability::~HostReadability() = default;

void HostReadability::print(llvm::raw_ostream &os) const {
  for (auto [index, fragment] : llvm::enumerate(fragments)) {
    os << "fragment " << index << ":";
    llvm::interleave(
        fragment->getResults(), os,
        [&](Value result) {
          if (!ValueAliasing::isTrackedType(result.getType()))
            os << " -";
          else
            os << (isHostReadable(result) ? " host" : " device");
        },
        ",");
    os << "\n";
  }
}

void HostReadability::dump() const { print(llvm::errs()); }

} // namespace streamhal
