// RUN: hal-opt %s -split-input-file --canonicalize | FileCheck %s

// Fragment operands: constants sink into the body, duplicates merge, unused
// operands go, and result ties follow the operands they name.

// CHECK-LABEL: func.func @sink_constants
// CHECK-SAME: (%[[T:.+]]: tensor<8xi32>)
// CHECK: flow.ex.stream.fragment(%[[T]]) : (tensor<8xi32>) -> tensor<2xi32> =
// CHECK-SAME: (%[[A:.+]]: tensor<8xi32>) -> tensor<2xi32> {
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: flow.tensor.slice %[[A]][%[[C3]] for %[[C2]]]
func.func @sink_constants(%arg0: tensor<8xi32>) -> tensor<2xi32> {
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %0 = flow.ex.stream.fragment(%c3, %arg0, %c2) : (index, tensor<8xi32>, index) -> tensor<2xi32> =
      (%i3: index, %a: tensor<8xi32>, %i2: index) -> tensor<2xi32> {
    %1 = flow.tensor.slice %a[%i3 for %i2] : tensor<8xi32> -> tensor<2xi32>
    flow.return %1 : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}

// -----

// A float constant sinks too; a non-constant scalar stays.
// CHECK-LABEL: func.func @sink_float_keep_argument
// CHECK-SAME: (%[[N:.+]]: index)
// CHECK: flow.ex.stream.fragment(%[[N]]) : (index) -> tensor<?xf32>{%[[N]]} =
// CHECK-SAME: (%[[IN:.+]]: index) -> tensor<?xf32> {
// CHECK: %[[F:.+]] = arith.constant 1.5{{.*}} : f32
// CHECK: flow.tensor.splat %[[F]] : tensor<?xf32>{%[[IN]]}
func.func @sink_float_keep_argument(%n: index) -> tensor<?xf32> {
  %f = arith.constant 1.5 : f32
  %0 = flow.ex.stream.fragment(%f, %n) : (f32, index) -> tensor<?xf32>{%n} =
      (%if: f32, %in: index) -> tensor<?xf32> {
    %1 = flow.tensor.splat %if : tensor<?xf32>{%in}
    flow.return %1 : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// The same tensor and the same index passed twice become one operand each;
// the unused %m goes.
// CHECK-LABEL: func.func @merge_duplicates
// CHECK-SAME: (%[[T:.+]]: tensor<?xf32>, %[[N:.+]]: index, %[[M:.+]]: index)
// CHECK: flow.ex.stream.fragment(%[[T]], %[[N]]) : (tensor<?xf32>{%[[N]]}, index) -> (tensor<?xf32>{%[[N]]}, tensor<?xf32>{%[[N]]}) =
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[IN:.+]]: index) -> (tensor<?xf32>, tensor<?xf32>) {
// CHECK: %[[C0:.+]] = flow.tensor.clone %[[A]] : tensor<?xf32>{%[[IN]]}
// CHECK: %[[C1:.+]] = flow.tensor.clone %[[A]] : tensor<?xf32>{%[[IN]]}
// CHECK: flow.return %[[C0]], %[[C1]]
func.func @merge_duplicates(%arg0: tensor<?xf32>, %n: index, %m: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %0:2 = flow.ex.stream.fragment(%arg0, %n, %m, %arg0, %n) : (tensor<?xf32>{%n}, index, index, tensor<?xf32>{%n}, index) -> (tensor<?xf32>{%n}, tensor<?xf32>{%n}) =
      (%a: tensor<?xf32>, %in: index, %im: index, %b: tensor<?xf32>, %jn: index) -> (tensor<?xf32>, tensor<?xf32>) {
    %1 = flow.tensor.clone %a : tensor<?xf32>{%in}
    %2 = flow.tensor.clone %b : tensor<?xf32>{%jn}
    flow.return %1, %2 : tensor<?xf32>, tensor<?xf32>
  }
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// Dropping operand 0 moves the tie of the result from operand 2 to 1; a
// result tied to a merged duplicate is tied to the operand that stays.
// CHECK-LABEL: func.func @ties_follow_operands
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>, %[[Y:.+]]: tensor<4xi32>)
// CHECK: flow.ex.stream.fragment(%[[Y]], %[[X]]) : (tensor<4xi32>, tensor<4xi32>) -> (%[[X]], %[[Y]]) =
func.func @ties_follow_operands(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %c1 = arith.constant 1 : index
  %0:2 = flow.ex.stream.fragment(%c1, %y, %x, %y) : (index, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> (%x, %y) =
      (%i1: index, %a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
    %s = flow.tensor.slice %a[%i1 for %i1] : tensor<4xi32> -> tensor<1xi32>
    %1 = flow.tensor.update %s, %b[%i1] : tensor<1xi32> -> %b as tensor<4xi32>
    flow.return %1, %c : tensor<4xi32>, tensor<4xi32>
  }
  return %0#0, %0#1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// Nothing to simplify: the fragment is left as it is.
// CHECK-LABEL: func.func @already_minimal
// CHECK: flow.ex.stream.fragment(%arg0, %arg1, %arg2) : (tensor<4xf32>, f32, index) -> %arg0
func.func @already_minimal(%arg0: tensor<4xf32>, %v: f32, %o: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %v, %o) : (tensor<4xf32>, f32, index) -> %arg0 =
      (%a: tensor<4xf32>, %iv: f32, %io: index) -> tensor<4xf32> {
    %1 = flow.tensor.splat %iv : tensor<1xf32>
    %2 = flow.tensor.update %1, %a[%io] : tensor<1xf32> -> %a as tensor<4xf32>
    flow.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
