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

def HAL_Device : HAL_Type<"Device", "device", "a logical device">;
def HAL_Allocator : HAL_Type<"Allocator", "allocator",
                             "a device buffer allocator">;
def HAL_Buffer : HAL_Type<"Buffer", "buffer", "a range of device memory">;
def HAL_BufferView : HAL_Type<"BufferView", "buffer_view",
                              "a buffer with shape and element type">;
def HAL_CommandBuffer : HAL_Type<"CommandBuffer", "command_buffer",
                                 "a recording of device commands">;
def HAL_ExecutableLayout : HAL_Type<"ExecutableLayout", "executable_layout",
                                    "the binding layout of an executable">;
def HAL_Fence : HAL_Type<"Fence", "fence",
                         "a one-shot signal on the device timeline">;

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
]>;
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
]>;
def HAL_BufferUsageAttr : HAL_EnumAttr<HAL_BufferUsage, "buffer_usage">;

def HAL_MemoryAccess : HAL_BitEnum<"MemoryAccess", "memory access bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Read", 0>,
  I32BitEnumAttrCaseBit<"Write", 1>,
  I32BitEnumAttrCaseBit<"Discard", 2>,
  I32BitEnumAttrCaseBit<"MayAlias", 3>
]>;
def HAL_MemoryAccessAttr : HAL_EnumAttr<HAL_MemoryAccess, "memory_access">;

def HAL_CommandBufferMode : HAL_BitEnum<"CommandBufferMode",
                                        "command buffer mode bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"OneShot", 0>,
  I32BitEnumAttrCaseBit<"AllowInlineExecution", 4>
]>;
def HAL_CommandBufferModeAttr
    : HAL_EnumAttr<HAL_CommandBufferMode, "command_buffer_mode">;

def HAL_CommandCategory : HAL_BitEnum<"CommandCategory",
                                      "command category bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Transfer", 0>,
  I32BitEnumAttrCaseBit<"Dispatch", 1>
]>;
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
]>;
def HAL_ExecutionStageAttr
    : HAL_EnumAttr<HAL_ExecutionStage, "execution_stage">;

def HAL_ExecutionBarrierFlag : HAL_BitEnum<"ExecutionBarrierFlag",
                                           "execution barrier flag bits", [
  I32BitEnumAttrCaseNone<"None">,
  I32BitEnumAttrCaseBit<"Reserved", 0>
]>;
def HAL_ExecutionBarrierFlagAttr
    : HAL_EnumAttr<HAL_ExecutionBarrierFlag, "execution_barrier_flag">;

def HAL_DescriptorType : I32EnumAttr<"DescriptorType", "descriptor type", [
  I32EnumAttrCase<"StorageBuffer", 7>,
  I32EnumAttrCase<"UniformBuffer", 6>
]> {
  let cppNamespace = "::streamhal::hal";
  let genSpecializedAttr = 0;
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
    `#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>`; the access is
    `R`, `W`, `RW` or `DW` (Discard|Write), or a `|`-list of MemoryAccess bits.
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
  let parameters = (ins "::mlir::StringAttr":$format);
  let assemblyFormat = "`<` $format `>`";
}

def HAL_ExOperandBufferAttr : HAL_Attr<"ExOperandBuffer", "ex.operand_buffer"> {
  let summary = "binds a dispatch operand's buffer to an interface binding";
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::IntegerAttr":$operand);
  let assemblyFormat = "`<` $binding `,` $operand `>`";
  let genVerifyDecl = 1;
}

def HAL_ExResultBufferAttr : HAL_Attr<"ExResultBuffer", "ex.result_buffer"> {
  let summary = "binds a dispatch result's buffer to an interface binding";
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::IntegerAttr":$result);
  let assemblyFormat = "`<` $binding `,` $result `>`";
  let genVerifyDecl = 1;
}

def HAL_ExPushConstantAttr : HAL_Attr<"ExPushConstant", "ex.push_constant"> {
  let summary = "passes a dispatch operand as a push constant";
  let parameters = (ins "::mlir::IntegerAttr":$ordinal,
                        "::mlir::IntegerAttr":$operand);
  let assemblyFormat = "`<` $ordinal `,` $operand `>`";
  let genVerifyDecl = 1;
}

def HAL_ExConstantStorageAttr
    : HAL_Attr<"ExConstantStorage", "ex.constant_storage"> {
  let summary = "binds bytes of a `!hal.buffer` global to a binding";
  let parameters = (ins "::mlir::StringAttr":$binding,
                        "::mlir::StringAttr":$storage,
                        "::mlir::IntegerAttr":$offset,
                        "::mlir::IntegerAttr":$length);
  let assemblyFormat = "`<` $binding `,` $storage `,` $offset `,` $length `>`";
  let genVerifyDecl = 1;
}

#endif // STREAMHAL_DIALECT_HAL_IR_HALBASE_TD
