//===- Arguments.cpp - Reference executor: function arguments -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds the arguments of a run from `--input` specifications, or from a
// seed: tensors get pseudo-random bytes, dynamic dims small values, and an
// `index` argument that spells a tensor argument's dim gets that dim.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "mlir/AsmParser/AsmParser.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <map>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// Default extent of a dynamic dim and value of a free `index` argument.
static constexpr int64_t kDefaultDim = 3;
static constexpr int64_t kDefaultIndex = 1;

/// Reads `path` into `bytes` when it holds exactly `size` bytes; returns
/// the problem otherwise. Reads at most `size + 1` bytes, in chunks, whatever
/// the file is (a device, a pipe, a file larger than memory), and allocates
/// no more than the file holds: a wrong shape or file costs no more than a
/// right one.
static std::optional<std::string> readExactly(StringRef path, int64_t size,
                                              std::vector<uint8_t> &bytes) {
  namespace fs = llvm::sys::fs;
  llvm::Expected<fs::file_t> file = fs::openNativeFileForRead(path);
  if (!file)
    return "cannot read '" + path.str() +
           "': " + llvm::toString(file.takeError());
  llvm::scope_exit close([&] { fs::closeFile(*file); });
  fs::file_status status;
  if (!fs::status(*file, status) &&
      status.type() == fs::file_type::regular_file) {
    if (static_cast<int64_t>(status.getSize()) != size)
      return "the file holds " + std::to_string(status.getSize()) +
             " bytes but the shape needs " + std::to_string(size);
    bytes.reserve(size + 1);
  }
  constexpr int64_t kChunk = int64_t(1) << 20;
  int64_t filled = 0;
  while (filled <= size) {
    bytes.resize(std::min(size + 1, filled + kChunk));
    llvm::Expected<size_t> read = fs::readNativeFile(
        *file, llvm::MutableArrayRef<char>(
                   reinterpret_cast<char *>(bytes.data()) + filled,
                   bytes.size() - filled));
    if (!read)
      return "cannot read '" + path.str() +
             "': " + llvm::toString(read.takeError());
    if (*read == 0)
      break;
    filled += static_cast<int64_t>(*read);
  }
  if (filled != size)
    return "the file holds " +
           (filled > size ? "more than " + std::to_string(size)
                          : std::to_string(filled)) +
           " bytes but the shape needs " + std::to_string(size);
  bytes.resize(size);
  return std::nullopt;
}

/// The tensor type an argument carries: its own, or for a buffer view the
/// type of the first `hal.tensor.cast` of it.
static RankedTensorType getTensorTypeOf(BlockArgument argument) {
  if (auto tensorType = dyn_cast<RankedTensorType>(argument.getType()))
    return tensorType;
  for (Operation *user : argument.getUsers())
    if (auto cast = dyn_cast<hal::TensorCastOp>(user))
      if (cast.getSource() == argument)
        return dyn_cast<RankedTensorType>(cast.getType());
  return {};
}

static FailureOr<HostValue> parseSpec(func::FuncOp function, unsigned index,
                                      StringRef spec) {
  MLIRContext *context = function.getContext();
  Type argumentType = function.getArgumentTypes()[index];
  auto fail = [&](const Twine &message) {
    return function.emitError()
           << "argument " << index << ": " << message << " in --input=" << spec;
  };
  auto [head, tail] = spec.split('=');
  HostValue value;
  if (tail.starts_with("@")) {
    SmallVector<StringRef> parts;
    head.split(parts, 'x');
    Type elementType = parseType(parts.back(), context);
    if (!elementType || getElementBytes(elementType) == 0)
      return fail("expected SHAPExTYPE with an integer or float type");
    SmallVector<int64_t> shape;
    for (StringRef part : ArrayRef<StringRef>(parts).drop_back()) {
      int64_t dim;
      if (part.getAsInteger(10, dim) || dim < 0)
        return fail("bad dim '" + part + "'");
      shape.push_back(dim);
    }
    // The size is bounded before anything is read or allocated.
    int64_t size = getByteSize(shape, getElementBytes(elementType));
    if (size < 0 || size > kMaxBufferBytes)
      return fail("the shape is too large (the executor runs buffers of at "
                  "most 4 GiB)");
    if (std::optional<std::string> problem =
            readExactly(tail.drop_front(), size, value.bytes))
      return fail(*problem);
    value.shape = shape;
    value.elementType = elementType;
    return value;
  }
  Type type = argumentType;
  StringRef number = head;
  if (!tail.empty()) {
    type = parseType(head, context);
    number = tail;
  }
  if (!type || getScalarWidth(type) == 0)
    return fail("expected a scalar type");
  value.isScalar = true;
  value.scalarType = type;
  if (isa<FloatType>(type)) {
    double real;
    if (number.getAsDouble(real))
      return fail("bad number");
    APFloat floating(real);
    bool lost;
    floating.convert(cast<FloatType>(type).getFloatSemantics(),
                     APFloat::rmNearestTiesToEven, &lost);
    value.scalarBits = getLowBits(floating.bitcastToAPInt());
  } else {
    int64_t integer;
    if (number.getAsInteger(0, integer))
      return fail("bad integer");
    value.scalarBits = static_cast<uint64_t>(integer);
  }
  return value;
}

namespace {
/// (tensor argument, dim) -> the index argument that spells that dim.
using DimArguments = std::map<std::pair<unsigned, unsigned>, unsigned>;

/// The arguments being built: their values and which are done.
struct ArgumentValues {
  ArgumentValues(func::FuncOp function, ArrayRef<int64_t> dims, unsigned count)
      : function(function), dims(dims), values(count), done(count, false) {}

  /// The next value of `dims`, or `fallback` once they are used up.
  int64_t takeDim(int64_t fallback) {
    return nextDim < dims.size() ? dims[nextDim++] : fallback;
  }
  /// Makes index argument `index` the scalar `extent`.
  void setIndex(unsigned index, int64_t extent) {
    HostValue &value = values[index];
    value.isScalar = true;
    value.scalarType = function.getArgumentTypes()[index];
    value.scalarBits = static_cast<uint64_t>(extent);
    done[index] = true;
  }

  func::FuncOp function;
  ArrayRef<int64_t> dims;
  size_t nextDim = 0;
  SmallVector<HostValue> values;
  SmallVector<bool> done;
};
} // namespace

/// Which index argument of `entry` spells each dynamic dim of a tensor
/// argument, as the shape-aware ops of `function` use them.
static DimArguments findDimArguments(func::FuncOp function, Block &entry) {
  DimArguments dimArguments;
  function.walk([&](util::ShapeAwareOpInterface shaped) {
    for (OpOperand &operand : shaped->getOpOperands()) {
      auto tensorArgument = dyn_cast<BlockArgument>(operand.get());
      if (!tensorArgument || tensorArgument.getOwner() != &entry)
        continue;
      auto tensorType = dyn_cast<RankedTensorType>(tensorArgument.getType());
      if (!tensorType)
        continue;
      ValueRange dynamicDims =
          shaped.getOperandDynamicDims(operand.getOperandNumber());
      unsigned dynamicIndex = 0;
      for (auto [d, dim] : llvm::enumerate(tensorType.getShape())) {
        if (!ShapedType::isDynamic(dim))
          continue;
        if (dynamicIndex >= dynamicDims.size())
          break;
        auto dimArgument = dyn_cast<BlockArgument>(dynamicDims[dynamicIndex++]);
        if (dimArgument && dimArgument.getOwner() == &entry &&
            isa<IndexType>(dimArgument.getType()))
          dimArguments.emplace(
              std::make_pair(tensorArgument.getArgNumber(), unsigned(d)),
              dimArgument.getArgNumber());
      }
    }
  });
  return dimArguments;
}

/// Seeded tensors and buffer views; a dim spelled by an index argument
/// takes (or gives) that argument's value.
static LogicalResult seedTensors(ArgumentValues &args, Block &entry,
                                 unsigned count, uint64_t seed,
                                 const DimArguments &dimArguments) {
  func::FuncOp function = args.function;
  SmallVector<HostValue> &values = args.values;
  SmallVector<bool> &done = args.done;
  for (unsigned index = 0; index < count; ++index) {
    BlockArgument argument = entry.getArgument(index);
    Type type = argument.getType();
    if (!isa<RankedTensorType, hal::BufferViewType, hal::BufferType>(type))
      continue;
    RankedTensorType tensorType = getTensorTypeOf(argument);
    if (done[index]) {
      // An explicit input: its shape gives the dims' index arguments.
      for (auto [d, dim] :
           llvm::enumerate(values[index].shape ? *values[index].shape
                                               : SmallVector<int64_t>())) {
        auto it = dimArguments.find({index, unsigned(d)});
        if (it != dimArguments.end() && !done[it->second])
          args.setIndex(it->second, dim);
      }
      continue;
    }
    if (!tensorType || getElementBytes(tensorType.getElementType()) == 0)
      return function.emitError()
             << "argument " << index << " of type " << type
             << " needs its bytes and shape: pass --input=SHAPExTYPE=@file";
    SmallVector<int64_t> shape;
    for (auto [d, dim] : llvm::enumerate(tensorType.getShape())) {
      if (!ShapedType::isDynamic(dim)) {
        shape.push_back(dim);
        continue;
      }
      auto it = dimArguments.find({index, unsigned(d)});
      if (it != dimArguments.end() && done[it->second]) {
        shape.push_back(static_cast<int64_t>(values[it->second].scalarBits));
        continue;
      }
      shape.push_back(args.takeDim(kDefaultDim));
      if (it != dimArguments.end())
        args.setIndex(it->second, shape.back());
    }
    int64_t size =
        getByteSize(shape, getElementBytes(tensorType.getElementType()));
    if (size < 0 || size > kMaxTensorBytes)
      return function.emitError() << "argument " << index << " of type " << type
                                  << " is too large to generate";
    HostValue &value = values[index];
    value.shape = shape;
    value.elementType = tensorType.getElementType();
    value.bytes.resize(size);
    Fnv1a64 hash;
    hash.addU64(seed);
    hash.addU32(index);
    SplitMix64(hash.get()).fill(value.bytes);
    done[index] = true;
  }
  return success();
}

/// The scalars no input and no tensor's dim gave a value: index arguments
/// take the next value of `dims` (or kDefaultIndex), others small seeded
/// values.
static LogicalResult seedScalars(ArgumentValues &args, unsigned count,
                                 uint64_t seed) {
  func::FuncOp function = args.function;
  for (unsigned index = 0; index < count; ++index) {
    if (args.done[index])
      continue;
    Type type = function.getArgumentTypes()[index];
    if (getScalarWidth(type) == 0)
      return function.emitError() << "argument " << index << " of type " << type
                                  << " cannot be made from a seed";
    HostValue &value = args.values[index];
    value.isScalar = true;
    value.scalarType = type;
    if (isa<IndexType>(type)) {
      value.scalarBits = static_cast<uint64_t>(args.takeDim(kDefaultIndex));
    } else {
      Fnv1a64 hash;
      hash.addU64(seed);
      hash.addU32(index);
      // Small values: scalars often become push constants or counts.
      value.scalarBits = SplitMix64(hash.get()).next() % 64;
    }
  }
  return success();
}

FailureOr<SmallVector<HostValue>>
streamhal::exec::makeArguments(func::FuncOp function,
                               ArrayRef<std::string> specs, uint64_t seed,
                               ArrayRef<int64_t> dims) {
  if (function.isExternal())
    return function.emitError() << "has no body to run";
  Block &entry = function.getBody().front();
  unsigned count = function.getNumArguments();
  // The caller-owned transient buffer is made by the run unless given.
  if (hal::takesCallerTransients(function) && specs.size() < count)
    --count;
  if (specs.size() > count)
    return function.emitError() << "takes " << count << " arguments but "
                                << specs.size() << " --input were given";
  ArgumentValues args(function, dims, count);

  // Explicit inputs.
  for (auto [index, spec] : llvm::enumerate(specs)) {
    if (spec.empty())
      continue;
    FailureOr<HostValue> value = parseSpec(function, index, spec);
    if (failed(value))
      return failure();
    args.values[index] = std::move(*value);
    args.done[index] = true;
  }

  DimArguments dimArguments = findDimArguments(function, entry);
  if (failed(seedTensors(args, entry, count, seed, dimArguments)) ||
      failed(seedScalars(args, count, seed)))
    return failure();
  return std::move(args.values);
}
