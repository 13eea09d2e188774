// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --canonicalize --convert-flow-to-hal --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// Slices and updates whose starts and lengths are fragment operands: the box
// lengths come from the types, constants are seen through the operands, and a
// static non-contiguous box with dynamic starts is one copy per run.

// The length operands are block arguments, but the result type fixes the
// box: rows 3 and 4 of a 6x10x8 tensor, one contiguous 640-byte copy.
// CHECK-LABEL: func.func @slice_lengths_from_type
// CHECK-DAG: %[[C640:.+]] = arith.constant 640 : index
// CHECK-DAG: %[[C960:.+]] = arith.constant 960 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate{{.+}}{%[[C640]]}
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%arg0 : !hal.buffer)[%[[C960]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C640]])
// CHECK-NOT: copy_buffer
// CHECK: return %[[OUT]]
func.func @slice_lengths_from_type(%arg0: tensor<6x10x8xi32>) -> tensor<2x10x8xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %0 = flow.ex.stream.fragment(%arg0, %c3, %c0, %c2, %c10, %c8) : (tensor<6x10x8xi32>, index, index, index, index, index) -> tensor<2x10x8xi32> =
      (%a: tensor<6x10x8xi32>, %i3: index, %i0: index, %i2: index, %i10: index, %i8: index) -> tensor<2x10x8xi32> {
    %1 = flow.tensor.slice %a[%i3, %i0, %i0 for %i2, %i10, %i8] : tensor<6x10x8xi32> -> tensor<2x10x8xi32>
    flow.return %1 : tensor<2x10x8xi32>
  }
  return %0 : tensor<2x10x8xi32>
}

// -----

// Lengths that are unknown values still give a contiguous box when the type
// says so: a whole-rows slice at a dynamic row.
// CHECK-LABEL: func.func @slice_rows_dynamic_start
// CHECK-SAME: (%[[SRC:.+]]: !hal.buffer, %[[ROW:.+]]: index, %[[LEN:.+]]: index)
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[OFF:.+]] = arith.muli %[[ROW]], %[[C64]] : index
// CHECK: copy_buffer<{{.+}}> source(%[[SRC]] : !hal.buffer)[%[[OFF]]] target({{.+}})[%{{.+}}] length(%[[C128]])
// CHECK-NOT: copy_buffer
func.func @slice_rows_dynamic_start(%arg0: tensor<8x16xf32>, %row: index, %len: index) -> tensor<2x16xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %row, %len) : (tensor<8x16xf32>, index, index) -> tensor<2x16xf32> =
      (%a: tensor<8x16xf32>, %r: index, %l: index) -> tensor<2x16xf32> {
    %c0 = arith.constant 0 : index
    %1 = flow.tensor.slice %a[%r, %c0 for %l, %l] : tensor<8x16xf32> -> tensor<2x16xf32>
    flow.return %1 : tensor<2x16xf32>
  }
  return %0 : tensor<2x16xf32>
}

// -----

// A static 2x4 box at dynamic starts of a 4x8 target: two runs of 16 bytes,
// the second 32 bytes (one row) after the first.
// CHECK-LABEL: func.func @update_dynamic_starts
// CHECK-SAME: (%[[T:.+]]: !hal.buffer, %[[U:.+]]: !hal.buffer, %[[O:.+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[O]], %[[C8]] : index
// CHECK: %[[ELEMS:.+]] = arith.addi %[[ROWS]], %[[O]] : index
// CHECK: %[[BASE:.+]] = arith.muli %[[ELEMS]], %[[C4]] : index
// CHECK: %[[RUN1:.+]] = arith.addi %[[BASE]], %[[C32]] : index
// CHECK: copy_buffer<{{.+}}> source(%[[U]] : !hal.buffer)[%[[C0]]] target(%[[T]] : !hal.buffer)[%[[BASE]]] length(%[[C16]])
// CHECK: copy_buffer<{{.+}}> source(%[[U]] : !hal.buffer)[%[[C16]]] target(%[[T]] : !hal.buffer)[%[[RUN1]]] length(%[[C16]])
// CHECK-NOT: copy_buffer
func.func @update_dynamic_starts(%arg0: tensor<4x8xf32>, %arg1: tensor<2x4xf32>, %o: index) -> tensor<4x8xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1, %o) : (tensor<4x8xf32>, tensor<2x4xf32>, index) -> %arg0 =
      (%a: tensor<4x8xf32>, %u: tensor<2x4xf32>, %io: index) -> tensor<4x8xf32> {
    %1 = flow.tensor.update %u, %a[%io, %io] : tensor<2x4xf32> -> %a as tensor<4x8xf32>
    flow.return %1 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A 3-D static box at a dynamic first start: 2x2 runs of 3 i32 each, at
// element deltas 0, 8, 32, 40 from the box origin.
// CHECK-LABEL: func.func @slice_3d_dynamic_start
// CHECK-SAME: (%[[SRC:.+]]: !hal.buffer, %[[O:.+]]: index)
// CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : index
// CHECK-DAG: %[[C36:.+]] = arith.constant 36 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[C160:.+]] = arith.constant 160 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[X0:.+]] = arith.muli %[[O]], %[[C4]] : index
// CHECK: %[[X1:.+]] = arith.addi %[[X0]], %[[C1]] : index
// CHECK: %[[X2:.+]] = arith.muli %[[X1]], %[[C8]] : index
// CHECK: %[[X3:.+]] = arith.addi %[[X2]], %[[C2]] : index
// CHECK: %[[BASE:.+]] = arith.muli %[[X3]], %[[C4]] : index
// CHECK: %[[R1:.+]] = arith.addi %[[BASE]], %[[C32]] : index
// CHECK: %[[R2:.+]] = arith.addi %[[BASE]], %[[C128]] : index
// CHECK: %[[R3:.+]] = arith.addi %[[BASE]], %[[C160]] : index
// CHECK: source(%[[SRC]] : !hal.buffer)[%[[BASE]]] target({{.+}})[%{{.+}}] length(%[[C12]])
// CHECK: source(%[[SRC]] : !hal.buffer)[%[[R1]]] target({{.+}})[%[[C12]]] length(%[[C12]])
// CHECK: source(%[[SRC]] : !hal.buffer)[%[[R2]]] target({{.+}})[%[[C24]]] length(%[[C12]])
// CHECK: source(%[[SRC]] : !hal.buffer)[%[[R3]]] target({{.+}})[%[[C36]]] length(%[[C12]])
// CHECK-NOT: copy_buffer
func.func @slice_3d_dynamic_start(%arg0: tensor<4x4x8xi32>, %o: index) -> tensor<2x2x3xi32> {
  %0 = flow.ex.stream.fragment(%arg0, %o) : (tensor<4x4x8xi32>, index) -> tensor<2x2x3xi32> =
      (%a: tensor<4x4x8xi32>, %io: index) -> tensor<2x2x3xi32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %1 = flow.tensor.slice %a[%io, %c1, %c2 for %c2, %c2, %c3] : tensor<4x4x8xi32> -> tensor<2x2x3xi32>
    flow.return %1 : tensor<2x2x3xi32>
  }
  return %0 : tensor<2x2x3xi32>
}

// -----

// A dynamic outer dim whose value is a constant passed in is static: the
// non-contiguous box splits into runs at constant offsets. (The outer dim is
// 3, what hal-exec gives the argument: a dim that disagrees with the
// argument is the program's error.)
// CHECK-LABEL: func.func @outer_dim_constant_through_operand
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: source(%arg0 : !hal.buffer)[%[[C8]]] target({{.+}})[%{{.+}}] length(%[[C16]])
// CHECK: source(%arg0 : !hal.buffer)[%[[C40]]] target({{.+}})[%[[C16]]] length(%[[C16]])
// CHECK-NOT: copy_buffer
func.func @outer_dim_constant_through_operand(%arg0: tensor<?x8xf32>) -> tensor<2x4xf32> {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %0 = flow.ex.stream.fragment(%arg0, %c3, %c4, %c2) : (tensor<?x8xf32>{%c3}, index, index, index) -> tensor<2x4xf32> =
      (%a: tensor<?x8xf32>, %d: index, %n: index, %s: index) -> tensor<2x4xf32> {
    %c0 = arith.constant 0 : index
    %1 = flow.tensor.slice %a[%c0, %s for %s, %n] : tensor<?x8xf32>{%d} -> tensor<2x4xf32>
    flow.return %1 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}
