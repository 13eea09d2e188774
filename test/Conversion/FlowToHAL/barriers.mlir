// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --canonicalize | FileCheck %s --check-prefix=CHECK
// RUN: hal-opt %s -split-input-file '--convert-flow-to-hal=copies=always barriers=hazard' --canonicalize | FileCheck %s --check-prefix=CHECK
// RUN: hal-opt %s -split-input-file '--convert-flow-to-hal=copies=always barriers=full' --canonicalize | FileCheck %s --check-prefixes=CHECK,FULL
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers

// Two independent copies share no written byte: no barrier between them.
// The third reads what the first wrote: one barrier right before it, and
// none after the last command. `full` puts one after every command.
// CHECK-LABEL: func.func @independent_then_dependent
// CHECK-SAME: (%[[A:[^:]+]]: !hal.buffer, %[[B:[^:]+]]: !hal.buffer)
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%{{.+}}> source(%[[A]] : !hal.buffer)[%{{.+}}] target(%[[TMP:.+]] : !hal.buffer)
// FULL-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.copy_buffer<%{{.+}}> source(%[[B]] : !hal.buffer)
// CHECK-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.copy_buffer<%{{.+}}> source(%[[TMP]] : !hal.buffer)
// FULL-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.end
func.func @independent_then_dependent(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0:2 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) =
      (%a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %1 = flow.tensor.clone %a : tensor<64xf32>
    %2 = flow.tensor.clone %b : tensor<64xf32>
    %3 = flow.tensor.clone %1 : tensor<64xf32>
    flow.return %2, %3 : tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Reads of one argument never conflict; an in-place update of an operand
// writes bytes the earlier slice read (write-after-read): a barrier.
// CHECK-LABEL: func.func @write_after_read
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer
// FULL-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.copy_buffer
// CHECK-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.copy_buffer
// FULL-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.command_buffer.end
func.func @write_after_read(%arg0: tensor<8x4xf32>, %arg1: tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %0:3 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<8x4xf32>, tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>, %arg0) =
      (%t: tensor<8x4xf32>, %u: tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %1 = flow.tensor.slice %t[%c2, %c0 for %c2, %c4] : tensor<8x4xf32> -> tensor<2x4xf32>
    %2 = flow.tensor.clone %t : tensor<8x4xf32>
    %3 = flow.tensor.update %u, %t[%c5, %c0] : tensor<1x4xf32> -> %t as tensor<8x4xf32>
    flow.return %1, %2, %3 : tensor<2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
