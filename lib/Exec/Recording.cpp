//===- Recording.cpp - Reference executor: recording command buffers ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The commands of a command buffer between begin and end: each is checked
// against its buffers and captured with everything it needs (ranges,
// descriptor sets and push constants in effect), to run at submission.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// The command buffer `commandBuffer` holds; null (an error emitted at
/// `user`) when it holds none.
static CommandBufferState *getState(ExecutorImpl &exec, Frame &frame,
                                    Operation *user, Value commandBuffer) {
  FailureOr<std::shared_ptr<CommandBufferState>> state =
      exec.get<std::shared_ptr<CommandBufferState>>(frame, commandBuffer, user);
  return succeeded(state) ? state->get() : nullptr;
}

/// The command buffer `commandBuffer` holds, which `user` records into; null
/// (an error emitted at `user`) when it holds none or it is not between
/// begin and end.
static CommandBufferState *getRecordingState(ExecutorImpl &exec, Frame &frame,
                                             Operation *user,
                                             Value commandBuffer) {
  CommandBufferState *state = getState(exec, frame, user, commandBuffer);
  if (state && (!state->begun || state->ended)) {
    user->emitError() << "records into a command buffer that is not between "
                         "begin and end";
    return nullptr;
  }
  return state;
}

/// hal.command_buffer.fill_buffer: records a fill of a checked range.
static LogicalResult recordFill(ExecutorImpl &exec, Frame &frame,
                                hal::CommandBufferFillBufferOp fill) {
  Operation *opPtr = fill.getOperation();
  CommandBufferState *state =
      getRecordingState(exec, frame, opPtr, fill.getCommandBuffer());
  FailureOr<BufferRef> target =
      exec.get<BufferRef>(frame, fill.getTargetBuffer(), opPtr);
  FailureOr<int64_t> offset =
      exec.getIndex(frame, fill.getTargetOffset(), opPtr);
  FailureOr<int64_t> length = exec.getIndex(frame, fill.getLength(), opPtr);
  FailureOr<ScalarValue> pattern =
      exec.get<ScalarValue>(frame, fill.getPattern(), opPtr);
  if (!state || failed(target) || failed(offset) || failed(length) ||
      failed(pattern))
    return failure();
  FailureOr<BufferRef> range =
      subrange(exec, opPtr, *target, *offset, *length, "fill range");
  if (failed(range) || failed(exec.checkFillRule(opPtr, *range)))
    return failure();
  Command command{Command::Kind::Fill};
  command.op = opPtr;
  command.target = *range;
  command.pattern = static_cast<uint32_t>(pattern->bits);
  state->commands.push_back(std::move(command));
  return success();
}

/// hal.command_buffer.copy_buffer: records a copy between checked,
/// non-overlapping ranges.
static LogicalResult recordCopy(ExecutorImpl &exec, Frame &frame,
                                hal::CommandBufferCopyBufferOp copy) {
  Operation *opPtr = copy.getOperation();
  CommandBufferState *state =
      getRecordingState(exec, frame, opPtr, copy.getCommandBuffer());
  FailureOr<BufferRef> source =
      exec.get<BufferRef>(frame, copy.getSourceBuffer(), opPtr);
  FailureOr<BufferRef> target =
      exec.get<BufferRef>(frame, copy.getTargetBuffer(), opPtr);
  FailureOr<int64_t> sourceOffset =
      exec.getIndex(frame, copy.getSourceOffset(), opPtr);
  FailureOr<int64_t> targetOffset =
      exec.getIndex(frame, copy.getTargetOffset(), opPtr);
  FailureOr<int64_t> length = exec.getIndex(frame, copy.getLength(), opPtr);
  if (!state || failed(source) || failed(target) || failed(sourceOffset) ||
      failed(targetOffset) || failed(length))
    return failure();
  FailureOr<BufferRef> from = subrange(exec, opPtr, *source, *sourceOffset,
                                       *length, "copy source range");
  if (failed(from))
    return failure();
  FailureOr<BufferRef> to = subrange(exec, opPtr, *target, *targetOffset,
                                     *length, "copy target range");
  if (failed(to))
    return failure();
  // vkCmdCopyBuffer (and IREE's HAL) leave overlapping copies
  // undefined, a copy onto itself included.
  if (from->root == to->root && from->length > 0 &&
      from->offset < to->offset + to->length &&
      to->offset < from->offset + from->length)
    return copy.emitError()
           << "copies [" << from->offset << ", +" << from->length
           << ") onto the overlapping range [" << to->offset << ", +"
           << to->length << ") of the same buffer (" << from->root->getName()
           << "): overlapping copies are undefined on a device";
  Command command{Command::Kind::Copy};
  command.op = opPtr;
  command.source = *from;
  command.target = *to;
  state->commands.push_back(std::move(command));
  return success();
}

/// hal.command_buffer.push_descriptor_set: the checked bindings of a set
/// and the ordinals its layout declares, in effect for later dispatches.
static LogicalResult
recordPushDescriptorSet(ExecutorImpl &exec, Frame &frame,
                        hal::CommandBufferPushDescriptorSetOp push) {
  Operation *opPtr = push.getOperation();
  CommandBufferState *state =
      getRecordingState(exec, frame, opPtr, push.getCommandBuffer());
  FailureOr<int64_t> set = exec.getIndex(frame, push.getSet(), opPtr);
  if (!state || failed(set))
    return failure();
  std::map<int64_t, BufferRef> bindings;
  for (auto [ordinal, buffer, offset, length] :
       llvm::zip(push.getBindingOrdinals(), push.getBindingBuffers(),
                 push.getBindingOffsets(), push.getBindingLengths())) {
    FailureOr<int64_t> index = exec.getIndex(frame, ordinal, opPtr);
    FailureOr<BufferRef> ref = exec.get<BufferRef>(frame, buffer, opPtr);
    FailureOr<int64_t> start = exec.getIndex(frame, offset, opPtr);
    FailureOr<int64_t> size = exec.getIndex(frame, length, opPtr);
    if (failed(index) || failed(ref) || failed(start) || failed(size))
      return failure();
    FailureOr<BufferRef> range =
        subrange(exec, opPtr, *ref, *start, *size, "binding range");
    if (failed(range) || failed(exec.checkBindingRule(opPtr, *index, *range)))
      return failure();
    if (!bindings.emplace(*index, *range).second)
      return push.emitError() << "binds ordinal " << *index << " twice";
  }
  state->descriptorSets[*set] = std::move(bindings);
  // The bindings the layout of this push declares for its set.
  std::optional<std::set<int64_t>> declared;
  if (auto lookup = push.getExecutableLayout()
                        .getDefiningOp<hal::ExecutableLayoutLookupOp>()) {
    declared.emplace();
    ArrayAttr sets = lookup.getSetLayoutsAttr();
    auto setLayout = *set >= 0 && *set < static_cast<int64_t>(sets.size())
                         ? dyn_cast<ArrayAttr>(sets[*set])
                         : ArrayAttr();
    if (setLayout)
      for (Attribute entry : setLayout)
        if (auto binding = dyn_cast<hal::DescriptorSetLayoutBindingAttr>(entry))
          declared->insert(binding.getOrdinal());
  }
  state->layoutBindings[*set] = std::move(declared);
  return success();
}

/// hal.command_buffer.push_constants: constants in effect for later
/// dispatches.
static LogicalResult
recordPushConstants(ExecutorImpl &exec, Frame &frame,
                    hal::CommandBufferPushConstantsOp push) {
  Operation *opPtr = push.getOperation();
  CommandBufferState *state =
      getRecordingState(exec, frame, opPtr, push.getCommandBuffer());
  if (!state)
    return failure();
  // An index attribute: 64 bits. Checked first, so `ordinal++` cannot
  // overflow.
  int64_t ordinal = push.getOffset().getSExtValue();
  int64_t count = push.getValues().size();
  if (ordinal < 0 || ordinal > kMaxPushConstants - count)
    return push.emitError()
           << "pushes constants " << formatRange(ordinal, count)
           << "; the executor runs ordinals 0 to " << kMaxPushConstants - 1;
  if (failed(exec.checkPushConstantRule(
          opPtr, "sets up to", ordinal,
          static_cast<int64_t>(push.getValues().size()))))
    return failure();
  for (Value value : push.getValues()) {
    FailureOr<ScalarValue> scalar = exec.get<ScalarValue>(frame, value, opPtr);
    if (failed(scalar))
      return failure();
    state->pushConstants[ordinal++] = static_cast<uint32_t>(scalar->bits);
  }
  return success();
}

/// Adds to `command` the bindings of `interface` that the descriptor sets
/// in effect in `state` bind, sorted by (set, binding); reports a declared
/// binding left unbound.
static LogicalResult addDispatchBindings(ExecutorImpl &exec, Operation *opPtr,
                                         const CommandBufferState &state,
                                         hal::InterfaceOp interface,
                                         Command &command) {
  for (auto binding :
       interface.getBody().front().getOps<hal::InterfaceBindingOp>()) {
    int64_t set = binding.getSet().getZExtValue();
    int64_t ordinal = binding.getBinding().getZExtValue();
    auto setIt = state.descriptorSets.find(set);
    bool setPushed = setIt != state.descriptorSets.end();
    const BufferRef *bound = nullptr;
    if (setPushed) {
      auto it = setIt->second.find(ordinal);
      if (it != setIt->second.end())
        bound = &it->second;
    }
    // The layout a dispatch is recorded with names the bindings its
    // kernel uses (the lowering gives it exactly the bound ones): an
    // interface binding outside it is not part of this dispatch.
    auto layoutIt = state.layoutBindings.find(set);
    bool declared = layoutIt == state.layoutBindings.end() ||
                    !layoutIt->second || layoutIt->second->count(ordinal);
    if (!bound && !declared)
      continue;
    if (!bound) {
      if (failed(exec.reportUnboundBinding(opPtr, binding.getSymName(), set,
                                           ordinal, setPushed)))
        return failure();
      continue;
    }
    auto access = static_cast<uint32_t>(binding.getAccess());
    command.bindings.push_back(
        {static_cast<uint32_t>(set), static_cast<uint32_t>(ordinal),
         (access & static_cast<uint32_t>(hal::MemoryAccess::Read)) != 0,
         (access & static_cast<uint32_t>(hal::MemoryAccess::Write)) != 0,
         (access & static_cast<uint32_t>(hal::MemoryAccess::MayAlias)) != 0,
         *bound});
  }
  llvm::sort(command.bindings, [](const Command::Binding &a,
                                  const Command::Binding &b) {
    return std::make_pair(a.set, a.binding) < std::make_pair(b.set, b.binding);
  });
  return success();
}

/// hal.command_buffer.dispatch.symbol: records a dispatch with the
/// bindings and push constants in effect.
static LogicalResult
recordDispatch(ExecutorImpl &exec, Frame &frame,
               hal::CommandBufferDispatchSymbolOp dispatch) {
  Operation *opPtr = dispatch.getOperation();
  CommandBufferState *state =
      getRecordingState(exec, frame, opPtr, dispatch.getCommandBuffer());
  FailureOr<SmallVector<int64_t>> counts =
      exec.getIndices(frame,
                      {dispatch.getWorkgroupX(), dispatch.getWorkgroupY(),
                       dispatch.getWorkgroupZ()},
                      opPtr);
  if (!state || failed(counts))
    return failure();
  SymbolRefAttr target = dispatch.getEntryPoint();
  auto entryPoint = dyn_cast_if_present<hal::ExecutableEntryPointOp>(
      SymbolTable::lookupSymbolIn(exec.module, target));
  if (!entryPoint || target.getNestedReferences().size() != 2)
    return dispatch.emitError()
           << "targets " << target << " which is no entry point";
  hal::InterfaceOp interface = entryPoint.lookupInterface();
  if (!interface)
    return dispatch.emitError() << "targets an entry point without "
                                   "interface";
  Command command{Command::Kind::Dispatch};
  command.op = opPtr;
  command.entryPoint = entryPoint;
  command.entrySymbol = "@" + target.getRootReference().str() + "::@" +
                        target.getLeafReference().str();
  if (failed(addDispatchBindings(exec, opPtr, *state, interface, command)) ||
      failed(exec.checkBindingAliasingRule(command)))
    return failure();
  int64_t count = interface.getPushConstantCount();
  if (count < 0 || count > kMaxPushConstants)
    return dispatch.emitError() << "targets an interface declaring " << count
                                << " push constants; the executor runs at most "
                                << kMaxPushConstants;
  if (failed(exec.checkPushConstantRule(opPtr, "its interface declares", 0,
                                        count)))
    return failure();
  for (int64_t ordinal = 0; ordinal < count; ++ordinal) {
    auto it = state->pushConstants.find(ordinal);
    command.pushConstants.push_back(
        it == state->pushConstants.end() ? 0 : it->second);
  }
  for (unsigned i = 0; i < 3; ++i)
    command.workgroups[i] = static_cast<uint64_t>((*counts)[i]);
  state->commands.push_back(std::move(command));
  return success();
}

std::optional<LogicalResult> ExecutorImpl::recordCommand(Operation &op,
                                                         Frame &frame) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(opPtr)
      .Case([&](hal::CommandBufferBeginOp begin) -> LogicalResult {
        CommandBufferState *state =
            getState(*this, frame, opPtr, begin.getCommandBuffer());
        if (!state)
          return failure();
        if (state->begun)
          return begin.emitError() << "begins a command buffer twice";
        state->begun = true;
        return success();
      })
      .Case([&](hal::CommandBufferEndOp end) -> LogicalResult {
        CommandBufferState *state =
            getRecordingState(*this, frame, opPtr, end.getCommandBuffer());
        if (!state)
          return failure();
        state->ended = true;
        commandCounts.recorded += state->commands.size();
        return success();
      })
      .Case([&](hal::CommandBufferFillBufferOp fill) {
        return recordFill(*this, frame, fill);
      })
      .Case([&](hal::CommandBufferCopyBufferOp copy) {
        return recordCopy(*this, frame, copy);
      })
      .Case([&](hal::CommandBufferPushDescriptorSetOp push) {
        return recordPushDescriptorSet(*this, frame, push);
      })
      .Case([&](hal::CommandBufferPushConstantsOp push) {
        return recordPushConstants(*this, frame, push);
      })
      .Case([&](hal::CommandBufferDispatchSymbolOp dispatch) {
        return recordDispatch(*this, frame, dispatch);
      })
      .Case([&](hal::CommandBufferExecutionBarrierOp barrier) -> LogicalResult {
        CommandBufferState *state =
            getRecordingState(*this, frame, opPtr, barrier.getCommandBuffer());
        if (!state)
          return failure();
        Command command{Command::Kind::Barrier};
        command.op = opPtr;
        state->commands.push_back(std::move(command));
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}
