// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file --print-bytes | FileCheck %s --check-prefix=EXEC
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=submission=blocking --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null

// util.initializer bodies are lowered like function bodies: the fragments
// inside become command buffers, with the device and allocator made at the
// start of the initializer.

// IREE's constant_ops case 3, in our form: a tensor global whose initial
// value is computed (here by a fragment) in an initializer. The lowered
// initializer stores a !hal.buffer.
// CHECK-LABEL: util.global private mutable @var_with_tensor_default : !hal.buffer
// CHECK-LABEL: util.initializer {
// CHECK:         %[[DEVICE:.+]] = hal.ex.shared_device : !hal.device
// CHECK-NEXT:    %[[ALLOCATOR:.+]] = hal.device.allocator<%[[DEVICE]] : !hal.device> : !hal.allocator
// CHECK:         %[[BUFFER:.+]] = hal.allocator.allocate<%[[ALLOCATOR]] : !hal.allocator>
// CHECK:         hal.command_buffer.fill_buffer
// CHECK:         hal.ex.submit_and_wait
// CHECK:         util.global.store %[[BUFFER]], @var_with_tensor_default : !hal.buffer
// CHECK-NEXT:    util.return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @fn() -> !hal.buffer
// CHECK-NEXT:    %[[V:.+]] = util.global.load @var_with_tensor_default : !hal.buffer
// CHECK-NEXT:    util.global.store %[[V]], @var_with_tensor_default : !hal.buffer
// CHECK-NEXT:    return %[[V]] : !hal.buffer
// EXEC-LABEL: @fn result 0: f32
// EXEC-NEXT:  bytes: 00 00 80 3f
util.global private mutable @var_with_tensor_default : tensor<f32>
util.initializer {
  %one = arith.constant 1.0 : f32
  %0 = flow.ex.stream.fragment(%one) : (f32) -> tensor<f32> =
      (%v: f32) -> tensor<f32> {
    %1 = flow.tensor.splat %v : tensor<f32>
    flow.return %1 : tensor<f32>
  }
  util.global.store %0, @var_with_tensor_default : tensor<f32>
  util.return
}
func.func @fn() -> tensor<f32> {
  %0 = util.global.load @var_with_tensor_default : tensor<f32>
  util.global.store %0, @var_with_tensor_default : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Initializers run once each, in module order, before any function: the
// second reads what the first stored (5) on the host and splats 5 + 1.
// CHECK-LABEL: util.initializer {
// CHECK:         util.global.store %{{.+}}, @first : !hal.buffer
// CHECK-LABEL: util.initializer {
// CHECK:         %[[FIRST:.+]] = util.global.load @first : !hal.buffer
// CHECK:         hal.buffer.load<%[[FIRST]] : !hal.buffer>
// CHECK:         util.global.store %{{.+}}, @second : !hal.buffer
// EXEC-LABEL: @ordered result 0: 4xi32
// EXEC-NEXT:  bytes: 06 00 00 00 06 00 00 00 06 00 00 00 06 00 00 00
util.global private mutable @first : tensor<4xi32>
util.global private mutable @second : tensor<4xi32>
util.initializer {
  %c5 = arith.constant 5 : i32
  %0 = flow.ex.stream.fragment(%c5) : (i32) -> tensor<4xi32> =
      (%v: i32) -> tensor<4xi32> {
    %1 = flow.tensor.splat %v : tensor<4xi32>
    flow.return %1 : tensor<4xi32>
  }
  util.global.store %0, @first : tensor<4xi32>
  util.return
}
util.initializer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %first = util.global.load @first : tensor<4xi32>
  %x = flow.tensor.load %first[%c0] : tensor<4xi32>
  %y = arith.addi %x, %c1 : i32
  %0 = flow.ex.stream.fragment(%y) : (i32) -> tensor<4xi32> =
      (%v: i32) -> tensor<4xi32> {
    %1 = flow.tensor.splat %v : tensor<4xi32>
    flow.return %1 : tensor<4xi32>
  }
  util.global.store %0, @second : tensor<4xi32>
  util.return
}
func.func @ordered() -> tensor<4xi32> {
  %0 = util.global.load @second : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// An initializer may store through a pointer.
// CHECK-LABEL: util.initializer {
// CHECK:         %[[ADDR:.+]] = util.global.address @through_pointer : !util.ptr<!hal.buffer>
// CHECK:         util.global.store.indirect %{{.+}}, %[[ADDR]] : !hal.buffer -> !util.ptr<!hal.buffer>
// EXEC-LABEL: @read_through_pointer result 0: 2xi32
// EXEC-NEXT:  bytes: 09 00 00 00 09 00 00 00
util.global private mutable @through_pointer : tensor<2xi32>
util.initializer {
  %p = util.global.address @through_pointer : !util.ptr<tensor<2xi32>>
  %c9 = arith.constant 9 : i32
  %0 = flow.ex.stream.fragment(%c9) : (i32) -> tensor<2xi32> =
      (%v: i32) -> tensor<2xi32> {
    %1 = flow.tensor.splat %v : tensor<2xi32>
    flow.return %1 : tensor<2xi32>
  }
  util.global.store.indirect %0, %p : tensor<2xi32> -> !util.ptr<tensor<2xi32>>
  util.return
}
func.func @read_through_pointer() -> tensor<2xi32> {
  %0 = util.global.load @through_pointer : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Copy on write covers initializers like functions: a fragment updating a
// loaded global's value in place gets a copy, so @source keeps its bytes.
// CHECK-LABEL: util.initializer {
// CHECK:         %[[SOURCE:.+]] = util.global.load @source : !hal.buffer
// CHECK:         hal.command_buffer.copy_buffer<%{{.+}} : !hal.command_buffer> source(%[[SOURCE]] : !hal.buffer)
// CHECK:         util.global.store %{{.+}}, @updated : !hal.buffer
// EXEC-LABEL: @read_both result 0: 4xf32
// EXEC-NEXT:  bytes: 00 00 80 3f 00 00 00 40 00 00 40 40 00 00 80 40
// EXEC-NEXT:  @read_both result 1: 4xf32
// EXEC-NEXT:  bytes: 00 00 80 3f 00 00 10 41 00 00 10 41 00 00 80 40
util.global private mutable @source = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
util.global private mutable @updated : tensor<4xf32>
util.initializer {
  %t = util.global.load @source : tensor<4xf32>
  %c1 = arith.constant 1 : index
  %nine = arith.constant 9.0 : f32
  %0 = flow.ex.stream.fragment(%t, %nine, %c1) : (tensor<4xf32>, f32, index) -> %t =
      (%it: tensor<4xf32>, %v: f32, %i: index) -> tensor<4xf32> {
    %s = flow.tensor.splat %v : tensor<2xf32>
    %u = flow.tensor.update %s, %it[%i] : tensor<2xf32> -> %it as tensor<4xf32>
    flow.return %u : tensor<4xf32>
  }
  util.global.store %0, @updated : tensor<4xf32>
  util.return
}
func.func @read_both() -> (tensor<4xf32>, tensor<4xf32>) {
  %a = util.global.load @source : tensor<4xf32>
  %b = util.global.load @updated : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
