//===- FunctionBoundary.cpp - Reference executor: host values in and out --===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A run of a function as the host sees it: its host values turned into
// runtime values (fresh root buffers), the caller-owned transient buffer of
// a function that takes one, and the results turned back into host values.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// The runtime values of `arguments`, the host values a run of `function`
/// gets: each buffer-like one in a fresh root buffer of its bytes.
static FailureOr<SmallVector<RuntimeValue>>
makeRuntimeArguments(func::FuncOp function, ArrayRef<HostValue> arguments) {
  SmallVector<RuntimeValue> values;
  for (auto [index, type, host] :
       llvm::enumerate(function.getArgumentTypes().take_front(arguments.size()),
                       arguments)) {
    auto fresh = [&, index = index]() {
      return std::make_shared<RootBuffer>(RootBuffer::withContents(
          "argument " + std::to_string(index), host.bytes));
    };
    if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
      if (host.isScalar || !host.shape)
        return function.emitError()
               << "argument " << index << " needs a tensor input";
      auto bytes = std::make_shared<std::vector<uint8_t>>(host.bytes);
      values.push_back(
          TensorValue{bytes, *host.shape, tensorType.getElementType()});
    } else if (isa<hal::BufferType>(type)) {
      int64_t length = host.bytes.size();
      values.push_back(BufferRef{fresh(), 0, length});
    } else if (isa<hal::BufferViewType>(type)) {
      std::optional<int32_t> encoded =
          host.elementType ? hal::getElementTypeValue(host.elementType)
                           : std::nullopt;
      if (!host.shape || !encoded)
        return function.emitError()
               << "argument " << index << " needs a shaped input";
      int64_t length = host.bytes.size();
      values.push_back(BufferViewValue{BufferRef{fresh(), 0, length},
                                       *host.shape, *encoded, 0});
    } else if (getScalarWidth(type) != 0) {
      values.push_back(
          ScalarValue{truncateBits(host.scalarBits, getScalarWidth(type))});
    } else {
      return function.emitError() << "argument " << index << " has type "
                                  << type << " which the executor cannot pass";
    }
  }
  return values;
}

/// The element type of a buffer view's `elementType` encoding.
static Type getViewElementType(MLIRContext *context, int32_t elementType) {
  uint32_t bits = hal::getElementBitWidth(elementType);
  uint32_t kind = static_cast<uint32_t>(elementType) >> 24;
  if (kind == 3 && bits == 32)
    return Float32Type::get(context);
  if (kind == 3 && bits == 16)
    return Float16Type::get(context);
  if (kind == 3 && bits == 64)
    return Float64Type::get(context);
  if (kind == 4 && bits == 16)
    return BFloat16Type::get(context);
  return IntegerType::get(context, bits);
}

/// Result `index` of a run of `function`, `result`, as a host value.
static FailureOr<HostValue> makeHostResult(ExecutorImpl &exec,
                                           func::FuncOp function, size_t index,
                                           const RuntimeValue &result) {
  HostValue host;
  Type type = function.getResultTypes()[index];
  if (auto *scalar = std::get_if<ScalarValue>(&result)) {
    host.isScalar = true;
    host.scalarType = type;
    host.scalarBits = scalar->bits;
    unsigned bytes = (getScalarWidth(type) + 7) / 8;
    for (unsigned i = 0; i < bytes; ++i)
      host.bytes.push_back(static_cast<uint8_t>(scalar->bits >> (8 * i)));
    return host;
  }
  if (auto *tensor = std::get_if<TensorValue>(&result)) {
    int64_t size =
        getByteSize(tensor->shape, getElementBytes(tensor->elementType));
    host.bytes.assign(tensor->bytes->begin(), tensor->bytes->begin() + size);
    host.shape = tensor->shape;
    host.elementType = tensor->elementType;
    host.identity = tensor->getIdentity();
    return host;
  }
  BufferRef buffer;
  if (auto *view = std::get_if<BufferViewValue>(&result)) {
    buffer = view->buffer;
    host.identity = view->identity ? view->identity : buffer.root.get();
    host.shape = view->shape;
    host.elementType =
        getViewElementType(function.getContext(), view->elementType);
  } else if (auto *ref = std::get_if<BufferRef>(&result)) {
    buffer = *ref;
  } else {
    return function.emitError()
           << "result " << index << " has no value the executor can read";
  }
  if (buffer.length > kMaxGrowableLength)
    return function.emitError()
           << "result " << index << " is a buffer of " << buffer.length
           << " bytes, more than the executor materializes";
  if (failed(exec.reserveMemory(function, buffer.length,
                                "result " + Twine(index))))
    return failure();
  if (failed(exec.checkRange(function, buffer, "result")) ||
      failed(exec.checkHostAccess(function, buffer,
                                  "returns to the host (result " +
                                      Twine(index) + ")")))
    return failure();
  if (std::optional<int64_t> poison =
          buffer.root->findUninitialized(buffer.offset, buffer.length))
    return function.emitError()
           << "result " << index << " holds uninitialized bytes (byte "
           << *poison - buffer.offset << " of " << buffer.length
           << " was never written)";
  host.bytes = buffer.root->readBytes(buffer.offset, buffer.length);
  host.root = buffer.root;
  host.rootOffset = buffer.offset;
  return host;
}

/// The query that sizes the transient buffer of `function`, if it has one
/// taking `count` arguments and returning one value.
static func::FuncOp findTransientSizeQuery(func::FuncOp function,
                                           size_t count) {
  auto queryName =
      function->getAttrOfType<FlatSymbolRefAttr>(hal::kTransientSizeAttrName);
  auto query = queryName ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                               function, queryName)
                         : func::FuncOp();
  if (!query || query.getNumArguments() != count || query.getNumResults() != 1)
    return {};
  return query;
}

LogicalResult
ExecutorImpl::checkTransientBuffer(func::FuncOp function,
                                   ArrayRef<RuntimeValue> arguments) {
  func::FuncOp query = findTransientSizeQuery(function, arguments.size() - 1);
  const BufferRef *given = std::get_if<BufferRef>(&arguments.back());
  if (!query || !given)
    return success();
  SmallVector<RuntimeValue> results;
  if (failed(callFunction(query, arguments.drop_back(), results, 1)))
    return failure();
  auto *needed = std::get_if<ScalarValue>(&results.front());
  if (needed && given->length < static_cast<int64_t>(needed->bits))
    return function.emitError()
           << "is given a transient buffer (argument " << arguments.size() - 1
           << ") of " << given->length << " bytes but @" << query.getSymName()
           << " asks for " << static_cast<int64_t>(needed->bits);
  return success();
}

FailureOr<RuntimeValue>
ExecutorImpl::makeTransientBuffer(func::FuncOp function,
                                  ArrayRef<RuntimeValue> arguments) {
  func::FuncOp query = findTransientSizeQuery(function, arguments.size());
  if (!query)
    return function.emitError()
           << "takes a transient buffer but has no query taking its other "
              "arguments (hal.ex.transient_size)";
  SmallVector<RuntimeValue> results;
  if (failed(callFunction(query, arguments, results, 1)))
    return failure();
  auto *needed = std::get_if<ScalarValue>(&results.front());
  if (!needed || static_cast<int64_t>(needed->bits) < 0 ||
      static_cast<int64_t>(needed->bits) > kMaxBufferBytes)
    return query.emitError() << "returns no transient size the executor can "
                                "allocate";
  int64_t size = static_cast<int64_t>(needed->bits);
  if (options.transientBytes && *options.transientBytes < size)
    return function.emitError()
           << "is given a transient buffer of " << *options.transientBytes
           << " bytes but @" << query.getSymName() << " asks for " << size;
  if (options.transientBytes)
    size = *options.transientBytes;
  auto root = std::make_shared<RootBuffer>(RootBuffer::allocate(
      "transients of @" + function.getSymName().str(), size));
  root->setAccount(memory);
  root->setDeviceOnly(function);
  liveBytes.track(root->getSerial(), size);
  return RuntimeValue(BufferRef{root, 0, size});
}

FailureOr<SmallVector<HostValue>>
ExecutorImpl::run(func::FuncOp function, ArrayRef<HostValue> arguments) {
  // Loading the module runs its initializers, before any function; what
  // they allocate is the module's, not the run's.
  if (failed(runInitializers()))
    return failure();
  memoryCounts = {};
  liveBytes.clear();
  allocatedRoots.clear();
  if (function.isExternal())
    return function.emitError() << "has no body to run";
  // A caller-owned transient buffer not given is made as a runtime would.
  bool supplyTransients = hal::takesCallerTransients(function) &&
                          arguments.size() + 1 == function.getNumArguments();
  if (arguments.size() != function.getNumArguments() && !supplyTransients)
    return function.emitError()
           << "takes " << function.getNumArguments() << " arguments but "
           << arguments.size() << " were given";
  FailureOr<SmallVector<RuntimeValue>> values =
      makeRuntimeArguments(function, arguments);
  if (failed(values))
    return failure();
  if (supplyTransients) {
    FailureOr<RuntimeValue> transients = makeTransientBuffer(function, *values);
    if (failed(transients))
      return failure();
    values->push_back(*transients);
  } else if (hal::takesCallerTransients(function) &&
             failed(checkTransientBuffer(function, *values))) {
    return failure();
  }
  SmallVector<RuntimeValue> results;
  if (failed(callFunction(function, *values, results, 0)))
    return failure();
  countTransients(results);
  argumentsAfterRun.clear();
  for (const RuntimeValue &value : *values) {
    const BufferRef *buffer = std::get_if<BufferRef>(&value);
    if (auto *view = std::get_if<BufferViewValue>(&value))
      buffer = &view->buffer;
    if (!buffer) {
      argumentsAfterRun.emplace_back();
      continue;
    }
    argumentsAfterRun.emplace_back(
        buffer->root->readBytes(buffer->offset, buffer->length));
  }

  SmallVector<HostValue> hostResults;
  for (auto [index, result] : llvm::enumerate(results)) {
    FailureOr<HostValue> host = makeHostResult(*this, function, index, result);
    if (failed(host))
      return failure();
    hostResults.push_back(std::move(*host));
  }
  return hostResults;
}
