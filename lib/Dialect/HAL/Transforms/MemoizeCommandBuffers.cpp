//===- MemoizeCommandBuffers.cpp - record once, replay per call -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A command buffer whose commands are the same on every call, up to the
// buffers and the dynamic values they use, is recorded once per device in a
// hal.device.memoize and submitted with a binding table and uniforms
// (docs/replay.md). The recording keeps only what a device replays without
// the host: commands, the variant choice, layouts and constants; host
// arithmetic a switch case does for its workgroup counts moves to the
// submission.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include <map>

#define DEBUG_TYPE "hal-memoize-command-buffers"

namespace streamhal::hal {
#define GEN_PASS_DEF_MEMOIZECOMMANDBUFFERSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal::hal {
namespace {

/// How one command buffer is recorded and submitted, as the memoized form
/// needs it.
struct RecordingPlan {
  CommandBufferCreateOp create;
  /// The `hal.ex.submit_and_wait` or `hal.device.queue.execute`.
  Operation *submit = nullptr;
  /// Ops of the create's block that record into it (begin, commands, device
  /// switches of commands, end), in block order.
  SmallVector<Operation *> recordingOps;
  /// Distinct buffers the commands name, in first-use order.
  llvm::SetVector<Value> buffers;
  /// Buffers named only with constant offsets, and the largest of them.
  llvm::DenseMap<Value, int64_t> largestOffset;
  llvm::DenseSet<Value> unfoldable;
  /// Buffers bound through the slot of their root: a chain of subspans at
  /// constant offsets, added to the commands' constant offsets (so a slab
  /// is bound once, not once per piece).
  llvm::DenseMap<Value, std::pair<Value, int64_t>> folded;
  /// The slots: distinct roots of folded buffers and other buffers, in
  /// first-use order.
  llvm::SetVector<Value> slots;
  /// Distinct dynamic values the commands use: values from outside the
  /// recording, or results of ops a switch case computes on the host.
  llvm::SetVector<Value> uniforms;
  /// Constants and layout lookups from outside, cloned into the body.
  llvm::SetVector<Operation *> clonedDefs;
  /// Host ops of switch cases whose results are uniforms.
  llvm::SetVector<Operation *> hoisted;
  /// A hoisted op's result -> the same result of the first hoisted op that
  /// computes the same (two variants' equal workgroup counts): one uniform.
  DenseMap<Value, Value> representatives;

  /// The value whose uniform carries `value`.
  Value getRepresentative(Value value) const {
    Value representative = representatives.lookup(value);
    return representative ? representative : value;
  }
};

/// What a hoisted op's operand stands for when two hoisted ops are
/// compared: a switch case's constant by its value (each case has its own),
/// any other value by its representative (a hoisted result by the first
/// equal op's).
Attribute getCaseConstant(Value operand) {
  auto constant = operand.getDefiningOp<arith::ConstantOp>();
  if (constant && isa<DeviceSwitchOp>(constant->getParentOp()))
    return constant.getValue();
  return {};
}

/// Hoisted ops that compute the same: equal name, attributes and result
/// types, and operands equal as getCaseConstant and the representatives
/// say (OperationEquivalence with those operand rules).
struct HoistedOps {
  const RecordingPlan &plan;
  /// Hash -> the first hoisted op of each kind with that hash.
  DenseMap<llvm::hash_code, SmallVector<Operation *, 1>> byHash;

  llvm::hash_code hashOperand(Value operand) const {
    if (Attribute value = getCaseConstant(operand))
      return llvm::hash_value(value.getAsOpaquePointer());
    return hash_value(plan.getRepresentative(operand));
  }
  bool sameOperand(Value a, Value b) const {
    Attribute valueA = getCaseConstant(a), valueB = getCaseConstant(b);
    if (valueA || valueB)
      return valueA == valueB;
    return plan.getRepresentative(a) == plan.getRepresentative(b);
  }
  /// The first hoisted op equal to `op`, after recording `op` as the first
  /// of its kind when there is none.
  Operation *findOrInsert(Operation *op) {
    llvm::hash_code hash = OperationEquivalence::computeHash(
        op, [&](Value operand) { return hashOperand(operand); },
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
    SmallVector<Operation *, 1> &candidates = byHash[hash];
    for (Operation *candidate : candidates)
      if (OperationEquivalence::isEquivalentTo(
              op, candidate,
              [&](Value a, Value b) { return success(sameOperand(a, b)); },
              /*markEquivalent=*/nullptr,
              OperationEquivalence::IgnoreLocations))
        return candidate;
    candidates.push_back(op);
    return op;
  }
};

/// Calls `fn` with each (buffer, offset) operand pair of a command: what a
/// slot's offset adds to.
void forEachBufferOffset(Operation *op,
                         function_ref<void(OpOperand &, OpOperand &)> fn) {
  if (auto fill = dyn_cast<CommandBufferFillBufferOp>(op)) {
    fn(fill.getTargetBufferMutable(), fill.getTargetOffsetMutable());
  } else if (auto copy = dyn_cast<CommandBufferCopyBufferOp>(op)) {
    fn(copy.getSourceBufferMutable(), copy.getSourceOffsetMutable());
    fn(copy.getTargetBufferMutable(), copy.getTargetOffsetMutable());
  } else if (auto push = dyn_cast<CommandBufferPushDescriptorSetOp>(op)) {
    for (unsigned i = 0, e = push.getBindingBuffers().size(); i < e; ++i)
      fn(push.getBindingBuffersMutable()[i],
         push.getBindingOffsetsMutable()[i]);
  }
}

/// The root of `buffer` and its offset there when `buffer` is a chain of
/// plain subspans at constant offsets.
std::optional<std::pair<Value, int64_t>> foldSubspans(Value buffer) {
  int64_t total = 0;
  bool any = false;
  while (auto subspan = buffer.getDefiningOp<BufferSubspanOp>()) {
    // A pack lane's subspan carries what proves it apart from the slab's
    // other pieces (docs/concurrency.md); binding the slab would lose it.
    if (!subspan->getDiscardableAttrDictionary().empty())
      return std::nullopt;
    std::optional<int64_t> offset =
        getConstantIntValue(subspan.getSourceOffset());
    if (!offset || *offset < 0 || llvm::AddOverflow(total, *offset, total))
      return std::nullopt;
    buffer = subspan.getSourceBuffer();
    any = true;
  }
  if (!any)
    return std::nullopt;
  return std::make_pair(buffer, total);
}

/// Chooses the slots: a buffer the commands name only at constant offsets,
/// that is a subspan chain at constant offsets, is bound through its root.
void chooseSlots(RecordingPlan &plan) {
  for (Value buffer : plan.buffers) {
    std::optional<std::pair<Value, int64_t>> root;
    if (!plan.unfoldable.contains(buffer))
      root = foldSubspans(buffer);
    int64_t end;
    if (root && !llvm::AddOverflow(root->second,
                                   plan.largestOffset.lookup(buffer), end)) {
      plan.folded[buffer] = *root;
      plan.slots.insert(root->first);
      continue;
    }
    plan.slots.insert(buffer);
  }
}

bool isRecordingCommand(Operation *op) {
  return isa<CommandBufferBeginOp, CommandBufferEndOp,
             CommandBufferExecutionBarrierOp, CommandBufferPushConstantsOp,
             CommandBufferPushDescriptorSetOp>(op) ||
         isBufferCommand(op);
}

/// Finds the recording ops and the submission of `plan.create`; the reason
/// it cannot be memoized otherwise.
std::optional<std::string> findRecording(RecordingPlan &plan) {
  Value commandBuffer = plan.create.getResult();
  Block *block = plan.create->getBlock();
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (OpOperand &use : commandBuffer.getUses()) {
    Operation *user = use.getOwner();
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return std::string("it is recorded or used in another block than its "
                         "create (host control flow)");
    if (auto submit = dyn_cast<ExSubmitAndWaitOp>(user)) {
      if (plan.submit)
        return std::string("it is submitted more than once");
      plan.submit = submit;
      continue;
    }
    if (auto execute = dyn_cast<DeviceQueueExecuteOp>(user)) {
      if (plan.submit)
        return std::string("it is submitted more than once");
      if (execute.getCommandBuffers().size() != 1)
        return std::string("it is submitted together with other command "
                           "buffers");
      plan.submit = execute;
      continue;
    }
    if (!isRecordingCommand(user) || use.getOperandNumber() != 0)
      return ("'" + user->getName().getStringRef() + "' uses it").str();
    if (ancestor != user && !isa<DeviceSwitchOp>(ancestor))
      return ("it is recorded under '" + ancestor->getName().getStringRef() +
              "' (host control flow)")
          .str();
    if (auto deviceSwitch = dyn_cast<DeviceSwitchOp>(ancestor))
      if (deviceSwitch->getNumResults() != 0)
        return std::string("a device switch recording into it returns "
                           "values");
    if (seen.insert(ancestor).second)
      plan.recordingOps.push_back(ancestor);
  }
  if (!plan.submit)
    return std::string("it is never submitted");
  // Block order by walking from the begin to the submission: the recording
  // and its submission are one stretch of the block, so every command
  // buffer walks its own (asking the block for op order instead would
  // renumber it after every rewrite, once per command buffer).
  const char *order = "it is not begun, recorded, ended and then submitted "
                      "in that order";
  auto begin = llvm::find_if(plan.recordingOps, [](Operation *op) {
    return isa<CommandBufferBeginOp>(op);
  });
  if (begin == plan.recordingOps.end())
    return std::string(order);
  SmallVector<Operation *> ordered;
  bool ended = false, submitted = false;
  for (Operation *op = *begin; op && !submitted; op = op->getNextNode()) {
    if (op == plan.submit)
      submitted = true;
    else if (seen.contains(op) && !ended)
      ordered.push_back(op);
    else if (seen.contains(op))
      return std::string(order);
    ended |= isa<CommandBufferEndOp>(op) && seen.contains(op);
  }
  if (!submitted || !ended || ordered.size() != plan.recordingOps.size() ||
      !isa<CommandBufferEndOp>(ordered.back()))
    return std::string(order);
  plan.recordingOps = std::move(ordered);
  return std::nullopt;
}

/// Sorts the operands of the recording into slots, uniforms, definitions to
/// clone and host ops to hoist; the reason it cannot be memoized otherwise.
std::optional<std::string> classifyOperands(RecordingPlan &plan) {
  Value device = plan.create.getDevice();
  llvm::SmallPtrSet<Operation *, 16> recording(plan.recordingOps.begin(),
                                               plan.recordingOps.end());
  auto isInsideRecording = [&](Operation *def) {
    Block *block = plan.create->getBlock();
    Operation *ancestor = block->findAncestorOpInBlock(*def);
    return ancestor && recording.contains(ancestor);
  };
  std::optional<std::string> reason;
  HoistedOps hoistedOps{plan, {}};
  auto classify = [&](Value value) {
    if (value == plan.create.getResult() || value == device)
      return;
    Operation *def = value.getDefiningOp();
    if (def && isInsideRecording(def)) {
      if (plan.hoisted.contains(def))
        plan.uniforms.insert(plan.getRepresentative(value));
      return;
    }
    if (isa_and_present<arith::ConstantOp>(def)) {
      plan.clonedDefs.insert(def);
      return;
    }
    if (auto lookup = dyn_cast_if_present<ExecutableLayoutLookupOp>(def)) {
      if (lookup.getDevice() == device) {
        plan.clonedDefs.insert(def);
        return;
      }
    }
    if (isa<BufferType>(value.getType())) {
      plan.buffers.insert(value);
      return;
    }
    if (value.getType().isIndex() || value.getType().isInteger(32)) {
      plan.uniforms.insert(value);
      return;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "its commands use a " << value.getType()
       << " value that no slot or uniform carries";
    reason = text;
  };
  for (Operation *recordingOp : plan.recordingOps) {
    recordingOp->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (reason)
        return WalkResult::interrupt();
      bool replayable = isRecordingCommand(op) ||
                        isa<DeviceSwitchOp, ReturnOp, arith::ConstantOp,
                            ExecutableLayoutLookupOp>(op);
      if (!replayable) {
        // Host work of a switch case (a workgroup count): computed at the
        // submission, where every value it reads is available.
        bool hostValues = llvm::all_of(op->getResultTypes(), [](Type type) {
          return type.isIndex() || type.isInteger(32);
        });
        if (!isMemoryEffectFree(op) || op->getNumRegions() ||
            op->getNumResults() == 0 || !hostValues) {
          reason = ("its recording runs '" + op->getName().getStringRef() +
                    "', which a replay without the host cannot")
                       .str();
          return WalkResult::interrupt();
        }
        plan.hoisted.insert(op);
        if (Operation *same = hoistedOps.findOrInsert(op); same != op)
          for (auto [result, sameResult] :
               llvm::zip(op->getResults(), same->getResults()))
            plan.representatives[result] = sameResult;
        return WalkResult::advance();
      }
      llvm::SmallPtrSet<OpOperand *, 4> paired;
      forEachBufferOffset(op, [&](OpOperand &buffer, OpOperand &offset) {
        paired.insert(&buffer);
        std::optional<int64_t> constant = getConstantIntValue(offset.get());
        if (!constant || *constant < 0) {
          plan.unfoldable.insert(buffer.get());
          return;
        }
        int64_t &largest = plan.largestOffset[buffer.get()];
        largest = std::max(largest, *constant);
      });
      for (OpOperand &operand : op->getOpOperands()) {
        if (isa<BufferType>(operand.get().getType()) &&
            !paired.contains(&operand))
          plan.unfoldable.insert(operand.get());
        classify(operand.get());
      }
      return WalkResult::advance();
    });
    if (reason)
      return reason;
  }
  chooseSlots(plan);
  return std::nullopt;
}

/// The alias class of each slot: the access model the barriers were placed
/// with (BufferRoot::mayAlias) makes each fresh allocation that escapes
/// nowhere a class of its own and puts every other root in one shared
/// class; an unknown root may share bytes with anything, so then all slots
/// are one class.
SmallVector<int64_t> getSlotClasses(ArrayRef<Value> slots,
                                    BufferResolver &resolver) {
  SmallVector<BufferRoot> roots;
  bool anyUnknown = false;
  for (Value slot : slots) {
    roots.push_back(resolver.resolve(slot).first);
    anyUnknown |= roots.back().kind == BufferRootKind::Unknown;
  }
  SmallVector<int64_t> classes;
  llvm::DenseMap<Value, int64_t> allocationClasses;
  std::optional<int64_t> sharedClass;
  int64_t next = 0;
  for (const BufferRoot &root : roots) {
    if (anyUnknown) {
      classes.push_back(0);
      continue;
    }
    if (root.kind == BufferRootKind::Allocation && !root.escapes) {
      auto [it, inserted] = allocationClasses.try_emplace(root.value, next);
      next += inserted;
      classes.push_back(it->second);
      continue;
    }
    if (!sharedClass)
      sharedClass = next++;
    classes.push_back(*sharedClass);
  }
  return classes;
}

/// Computes `value` (a uniform made by a hoisted host op) right before the
/// submission: the hoisted ops it depends on and their case constants are
/// cloned there once.
Value materializeAtSubmission(Value value, const RecordingPlan &plan,
                              OpBuilder &builder, IRMapping &hostMapping) {
  if (Value mapped = hostMapping.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  bool caseLocal = def && (plan.hoisted.contains(def) ||
                           (isa<arith::ConstantOp>(def) &&
                            isa<DeviceSwitchOp>(def->getParentOp())));
  if (!caseLocal)
    return value;
  for (Value operand : def->getOperands())
    materializeAtSubmission(operand, plan, builder, hostMapping);
  builder.clone(*def, hostMapping);
  return hostMapping.lookup(value);
}

/// Replaces the recording and submission of `plan` by a memoize and an
/// indirect submission.
void memoize(RecordingPlan &plan, BufferResolver &resolver) {
  CommandBufferCreateOp create = plan.create;
  Location loc = create.getLoc();
  OpBuilder builder(create);
  SmallVector<int64_t> classes =
      getSlotClasses(plan.slots.getArrayRef(), resolver);
  auto memoizeOp = DeviceMemoizeOp::create(
      builder, loc, create.getType(), create.getDevice(),
      builder.getDenseI64ArrayAttr(classes));
  Block *body = new Block();
  memoizeOp.getBody().push_back(body);
  IRMapping mapping;
  mapping.map(create.getDevice(),
              body->addArgument(create.getDevice().getType(), loc));
  for (Value slot : plan.slots)
    mapping.map(slot, body->addArgument(slot.getType(), slot.getLoc()));
  for (Value uniform : plan.uniforms)
    mapping.map(uniform, body->addArgument(uniform.getType(), loc));
  // The clones below remap a hoisted op's results to its copy; the
  // recording reads the uniform arguments instead.
  DenseMap<Value, Value> uniformArguments;
  for (Value uniform : plan.uniforms)
    uniformArguments[uniform] = mapping.lookup(uniform);

  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
  for (Operation *def : plan.clonedDefs)
    bodyBuilder.clone(*def, mapping);
  auto newCreate = cast<CommandBufferCreateOp>(bodyBuilder.clone(*create));
  newCreate.getDeviceMutable().assign(body->getArgument(0));
  newCreate.setModes(CommandBufferMode::None);
  mapping.map(create.getResult(), newCreate.getResult());
  for (Operation *op : plan.recordingOps)
    bodyBuilder.clone(*op, mapping);
  // A folded buffer becomes its root's slot at its offset there.
  OpBuilder constantBuilder = OpBuilder::atBlockBegin(body);
  // Keyed by attribute: DenseMapInfo<int64_t> hashes by multiplying, so
  // offsets that are multiples of a large power of two share buckets and
  // every lookup probes a long chain (quadratic at 100k dispatches).
  DenseMap<Attribute, Value> offsets;
  body->walk([&](Operation *op) {
    forEachBufferOffset(op, [&](OpOperand &buffer, OpOperand &offset) {
      auto it = plan.folded.find(buffer.get());
      if (it == plan.folded.end())
        return;
      int64_t total = it->second.second + *getConstantIntValue(offset.get());
      Value &constant = offsets[constantBuilder.getIndexAttr(total)];
      if (!constant)
        constant = arith::ConstantIndexOp::create(constantBuilder, loc, total);
      buffer.set(mapping.lookup(it->second.first));
      offset.set(constant);
    });
  });
  // Users before their operands: a hoisted value only hoisted ops read has
  // no uses left when its copy goes.
  for (Operation *hoisted : llvm::reverse(plan.hoisted)) {
    Operation *copy = mapping.lookup(hoisted->getResult(0)).getDefiningOp();
    for (auto [result, copied] :
         llvm::zip(hoisted->getResults(), copy->getResults()))
      if (Value argument =
              uniformArguments.lookup(plan.getRepresentative(result)))
        copied.replaceAllUsesWith(argument);
    copy->erase();
  }
  ReturnOp::create(bodyBuilder, loc, ValueRange{newCreate.getResult()});

  // The submission binds this call's buffers and values.
  builder.setInsertionPoint(plan.submit);
  IRMapping hostMapping;
  SmallVector<Value> uniforms;
  for (Value uniform : plan.uniforms)
    uniforms.push_back(
        materializeAtSubmission(uniform, plan, builder, hostMapping));
  SmallVector<Value> slots(plan.slots.begin(), plan.slots.end());
  Value device = create.getDevice();
  if (auto execute = dyn_cast<DeviceQueueExecuteOp>(plan.submit)) {
    DeviceQueueExecuteIndirectOp::create(
        builder, execute.getLoc(), execute.getDevice(), execute.getWaitFences(),
        execute.getSignalFence(), memoizeOp.getResult(), slots, uniforms);
  } else {
    Location submitLoc = plan.submit->getLoc();
    Value fence = FenceCreateOp::create(
        builder, submitLoc, FenceType::get(builder.getContext()), device);
    DeviceQueueExecuteIndirectOp::create(
        builder, submitLoc, device, ValueRange{}, fence, memoizeOp.getResult(),
        slots, uniforms);
    FenceAwaitOp::create(builder, submitLoc, ValueRange{fence});
  }
  plan.submit->erase();
  for (Operation *op : llvm::reverse(plan.recordingOps))
    op->erase();
  create->erase();
  for (Operation *def : plan.clonedDefs)
    if (def->use_empty())
      def->erase();
}

struct MemoizeCommandBuffersPass
    : public impl::MemoizeCommandBuffersPassBase<MemoizeCommandBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<CommandBufferCreateOp> creates;
    getOperation().walk([&](CommandBufferCreateOp create) {
      if (!create->getParentOfType<DeviceMemoizeOp>())
        creates.push_back(create);
    });
    BufferResolver resolver;
    for (CommandBufferCreateOp create : creates) {
      RecordingPlan plan;
      plan.create = create;
      std::optional<std::string> reason = findRecording(plan);
      if (!reason)
        reason = classifyOperands(plan);
      if (reason) {
        create.emitRemark() << "command buffer stays one-shot: " << *reason;
        ++numRefused;
        continue;
      }
      LLVM_DEBUG(llvm::dbgs()
                 << "memoizing " << create << ": " << plan.slots.size()
                 << " slots, " << plan.uniforms.size() << " uniforms, "
                 << plan.hoisted.size() << " host ops hoisted\n");
      memoize(plan, resolver);
      ++numMemoized;
    }
  }
};

} // namespace
} // namespace streamhal::hal
