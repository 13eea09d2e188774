//===- HALBase.td - hal dialect types, enums, attributes ---*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALBASE_TD
#define STREAMHAL_DIALECT_HAL_IR_HALBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def HAL_Dialect : Dialect {
  let name = "hal";
  let cppNamespace = "::streamhal::hal";
  let summary = "Buffers, command buffers and executables of a device.";
  let description = [{
    The output of the lowering: device buffers, allocators, command buffers
    recording fills, copies and dispatches, and the executables they run.
    The host runs a function's ops in program order; the device runs the
    command buffers it is given, either at once (`hal.ex.submit_and_wait`,
    which blocks the host) or queued and ordered by fences
    (`hal.device.queue.execute`, docs/async.md). Inside one command buffer
    only `execution_barrier`s order commands (docs/concurrency.md).
    `hal-exec` runs the dialect on a reference model or a Vulkan device
    (docs/executor.md, docs/device.md).

    A module lists the devices it is compiled for in its
    `hal.device.targets` attribute (`#hal.device.target`); their
    `#hal.buffer_constraints` give the alignments the packer uses.
  }];
  let dependentDialects = [
    "::streamhal::util::UtilDialect",
    "::mlir::arith::ArithDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

class HAL_Op<string mnemonic, list<Trait> traits = []> :
    Op<HAL_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class HAL_Type<string name, string typeMnemonic, string desc>
    : TypeDef<HAL_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = desc;
}

def HAL_Device : HAL_Type<"Device", "device", "a logical device"> {
  let description = [{
    `!hal.device`: the device that allocates, records and runs work.
    `hal.ex.shared_device` returns the one device of the program; its
    allocator, command buffers, executable layouts, fences and queue
    operations all name it.
  }];
}
def HAL_Allocator : HAL_Type<"Allocator", "allocator",
                             "a device buffer allocator"> {
  let description = [{
    `!hal.allocator`: the allocator of a device (`hal.device.allocator`).
    It allocates buffers (`hal.allocator.allocate`), computes tensor sizes
    and offsets and packs transient slabs (`hal.allocator.pack`).
  }];
}
def HAL_Buffer : HAL_Type<"Buffer", "buffer", "a range of device memory"> {
  let description = [{
    `!hal.buffer`: bytes of device memory whose memory type and usage are
    fixed when it is allocated (`hal.allocator.allocate`,
    `hal.device.queue.alloca`); `hal.buffer.subspan` views a range of one.
    Its size is carried separately (`!hal.buffer{%size}` in allocations).
    The host reads and writes it (`hal.buffer.load`, `.store`) only when its
    memory is `HostVisible`, which `hal-exec` checks.
  }];
}
def HAL_BufferView : HAL_Type<"BufferView", "buffer_view",
                              "a buffer with shape and element type"> {
  let description = [{
    `!hal.buffer_view`: a buffer together with a shape, an element type
    and an encoding (`hal.buffer_view.create`). It is how tensors cross the
    program's boundary: `hal.tensor.cast` turns one into a tensor and back.
  }];
}
def HAL_CommandBuffer : HAL_Type<"CommandBuffer", "command_buffer",
                                 "a recording of device commands"> {
  let description = [{
    `!hal.command_buffer`: commands recorded between
    `hal.command_buffer.begin` and `.end`, run by the device when submitted
    (`hal.ex.submit_and_wait`, `hal.device.queue.execute`). One created
    with `mode(OneShot)` is submitted at most once; `hal-exec` refuses a
    second submission.
  }];
}
def HAL_ExecutableLayout : HAL_Type<"ExecutableLayout", "executable_layout",
                                    "the binding layout of an executable"> {
  let description = [{
    `!hal.executable_layout`: a push constant count and one descriptor set
    layout per set (`hal.executable_layout.lookup`), named by the
    `push_descriptor_set` and `push_constants` commands.
  }];
}
def HAL_Fence : HAL_Type<"Fence", "fence",
                         "a one-shot signal on the device timeline"> {
  let description = [{
    `!hal.fence`: unsignalled when `hal.fence.create` makes it, signalled
    once by the one queue operation naming it in `signal(...)`;
    `hal.fence.join` makes a fence signalled when all its parts are, and
    `hal.fence.await` blocks the host until fences are signalled
    (docs/async.md).
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

/// A bit enum case covering several bits, printed before single bits.
class HAL_MultiBitCase<string sym, int mask>
    : I32BitEnumAttrCaseGroup<sym, []> {
  let value = mask;
}

class HAL_BitEnum<string name, string summary, list<BitEnumCaseBase> cases>
    : I32BitEnumAttr<name, summary, cases> {
  let cppNamespace = "::streamhal::hal";
  let genSpecializedAttr = 0;
  let printBitEnumPrimaryGroups = 1;
}

/// Wraps an enum in a dialect attribute printed as `#hal.<mnemonic><A|B>`;
/// ops print the bare `A|B` (or `"A|B"`) through custom directives.
class HAL_EnumAttr<EnumAttrInfo info, string attrMnemonic>
    : EnumAttr<HAL_Dialect, info, attrMnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

def HAL_MemoryType : HAL_BitEnum<"MemoryType", "memory type bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Transient", 0>,
  I32BitEnumAttrCaseBit<"HostVisible", 1>,
  I32BitEnumAttrCaseBit<"HostCoherent", 2>,
  I32BitEnumAttrCaseBit<"HostCached", 3>,
  HAL_MultiBitCase<"HostLocal", 0x6>,
  I32BitEnumAttrCaseBit<"DeviceVisible", 4>,
  HAL_MultiBitCase<"DeviceLocal", 0x30>
]> {
  let description = [{
    Where a buffer lives and who sees it,
    `#hal.memory_type<DeviceLocal|HostVisible>` as an attribute and
    `type(DeviceLocal|HostVisible)` in allocations:
    `Transient` (0x1), `HostVisible` (0x2, the host may map it),
    `HostCoherent` (0x4), `HostCached` (0x8), `DeviceVisible` (0x10);
    `HostLocal` (0x6) and `DeviceLocal` (0x30) are multi-bit cases, printed
    before single bits. `None` is 0. Parsing accepts the bits in any order.
  }];
}
def HAL_MemoryTypeAttr : HAL_EnumAttr<HAL_MemoryType, "memory_type">;

// Multi-bit values print their bits in case order; the order below gives
// the spellings of the spec (`Dispatch|Transfer`, `CommandRetire|Dispatch`,
// `CommandIssue|Dispatch`). Values are fixed by bit position, not order.
def HAL_BufferUsage : HAL_BitEnum<"BufferUsage", "buffer usage bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Constant", 0>,
  I32BitEnumAttrCaseBit<"Dispatch", 3>,
  I32BitEnumAttrCaseBit<"Transfer", 1>,
  I32BitEnumAttrCaseBit<"Mapping", 2>,
  HAL_MultiBitCase<"All", 0xE>
]> {
  let description = [{
    What a buffer may be used for, `#hal.buffer_usage<Dispatch|Transfer>`
    as an attribute and `usage(All)` in allocations: `Constant` (0x1),
    `Transfer` (0x2, fills and copies), `Mapping` (0x4, host access),
    `Dispatch` (0x8, bound to dispatches); `All` (0xE) is
    `Transfer|Mapping|Dispatch`. `None` is 0. Bits print in case order, so
    `Dispatch` comes before `Transfer`.
  }];
}
def HAL_BufferUsageAttr : HAL_EnumAttr<HAL_BufferUsage, "buffer_usage">;

def HAL_MemoryAccess : HAL_BitEnum<"MemoryAccess", "memory access bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Read", 0>,
  I32BitEnumAttrCaseBit<"Write", 1>,
  I32BitEnumAttrCaseBit<"Discard", 2>,
  I32BitEnumAttrCaseBit<"MayAlias", 3>
]> {
  let description = [{
    How a kernel touches a binding, `#hal.memory_access<Read|Write>` as an
    attribute and `access="Write|Discard"` in `hal.interface.binding`:
    `Read` (0x1), `Write` (0x2), `Discard` (0x4, the old contents need not
    be kept), `MayAlias` (0x8). `None` is 0. A binding with `Write` or
    `Discard` is written by the kernel; `Read|Write` is read and written.
    `MayAlias`: the kernel tolerates the binding sharing bytes with the
    dispatch's other `MayAlias` bindings (SPIR-V's `Aliased`); without it,
    a written binding must share no byte with another binding.
  }];
}
def HAL_MemoryAccessAttr : HAL_EnumAttr<HAL_MemoryAccess, "memory_access">;

def HAL_CommandBufferMode : HAL_BitEnum<"CommandBufferMode",
                                        "command buffer mode bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"OneShot", 0>,
  I32BitEnumAttrCaseBit<"AllowInlineExecution", 4>
]> {
  let description = [{
    How a command buffer may be submitted,
    `#hal.command_buffer_mode<OneShot|AllowInlineExecution>` as an attribute
    and `mode(...)` in `hal.command_buffer.create`: `OneShot` (0x1, submitted
    at most once), `AllowInlineExecution` (0x10). `None` (0) makes a
    reusable command buffer: every submission replays its commands.
  }];
}
def HAL_CommandBufferModeAttr
    : HAL_EnumAttr<HAL_CommandBufferMode, "command_buffer_mode">;

def HAL_CommandCategory : HAL_BitEnum<"CommandCategory",
                                      "command category bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Transfer", 0>,
  I32BitEnumAttrCaseBit<"Dispatch", 1>
]> {
  let description = [{
    The kinds of command a command buffer may hold,
    `#hal.command_category<Transfer|Dispatch>` as an attribute and
    `categories(...)` in `hal.command_buffer.create`: `Transfer` (0x1,
    fills and copies), `Dispatch` (0x2). `None` is 0.
  }];
}
def HAL_CommandCategoryAttr
    : HAL_EnumAttr<HAL_CommandCategory, "command_category">;

def HAL_ExecutionStage : HAL_BitEnum<"ExecutionStage",
                                     "execution stage bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"CommandRetire", 4>,
  I32BitEnumAttrCaseBit<"CommandIssue", 0>,
  I32BitEnumAttrCaseBit<"CommandProcess", 1>,
  I32BitEnumAttrCaseBit<"Dispatch", 2>,
  I32BitEnumAttrCaseBit<"Transfer", 3>,
  I32BitEnumAttrCaseBit<"Host", 5>
]> {
  let description = [{
    Pipeline stages of an execution barrier,
    `#hal.execution_stage<CommandRetire|Dispatch>` as an attribute and
    quoted, `source("CommandRetire|Dispatch")`, in
    `hal.command_buffer.execution_barrier`: `CommandIssue` (0x1),
    `CommandProcess` (0x2), `Dispatch` (0x4), `Transfer` (0x8),
    `CommandRetire` (0x10), `Host` (0x20). `None` is 0. `CommandRetire` is
    declared first so that it prints first.
  }];
}
def HAL_ExecutionStageAttr
    : HAL_EnumAttr<HAL_ExecutionStage, "execution_stage">;

def HAL_ExecutionBarrierFlag : HAL_BitEnum<"ExecutionBarrierFlag",
                                           "execution barrier flag bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Reserved", 0>
]> {
  let description = [{
    Flags of an execution barrier,
    `#hal.execution_barrier_flag<None>` as an attribute and `flags("None")`
    in `hal.command_buffer.execution_barrier`: `None` (0) or `Reserved`
    (0x1), which has no meaning yet.
  }];
}
def HAL_ExecutionBarrierFlagAttr
    : HAL_EnumAttr<HAL_ExecutionBarrierFlag, "execution_barrier_flag">;

def HAL_DescriptorType : I32EnumAttr<"DescriptorType", "descriptor type", [
  I32EnumAttrCase<"StorageBuffer", 7>,
  I32EnumAttrCase<"UniformBuffer", 6>
]> {
  let cppNamespace = "::streamhal::hal";
  let genSpecializedAttr = 0;
  let description = [{
    The Vulkan descriptor type of a binding,
    `#hal.descriptor_type<StorageBuffer>` as an attribute, quoted
    (`type="StorageBuffer"`) in `hal.interface.binding` and
    `#hal.descriptor_set_layout_binding`:
    `StorageBuffer` (7) or `UniformBuffer` (6), the values of Vulkan.
  }];
}
def HAL_DescriptorTypeAttr
    : HAL_EnumAttr<HAL_DescriptorType, "descriptor_type">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class HAL_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<HAL_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def HAL_BufferConstraintsAttr
    : HAL_Attr<"BufferConstraints", "buffer_constraints"> {
  let summary = "allocation limits and alignments of a device";
  let description = [{
    The allocation limits of a device, in the `buffer_constraints` entry of
    a `#hal.device.target` configuration. `--hal-pack-allocations` rounds
    slice sizes and the slab total up to `min_buffer_range_alignment` and
    offsets to `min_buffer_offset_alignment` (16 and 16 when no target has
    constraints); with several targets the strictest values apply.

    ```mlir
    #hal.buffer_constraints<max_allocation_size = 1073741824,
        min_buffer_offset_alignment = 16, max_buffer_range = 1073741824,
        min_buffer_range_alignment = 16>
    ```

    Verifier: both sizes are positive; both alignments are positive powers
    of two.
  }];
  let parameters = (ins
    "int64_t":$max_allocation_size,
    "int64_t":$min_buffer_offset_alignment,
    "int64_t":$max_buffer_range,
    "int64_t":$min_buffer_range_alignment
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def HAL_DeviceTargetAttr : HAL_Attr<"DeviceTarget", "device.target"> {
  let summary = "a device a module is compiled for";
  let description = [{
    A device a module is compiled for, listed in the module's
    `hal.device.targets` array: a device identifier and an optional
    configuration dictionary whose `buffer_constraints` entry, a
    `#hal.buffer_constraints`, gives its limits. No other rule is verified.

    ```mlir
    #hal.device.target<"vmvx",
        {buffer_constraints = #hal.buffer_constraints<...>}>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$deviceID,
    OptionalParameter<"::mlir::DictionaryAttr">:$configuration
  );
  let assemblyFormat = "`<` $deviceID (`,` $configuration^)? `>`";
  let extraClassDeclaration = [{
    /// Returns the `buffer_constraints` of the configuration, or null.
    BufferConstraintsAttr getBufferConstraints() const;
  }];
}

def HAL_ExecutableTargetAttr
    : HAL_Attr<"ExecutableTarget", "executable.target"> {
  let summary = "a backend and executable format";
  let description = [{
    The target of a `hal.executable.variant`: a backend, the executable
    format it produces (what `#hal.device.match.executable.format`
    compares) and an optional configuration dictionary. Not verified
    further.

    ```mlir
    #hal.executable.target<"llvm", "embedded-elf", {cpu = "generic"}>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$backend,
    "::mlir::StringAttr":$format,
    OptionalParameter<"::mlir::DictionaryAttr">:$configuration
  );
  let assemblyFormat =
      "`<` $backend `,` $format (`,` $configuration^)? `>`";
}

def HAL_DescriptorSetLayoutBindingAttr
    : HAL_Attr<"DescriptorSetLayoutBinding", "descriptor_set_layout_binding"> {
  let summary = "one binding of a descriptor set layout";
  let description = [{
    One binding of a descriptor set layout in
    `hal.executable_layout.lookup`: its binding ordinal, descriptor type and
    access.

    ```mlir
    #hal.descriptor_set_layout_binding<0, "StorageBuffer", R>
    ```

    The access is `R`, `W`, `RW` or `DW` (Discard|Write) for those masks,
    otherwise a `|`-list of MemoryAccess bits. The parser requires a
    non-negative ordinal, a known descriptor type and a known access.
  }];
  let parameters = (ins
    "int64_t":$ordinal,
    "DescriptorType":$type,
    "MemoryAccess":$access
  );
  let hasCustomAssemblyFormat = 1;
}

def HAL_MatchExecutableFormatAttr
    : HAL_Attr<"MatchExecutableFormat", "device.match.executable.format"> {
  let summary = "a device switch condition: the device runs a format";
  let description = [{
    A condition of `hal.device.switch`: true when the device can run
    executables of the given format (the format of an
    `#hal.executable.target`). The lowering makes one case per variant of a
    dispatched executable.

    ```mlir
    #hal.device.match.executable.format<"vmvx-bytecode-fb">
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$format);
  let assemblyFormat = "`<` $format `>`";
}

def HAL_ExOperandBufferAttr : HAL_Attr<"ExOperandBuffer", "ex.operand_buffer"> {
  let summary = "binds a dispatch operand's buffer to an interface binding";
  let description = [{
    An entry of a `flow.dispatch`'s `hal.bindings`: the buffer of the
    dispatch operand at the given index (into the dispatch's operand list)
    is bound to the interface binding of that name.

    ```mlir
    #hal.ex.operand_buffer<"arg0", 0 : index>
    ```

    Verifier: the index is an integer of any width but zero bits; the
    dispatch checks that it names an existing operand.
  }];
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::IntegerAttr":$operand);
  let assemblyFormat = "`<` $binding `,` $operand `>`";
  let genVerifyDecl = 1;
}

def HAL_ExResultBufferAttr : HAL_Attr<"ExResultBuffer", "ex.result_buffer"> {
  let summary = "binds a dispatch result's buffer to an interface binding";
  let description = [{
    An entry of a `flow.dispatch`'s `hal.bindings`: the buffer of the
    dispatch result at the given index is bound to the interface binding of
    that name, which the kernel writes. A tied result and its operand may
    name one binding together.

    ```mlir
    #hal.ex.result_buffer<"ret0", 0 : index>
    ```

    Verifier: the index is an integer of any width but zero bits; the
    dispatch checks that it names an existing result.
  }];
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::IntegerAttr":$result);
  let assemblyFormat = "`<` $binding `,` $result `>`";
  let genVerifyDecl = 1;
}

def HAL_ExPushConstantAttr : HAL_Attr<"ExPushConstant", "ex.push_constant"> {
  let summary = "passes a dispatch operand as a push constant";
  let description = [{
    An entry of a `flow.dispatch`'s `hal.bindings`: push constant `ordinal`
    takes the value of the dispatch operand at the given index (an `index`
    or `i32`; the lowering checks the type and the interface's count).

    ```mlir
    #hal.ex.push_constant<0 : index, 1 : index>
    ```

    Verifier: both integers have at least one bit; the dispatch checks that
    the operand exists and that no ordinal is set twice.
  }];
  let parameters = (ins "::mlir::IntegerAttr":$ordinal,
                        "::mlir::IntegerAttr":$operand);
  let assemblyFormat = "`<` $ordinal `,` $operand `>`";
  let genVerifyDecl = 1;
}

def HAL_ExConstantStorageAttr
    : HAL_Attr<"ExConstantStorage", "ex.constant_storage"> {
  let summary = "binds bytes of a `!hal.buffer` global to a binding";
  let description = [{
    An entry of a `flow.dispatch`'s `hal.bindings`: the bytes
    `[offset, offset + length)` of the `!hal.buffer` global named by the
    second string are bound to the interface binding named by the first.

    ```mlir
    #hal.ex.constant_storage<"w", "pool", 0 : index, 64 : index>
    ```

    Verifier: offset and length are integers of at least one bit; the
    lowering checks the global.
  }];
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::StringAttr":$storage,
                        "::mlir::IntegerAttr":$offset,
                        "::mlir::IntegerAttr":$length);
  let assemblyFormat = "`<` $binding `,` $storage `,` $offset `,` $length `>`";
  let genVerifyDecl = 1;
}

#endif // STREAMHAL_DIALECT_HAL_IR_HALBASE_TD
