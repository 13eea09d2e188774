// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// Fragments without any operand (the operand index of an empty `arguments`
// range must not be read through an operand pointer).

// CHECK-LABEL: func.func @splat_without_operands()
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 16843009 : i32
// CHECK: hal.command_buffer.fill_buffer<{{.+}} pattern(%[[PATTERN]] : i32)
func.func @splat_without_operands() -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> =
      () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  return %0 : tensor<16xi8>
}

// -----

util.global private @pool : !hal.buffer
// CHECK-LABEL: func.func @clone_without_operands()
// CHECK: hal.command_buffer.copy_buffer
func.func @clone_without_operands() -> tensor<7xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<7xi32> =
      () -> tensor<7xi32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32>
    %1 = flow.tensor.clone %cst : tensor<7xi32>
    flow.return %1 : tensor<7xi32>
  }
  return %0 : tensor<7xi32>
}
