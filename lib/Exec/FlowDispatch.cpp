//===- FlowDispatch.cpp - Reference executor: flow.dispatch ---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A flow.dispatch at the flow level: its `hal.bindings` decide which value
// each interface binding sees; the variant the device supports decides the
// workgroup count; DispatchModel.h computes what the Write bindings receive.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "streamhal/Dialect/HAL/IR/ExecutableFormats.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

namespace {
/// Bytes one or more bindings share during a dispatch.
struct Storage {
  std::vector<uint8_t> bytes;
  bool defined = false;
  std::string description;
};

struct BoundBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  bool reads = false;
  bool writes = false;
  std::string name;
  unsigned storage = 0;
};
} // namespace

static std::string formatEntry(SymbolRefAttr entry) {
  std::string text = "@" + entry.getRootReference().str();
  for (FlatSymbolRefAttr nested : entry.getNestedReferences())
    text += "::@" + nested.getValue().str();
  return text;
}

/// Resolves `@ex::@entry` to the entry point of the first variant of `@ex`
/// whose format the device supports.
static FailureOr<hal::ExecutableEntryPointOp>
resolveEntryPoint(ExecutorImpl &exec, Operation *user, SymbolRefAttr entry) {
  auto executable =
      exec.symbols.lookup<hal::ExecutableOp>(entry.getRootReference());
  if (!executable || entry.getNestedReferences().size() != 1)
    return user->emitError() << "dispatches " << entry
                             << " which names no executable entry point";
  for (auto variant :
       executable.getBody().front().getOps<hal::ExecutableVariantOp>()) {
    if (!exec.supportsFormat(variant.getTarget().getFormat().getValue()))
      continue;
    auto entryPoint =
        SymbolTable::lookupSymbolIn(variant, entry.getLeafReference());
    if (auto point =
            dyn_cast_if_present<hal::ExecutableEntryPointOp>(entryPoint))
      return point;
    return user->emitError() << "dispatches " << entry << " but variant @"
                             << variant.getSymName() << " has no such entry";
  }
  return user->emitError() << "dispatches " << entry
                           << " but no variant has a supported format";
}

FailureOr<std::array<uint64_t, 3>>
ExecutorImpl::computeWorkgroups(Operation *user, SymbolRefAttr entry,
                                ArrayRef<int64_t> workload) {
  FailureOr<hal::ExecutableEntryPointOp> entryPoint =
      resolveEntryPoint(*this, user, entry);
  if (failed(entryPoint))
    return failure();
  std::array<uint64_t, 3> counts = {1, 1, 1};
  Region &region = entryPoint->getWorkgroupCountRegion();
  if (region.empty()) {
    // Workgroup size 1x1x1: workload values 0-2 are x, y, z (missing ones
    // 1); every further value multiplies z, so x*y*z covers the workload.
    for (auto [index, value] : llvm::enumerate(workload)) {
      if (index < 3)
        counts[index] = value;
      else
        counts[2] *= value;
    }
    return counts;
  }
  Block &block = region.front();
  if (block.getNumArguments() != workload.size())
    return user->emitError() << "has a workload of " << workload.size()
                             << " values but the workgroup region of " << entry
                             << " takes " << block.getNumArguments();
  Frame frame;
  for (auto [argument, value] : llvm::zip(block.getArguments(), workload))
    frame[argument] = ScalarValue{static_cast<uint64_t>(value)};
  SmallVector<RuntimeValue> results;
  if (failed(runBlock(block, frame, results, 0)))
    return user->emitError() << "failed computing its workgroup count";
  if (results.size() != 3)
    return user->emitError() << "has a workgroup region returning "
                             << results.size() << " values";
  for (unsigned i = 0; i < 3; ++i) {
    auto *scalar = std::get_if<ScalarValue>(&results[i]);
    if (!scalar)
      return user->emitError() << "has a workgroup region returning a "
                                  "non-scalar";
    counts[i] = scalar->bits;
  }
  return counts;
}

namespace {
/// The storages of one flow.dispatch's operands and results, made on first
/// use: an operand's is a copy of its tensor's storage, a tied result's its
/// operand's, another result's zeroed bytes of its size.
struct DispatchStorages {
  DispatchStorages(ExecutorImpl &exec, Frame &frame, flow::DispatchOp op)
      : exec(exec), frame(frame), op(op), arguments(op.getArguments()),
        tied(op.getTiedOperandsAttr()) {}

  /// The storage operand `operand` is bound as.
  FailureOr<unsigned> getOperandStorage(unsigned operand);
  /// The storage result `result` is bound as.
  FailureOr<unsigned> getResultStorage(unsigned result);

  ExecutorImpl &exec;
  Frame &frame;
  flow::DispatchOp op;
  ValueRange arguments;
  ArrayAttr tied;
  SmallVector<Storage> storages;
  DenseMap<unsigned, unsigned> operandStorage, resultStorage;
};
} // namespace

FailureOr<unsigned> DispatchStorages::getOperandStorage(unsigned operand) {
  Operation *opPtr = op;
  auto it = operandStorage.find(operand);
  if (it != operandStorage.end())
    return it->second;
  if (operand >= arguments.size())
    return op.emitError() << "binds operand " << operand << " of "
                          << arguments.size();
  Value value = arguments[operand];
  FailureOr<TensorValue> tensor = exec.get<TensorValue>(frame, value, opPtr);
  if (failed(tensor))
    return failure();
  // A tensor's storage may be longer than its value (a constant range
  // and its aliases): the binding sees the whole storage.
  Storage storage;
  storage.bytes.assign(tensor->bytes->begin(), tensor->bytes->end());
  storage.defined = true;
  storage.description = "operand " + std::to_string(operand);
  storages.push_back(std::move(storage));
  operandStorage[operand] = storages.size() - 1;
  return storages.size() - 1;
}

FailureOr<unsigned> DispatchStorages::getResultStorage(unsigned result) {
  Operation *opPtr = op;
  auto it = resultStorage.find(result);
  if (it != resultStorage.end())
    return it->second;
  if (result >= op.getNumResults())
    return op.emitError() << "binds result " << result << " of "
                          << op.getNumResults();
  unsigned index;
  if (std::optional<unsigned> operand =
          util::getStoredTiedOperandIndex(tied, result)) {
    FailureOr<unsigned> shared = getOperandStorage(*operand);
    if (failed(shared))
      return failure();
    index = *shared;
  } else {
    ValueRange dims = op.getResultDynamicDims(result);
    auto type = dyn_cast<RankedTensorType>(op.getResult(result).getType());
    if (!type)
      return op.emitError()
             << "binds result " << result << " which is not a tensor";
    SmallVector<int64_t> shape;
    unsigned next = 0;
    for (int64_t dim : type.getShape()) {
      if (!ShapedType::isDynamic(dim)) {
        shape.push_back(dim);
        continue;
      }
      if (next >= dims.size())
        return op.emitError() << "lacks a dim of result " << result;
      FailureOr<int64_t> value = exec.getIndex(frame, dims[next++], opPtr);
      if (failed(value))
        return failure();
      shape.push_back(*value);
    }
    int64_t size = getByteSize(shape, getElementBytes(type.getElementType()));
    if (size < 0 || size > kMaxTensorBytes)
      return op.emitError() << "has result " << result
                            << " too large for the executor (4 GiB at most)";
    Storage storage;
    storage.bytes.assign(size, 0);
    storage.description = "result " + std::to_string(result);
    storages.push_back(std::move(storage));
    index = storages.size() - 1;
  }
  resultStorage[result] = index;
  return index;
}

/// Adds interface binding `name` of `interfaceBindings`, bound to storage
/// `storage`, to `bound`.
static LogicalResult
addBinding(flow::DispatchOp op,
           const llvm::StringMap<hal::InterfaceBindingOp> &interfaceBindings,
           SmallVectorImpl<BoundBinding> &bound, StringRef name,
           unsigned storage) {
  auto it = interfaceBindings.find(name);
  if (it == interfaceBindings.end())
    return op.emitError() << "binds unknown interface binding @" << name;
  hal::InterfaceBindingOp binding = it->second;
  auto access = static_cast<uint32_t>(binding.getAccess());
  bound.push_back(
      {static_cast<uint32_t>(binding.getSet().getZExtValue()),
       static_cast<uint32_t>(binding.getBinding().getZExtValue()),
       (access & static_cast<uint32_t>(hal::MemoryAccess::Read)) != 0,
       (access & static_cast<uint32_t>(hal::MemoryAccess::Write)) != 0,
       name.str(), storage});
  return success();
}

/// Sorts `bound` by (set, binding) and drops repeats of one binding on one
/// storage; fails on one binding of two storages.
static LogicalResult uniqueBindings(flow::DispatchOp op,
                                    SmallVectorImpl<BoundBinding> &bound) {
  llvm::stable_sort(bound, [](const BoundBinding &a, const BoundBinding &b) {
    return std::make_pair(a.set, a.binding) < std::make_pair(b.set, b.binding);
  });
  // A tied operand and result are one storage: naming one binding for both
  // binds it once. Two different storages on one binding stay an error.
  SmallVector<BoundBinding> unique;
  for (BoundBinding &binding : bound) {
    if (!unique.empty() && unique.back().set == binding.set &&
        unique.back().binding == binding.binding) {
      if (unique.back().storage != binding.storage)
        return op.emitError()
               << "binds interface binding @" << binding.name << " twice";
      continue;
    }
    unique.push_back(std::move(binding));
  }
  bound = std::move(unique);
  return success();
}

/// The `hal.bindings` of `op` on `interface`: the bindings they bind (sorted
/// and unique, in `bound`) and the push constants they set.
static LogicalResult
bindInterface(ExecutorImpl &exec, Frame &frame, flow::DispatchOp op,
              hal::InterfaceOp interface, ArrayAttr bindingsAttr,
              DispatchStorages &storages, SmallVectorImpl<BoundBinding> &bound,
              SmallVector<uint32_t> &pushConstants) {
  Operation *opPtr = op;
  ValueRange arguments = op.getArguments();
  // Interface bindings by name.
  llvm::StringMap<hal::InterfaceBindingOp> interfaceBindings;
  for (auto binding :
       interface.getBody().front().getOps<hal::InterfaceBindingOp>())
    interfaceBindings[binding.getSymName()] = binding;
  int64_t pushConstantCount = interface.getPushConstantCount();
  // The vector is sized from the IR: bounded first.
  if (pushConstantCount < 0 || pushConstantCount > kMaxPushConstants)
    return op.emitError() << "dispatches an interface declaring "
                          << pushConstantCount
                          << " push constants; the executor runs at most "
                          << kMaxPushConstants;
  pushConstants.assign(pushConstantCount, 0);

  for (Attribute attr : bindingsAttr) {
    if (auto operand = dyn_cast<hal::ExOperandBufferAttr>(attr)) {
      FailureOr<unsigned> storage =
          storages.getOperandStorage(operand.getOperand().getInt());
      if (failed(storage) ||
          failed(addBinding(op, interfaceBindings, bound,
                            operand.getBinding().getValue(), *storage)))
        return failure();
    } else if (auto result = dyn_cast<hal::ExResultBufferAttr>(attr)) {
      FailureOr<unsigned> storage =
          storages.getResultStorage(result.getResult().getInt());
      if (failed(storage) ||
          failed(addBinding(op, interfaceBindings, bound,
                            result.getBinding().getValue(), *storage)))
        return failure();
    } else if (auto constant = dyn_cast<hal::ExPushConstantAttr>(attr)) {
      int64_t ordinal = constant.getOrdinal().getInt();
      int64_t operand = constant.getOperand().getInt();
      if (ordinal < 0 || ordinal >= pushConstantCount)
        return op.emitError()
               << "sets push constant " << ordinal << " beyond the interface's "
               << pushConstantCount;
      if (operand < 0 || operand >= static_cast<int64_t>(arguments.size()))
        return op.emitError()
               << "passes operand " << operand << " as a push constant";
      FailureOr<ScalarValue> value =
          exec.get<ScalarValue>(frame, arguments[operand], opPtr);
      if (failed(value))
        return failure();
      pushConstants[ordinal] = static_cast<uint32_t>(value->bits);
    } else if (auto storageAttr = dyn_cast<hal::ExConstantStorageAttr>(attr)) {
      FailureOr<BufferRef> ref = exec.getGlobalBufferRange(
          opPtr, storageAttr.getStorage().getValue(),
          storageAttr.getOffset().getInt(), storageAttr.getLength().getInt());
      if (failed(ref))
        return failure();
      Storage storage;
      storage.bytes = ref->root->readBytes(ref->offset, ref->length);
      storage.defined = true;
      storage.description = "constant storage";
      storages.storages.push_back(std::move(storage));
      if (failed(addBinding(op, interfaceBindings, bound,
                            storageAttr.getBinding().getValue(),
                            storages.storages.size() - 1)))
        return failure();
    } else {
      return op.emitError() << "has a malformed hal.bindings entry " << attr;
    }
  }
  return uniqueBindings(op, bound);
}

/// Runs the dispatch model of `op` over the storages of `bound`: checks that
/// every read binding was written, traces the dispatch and fills the write
/// bindings.
static LogicalResult
runDispatchModel(ExecutorImpl &exec, flow::DispatchOp op,
                 ArrayRef<BoundBinding> bound,
                 SmallVectorImpl<Storage> &storages,
                 const SmallVector<uint32_t> &pushConstants,
                 const std::array<uint64_t, 3> &workgroups) {
  Operation *opPtr = op;
  DispatchInputs inputs;
  inputs.entrySymbol = formatEntry(op.getEntryPoint());
  DispatchRecord record;
  record.op = opPtr;
  record.entrySymbol = inputs.entrySymbol;
  for (const BoundBinding &binding : bound) {
    if (!binding.reads)
      continue;
    Storage &storage = storages[binding.storage];
    if (!storage.defined)
      return op.emitError()
             << "reads binding @" << binding.name << " (" << storage.description
             << ") before anything wrote it";
    inputs.reads.push_back({binding.set, binding.binding, storage.bytes});
    record.reads.push_back({binding.set, binding.binding, storage.bytes, {}});
  }
  inputs.pushConstants = pushConstants;
  inputs.workgroups = workgroups;
  record.pushConstants = pushConstants;
  record.workgroups = workgroups;
  uint64_t hash = hashDispatchInputs(inputs);
  for (const BoundBinding &binding : bound) {
    if (!binding.writes)
      continue;
    Storage &storage = storages[binding.storage];
    expandDispatchOutput(hash, binding.set, binding.binding, storage.bytes);
    storage.defined = true;
  }
  exec.trace.push_back(std::move(record));
  return success();
}

/// Whether `entryPoint` carries a real kernel that the executor's device
/// runs: a `vulkan-spirv-fb` variant, on a device other than the reference
/// model.
static bool runsOnDevice(ExecutorImpl &exec,
                         hal::ExecutableEntryPointOp entryPoint) {
  if (!exec.options.device || exec.options.device->isReference())
    return false;
  auto variant = entryPoint->getParentOfType<hal::ExecutableVariantOp>();
  return variant &&
         variant.getTarget().getFormat().getValue() == hal::kVulkanSpirvFormat;
}

/// Runs the real kernel of `op` on the executor's device, on buffers of its
/// own (docs/executor.md, "Checking a lowering"): each binding gets a fresh
/// buffer holding its storage's bytes (poison for a write-only one), and the
/// write bindings' storages receive what the kernel wrote.
static LogicalResult
runDispatchOnDevice(ExecutorImpl &exec, flow::DispatchOp op,
                    hal::ExecutableEntryPointOp entryPoint,
                    ArrayRef<BoundBinding> bound,
                    SmallVectorImpl<Storage> &storages,
                    const SmallVector<uint32_t> &pushConstants,
                    const std::array<uint64_t, 3> &workgroups) {
  Command command{Command::Kind::Dispatch};
  command.op = op;
  command.entryPoint = entryPoint;
  command.entrySymbol = formatEntry(op.getEntryPoint());
  command.pushConstants.assign(pushConstants.begin(), pushConstants.end());
  command.workgroups = workgroups;
  for (const BoundBinding &binding : bound) {
    Storage &storage = storages[binding.storage];
    if (binding.reads && !storage.defined)
      return op.emitError()
             << "reads binding @" << binding.name << " (" << storage.description
             << ") before anything wrote it";
    std::string name = "binding @" + binding.name + " of " +
                       command.entrySymbol + " (flow level)";
    auto root = std::make_shared<RootBuffer>(
        binding.reads ? RootBuffer::withContents(name, storage.bytes)
                      : RootBuffer::allocate(name, storage.bytes.size()));
    root->setAccount(exec.memory);
    command.bindings.push_back(
        {binding.set, binding.binding, binding.reads, binding.writes,
         /*mayAlias=*/false,
         BufferRef{root, 0, static_cast<int64_t>(storage.bytes.size())}});
  }
  if (failed(exec.options.device->run(exec, op, command)))
    return failure();
  for (auto [binding, commandBinding] : llvm::zip(bound, command.bindings)) {
    if (!binding.writes)
      continue;
    Storage &storage = storages[binding.storage];
    commandBinding.range.root->read(0, storage.bytes);
    storage.defined = true;
  }
  return success();
}

/// Gives each result of `op` the tensor its storage holds after the
/// dispatch.
static LogicalResult bindDispatchResults(ExecutorImpl &exec, Frame &frame,
                                         flow::DispatchOp op,
                                         DispatchStorages &storages) {
  Operation *opPtr = op;
  for (unsigned r = 0; r < op.getNumResults(); ++r) {
    FailureOr<unsigned> storageIndex = storages.getResultStorage(r);
    if (failed(storageIndex))
      return failure();
    Storage &storage = storages.storages[*storageIndex];
    if (!storage.defined)
      return op.emitError()
             << "result " << r << " is written by no binding of the dispatch";
    ValueRange dims = op.getResultDynamicDims(r);
    auto type = cast<RankedTensorType>(op.getResult(r).getType());
    SmallVector<int64_t> shape;
    unsigned next = 0;
    for (int64_t dim : type.getShape()) {
      if (!ShapedType::isDynamic(dim)) {
        shape.push_back(dim);
        continue;
      }
      FailureOr<int64_t> value = exec.getIndex(frame, dims[next++], opPtr);
      if (failed(value))
        return failure();
      shape.push_back(*value);
    }
    int64_t size = getByteSize(shape, getElementBytes(type.getElementType()));
    if (size > static_cast<int64_t>(storage.bytes.size()))
      return op.emitError()
             << "result " << r << " needs " << size
             << " bytes but its storage holds " << storage.bytes.size();
    // A tied result keeps the whole storage of its operand.
    frame[op.getResult(r)] =
        TensorValue{std::make_shared<std::vector<uint8_t>>(storage.bytes),
                    shape, type.getElementType()};
  }
  return success();
}

LogicalResult ExecutorImpl::runFlowDispatch(Operation *opPtr, Frame &frame) {
  auto op = cast<flow::DispatchOp>(opPtr);
  FailureOr<SmallVector<int64_t>> workload =
      getIndices(frame, op.getWorkload(), opPtr);
  if (failed(workload))
    return failure();
  FailureOr<hal::ExecutableEntryPointOp> entryPoint =
      resolveEntryPoint(*this, opPtr, op.getEntryPoint());
  if (failed(entryPoint))
    return failure();
  hal::InterfaceOp interface = entryPoint->lookupInterface();
  if (!interface)
    return op.emitError() << "dispatches an entry point without interface";
  ArrayAttr bindingsAttr = op.getBindings();
  if (!bindingsAttr)
    return op.emitError() << "has no hal.bindings";

  DispatchStorages storages(*this, frame, op);
  SmallVector<BoundBinding> bound;
  SmallVector<uint32_t> pushConstants;
  if (failed(bindInterface(*this, frame, op, interface, bindingsAttr, storages,
                           bound, pushConstants)))
    return failure();

  FailureOr<std::array<uint64_t, 3>> workgroups =
      computeWorkgroups(opPtr, op.getEntryPoint(), *workload);
  if (failed(workgroups))
    return failure();

  if (runsOnDevice(*this, *entryPoint)) {
    if (failed(runDispatchOnDevice(*this, op, *entryPoint, bound,
                                   storages.storages, pushConstants,
                                   *workgroups)))
      return failure();
  } else if (failed(runDispatchModel(*this, op, bound, storages.storages,
                                     pushConstants, *workgroups))) {
    return failure();
  }
  return bindDispatchResults(*this, frame, op, storages);
}
