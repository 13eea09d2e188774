//===- Executor.cpp - Reference executor: functions, scalars, globals -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// Calls deeper than this are reported as unbounded recursion.
static constexpr unsigned kMaxCallDepth = 64;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t streamhal::exec::getByteSize(ArrayRef<int64_t> shape,
                                     int64_t elementBytes) {
  int64_t size = elementBytes;
  for (int64_t dim : shape)
    if (dim < 0 || llvm::MulOverflow(size, dim, size))
      return -1;
  return size;
}

int64_t streamhal::exec::getElementBytes(Type type) {
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

unsigned streamhal::exec::getScalarWidth(Type type) {
  if (isa<IndexType>(type))
    return 64;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 0;
}

uint64_t streamhal::exec::truncateBits(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

static int64_t signExtend(uint64_t bits, unsigned width) {
  if (width == 0 || width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits = truncateBits(bits, width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

std::string streamhal::exec::describeHostValue(const HostValue &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (value.isScalar) {
    os << value.scalarType;
    return text;
  }
  if (!value.shape) {
    os << "buffer<" << value.bytes.size() << " bytes>";
    return text;
  }
  for (int64_t dim : *value.shape)
    os << dim << "x";
  if (value.elementType)
    os << value.elementType;
  return text;
}

/// Appends the little-endian bytes of every element of `attr`.
static LogicalResult appendElementBytes(DenseElementsAttr attr,
                                        std::vector<uint8_t> &bytes) {
  Type elementType = attr.getElementType();
  int64_t elementBytes = getElementBytes(elementType);
  if (elementBytes == 0)
    return failure();
  auto appendBits = [&](const APInt &value) {
    for (int64_t i = 0; i < elementBytes; ++i)
      bytes.push_back(static_cast<uint8_t>(
          value.getBitWidth() > unsigned(i * 8)
              ? value.extractBitsAsZExtValue(
                    std::min<unsigned>(8, value.getBitWidth() - i * 8), i * 8)
              : 0));
  };
  if (isa<FloatType>(elementType)) {
    for (APFloat value : attr.getValues<APFloat>())
      appendBits(value.bitcastToAPInt());
    return success();
  }
  for (APInt value : attr.getValues<APInt>())
    appendBits(value);
  return success();
}

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

Executor::Executor(ModuleOp module, ExecOptions options)
    : impl(std::make_unique<ExecutorImpl>(module, std::move(options))) {}
Executor::~Executor() = default;

FailureOr<SmallVector<HostValue>> Executor::run(func::FuncOp function,
                                                ArrayRef<HostValue> arguments) {
  impl->clearTrace();
  impl->barrierCounts = {};
  impl->commandCounts = {};
  impl->memoryCounts = {};
  impl->liveBytes.clear();
  impl->allocatedRoots.clear();
  return impl->run(function, arguments);
}

BarrierCounts Executor::getBarrierCounts() const { return impl->barrierCounts; }

MemoryCounts Executor::getMemoryCounts() const { return impl->memoryCounts; }

CommandCounts Executor::getCommandCounts() const { return impl->commandCounts; }

ArrayRef<DispatchRecord> Executor::getDispatchTrace() const {
  return impl->trace;
}

ArrayRef<std::optional<std::vector<uint8_t>>>
Executor::getArgumentsAfterRun() const {
  return impl->argumentsAfterRun;
}

ExecutorImpl::ExecutorImpl(ModuleOp module, ExecOptions options)
    : module(module), options(std::move(options)), symbols(module) {
  initDeviceLimits();
}

bool ExecutorImpl::supportsFormat(StringRef format) const {
  if (!options.formats)
    return true;
  return llvm::is_contained(*options.formats, format);
}

std::shared_ptr<RootBuffer> ExecutorImpl::getPoolRoot(StringRef name) {
  std::shared_ptr<RootBuffer> &root = pools[name];
  if (!root) {
    Fnv1a64 hash;
    hash.addU64(options.seed);
    hash.addString(name);
    root = std::make_shared<RootBuffer>(
        RootBuffer::growable(("@" + name).str(), hash.get()));
    root->setAccount(memory);
    // Constant storage: a global nothing may store to is read-only.
    auto global = symbols.lookup<util::GlobalOp>(name);
    if (global && !global.getIsMutable())
      root->setReadOnly();
  }
  return root;
}

FailureOr<BufferRef> ExecutorImpl::getGlobalBufferRange(Operation *user,
                                                        StringRef name,
                                                        int64_t offset,
                                                        int64_t length) {
  auto global = symbols.lookup<util::GlobalOp>(name);
  if (!global || !isa<hal::BufferType>(global.getType()))
    return user->emitError()
           << "names @" << name << " which is not a !hal.buffer global";
  BufferRef whole;
  auto it = globals.find(name);
  if (it != globals.end() && std::holds_alternative<BufferRef>(it->second)) {
    whole = std::get<BufferRef>(it->second);
  } else if (it == globals.end() && global.getInitialValue()) {
    // The global's initial contents, as a util.global.load of it sees them
    // (the HAL level loads the global the flow level names here).
    FailureOr<RuntimeValue> value = materializeGlobal(user, name);
    if (failed(value))
      return failure();
    whole = std::get<BufferRef>(*value);
  } else {
    whole = {getPoolRoot(name), 0, kUnboundedLength};
  }
  // Subtractions, not additions: no overflow.
  if (offset < 0 || length < 0 || offset > whole.length ||
      length > whole.length - offset)
    return user->emitError() << "byte range " << formatRange(offset, length)
                             << " is outside global @" << name << " of "
                             << whole.length << " bytes";
  BufferRef ref{whole.root, whole.offset + offset, length};
  if (failed(checkRange(user, ref, "constant range")))
    return failure();
  return ref;
}

template <typename T>
FailureOr<T> ExecutorImpl::get(Frame &frame, Value value, Operation *user) {
  auto it = frame.find(value);
  if (it == frame.end() || !std::holds_alternative<T>(it->second)) {
    InFlightDiagnostic diag = user->emitError()
                              << "uses a value the executor has no ";
    if constexpr (std::is_same_v<T, TensorValue>)
      diag << "tensor";
    else if constexpr (std::is_same_v<T, BufferRef>)
      diag << "buffer";
    else if constexpr (std::is_same_v<T, BufferViewValue>)
      diag << "buffer view";
    else if constexpr (std::is_same_v<T, ScalarValue>)
      diag << "scalar";
    else if constexpr (std::is_same_v<T, PointerValue>)
      diag << "pointer";
    else
      diag << "command buffer";
    diag << " for";
    return failure();
  }
  return std::get<T>(it->second);
}

template FailureOr<TensorValue> ExecutorImpl::get(Frame &, Value, Operation *);
template FailureOr<BufferRef> ExecutorImpl::get(Frame &, Value, Operation *);
template FailureOr<BufferViewValue> ExecutorImpl::get(Frame &, Value,
                                                      Operation *);
template FailureOr<ScalarValue> ExecutorImpl::get(Frame &, Value, Operation *);
template FailureOr<PointerValue> ExecutorImpl::get(Frame &, Value, Operation *);
template FailureOr<std::shared_ptr<CommandBufferState>>
ExecutorImpl::get(Frame &, Value, Operation *);

FailureOr<int64_t> ExecutorImpl::getIndex(Frame &frame, Value value,
                                          Operation *user) {
  FailureOr<ScalarValue> scalar = get<ScalarValue>(frame, value, user);
  if (failed(scalar))
    return failure();
  return signExtend(scalar->bits, getScalarWidth(value.getType()));
}

FailureOr<SmallVector<int64_t>>
ExecutorImpl::getIndices(Frame &frame, ValueRange values, Operation *user) {
  SmallVector<int64_t> result;
  for (Value value : values) {
    FailureOr<int64_t> index = getIndex(frame, value, user);
    if (failed(index))
      return failure();
    result.push_back(*index);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Running functions (the boundary with the host: FunctionBoundary.cpp)
//===----------------------------------------------------------------------===//

LogicalResult ExecutorImpl::callFunction(func::FuncOp function,
                                         ArrayRef<RuntimeValue> arguments,
                                         SmallVectorImpl<RuntimeValue> &results,
                                         unsigned depth) {
  if (depth > kMaxCallDepth)
    return function.emitError() << "calls nest deeper than " << kMaxCallDepth;
  if (function.isExternal())
    return function.emitError() << "is called but has no body";
  if (!llvm::hasSingleElement(function.getBody()))
    return function.emitError()
           << "has several blocks; the executor runs single-block functions";
  Frame frame;
  Block &entry = function.getBody().front();
  for (auto [argument, value] : llvm::zip(entry.getArguments(), arguments))
    frame[argument] = value;
  return runBlock(entry, frame, results, depth);
}

LogicalResult ExecutorImpl::runBlock(Block &block, Frame &frame,
                                     SmallVectorImpl<RuntimeValue> &results,
                                     unsigned depth) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value operand : op.getOperands()) {
        auto it = frame.find(operand);
        if (it == frame.end())
          return op.emitError() << "returns a value the executor never set";
        results.push_back(it->second);
      }
      // The synchronous calling convention (docs/async.md).
      if (isa<func::ReturnOp, util::ReturnOp>(op))
        return checkReturnTimeline(&op, results, depth);
      return success();
    }
    if (failed(runOp(op, frame, depth)))
      return failure();
  }
  return success();
}

LogicalResult ExecutorImpl::runOp(Operation &op, Frame &frame, unsigned depth) {
  if (op.getDialect() && op.getDialect()->getNamespace() ==
                             arith::ArithDialect::getDialectNamespace())
    return runArith(op, frame);
  if (isa<util::GlobalLoadOp, util::GlobalStoreOp, util::GlobalAddressOp,
          util::GlobalLoadIndirectOp, util::GlobalStoreIndirectOp>(op))
    return runGlobalOp(op, frame);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return op.emitError() << "calls unknown function @" << call.getCallee();
    SmallVector<RuntimeValue> arguments, results;
    for (Value operand : call.getOperands())
      arguments.push_back(frame.lookup(operand));
    if (failed(callFunction(callee, arguments, results, depth + 1)))
      return op.emitError() << "failed in the call to @" << call.getCallee();
    for (auto [result, value] : llvm::zip(call.getResults(), results))
      frame[result] = value;
    return success();
  }
  if (std::optional<LogicalResult> ran = runFlowOp(op, frame, depth))
    return *ran;
  if (std::optional<LogicalResult> ran = runHALOp(op, frame, depth))
    return *ran;
  return op.emitOpError() << "is not supported by the executor";
}

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//

LogicalResult ExecutorImpl::runInitializers() {
  if (initialized)
    return success(*initialized);
  initialized = false;
  for (auto initializer : module.getOps<util::InitializerOp>()) {
    if (initializer.getBody().empty())
      continue;
    Frame frame;
    SmallVector<RuntimeValue> results;
    if (failed(runBlock(initializer.getBody().front(), frame, results, 0)))
      return initializer.emitError()
             << "failed, so the module cannot be loaded";
  }
  initialized = true;
  return success();
}

LogicalResult ExecutorImpl::runGlobalOp(Operation &op, Frame &frame) {
  if (auto address = dyn_cast<util::GlobalAddressOp>(op)) {
    frame[address.getResult()] = PointerValue{address.getGlobal().str()};
    return success();
  }
  if (auto store = dyn_cast<util::GlobalStoreOp>(op)) {
    globals[store.getGlobal()] = frame.lookup(store.getValue());
    return success();
  }
  if (auto store = dyn_cast<util::GlobalStoreIndirectOp>(op)) {
    FailureOr<PointerValue> pointer =
        get<PointerValue>(frame, store.getGlobal(), &op);
    if (failed(pointer))
      return failure();
    // The verifier sees only pointers straight from util.global.address.
    auto global = symbols.lookup<util::GlobalOp>(pointer->global);
    if (!global)
      return op.emitError() << "stores through a pointer to unknown global @"
                            << pointer->global;
    if (!global.getIsMutable())
      return op.emitError() << "stores through a pointer to immutable global @"
                            << pointer->global;
    globals[pointer->global] = frame.lookup(store.getValue());
    return success();
  }
  std::string name;
  Value result = op.getResult(0);
  if (auto load = dyn_cast<util::GlobalLoadOp>(op)) {
    name = load.getGlobal().str();
  } else {
    FailureOr<PointerValue> pointer = get<PointerValue>(
        frame, cast<util::GlobalLoadIndirectOp>(op).getGlobal(), &op);
    if (failed(pointer))
      return failure();
    name = pointer->global;
  }
  auto it = globals.find(name);
  if (it != globals.end()) {
    frame[result] = it->second;
    return success();
  }
  FailureOr<RuntimeValue> value = materializeGlobal(&op, name);
  if (failed(value))
    return failure();
  frame[result] = *value;
  return success();
}

FailureOr<RuntimeValue> ExecutorImpl::materializeGlobal(Operation *user,
                                                        StringRef name) {
  auto global = symbols.lookup<util::GlobalOp>(name);
  if (!global)
    return user->emitError() << "loads unknown global @" << name;
  // First load: materialize the initial value.
  std::vector<uint8_t> bytes;
  std::optional<Attribute> initial = global.getInitialValue();
  if (initial) {
    auto dense = dyn_cast<DenseElementsAttr>(*initial);
    // A splat stores one element whatever its shape: size it before
    // expanding it, like every other tensor.
    int64_t initialSize =
        dense ? getByteSize(dense.getType().getShape(),
                            getElementBytes(dense.getElementType()))
              : 0;
    if (initialSize < 0 || initialSize > kMaxTensorBytes)
      return user->emitError()
             << "reads global @" << name << " whose initial value of type "
             << dense.getType()
             << " is too large for the executor (4 GiB at most)";
    if (!dense || failed(appendElementBytes(dense, bytes)))
      return user->emitError()
             << "reads global @" << name
             << " whose initial value the executor cannot read";
  }
  Type type = global.getType();
  RuntimeValue value;
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (!tensorType.hasStaticShape())
      return user->emitError()
             << "loads global @" << name << " of dynamic type " << type;
    int64_t size = getByteSize(tensorType.getShape(),
                               getElementBytes(tensorType.getElementType()));
    if (size < 0 || size > kMaxTensorBytes)
      return user->emitError()
             << "loads global @" << name << " of type " << type
             << ", too large for the executor (4 GiB at most)";
    // The same stream as the buffer global it becomes.
    if (!initial)
      bytes = getPoolRoot(name)->readBytes(0, size);
    value = TensorValue{std::make_shared<std::vector<uint8_t>>(bytes),
                        llvm::to_vector(tensorType.getShape()),
                        tensorType.getElementType()};
  } else if (isa<hal::BufferType>(type)) {
    if (initial) {
      auto root = std::make_shared<RootBuffer>(
          RootBuffer::withContents(("@" + name).str(), bytes));
      if (!global.getIsMutable())
        root->setReadOnly();
      value = BufferRef{root, 0, static_cast<int64_t>(bytes.size())};
    } else {
      value = BufferRef{getPoolRoot(name), 0, kUnboundedLength};
    }
  } else if (getScalarWidth(type) != 0) {
    uint64_t bits = 0;
    if (auto integer =
            dyn_cast_if_present<IntegerAttr>(initial ? *initial : Attribute()))
      bits = getLowBits(integer.getValue());
    value = ScalarValue{bits};
  } else {
    return user->emitError() << "loads global @" << name << " of type " << type
                             << " which the executor does not model";
  }
  globals[name] = value;
  return value;
}
