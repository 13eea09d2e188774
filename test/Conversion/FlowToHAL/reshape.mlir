// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 --dims=2,8
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4 --dims=2,8
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4 --dims=2,8
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=submission=blocking --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

// A reshape-only fragment returns the input buffer: nothing is allocated
// and nothing is recorded.
// CHECK-LABEL: func.func @reshape_only
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer) -> !hal.buffer
// CHECK-NOT: hal.allocator
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin<%[[CMD]] : !hal.command_buffer>
// CHECK-NEXT: hal.command_buffer.end<%[[CMD]] : !hal.command_buffer>
// CHECK-NEXT: hal.ex.submit_and_wait
// CHECK-NEXT: return %[[ARG]] : !hal.buffer
func.func @reshape_only(%arg0: tensor<4x6xf32>) -> tensor<24xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4x6xf32>) -> tensor<24xf32> =
      (%a: tensor<4x6xf32>) -> tensor<24xf32> {
    %1 = flow.tensor.reshape %a : tensor<4x6xf32> -> tensor<24xf32>
    flow.return %1 : tensor<24xf32>
  }
  return %0 : tensor<24xf32>
}

// -----

// Reshape then clone copies the whole 5x24x48xf32 = 23040 bytes.
// CHECK-LABEL: func.func @reshape_then_clone
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer) -> !hal.buffer
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C23040:.+]] = arith.constant 23040 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C23040]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C23040]])
// CHECK-NEXT: hal.command_buffer.end
// CHECK: return %[[OUT]] : !hal.buffer
func.func @reshape_then_clone(%arg0: tensor<5x24x48xf32>) -> tensor<120x48xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<5x24x48xf32>) -> tensor<120x48xf32> =
      (%a: tensor<5x24x48xf32>) -> tensor<120x48xf32> {
    %1 = flow.tensor.reshape %a : tensor<5x24x48xf32> -> tensor<120x48xf32>
    %2 = flow.tensor.clone %1 : tensor<120x48xf32>
    flow.return %2 : tensor<120x48xf32>
  }
  return %0 : tensor<120x48xf32>
}

// -----

// One value used by two reshapes and a clone: both reshapes return the input
// buffer, the clone gets its own allocation and one copy.
// CHECK-LABEL: func.func @two_reshapes_and_clone
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C23040:.+]] = arith.constant 23040 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C23040]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)[%{{.+}}] target(%[[OUT]] : !hal.buffer)[%{{.+}}] length(%[[C23040]])
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return %[[ARG]], %[[ARG]], %[[OUT]] : !hal.buffer, !hal.buffer, !hal.buffer
func.func @two_reshapes_and_clone(%arg0: tensor<5x24x48xf32>) -> (tensor<120x48xf32>, tensor<5x1152xf32>, tensor<5x24x48xf32>) {
  %0:3 = flow.ex.stream.fragment(%arg0) : (tensor<5x24x48xf32>) -> (tensor<120x48xf32>, tensor<5x1152xf32>, tensor<5x24x48xf32>) =
      (%a: tensor<5x24x48xf32>) -> (tensor<120x48xf32>, tensor<5x1152xf32>, tensor<5x24x48xf32>) {
    %1 = flow.tensor.reshape %a : tensor<5x24x48xf32> -> tensor<120x48xf32>
    %2 = flow.tensor.reshape %a : tensor<5x24x48xf32> -> tensor<5x1152xf32>
    %3 = flow.tensor.clone %a : tensor<5x24x48xf32>
    flow.return %1, %2, %3 : tensor<120x48xf32>, tensor<5x1152xf32>, tensor<5x24x48xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<120x48xf32>, tensor<5x1152xf32>, tensor<5x24x48xf32>
}

// -----

// A dynamic reshape: the clone copies the result's size, from the reshape's
// own dims (%m * 4).
// CHECK-LABEL: func.func @dynamic_reshape
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %{{[^:]+}}: index, %[[M:[^:]+]]: index)
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[M]], %[[C4]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)[%{{.+}}] target(%[[OUT]] : !hal.buffer)[%{{.+}}] length(%[[SIZE]])
func.func @dynamic_reshape(%arg0: tensor<?x4xf32>, %n: index, %m: index) -> tensor<?xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n, %m) : (tensor<?x4xf32>{%n}, index, index) -> tensor<?xf32>{%m} =
      (%a: tensor<?x4xf32>, %in: index, %im: index) -> tensor<?xf32> {
    %1 = flow.tensor.reshape %a : tensor<?x4xf32>{%in} -> tensor<?xf32>{%im}
    %2 = flow.tensor.clone %1 : tensor<?xf32>{%im}
    flow.return %2 : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}
