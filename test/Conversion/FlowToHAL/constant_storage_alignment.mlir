// RUN: hal-opt %s -split-input-file --flow-read-misaligned-constant-storage | FileCheck %s --check-prefix=READ
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=memoize=false | FileCheck %s
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal --hal-verify-command-buffers > /dev/null
// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-exec %s --split-input-file '--check-lowering=streamhal-lower-to-hal{submission=blocking barriers=full}' --orders=2
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,streamhal-lower-to-hal{copies=always}' --orders=2

// Constant storage bound at a pool offset the module's binding offset
// alignment does not divide (docs/lowering.md, "Device rules"): the range
// is read as a hal.constant.subspan operand of the dispatch, which the
// storage plan copies into aligned storage; hal-exec checks the device
// rules of every run, so a misaligned bind fails the hal-exec lines.

// 64 is a multiple of 16 but not of 256: copied once into the slab, and
// the copy is what the dispatch binds. The aligned binding at 512 stays.
// READ-LABEL: func.func @misaligned_constant_storage
// READ: %[[CST:.+]] = hal.constant.subspan @pool[#util.byte_range<64, 16>] : tensor<16xi8>
// READ: flow.dispatch @ex::@entry[%{{.+}}](%[[CST]]) {hal.bindings = [#hal.ex.operand_buffer<"cst0", 0 : index>, #hal.ex.constant_storage<"cst1", "pool", 512 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<16xi8>) -> tensor<4xf32>
// CHECK-LABEL: func.func @misaligned_constant_storage
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[POOL]] : !hal.buffer)[%[[C64]]] target(%[[COPY:[^ ]+]] : !hal.buffer)[%{{.+}}] length(%[[C16]])
// CHECK: push_descriptor_set<{{.+}} bindings([%{{.+}} = (%[[COPY]] : !hal.buffer)[%{{.+}}, %[[C16]]], %{{.+}} = (%[[POOL]] : !hal.buffer)[%[[C512]], %[[C16]]]
module attributes {hal.device.targets = [#hal.device.target<"vulkan", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 256, max_buffer_range = 134217728, min_buffer_range_alignment = 16>}>]} {
util.global private @pool : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @cst0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @cst1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @misaligned_constant_storage() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "pool", 64 : index, 16 : index>, #hal.ex.constant_storage<"cst1", "pool", 512 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
}

// -----

// Two dispatches reading one misaligned range (at the default 16-byte
// alignment) and a tied operand: one subspan for both, appended after the
// dispatch's own operands so that the tie still names operand 0.
// READ-LABEL: func.func @shared_misaligned_range
// READ-COUNT-1: hal.constant.subspan @pool[#util.byte_range<8, 32>] : tensor<32xi8>
// READ-NOT: hal.constant.subspan
// READ: flow.dispatch @ex::@entry[%{{.+}}](%{{.+}}, %[[CST:.+]]) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.operand_buffer<"cst0", 1 : index>]} : (tensor<4xf32>, tensor<32xi8>) -> %{{.+}}
// READ: flow.dispatch @ex::@entry[%{{.+}}](%{{.+}}, %[[CST]]) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.operand_buffer<"cst0", 1 : index>]} : (tensor<4xf32>, tensor<32xi8>) -> %{{.+}}
// CHECK-LABEL: func.func @shared_misaligned_range
// CHECK: %[[POOL:.+]] = util.global.load @pool
// CHECK-COUNT-1: hal.command_buffer.copy_buffer<{{.+}}> source(%[[POOL]]
// CHECK-NOT: hal.command_buffer.copy_buffer<{{.+}}> source(%[[POOL]]
// CHECK: return
util.global private @pool : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @io0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @cst0, set=0, binding=1, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @shared_misaligned_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%x: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.constant_storage<"cst0", "pool", 8 : index, 32 : index>]} : (tensor<4xf32>) -> %x
    %2 = flow.dispatch @ex::@entry[%c1](%1) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.constant_storage<"cst0", "pool", 8 : index, 32 : index>]} : (tensor<4xf32>) -> %1
    flow.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
