// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal | FileCheck %s --check-prefix=PACK
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A dispatch tied to its operand, returned tied to the fragment operand:
// no allocation at all, the operand's buffer is bound and returned.
// CHECK-LABEL: func.func @tied_to_operand
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer) -> !hal.buffer
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK-NOT: hal.allocator.allocate
// CHECK-NOT: hal.allocator.pack
// CHECK: bindings([%[[C2]] = (%[[ARG]] : !hal.buffer)[%[[C0]], %[[C256]]]])
// CHECK: return %[[ARG]] : !hal.buffer
func.func @tied_to_operand(%arg0: tensor<64xf32>) -> tensor<64xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> %arg0 =
      (%a: tensor<64xf32>) -> tensor<64xf32> {
    %c64 = arith.constant 64 : index
    %1 = flow.dispatch @ex::@entry[%c64](%a) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<64xf32>) -> %a
    flow.return %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// An in-place dispatch on a transient extends the transient's lifetime over
// both values of its class ([1, 3]); it is bound in place.
// CHECK-LABEL: func.func @tied_in_transient
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C256]]}
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[C256]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: %[[TMP:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%{{.+}}, %[[C256]]]
// PACK-LABEL: func.func @tied_in_transient
// PACK: hal.allocator.pack<{{.+}}> slices({[1, 3] = %{{.+}}})
// CHECK: bindings([%{{.+}} = (%{{.+}} : !hal.buffer){{.+}}, %{{.+}} = (%[[TMP]] : !hal.buffer)
// CHECK: bindings([%[[C2]] = (%[[TMP]] : !hal.buffer)
// CHECK: bindings([%{{.+}} = (%[[TMP]] : !hal.buffer){{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)
// CHECK: return %[[OUT]] : !hal.buffer
func.func @tied_in_transient(%arg0: tensor<64xf32>) -> tensor<64xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> tensor<64xf32> =
      (%a: tensor<64xf32>) -> tensor<64xf32> {
    %c64 = arith.constant 64 : index
    %1 = flow.dispatch @ex::@entry[%c64](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %2 = flow.dispatch @ex::@entry[%c64](%1) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<64xf32>) -> %1
    %3 = flow.dispatch @ex::@entry[%c64](%2) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    flow.return %3 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The in-place dispatch's result is returned: its whole class is the output.
// CHECK-LABEL: func.func @tied_result_chain
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All)
// CHECK-NOT: hal.allocator.pack
// CHECK-NOT: hal.allocator.allocate
// CHECK: bindings([%{{.+}} = (%{{.+}} : !hal.buffer){{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)
// CHECK: bindings([%{{.+}} = (%[[OUT]] : !hal.buffer)
// CHECK: return %[[OUT]] : !hal.buffer
func.func @tied_result_chain(%arg0: tensor<64xf32>) -> tensor<64xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> tensor<64xf32> =
      (%a: tensor<64xf32>) -> tensor<64xf32> {
    %c64 = arith.constant 64 : index
    %1 = flow.dispatch @ex::@entry[%c64](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %2 = flow.dispatch @ex::@entry[%c64](%1) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<64xf32>) -> %1
    flow.return %2 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A value returned twice has one allocation; a returned input is the input.
// CHECK-LABEL: func.func @returned_twice
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK: %[[OUT:.+]] = hal.allocator.allocate
// CHECK-NOT: hal.allocator.allocate
// CHECK: return %[[OUT]], %[[ARG]], %[[OUT]] : !hal.buffer, !hal.buffer, !hal.buffer
func.func @returned_twice(%arg0: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0:3 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) =
      (%a: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %c64 = arith.constant 64 : index
    %1 = flow.dispatch @ex::@entry[%c64](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    flow.return %1, %a, %1 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
