// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// Constant storage is read-only. A constant that is only read is a view of
// its pool; one written in place gets fresh storage filled by a copy first.

util.global private @pool : !hal.buffer
// An update into a constant: the constant's whole byte range (48 bytes, the
// value is 32) is copied into a transient, and the update writes the
// transient, never the pool.
// CHECK-LABEL: func.func @update_into_constant
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C8]]}
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: %[[TMP:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%{{.+}}, %[[C48]]]
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: copy_buffer<{{.+}}> source(%[[POOL]] : !hal.buffer)[%[[C64]]] target(%[[TMP]] : !hal.buffer)[%[[C0]]] length(%[[C48]])
// CHECK: copy_buffer<{{.+}}> source(%arg0 : !hal.buffer)[%[[C0]]] target(%[[TMP]] : !hal.buffer)[%[[C4]]] length(%[[C4]])
// CHECK: copy_buffer<{{.+}}> source(%[[TMP]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C8]])
// CHECK-NOT: target(%[[POOL]]
func.func @update_into_constant(%arg0: tensor<1xi32>) -> tensor<2xi32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<1xi32>) -> tensor<2xi32> =
      (%u: tensor<1xi32>) -> tensor<2xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<64, 48>] : tensor<8xi32>
    %1 = flow.tensor.update %u, %cst[%c1] : tensor<1xi32> -> %cst as tensor<8xi32>
    %2 = flow.tensor.slice %1[%c0 for %c2] : tensor<8xi32> -> tensor<2xi32>
    flow.return %2 : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}

// -----

util.global private @pool : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// A dispatch result tied to a constant, returned: the constant is copied into
// the output first (exactly the value's 16 bytes), then bound read-write.
// CHECK-LABEL: func.func @dispatch_tied_to_constant
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C16]]}
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: copy_buffer<{{.+}}> source(%[[POOL]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C16]])
// CHECK: push_descriptor_set<{{.+}} bindings([%{{.+}} = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[C16]]
// CHECK: return %[[OUT]]
func.func @dispatch_tied_to_constant(%unused: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<4xf32> =
      (%iunused: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 64>] : tensor<4xf32>
    %1 = flow.dispatch @ex::@entry[%c1](%cst) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %cst
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

util.global private @pool : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Only read: the dispatch binds the pool's own bytes, nothing is copied.
// CHECK-LABEL: func.func @constant_read_in_place
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[CST:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C0]], %[[C64]]]
// CHECK-NOT: copy_buffer
// CHECK: push_descriptor_set<{{.+}} bindings([%{{.+}} = (%[[CST]] : !hal.buffer)[%[[C0]], %[[C64]]
func.func @constant_read_in_place(%unused: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<4xf32> =
      (%iunused: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 64>] : tensor<4xf32>
    %1 = flow.dispatch @ex::@entry[%c1](%cst) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

util.global private @pool : !hal.buffer
// A reshape of a constant, returned: the class is returned, so it gets a new
// output of the returned value's size.
// CHECK-LABEL: func.func @return_reshaped_constant
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C24]]}
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: copy_buffer<{{.+}}> source(%[[POOL]] : !hal.buffer)[%[[C8]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C24]])
// CHECK: return %[[OUT]]
func.func @return_reshaped_constant(%unused: index) -> tensor<2x3xf32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<2x3xf32> =
      (%iunused: index) -> tensor<2x3xf32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<8, 24>] : tensor<6xf32>
    %1 = flow.tensor.reshape %cst : tensor<6xf32> -> tensor<2x3xf32>
    flow.return %1 : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}
