//===- VulkanReplay.cpp - Vulkan device: replaying memoized recordings ----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A submission of a `hal.device.memoize` recording (docs/replay.md) runs as
// one VkCommandBuffer recorded without ONE_TIME_SUBMIT: the upload of the
// host's bytes into the mirrors, the commands, the readback. Its commands
// are a function of the executor's recording and the submission's binding
// table and uniforms, so the device keeps what it recorded, with its
// mirrors and staging buffer, per recording and table key: which slots
// share a root, each slot's offset, length and memory kind, and the
// uniforms. A later submission with an equal key replays it: the mirrors
// are rebound to the slots' new roots, the host's bytes staged again, and
// nothing is planned or recorded. An asserts build also plans the
// submission and checks that it would record the same commands.
//
//===----------------------------------------------------------------------===//

#include "../ExecutorImpl.h"
#include "VulkanDevice.h"
#include "streamhal/Exec/DispatchModel.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "vulkan-replay"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// Recordings kept per memoize op, for that many shapes of its dynamic
/// values (batch sizes, say) in turn; each holds its mirrors' memory.
static constexpr size_t kKeptRecordingsPerMemoize = 4;

std::vector<uint64_t> DeviceWork::getRecordingKey() const {
  std::vector<uint64_t> key;
  key.push_back(mirrors.size());
  for (const Mirror &mirror : mirrors) {
    key.push_back(mirror.end - mirror.base);
    key.push_back(mirror.root->isHostVisible());
  }
  // A range as recorded: its mirror and offset there, and its length.
  auto addRange = [&](const BufferRef &ref) {
    key.push_back(ref.length);
    if (ref.length == 0)
      return;
    const Mirror &mirror = mirrors[mirrorOf.lookup(ref.root.get())];
    key.push_back(mirrorOf.lookup(ref.root.get()));
    key.push_back(ref.offset - mirror.base);
  };
  for (auto [index, command] : llvm::enumerate(commands)) {
    key.push_back(static_cast<uint64_t>(command->kind));
    // Labels name the op; the model kernel tells entry points by this hash.
    key.push_back(reinterpret_cast<uintptr_t>(
        command->op->getName().getAsOpaquePointer()));
    Fnv1a64 entry;
    entry.addString(command->entrySymbol);
    key.push_back(entry.get());
    key.push_back(reinterpret_cast<uintptr_t>(kernels[index]));
    key.push_back(command->pattern);
    addRange(command->target);
    addRange(command->source);
    key.push_back(command->bindings.size());
    for (const Command::Binding &binding : command->bindings) {
      key.push_back(binding.set);
      key.push_back(binding.binding);
      key.push_back(binding.reads | binding.writes << 1 |
                    binding.mayAlias << 2);
      addRange(binding.range);
    }
    key.push_back(command->pushConstants.size());
    llvm::append_range(key, command->pushConstants);
    llvm::append_range(key, command->workgroups);
  }
  return key;
}

bool DeviceWork::mapMirrorsToSlots(ArrayRef<BufferRef> slots) {
  llvm::DenseMap<RootBuffer *, unsigned> slotOf;
  for (auto [index, slot] : llvm::enumerate(slots))
    slotOf.try_emplace(slot.root.get(), index);
  mirrorSlots.clear();
  for (const Mirror &mirror : mirrors) {
    auto it = slotOf.find(mirror.root.get());
    if (it == slotOf.end())
      return false;
    mirrorSlots.push_back(it->second);
  }
  return true;
}

void DeviceWork::detachFromRun() {
  commands.clear();
  for (Mirror &mirror : mirrors)
    mirror.root.reset();
  mirrorOf.clear();
  executor = nullptr;
  errorOp = nullptr;
}

void DeviceWork::rebind(ExecutorImpl &newExecutor, Operation *newErrorOp,
                        std::vector<const Command *> newCommands,
                        ArrayRef<BufferRef> slots) {
  executor = &newExecutor;
  errorOp = newErrorOp;
  commands = std::move(newCommands);
  for (auto [index, mirror] : llvm::enumerate(mirrors)) {
    mirror.root = slots[mirrorSlots[index]].root;
    mirrorOf[mirror.root.get()] = index;
  }
}

/// The key of a submission's tables: for each slot the first slot bound to
/// the same root, its offset, length and memory kind; then the uniforms.
/// Equal keys of one recording give equal commands on equal mirrors.
static std::vector<uint64_t> getTableKey(const MemoizedTables &tables) {
  std::vector<uint64_t> key;
  key.reserve(4 * tables.slots.size() + tables.uniforms.size() + 2);
  llvm::DenseMap<RootBuffer *, unsigned> firstSlotOf;
  key.push_back(tables.slots.size());
  for (auto [index, slot] : llvm::enumerate(tables.slots)) {
    key.push_back(
        firstSlotOf.try_emplace(slot.root.get(), index).first->second);
    key.push_back(slot.offset);
    key.push_back(slot.length);
    key.push_back(slot.root->isHostVisible());
  }
  key.push_back(tables.uniforms.size());
  llvm::append_range(key, tables.uniforms);
  return key;
}

LogicalResult VulkanDevice::runMemoized(ExecutorImpl &executor,
                                        Operation *awaitOp,
                                        const SubmissionToRun &submission) {
  PhaseClock clock;
  if (failed(checkLimits(executor, submission.op)))
    return failure();
  std::vector<const Command *> commands;
  for (const Command &command : submission.commandBuffers.front())
    commands.push_back(&command);
  const MemoizedTables &tables = *submission.tables;
  std::vector<uint64_t> key = getTableKey(tables);
  std::vector<std::unique_ptr<DeviceWork>> &kept =
      memoizedWork[tables.recording];
  auto match = llvm::find_if(kept, [&](const std::unique_ptr<DeviceWork> &w) {
    return w->tableKey == key;
  });
  bool replay = match != kept.end();
  LLVM_DEBUG(llvm::dbgs() << "vulkan: " << (replay ? "replays" : "records")
                          << " recording " << tables.recording << " of "
                          << *submission.memoizedBy << " (" << kept.size()
                          << " kept)\n");
  std::unique_ptr<DeviceWork> work;
  if (replay) {
    work = std::move(*match);
    kept.erase(match);
#ifndef NDEBUG
    // (A plan fails only on a validation message, which it reports.)
    DeviceWork planned(*this, executor, submission.op, commands);
    if (failed(planned.plan()))
      return failure();
    assert(planned.getRecordingKey() == work->recordingKey &&
           "equal tables of one recording must give the same commands");
#endif
    work->rebind(executor, submission.op, std::move(commands), tables.slots);
  } else {
    // The least recently run recording of other tables makes room; the
    // queue is idle here.
    if (kept.size() >= kKeptRecordingsPerMemoize)
      kept.erase(kept.begin());
    work = std::make_unique<DeviceWork>(*this, executor, submission.op,
                                        std::move(commands));
    if (failed(work->plan()))
      return failure();
    if (work->isEmpty())
      return success();
    if (failed(work->allocateDeviceMemory()))
      return failure();
  }
  clock.lap(times.prepareMs);
  work->stageHostBytes();
  clock.lap(times.stageMs);

  VkCommandBuffer cmd;
  if (replay) {
    cmd = work->getCommandBuffers().front();
    ++times.commandBuffersReplayed;
  } else {
    FailureOr<VkCommandBuffer> recorded = work->recordRun(/*oneTime=*/false);
    if (failed(recorded))
      return failure();
    cmd = *recorded;
    clock.lap(times.recordMs);
  }
  if (failed(work->submitAndWriteBack(cmd, clock, submission.op, awaitOp)))
    return failure();
  // Kept only after a clean run, and only when every mirror is a slot's
  // root (a recording names no other buffer; else it is recorded again).
  if (!replay) {
    if (!work->mapMirrorsToSlots(tables.slots))
      return success();
    work->tableKey = std::move(key);
#ifndef NDEBUG
    work->recordingKey = work->getRecordingKey();
#endif
  }
  work->detachFromRun();
  kept.push_back(std::move(work));
  return success();
}
