// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --hal-pack-allocations --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --hal-pack-allocations=strategy=in-order --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --hal-pack-allocations=strategy=optimal --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// The README's pipeline: static sizes reach the pack as constants, so static
// transients are placed by the packer (no dynamic lanes) and the slab is the
// peak of live bytes: the 256-byte copy, the updated 256-byte copy (made
// before the slice, --flow-emplace-update-targets) and the 16-byte slot of
// the 4-byte slice are live at the slice, 528 bytes.
// CHECK-LABEL: func.func @static_slab
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK-DAG: %[[C528:.+]] = arith.constant 528 : index
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.divui
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[C528]]}
// CHECK: hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C0]], %[[C256]]]
// CHECK: hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C256]], %[[C256]]]
// CHECK: hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C512]], %[[C4]]]
func.func @static_slab(%arg0: tensor<64xf32>) -> tensor<64xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> tensor<64xf32> =
      (%a: tensor<64xf32>) -> tensor<64xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = flow.tensor.clone %a : tensor<64xf32>
    %t1 = flow.tensor.slice %t0[%c1 for %c1] : tensor<64xf32> -> tensor<1xf32>
    %t2 = flow.tensor.clone %t0 : tensor<64xf32>
    %t3 = flow.tensor.update %t1, %t2[%c0] : tensor<1xf32> -> %t2 as tensor<64xf32>
    %t4 = flow.tensor.clone %t3 : tensor<64xf32>
    flow.return %t4 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// One transient: the pack of one slice folds to offset 0 and a slab of the
// slice's aligned size (100 bytes -> 112).
// CHECK-LABEL: func.func @single_transient
// CHECK-DAG: %[[C100:.+]] = arith.constant 100 : index
// CHECK-DAG: %[[C112:.+]] = arith.constant 112 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NOT: hal.allocator.pack
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[C112]]}
// CHECK: hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C0]], %[[C100]]]
func.func @single_transient(%arg0: tensor<100xi8>) -> tensor<100xi8> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<100xi8>) -> tensor<100xi8> =
      (%a: tensor<100xi8>) -> tensor<100xi8> {
    %t = flow.tensor.clone %a : tensor<100xi8>
    %r = flow.tensor.clone %t : tensor<100xi8>
    flow.return %r : tensor<100xi8>
  }
  return %0 : tensor<100xi8>
}
