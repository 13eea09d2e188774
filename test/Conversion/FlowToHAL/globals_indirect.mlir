// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file --print-bytes | FileCheck %s --check-prefix=EXEC
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=submission=blocking --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null

// Pointers to globals: a !util.ptr<tensor<..>> becomes a
// !util.ptr<!hal.buffer>, and the indirect ops convert like their direct
// forms.

// NOTENSOR-NOT: !util.ptr<tensor
// NOTENSOR-NOT: flow.

// IREE's global_ops case 3: load and store through one address.
// CHECK-LABEL: util.global public mutable @var_indirect : !hal.buffer
// CHECK-LABEL: func.func @load_store_indirect()
// CHECK-NEXT:    %[[ADDR:.+]] = util.global.address @var_indirect : !util.ptr<!hal.buffer>
// CHECK-NEXT:    %[[VALUE:.+]] = util.global.load.indirect %[[ADDR]] : !util.ptr<!hal.buffer> -> !hal.buffer
// CHECK-NEXT:    util.global.store.indirect %[[VALUE]], %[[ADDR]] : !hal.buffer -> !util.ptr<!hal.buffer>
// CHECK-NEXT:    return
util.global public mutable @var_indirect : tensor<i32>
func.func @load_store_indirect() {
  %0 = util.global.address @var_indirect : !util.ptr<tensor<i32>>
  %1 = util.global.load.indirect %0 : !util.ptr<tensor<i32>> -> tensor<i32>
  util.global.store.indirect %1, %0 : tensor<i32> -> !util.ptr<tensor<i32>>
  return
}

// -----

// IREE's global_ops case 7: a buffer view cast to a tensor stored through
// an address stores the view's buffer.
// CHECK-LABEL: util.global public mutable @var_indirect_with_buffer_view_store : !hal.buffer
// CHECK-LABEL: func.func @store_indirect_buffer_view
// CHECK-SAME:    (%[[VIEW:.+]]: !hal.buffer_view)
// CHECK-DAG:     %[[PTR:.+]] = util.global.address @var_indirect_with_buffer_view_store : !util.ptr<!hal.buffer>
// CHECK-DAG:     %[[BUFFER:.+]] = hal.buffer_view.buffer<%[[VIEW]] : !hal.buffer_view> : !hal.buffer
// CHECK:         util.global.store.indirect %[[BUFFER]], %[[PTR]] : !hal.buffer -> !util.ptr<!hal.buffer>
util.global public mutable @var_indirect_with_buffer_view_store : tensor<i32>
func.func @store_indirect_buffer_view(%arg0: !hal.buffer_view) {
  %0 = util.global.address @var_indirect_with_buffer_view_store : !util.ptr<tensor<i32>>
  %1 = hal.tensor.cast %arg0 : !hal.buffer_view -> tensor<i32>
  util.global.store.indirect %1, %0 : tensor<i32> -> !util.ptr<tensor<i32>>
  return
}

// -----

// A function loading through a pointer: it reads the global's value.
// CHECK-LABEL: func.func @load_indirect() -> !hal.buffer
// CHECK-NEXT:    %[[ADDR:.+]] = util.global.address @weights : !util.ptr<!hal.buffer>
// CHECK-NEXT:    %[[W:.+]] = util.global.load.indirect %[[ADDR]] : !util.ptr<!hal.buffer> -> !hal.buffer
// CHECK-NEXT:    return %[[W]] : !hal.buffer
// EXEC-LABEL: @load_indirect result 0: 4xi32
// EXEC-NEXT:  bytes: 01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00
util.global private @weights = dense<[1, 2, 3, 4]> : tensor<4xi32>
func.func @load_indirect() -> tensor<4xi32> {
  %p = util.global.address @weights : !util.ptr<tensor<4xi32>>
  %w = util.global.load.indirect %p : !util.ptr<tensor<4xi32>> -> tensor<4xi32>
  return %w : tensor<4xi32>
}

// -----

// A function storing a fragment's result through a pointer; a direct load
// of the global then sees it.
// CHECK-LABEL: func.func @store_indirect_then_load
// CHECK:         %[[ADDR:.+]] = util.global.address @state : !util.ptr<!hal.buffer>
// CHECK:         %[[OUT:.+]] = hal.allocator.allocate
// CHECK:         hal.command_buffer.fill_buffer
// CHECK:         hal.ex.submit_and_wait
// CHECK:         util.global.store.indirect %[[OUT]], %[[ADDR]] : !hal.buffer -> !util.ptr<!hal.buffer>
// CHECK:         %[[LOADED:.+]] = util.global.load @state : !hal.buffer
// CHECK:         return %[[LOADED]] : !hal.buffer
// EXEC-LABEL: @store_indirect_then_load result 0: 4xi32
// EXEC-NEXT:  bytes: 07 00 00 00 07 00 00 00 07 00 00 00 07 00 00 00
util.global private mutable @state : tensor<4xi32>
func.func @store_indirect_then_load() -> tensor<4xi32> {
  %p = util.global.address @state : !util.ptr<tensor<4xi32>>
  %c7 = arith.constant 7 : i32
  %0 = flow.ex.stream.fragment(%c7) : (i32) -> tensor<4xi32> =
      (%v: i32) -> tensor<4xi32> {
    %1 = flow.tensor.splat %v : tensor<4xi32>
    flow.return %1 : tensor<4xi32>
  }
  util.global.store.indirect %0, %p : tensor<4xi32> -> !util.ptr<tensor<4xi32>>
  %r = util.global.load @state : tensor<4xi32>
  return %r : tensor<4xi32>
}
