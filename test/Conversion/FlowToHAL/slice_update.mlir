// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 --dims=4,2,1
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4 --dims=4,2,1
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4 --dims=4,2,1
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

// [2, 0, 0 for 3, 24, 48] of 5x24x48xf32 is contiguous: one copy from byte
// 2 * 24 * 48 * 4 = 9216, of 3 * 24 * 48 * 4 = 13824 bytes.
// CHECK-LABEL: func.func @contiguous_slice
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C9216:.+]] = arith.constant 9216 : index
// CHECK-DAG: %[[C13824:.+]] = arith.constant 13824 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C13824]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[C9216]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C13824]])
// CHECK-NEXT: hal.command_buffer.end
func.func @contiguous_slice(%arg0: tensor<5x24x48xf32>) -> tensor<3x24x48xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<5x24x48xf32>) -> tensor<3x24x48xf32> =
      (%a: tensor<5x24x48xf32>) -> tensor<3x24x48xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c24 = arith.constant 24 : index
    %c48 = arith.constant 48 : index
    %1 = flow.tensor.slice %a[%c2, %c0, %c0 for %c3, %c24, %c48] : tensor<5x24x48xf32> -> tensor<3x24x48xf32>
    flow.return %1 : tensor<3x24x48xf32>
  }
  return %0 : tensor<3x24x48xf32>
}

// -----

// [1, 5 for 3, 2] of 4x8xi32: one 8-byte copy per row, at (r * 8 + 5) * 4.
// CHECK-LABEL: func.func @noncontiguous_slice
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : index
// CHECK-DAG: %[[C52:.+]] = arith.constant 52 : index
// CHECK-DAG: %[[C84:.+]] = arith.constant 84 : index
// CHECK-DAG: %[[C116:.+]] = arith.constant 116 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C24]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[C52]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C8]])
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[C84]]] target(%[[OUT]] : !hal.buffer)[%[[C8]]] length(%[[C8]])
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[C116]]] target(%[[OUT]] : !hal.buffer)[%[[C16]]] length(%[[C8]])
// CHECK-NEXT: hal.command_buffer.end
func.func @noncontiguous_slice(%arg0: tensor<4x8xi32>) -> tensor<3x2xi32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4x8xi32>) -> tensor<3x2xi32> =
      (%a: tensor<4x8xi32>) -> tensor<3x2xi32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %1 = flow.tensor.slice %a[%c1, %c5 for %c3, %c2] : tensor<4x8xi32> -> tensor<3x2xi32>
    flow.return %1 : tensor<3x2xi32>
  }
  return %0 : tensor<3x2xi32>
}

// -----

// [1, 1, 0 for 2, 2, 5] of 3x4x5xi8: the inner 2x5 block of each of the two
// outer rows is contiguous: two 10-byte copies from 25 and 45.
// CHECK-LABEL: func.func @noncontiguous_slice_3d
// CHECK-DAG: %[[C10:.+]] = arith.constant 10 : index
// CHECK-DAG: %[[C25:.+]] = arith.constant 25 : index
// CHECK-DAG: %[[C45:.+]] = arith.constant 45 : index
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%{{.+}} : !hal.buffer)[%[[C25]]] target(%{{.+}} : !hal.buffer)[%{{.+}}] length(%[[C10]])
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%{{.+}} : !hal.buffer)[%[[C45]]] target(%{{.+}} : !hal.buffer)[%[[C10]]] length(%[[C10]])
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @noncontiguous_slice_3d(%arg0: tensor<3x4x5xi8>) -> tensor<2x2x5xi8> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<3x4x5xi8>) -> tensor<2x2x5xi8> =
      (%a: tensor<3x4x5xi8>) -> tensor<2x2x5xi8> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %1 = flow.tensor.slice %a[%c1, %c1, %c0 for %c2, %c2, %c5] : tensor<3x4x5xi8> -> tensor<2x2x5xi8>
    flow.return %1 : tensor<2x2x5xi8>
  }
  return %0 : tensor<2x2x5xi8>
}

// -----

// Whole rows of a dynamic tensor are contiguous: offset %o * 64.
// CHECK-LABEL: func.func @dynamic_contiguous_slice
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %{{[^:]+}}: index, %[[O:[^:]+]]: index, %[[L:[^:]+]]: index)
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[L]], %[[C64]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[OFFSET:.+]] = arith.muli %[[O]], %[[C64]] : index
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)[%[[OFFSET]]] target(%[[OUT]] : !hal.buffer)[%{{.+}}] length(%[[SIZE]])
func.func @dynamic_contiguous_slice(%arg0: tensor<?x16xf32>, %n: index, %o: index, %l: index) -> tensor<?x16xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n, %o, %l) : (tensor<?x16xf32>{%n}, index, index, index) -> tensor<?x16xf32>{%l} =
      (%a: tensor<?x16xf32>, %in: index, %io: index, %il: index) -> tensor<?x16xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %1 = flow.tensor.slice %a[%io, %c0 for %il, %c16] : tensor<?x16xf32>{%in} -> tensor<?x16xf32>{%il}
    flow.return %1 : tensor<?x16xf32>
  }
  return %0 : tensor<?x16xf32>
}

// -----

// An update into a clone at [3, 0, 0]: the clone copies the whole target,
// then the update lands at byte 3 * 24 * 48 * 4 = 13824 of the clone.
// CHECK-LABEL: func.func @update_into_clone
// CHECK-SAME: (%[[A:[^:]+]]: !hal.buffer, %[[U:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4608:.+]] = arith.constant 4608 : index
// CHECK-DAG: %[[C13824:.+]] = arith.constant 13824 : index
// CHECK-DAG: %[[C23040:.+]] = arith.constant 23040 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C23040]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[A]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[C23040]])
// CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[U]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C13824]]] length(%[[C4608]])
// CHECK-NEXT: hal.command_buffer.end
// CHECK: return %[[OUT]] : !hal.buffer
func.func @update_into_clone(%arg0: tensor<5x24x48xf32>, %arg1: tensor<1x24x48xf32>) -> tensor<5x24x48xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<5x24x48xf32>, tensor<1x24x48xf32>) -> tensor<5x24x48xf32> =
      (%a: tensor<5x24x48xf32>, %u: tensor<1x24x48xf32>) -> tensor<5x24x48xf32> {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %1 = flow.tensor.clone %a : tensor<5x24x48xf32>
    %2 = flow.tensor.update %u, %1[%c3, %c0, %c0] : tensor<1x24x48xf32> -> %1 as tensor<5x24x48xf32>
    flow.return %2 : tensor<5x24x48xf32>
  }
  return %0 : tensor<5x24x48xf32>
}

// -----

// A 2x3 update at [1, 4] of 4x8xi32, in place: one 12-byte copy per row.
// CHECK-LABEL: func.func @noncontiguous_update
// CHECK-SAME: (%[[A:[^:]+]]: !hal.buffer, %[[U:[^:]+]]: !hal.buffer)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : index
// CHECK-DAG: %[[C80:.+]] = arith.constant 80 : index
// CHECK-NOT: hal.allocator.allocate
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[U]] : !hal.buffer)[%[[C0]]] target(%[[A]] : !hal.buffer)[%[[C48]]] length(%[[C12]])
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[U]] : !hal.buffer)[%[[C12]]] target(%[[A]] : !hal.buffer)[%[[C80]]] length(%[[C12]])
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return %[[A]] : !hal.buffer
func.func @noncontiguous_update(%arg0: tensor<4x8xi32>, %arg1: tensor<2x3xi32>) -> tensor<4x8xi32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<4x8xi32>, tensor<2x3xi32>) -> %arg0 =
      (%a: tensor<4x8xi32>, %u: tensor<2x3xi32>) -> tensor<4x8xi32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %1 = flow.tensor.update %u, %a[%c1, %c4] : tensor<2x3xi32> -> %a as tensor<4x8xi32>
    flow.return %1 : tensor<4x8xi32>
  }
  return %0 : tensor<4x8xi32>
}

// -----

// Whole rows at a dynamic row offset: one copy of the update's size.
// CHECK-LABEL: func.func @dynamic_update
// CHECK-SAME: (%[[A:[^:]+]]: !hal.buffer, %[[U:[^:]+]]: !hal.buffer, %{{[^:]+}}: index, %[[M:[^:]+]]: index, %[[O:[^:]+]]: index)
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[M]], %[[C32]] : index
// CHECK: %[[OFFSET:.+]] = arith.muli %[[O]], %[[C32]] : index
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[U]] : !hal.buffer)[%{{.+}}] target(%[[A]] : !hal.buffer)[%[[OFFSET]]] length(%[[SIZE]])
func.func @dynamic_update(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32>, %n: index, %m: index, %o: index) -> tensor<?x8xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1, %n, %m, %o) : (tensor<?x8xf32>{%n}, tensor<?x8xf32>{%m}, index, index, index) -> %arg0 as tensor<?x8xf32>{%n} =
      (%a: tensor<?x8xf32>, %u: tensor<?x8xf32>, %in: index, %im: index, %io: index) -> tensor<?x8xf32> {
    %c0 = arith.constant 0 : index
    %1 = flow.tensor.update %u, %a[%io, %c0] : tensor<?x8xf32>{%im} -> %a as tensor<?x8xf32>{%in}
    flow.return %1 : tensor<?x8xf32>
  }
  return %0 : tensor<?x8xf32>
}

// -----

// A slice of whole rows of a dynamic 4x?xf32 operand, its lengths spelled
// with the fragment's own dim argument: contiguous, one copy from byte
// 1 * d * 4 of 2 * d * 4 bytes.
// CHECK-LABEL: func.func @dynamic_rows_slice
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[D:[^:]+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[LEN:.+]] = arith.muli %[[D]], %[[C8]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[LEN]]}
// CHECK: %[[OFF:.+]] = arith.muli %[[D]], %[[C4]] : index
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[ARG]] : !hal.buffer)[%[[OFF]]] target(%[[OUT]] : !hal.buffer)[%[[C0]]] length(%[[LEN]])
// CHECK-NEXT: hal.command_buffer.end
func.func @dynamic_rows_slice(%arg0: tensor<4x?xf32>, %d: index) -> tensor<2x?xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %d) : (tensor<4x?xf32>{%d}, index) -> tensor<2x?xf32>{%d} =
      (%a: tensor<4x?xf32>, %id: index) -> tensor<2x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %1 = flow.tensor.slice %a[%c1, %c0 for %c2, %id] : tensor<4x?xf32>{%id} -> tensor<2x?xf32>{%id}
    flow.return %1 : tensor<2x?xf32>
  }
  return %0 : tensor<2x?xf32>
}

// -----

// An update of whole rows into a dynamic 4x?xf32 target whose dims are the
// fragment's dim argument: contiguous, one copy to byte 3 * d * 4.
// CHECK-LABEL: func.func @dynamic_rows_update
// CHECK-SAME: (%[[T:[^:]+]]: !hal.buffer, %[[U:[^:]+]]: !hal.buffer, %[[D:[^:]+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[OFF:.+]] = arith.muli %[[D]], %[[C12]] : index
// CHECK-DAG: %[[LEN:.+]] = arith.muli %[[D]], %[[C4]] : index
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[U]] : !hal.buffer)[%[[C0]]] target(%[[T]] : !hal.buffer)[%[[OFF]]] length(%[[LEN]])
// CHECK-NEXT: hal.command_buffer.end
// CHECK: return %[[T]] : !hal.buffer
func.func @dynamic_rows_update(%t: tensor<4x?xf32>, %u: tensor<1x?xf32>, %d: index) -> tensor<4x?xf32> {
  %0 = flow.ex.stream.fragment(%t, %u, %d) : (tensor<4x?xf32>{%d}, tensor<1x?xf32>{%d}, index) -> %t =
      (%it: tensor<4x?xf32>, %iu: tensor<1x?xf32>, %id: index) -> tensor<4x?xf32> {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %1 = flow.tensor.update %iu, %it[%c3, %c0] : tensor<1x?xf32>{%id} -> %it as tensor<4x?xf32>{%id}
    flow.return %1 : tensor<4x?xf32>
  }
  return %0 : tensor<4x?xf32>
}
