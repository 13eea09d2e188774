// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 --skip-function=clone_constant_max_length
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4 --skip-function=clone_constant_max_length
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4 --skip-function=clone_constant_max_length
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always | FileCheck %s --check-prefix=PACK
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

util.global private @pool : !hal.buffer
// A clone from a 32-byte constant range copies the result's 28 bytes.
// CHECK-LABEL: func.func @clone_from_constant_pool
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C28:.+]] = arith.constant 28 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C28]]}
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[CST:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C0]], %[[C32]]] : !hal.buffer
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[CST]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C28]])
// CHECK: return %[[OUT]] : !hal.buffer
func.func @clone_from_constant_pool(%unused: index) -> tensor<7xi32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<7xi32> =
      (%iunused: index) -> tensor<7xi32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32>
    %1 = flow.tensor.clone %cst : tensor<7xi32>
    flow.return %1 : tensor<7xi32>
  }
  return %0 : tensor<7xi32>
}

// -----

// CHECK-LABEL: func.func @clone_input
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C30:.+]] = arith.constant 30 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C30]]}
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)[%{{.+}}] target(%[[OUT]] : !hal.buffer)[%{{.+}}] length(%[[C30]])
func.func @clone_input(%arg0: tensor<3x5xi16>) -> tensor<3x5xi16> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<3x5xi16>) -> tensor<3x5xi16> =
      (%a: tensor<3x5xi16>) -> tensor<3x5xi16> {
    %1 = flow.tensor.clone %a : tensor<3x5xi16>
    flow.return %1 : tensor<3x5xi16>
  }
  return %0 : tensor<3x5xi16>
}

// -----

// i1 elements take a byte each: %n * 3; the middle clone is a transient.
// CHECK-LABEL: func.func @clone_chain
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index)
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C3]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// PACK-LABEL: func.func @clone_chain
// PACK: hal.allocator.pack<{{.+}}> slices({[0, 1] = %{{.+}}})
// CHECK: %[[TMP:.+]] = hal.buffer.subspan
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)[%{{.+}}] target(%[[TMP]] : !hal.buffer)[%{{.+}}] length(%[[SIZE]])
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[TMP]] : !hal.buffer)[%{{.+}}] target(%[[OUT]] : !hal.buffer)[%{{.+}}] length(%[[SIZE]])
func.func @clone_chain(%arg0: tensor<?x3xi1>, %n: index) -> tensor<?x3xi1> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<?x3xi1>{%n}, index) -> tensor<?x3xi1>{%n} =
      (%a: tensor<?x3xi1>, %in: index) -> tensor<?x3xi1> {
    %1 = flow.tensor.clone %a : tensor<?x3xi1>{%in}
    %2 = flow.tensor.clone %1 : tensor<?x3xi1>{%in}
    flow.return %2 : tensor<?x3xi1>
  }
  return %0 : tensor<?x3xi1>
}

// -----

util.global private @pool : !hal.buffer
// A returned constant is a new output of exactly its size (28 bytes, not the
// range's 32), filled by a copy: the caller may write a result.
// CHECK-LABEL: func.func @return_constant
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C28:.+]] = arith.constant 28 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C28]]}
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK-NOT: hal.buffer.subspan
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[POOL]] : !hal.buffer)[%[[C16]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C28]])
// CHECK: return %[[OUT]] : !hal.buffer
func.func @return_constant(%unused: index) -> tensor<7xi32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<7xi32> =
      (%iunused: index) -> tensor<7xi32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<16, 32>] : tensor<7xi32>
    flow.return %cst : tensor<7xi32>
  }
  return %0 : tensor<7xi32>
}

// -----

util.global private @pool : !hal.buffer
// A byte range of length INT64_MAX: its length is an ordinary index constant
// (INT64_MAX is reserved in DenseMap, not in the constant cache).
// CHECK-LABEL: func.func @clone_constant_max_length
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C28:.+]] = arith.constant 28 : index
// CHECK-DAG: %[[CMAX:.+]] = arith.constant 9223372036854775807 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[CST:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C0]], %[[CMAX]]] : !hal.buffer
// CHECK: copy_buffer<{{.+}}> source(%[[CST]] : !hal.buffer)[%[[C0]]] target(%{{.+}} : !hal.buffer)[%[[C0]]] length(%[[C28]])
func.func @clone_constant_max_length(%unused: index) -> tensor<7xi32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<7xi32> =
      (%iunused: index) -> tensor<7xi32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 9223372036854775807>] : tensor<7xi32>
    %1 = flow.tensor.clone %cst : tensor<7xi32>
    flow.return %1 : tensor<7xi32>
  }
  return %0 : tensor<7xi32>
}
