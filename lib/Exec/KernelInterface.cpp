//===- KernelInterface.cpp - SPIR-V kernels against their interface -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernel does is read off the SPIR-V dialect: the functions its
// entry point reaches (through spirv.FunctionCall), the module variables
// they take the address of, and the pointers every storing op (Store,
// CopyMemory's target, atomics) writes through, traced back through access
// chains, selects, branch arguments and function parameters to the
// variables they point into. A pointer that cannot be traced (from an
// integer, say) is not blamed on any binding.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/KernelInterface.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

namespace {

/// Where a pointer may point: module variables, and (inside a function)
/// the function's pointer parameters.
struct PointerRoots {
  llvm::SmallSetVector<StringAttr, 2> variables;
  llvm::SmallSetVector<unsigned, 2> parameters;
  bool insert(const PointerRoots &other) {
    bool changed = false;
    for (StringAttr variable : other.variables)
      changed |= variables.insert(variable);
    for (unsigned parameter : other.parameters)
      changed |= parameters.insert(parameter);
    return changed;
  }
};

/// What a function writes: module variables directly, and through which of
/// its parameters.
struct FunctionWrites {
  /// Each written variable and the first op that writes it.
  llvm::MapVector<StringAttr, Operation *> variables;
  std::set<unsigned> parameters;
};

} // namespace

/// The pointer an op stores through (operand 0 of a store, a memory copy's
/// target, an atomic), or null for an op that writes no memory.
static Value getStoredPointer(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (op->getNumOperands() == 0 ||
      !isa<spirv::PointerType>(op->getOperand(0).getType()))
    return {};
  if (name.contains("Store") || name.contains("Atomic") ||
      name.contains("CopyMemory"))
    return op->getOperand(0);
  return {};
}

/// Traces every pointer of `function` to its roots, to a fixed point (branch
/// arguments can come from later blocks).
static llvm::DenseMap<Value, PointerRoots>
tracePointers(spirv::FuncOp function) {
  llvm::DenseMap<Value, PointerRoots> roots;
  for (auto [index, argument] : llvm::enumerate(function.getArguments()))
    if (isa<spirv::PointerType>(argument.getType()))
      roots[argument].parameters.insert(index);
  bool changed = true;
  while (changed) {
    changed = false;
    function.walk([&](Operation *op) {
      if (auto address = dyn_cast<spirv::AddressOfOp>(op)) {
        changed |= roots[address.getPointer()].variables.insert(
            address.getVariableAttr().getAttr());
        return;
      }
      // Successor operands flow into the successors' block arguments.
      if (auto branch = dyn_cast<BranchOpInterface>(op))
        for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
          OperandRange forwarded =
              branch.getSuccessorOperands(i).getForwardedOperands();
          Block *successor = op->getSuccessor(i);
          for (auto [operand, argument] :
               llvm::zip(forwarded,
                         successor->getArguments().take_back(forwarded.size())))
            if (roots.count(operand)) {
              PointerRoots from = roots.lookup(operand);
              changed |= roots[argument].insert(from);
            }
        }
      // A pointer made from pointers points where they do (access chains,
      // selects, casts).
      for (Value result : op->getResults()) {
        if (!isa<spirv::PointerType>(result.getType()))
          continue;
        for (Value operand : op->getOperands())
          if (roots.count(operand)) {
            PointerRoots from = roots.lookup(operand);
            changed |= roots[result].insert(from);
          }
      }
    });
  }
  return roots;
}

/// The functions `entry` reaches through calls, entry first.
static SmallVector<spirv::FuncOp> getReachableFunctions(spirv::ModuleOp module,
                                                        spirv::FuncOp entry) {
  llvm::SetVector<spirv::FuncOp> reached;
  reached.insert(entry);
  for (unsigned i = 0; i < reached.size(); ++i) {
    spirv::FuncOp function = reached[i];
    function.walk([&](spirv::FunctionCallOp call) {
      if (auto callee = module.lookupSymbol<spirv::FuncOp>(call.getCallee()))
        reached.insert(callee);
    });
  }
  return reached.takeVector();
}

/// What each of `functions` writes, with calls summarized to a fixed point
/// (recursion, which SPIR-V forbids anyway, converges too).
/// `untracedStores` is set when a store into buffer memory goes through a
/// pointer with no traced root.
static llvm::DenseMap<Operation *, FunctionWrites>
summarizeWrites(spirv::ModuleOp module, ArrayRef<spirv::FuncOp> functions,
                bool &untracedStores) {
  llvm::DenseMap<Operation *, llvm::DenseMap<Value, PointerRoots>> traces;
  for (spirv::FuncOp function : functions)
    traces[function] = tracePointers(function);
  llvm::DenseMap<Operation *, FunctionWrites> writes;
  auto addWrite = [&](FunctionWrites &summary, const PointerRoots &roots,
                      Operation *op) {
    bool changed = false;
    for (StringAttr variable : roots.variables)
      changed |= summary.variables.insert({variable, op}).second;
    for (unsigned parameter : roots.parameters)
      changed |= summary.parameters.insert(parameter).second;
    return changed;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (spirv::FuncOp function : functions) {
      const llvm::DenseMap<Value, PointerRoots> &roots = traces[function];
      FunctionWrites &summary = writes[function];
      function.walk([&](Operation *op) {
        if (Value pointer = getStoredPointer(op)) {
          if (roots.count(pointer)) {
            changed |= addWrite(summary, roots.lookup(pointer), op);
            return;
          }
          spirv::StorageClass storage =
              cast<spirv::PointerType>(pointer.getType()).getStorageClass();
          untracedStores |=
              storage == spirv::StorageClass::StorageBuffer ||
              storage == spirv::StorageClass::PhysicalStorageBuffer;
          return;
        }
        auto call = dyn_cast<spirv::FunctionCallOp>(op);
        if (!call)
          return;
        auto callee = module.lookupSymbol<spirv::FuncOp>(call.getCallee());
        if (!callee)
          return;
        // Copied: the map may grow while the callee's summary is read.
        std::set<unsigned> calleeWrites = writes[callee].parameters;
        for (unsigned parameter : calleeWrites)
          if (parameter < call.getArguments().size() &&
              roots.count(call.getArguments()[parameter]))
            changed |= addWrite(
                summary, roots.lookup(call.getArguments()[parameter]), op);
      });
    }
  }
  return writes;
}

/// Bytes of a push-constant block's type: up to the end of its last
/// member, or nullopt for a type without a size (a runtime array).
static std::optional<uint64_t> getBlockBytes(Type type) {
  if (auto scalar = dyn_cast<spirv::ScalarType>(type))
    return llvm::divideCeil(scalar.getIntOrFloatBitWidth(), 8);
  if (auto vector = dyn_cast<VectorType>(type)) {
    std::optional<uint64_t> element = getBlockBytes(vector.getElementType());
    if (!element)
      return std::nullopt;
    return *element * vector.getNumElements();
  }
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    std::optional<uint64_t> element = getBlockBytes(array.getElementType());
    if (!element || array.getNumElements() == 0)
      return element ? std::optional<uint64_t>(0) : std::nullopt;
    uint64_t stride =
        array.getArrayStride() ? array.getArrayStride() : *element;
    return stride * (array.getNumElements() - 1) + *element;
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    uint64_t end = 0, offset = 0;
    for (unsigned i = 0, e = structType.getNumElements(); i < e; ++i) {
      std::optional<uint64_t> member =
          getBlockBytes(structType.getElementType(i));
      if (!member)
        return std::nullopt;
      if (structType.hasOffset())
        offset = structType.getMemberOffset(i);
      end = std::max(end, offset + *member);
      offset += *member;
    }
    return end;
  }
  if (auto matrix = dyn_cast<spirv::MatrixType>(type)) {
    std::optional<uint64_t> column = getBlockBytes(matrix.getColumnType());
    if (!column)
      return std::nullopt;
    return *column * matrix.getNumColumns();
  }
  return std::nullopt;
}

/// The interface binding at (set, binding), or null.
static hal::InterfaceBindingOp findBinding(hal::InterfaceOp interface,
                                           uint32_t set, uint32_t binding) {
  for (auto candidate : interface.getBody().getOps<hal::InterfaceBindingOp>())
    if (candidate.getSet().getZExtValue() == set &&
        candidate.getBinding().getZExtValue() == binding)
      return candidate;
  return {};
}

static bool hasAccess(hal::InterfaceBindingOp binding,
                      hal::MemoryAccess access) {
  return (static_cast<uint32_t>(binding.getAccess()) &
          static_cast<uint32_t>(access)) != 0;
}

namespace {
/// The check of one kernel: its pieces, and where errors and notes go.
struct KernelChecker {
  hal::ExecutableEntryPointOp entryPoint;
  hal::InterfaceOp interface;
  const KernelLimits &limits;
  Operation *dispatch;
  bool allowPartialWrites;
  SpirvKernel kernel;
  spirv::FuncOp function;

  /// An error at `op` with a note at the dispatch.
  InFlightDiagnostic error(Operation *op) {
    InFlightDiagnostic diagnostic = op->emitError();
    if (dispatch)
      diagnostic.attachNote(dispatch->getLoc())
          << "kernel of @" << entryPoint.getSymName() << ", dispatched here";
    return diagnostic;
  }
  static void noteBinding(InFlightDiagnostic &diagnostic,
                          hal::InterfaceBindingOp binding) {
    diagnostic.attachNote(binding.getLoc())
        << "interface binding @" << binding.getSymName();
  }
  std::string describeKernel() {
    return ("kernel @" + kernel.entryPoint.getFn() + " (of HAL entry point @" +
            entryPoint.getSymName() + ")")
        .str();
  }

  LogicalResult findKernel();
  LogicalResult checkLocalSize();
  LogicalResult checkVariable(spirv::GlobalVariableOp variable);
  /// A StorageBuffer or Uniform variable: bound as its interface declares.
  LogicalResult checkBoundVariable(spirv::GlobalVariableOp variable);
  LogicalResult checkBuiltIn(spirv::GlobalVariableOp variable);
  LogicalResult checkPushConstantLayout(spirv::GlobalVariableOp variable,
                                        Type block);
  LogicalResult checkCapabilities();
  LogicalResult checkWrites(ArrayRef<spirv::FuncOp> functions);
};
} // namespace

LogicalResult KernelChecker::findKernel() {
  auto variant = entryPoint->getParentOfType<hal::ExecutableVariantOp>();
  StringRef name = entryPoint.getSymName();
  variant.walk([&](spirv::EntryPointOp candidate) {
    if (!kernel.entryPoint && candidate.getFn() == name)
      kernel.entryPoint = candidate;
  });
  Operation *at = dispatch ? dispatch : entryPoint.getOperation();
  if (!kernel.entryPoint)
    return at->emitError() << "dispatches @" << name << " of variant @"
                           << variant.getSymName() << " ("
                           << variant.getTarget().getFormat().getValue()
                           << "), whose module has no spirv.EntryPoint "
                           << "for it";
  if (kernel.entryPoint.getExecutionModel() != spirv::ExecutionModel::GLCompute)
    return error(kernel.entryPoint)
           << "is the spirv.EntryPoint of @" << name
           << " but not GLCompute: the device runs compute kernels";
  kernel.module = kernel.entryPoint->getParentOfType<spirv::ModuleOp>();
  function = kernel.module.lookupSymbol<spirv::FuncOp>(name);
  if (!function || function.isExternal())
    return error(kernel.entryPoint)
           << "names @" << name << ", which is no spirv.func with a body";
  interface = entryPoint.lookupInterface();
  if (!interface)
    return at->emitError() << "targets @" << name
                           << ", an entry point without an interface";
  return success();
}

/// The compute built-ins a kernel may read, with the type each has: a
/// vector of three i32 or one i32.
static std::optional<bool> isVectorBuiltIn(StringRef name) {
  return llvm::StringSwitch<std::optional<bool>>(name)
      .Cases({"GlobalInvocationId", "LocalInvocationId", "WorkgroupId",
              "NumWorkgroups", "WorkgroupSize"},
             true)
      .Cases({"LocalInvocationIndex", "SubgroupSize", "NumSubgroups",
              "SubgroupId", "SubgroupLocalInvocationId"},
             false)
      .Default(std::nullopt);
}

LogicalResult KernelChecker::checkBuiltIn(spirv::GlobalVariableOp variable) {
  std::optional<StringRef> builtIn = variable.getBuiltIn();
  if (!builtIn)
    return error(variable) << "is an Input variable of " << describeKernel()
                           << " without built_in(...): a compute kernel's "
                              "inputs are its built-ins";
  std::optional<bool> isVector = isVectorBuiltIn(*builtIn);
  if (!isVector)
    return error(variable) << "reads built-in " << *builtIn << " in "
                           << describeKernel()
                           << ", which compute kernels do not have";
  Type type = cast<spirv::PointerType>(variable.getType()).getPointeeType();
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  bool shaped = *isVector ? vector && vector.getNumElements() == 3 : !vector;
  if (!shaped || !element.isInteger(32))
    return error(variable) << "reads built-in " << *builtIn << " as " << type
                           << " in " << describeKernel() << "; it is "
                           << (*isVector ? "vector<3xi32>" : "i32");
  return success();
}

/// Push constant N is the i32 at byte 4 x N: every member of the block
/// starts at a multiple of 4, after the end of the one before.
LogicalResult
KernelChecker::checkPushConstantLayout(spirv::GlobalVariableOp variable,
                                       Type block) {
  auto structType = dyn_cast<spirv::StructType>(block);
  if (!structType)
    return success();
  uint64_t end = 0;
  for (unsigned i = 0, e = structType.getNumElements(); i < e; ++i) {
    uint64_t offset =
        structType.hasOffset() ? structType.getMemberOffset(i) : end;
    std::optional<uint64_t> bytes = getBlockBytes(structType.getElementType(i));
    if (offset % 4 != 0 || offset < end || !bytes)
      return error(variable)
             << "has push-constant member " << i << " at byte " << offset
             << " in " << describeKernel()
             << "; members start at multiples of 4 after the member before "
                "(push constant N is the i32 at byte 4 x N)";
    end = offset + *bytes;
  }
  return success();
}

LogicalResult KernelChecker::checkCapabilities() {
  std::optional<spirv::VerCapExtAttr> triple = kernel.module.getVceTriple();
  if (!triple)
    return error(kernel.module)
           << "has no #spirv.vce triple; " << describeKernel()
           << " needs one with the Shader capability";
  if (!llvm::is_contained(triple->getCapabilities(), spirv::Capability::Shader))
    return error(kernel.module)
           << "does not declare the Shader capability that " << describeKernel()
           << " needs to run as a Vulkan compute kernel";
  if (kernel.module.getAddressingModel() != spirv::AddressingModel::Logical)
    return error(kernel.module)
           << "uses "
           << spirv::stringifyAddressingModel(
                  kernel.module.getAddressingModel())
           << " addressing; Vulkan kernels use Logical addressing";
  return success();
}

LogicalResult KernelChecker::checkLocalSize() {
  spirv::ExecutionModeOp localSize;
  for (auto mode : kernel.module.getOps<spirv::ExecutionModeOp>()) {
    if (mode.getFn() != function.getSymName())
      continue;
    if (mode.getExecutionMode() == spirv::ExecutionMode::LocalSizeId)
      return error(mode) << "gives " << describeKernel()
                         << " its local size by ids; the device checks "
                            "kernels with a literal LocalSize";
    if (mode.getExecutionMode() == spirv::ExecutionMode::LocalSize) {
      if (localSize)
        return error(mode) << "is a second LocalSize of " << describeKernel()
                           << "; a kernel has one";
      localSize = mode;
    }
  }
  if (!localSize)
    return error(kernel.entryPoint)
           << describeKernel()
           << " has no spirv.ExecutionMode \"LocalSize\": a compute kernel "
              "needs its workgroup size";
  ArrayAttr values = localSize.getValues();
  if (values.size() != 3)
    return error(localSize)
           << "has " << values.size() << " values; LocalSize takes x, y and z";
  uint64_t invocations = 1;
  for (unsigned i = 0; i < 3; ++i) {
    auto value = dyn_cast<IntegerAttr>(values[i]);
    uint64_t size = value ? value.getValue().getZExtValue() : 0;
    if (size == 0 || size > limits.maxWorkgroupSize[i])
      return error(localSize)
             << "gives " << describeKernel() << " local size " << size
             << " in dimension " << i << "; the device takes 1 to "
             << limits.maxWorkgroupSize[i] << " (maxComputeWorkGroupSize)";
    kernel.localSize[i] = size;
    invocations *= size;
  }
  if (invocations > limits.maxWorkgroupInvocations)
    return error(localSize)
           << "gives " << describeKernel() << " " << invocations
           << " invocations per workgroup; the device runs at most "
           << limits.maxWorkgroupInvocations
           << " (maxComputeWorkGroupInvocations)";
  return success();
}

LogicalResult
KernelChecker::checkBoundVariable(spirv::GlobalVariableOp variable) {
  auto pointer = cast<spirv::PointerType>(variable.getType());
  spirv::StorageClass storage = pointer.getStorageClass();
  StringRef name = variable.getSymName();
  std::optional<uint32_t> set = variable.getDescriptorSet();
  std::optional<uint32_t> ordinal = variable.getBinding();
  if (!set || !ordinal)
    return error(variable) << "is a " << spirv::stringifyStorageClass(storage)
                           << " variable of " << describeKernel()
                           << " without bind(set, binding)";
  hal::InterfaceBindingOp binding = findBinding(interface, *set, *ordinal);
  if (!binding) {
    InFlightDiagnostic diagnostic = error(variable);
    diagnostic << "kernel variable @" << name << " of " << describeKernel()
               << " is bound to (set " << *set << ", binding " << *ordinal
               << "), which interface @" << interface.getSymName()
               << " does not declare";
    for (auto declared : interface.getBody().getOps<hal::InterfaceBindingOp>())
      diagnostic.attachNote(declared.getLoc())
          << "interface binding @" << declared.getSymName() << " is (set "
          << declared.getSet().getZExtValue() << ", binding "
          << declared.getBinding().getZExtValue() << ")";
    return diagnostic;
  }
  if (storage != spirv::StorageClass::StorageBuffer ||
      binding.getType() != hal::DescriptorType::StorageBuffer) {
    InFlightDiagnostic diagnostic = error(variable);
    diagnostic << "kernel variable @" << name << " is a "
               << spirv::stringifyStorageClass(storage)
               << " variable, but interface binding @" << binding.getSymName()
               << " is " << hal::stringifyDescriptorType(binding.getType())
               << "; the device binds StorageBuffer variables to "
                  "StorageBuffer bindings";
    noteBinding(diagnostic, binding);
    return diagnostic;
  }
  // A MayAlias binding shares bytes with the dispatch's other MayAlias
  // bindings; a variable without Aliased lets the compiler assume not.
  if (hal::bitEnumContainsAny(binding.getAccess(),
                              hal::MemoryAccess::MayAlias) &&
      !variable->hasAttr("aliased")) {
    InFlightDiagnostic diagnostic = error(variable);
    diagnostic << "kernel variable @" << name << " of " << describeKernel()
               << " is bound to MayAlias interface binding @"
               << binding.getSymName()
               << " but not decorated Aliased; without it the kernel may "
                  "assume the binding shares no byte with another";
    noteBinding(diagnostic, binding);
    return diagnostic;
  }
  kernel.usedBindings.emplace(*set, *ordinal);
  return success();
}

LogicalResult KernelChecker::checkVariable(spirv::GlobalVariableOp variable) {
  auto pointer = cast<spirv::PointerType>(variable.getType());
  spirv::StorageClass storage = pointer.getStorageClass();
  StringRef name = variable.getSymName();
  switch (storage) {
  case spirv::StorageClass::StorageBuffer:
  case spirv::StorageClass::Uniform:
    return checkBoundVariable(variable);
  case spirv::StorageClass::PushConstant: {
    if (kernel.pushConstantBytes != 0)
      return error(variable) << "is a second push-constant block of "
                             << describeKernel() << "; a kernel has one";
    std::optional<uint64_t> bytes = getBlockBytes(pointer.getPointeeType());
    if (!bytes)
      return error(variable) << "is a push-constant block of "
                             << describeKernel() << " without a fixed size";
    if (failed(checkPushConstantLayout(variable, pointer.getPointeeType())))
      return failure();
    uint64_t declared = interface.getPushConstantCount() * 4;
    if (*bytes > declared) {
      InFlightDiagnostic diagnostic = error(variable);
      diagnostic << "is a push-constant block of " << *bytes << " bytes in "
                 << describeKernel() << ", but interface @"
                 << interface.getSymName() << " declares "
                 << interface.getPushConstantCount() << " push constants ("
                 << declared << " bytes; constant N is the i32 at byte 4 x N)";
      diagnostic.attachNote(interface.getLoc()) << "the interface";
      return diagnostic;
    }
    kernel.pushConstantBytes = std::max<uint64_t>(*bytes, 1);
    return success();
  }
  case spirv::StorageClass::Output:
    return error(variable) << "is an Output variable of " << describeKernel()
                           << "; a compute kernel has no outputs but its "
                              "bindings";
  case spirv::StorageClass::Input: {
    if (failed(checkBuiltIn(variable)))
      return failure();
    ArrayAttr listed = kernel.entryPoint.getInterface();
    bool isListed = llvm::any_of(listed, [&](Attribute entry) {
      auto symbol = dyn_cast<SymbolRefAttr>(entry);
      return symbol && symbol.getLeafReference() == name;
    });
    if (!isListed)
      return error(variable)
             << "is an " << spirv::stringifyStorageClass(storage)
             << " variable that " << describeKernel()
             << " uses but its spirv.EntryPoint does not list";
    return success();
  }
  case spirv::StorageClass::Workgroup:
  case spirv::StorageClass::Private:
  case spirv::StorageClass::Function:
    // Memory of the invocation or the workgroup: no descriptor, and a size.
    if (variable.getDescriptorSet() || variable.getBinding())
      return error(variable)
             << "is a " << spirv::stringifyStorageClass(storage)
             << " variable of " << describeKernel()
             << " with bind(set, binding); only StorageBuffer variables "
                "are bound";
    if (!getBlockBytes(pointer.getPointeeType()))
      return error(variable) << "is a " << spirv::stringifyStorageClass(storage)
                             << " variable of " << describeKernel()
                             << " without a fixed size (a runtime array)";
    return success();
  default:
    return error(variable) << "is a " << spirv::stringifyStorageClass(storage)
                           << " variable of " << describeKernel()
                           << "; the device binds only storage buffers and "
                              "push constants";
  }
}

LogicalResult KernelChecker::checkWrites(ArrayRef<spirv::FuncOp> functions) {
  bool untracedStores = false;
  llvm::DenseMap<Operation *, FunctionWrites> writes =
      summarizeWrites(kernel.module, functions, untracedStores);
  for (const auto &[variableName, writer] : writes[function].variables) {
    auto variable =
        kernel.module.lookupSymbol<spirv::GlobalVariableOp>(variableName);
    if (!variable || !variable.getDescriptorSet() || !variable.getBinding())
      continue;
    hal::InterfaceBindingOp binding = findBinding(
        interface, *variable.getDescriptorSet(), *variable.getBinding());
    if (!binding)
      continue;
    if (!hasAccess(binding, hal::MemoryAccess::Write)) {
      InFlightDiagnostic diagnostic = error(writer);
      diagnostic << "stores into kernel variable @" << variable.getSymName()
                 << " of " << describeKernel() << ", but interface binding @"
                 << binding.getSymName() << " is "
                 << hal::stringifyMemoryAccess(binding.getAccess())
                 << ": the caller's bytes would be overwritten";
      diagnostic.attachNote(variable.getLoc()) << "the kernel variable";
      noteBinding(diagnostic, binding);
      return diagnostic;
    }
    kernel.writtenBindings.emplace(*variable.getDescriptorSet(),
                                   *variable.getBinding());
  }
  if (untracedStores)
    return success();
  for (auto binding : interface.getBody().getOps<hal::InterfaceBindingOp>()) {
    if (!hasAccess(binding, hal::MemoryAccess::Write) ||
        hasAccess(binding, hal::MemoryAccess::Read) ||
        kernel.writtenBindings.count({binding.getSet().getZExtValue(),
                                      binding.getBinding().getZExtValue()}))
      continue;
    InFlightDiagnostic diagnostic = allowPartialWrites
                                        ? kernel.entryPoint->emitWarning()
                                        : error(kernel.entryPoint);
    diagnostic << describeKernel() << " never stores into interface binding @"
               << binding.getSymName() << " ("
               << hal::stringifyMemoryAccess(binding.getAccess())
               << "): its result would be left unwritten";
    noteBinding(diagnostic, binding);
    if (!allowPartialWrites)
      return diagnostic;
  }
  return success();
}

FailureOr<SpirvKernel> streamhal::exec::checkSpirvKernel(
    hal::ExecutableEntryPointOp entryPoint, const KernelLimits &limits,
    Operation *dispatch, bool allowPartialWrites) {
  KernelChecker checker{entryPoint,         {}, limits, dispatch,
                        allowPartialWrites, {}, {}};
  if (failed(checker.findKernel()) || failed(checker.checkCapabilities()) ||
      failed(checker.checkLocalSize()))
    return failure();
  SmallVector<spirv::FuncOp> functions =
      getReachableFunctions(checker.kernel.module, checker.function);
  llvm::SetVector<StringAttr> used;
  for (spirv::FuncOp function : functions)
    function.walk([&](spirv::AddressOfOp address) {
      used.insert(address.getVariableAttr().getAttr());
    });
  for (StringAttr name : used)
    if (auto variable =
            checker.kernel.module.lookupSymbol<spirv::GlobalVariableOp>(name))
      if (failed(checker.checkVariable(variable)))
        return failure();
  if (failed(checker.checkWrites(functions)))
    return failure();
  return checker.kernel;
}
