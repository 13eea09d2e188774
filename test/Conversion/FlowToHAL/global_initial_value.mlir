// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// A tensor global with an initial value becomes a buffer global whose
// initial contents are that value.

// CHECK: util.global private @weights : !hal.buffer = dense<1.000000e+00> : tensor<4xf32>
util.global private @weights = dense<1.0> : tensor<4xf32>
// CHECK-LABEL: func.func @load_initialized
// CHECK:         %[[W:.+]] = util.global.load @weights : !hal.buffer
// CHECK:         return %[[W]] : !hal.buffer
func.func @load_initialized() -> tensor<4xf32> {
  %w = util.global.load @weights : tensor<4xf32>
  return %w : tensor<4xf32>
}
