// RUN: hal-opt %s -split-input-file --convert-flow-to-hal -verify-diagnostics

// Boxes of slices and updates that are refused: bounds known through
// fragment operands, length operands that contradict the types, and boxes
// whose contiguity cannot be decided.

// IREE's own regression case: the offsets [4, 1, 1] are passed in, and a
// 1x1x10 update at row 4, column 1 of a 5x1x10 tensor runs past its end.
func.func @update_out_of_bounds_through_operands(%arg0: tensor<5x1x10xf32>, %arg1: tensor<1x1x10xf32>) -> tensor<5x1x10xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%arg0, %arg1, %c4, %c1) : (tensor<5x1x10xf32>, tensor<1x1x10xf32>, index, index) -> %arg0 =
      (%a: tensor<5x1x10xf32>, %u: tensor<1x1x10xf32>, %i4: index, %i1: index) -> tensor<5x1x10xf32> {
    // expected-error @+1 {{copies a box out of bounds of 'tensor<5x1x10xf32>': dimension 1 spans [1, 2) but has 1 elements}}
    %1 = flow.tensor.update %u, %a[%i4, %i1, %i1] : tensor<1x1x10xf32> -> %a as tensor<5x1x10xf32>
    flow.return %1 : tensor<5x1x10xf32>
  }
  return %0 : tensor<5x1x10xf32>
}

// -----

// The lengths are values, but the result type says 3 rows: starting at row
// 6 of 8 they run past the end.
func.func @slice_out_of_bounds_type_lengths(%arg0: tensor<8x4xi32>, %l: index) -> tensor<3x4xi32> {
  %c6 = arith.constant 6 : index
  %0 = flow.ex.stream.fragment(%arg0, %c6, %l) : (tensor<8x4xi32>, index, index) -> tensor<3x4xi32> =
      (%a: tensor<8x4xi32>, %i6: index, %il: index) -> tensor<3x4xi32> {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{copies a box out of bounds of 'tensor<8x4xi32>': dimension 0 spans [6, 9) but has 8 elements}}
    %1 = flow.tensor.slice %a[%i6, %c0 for %il, %il] : tensor<8x4xi32> -> tensor<3x4xi32>
    flow.return %1 : tensor<3x4xi32>
  }
  return %0 : tensor<3x4xi32>
}

// -----

// A dynamic outer dim known through the operands bounds the box too.
func.func @slice_out_of_bounds_dynamic_outer(%arg0: tensor<?x4xi32>) -> tensor<2x4xi32> {
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %0 = flow.ex.stream.fragment(%arg0, %c3, %c2) : (tensor<?x4xi32>{%c3}, index, index) -> tensor<2x4xi32> =
      (%a: tensor<?x4xi32>, %i3: index, %i2: index) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{dimension 0 spans [2, 4) but has 3 elements}}
    %1 = flow.tensor.slice %a[%i2, %c0 for %i2, %c4] : tensor<?x4xi32>{%i3} -> tensor<2x4xi32>
    flow.return %1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

func.func @negative_start_through_operand(%arg0: tensor<8xi32>) -> tensor<2xi32> {
  %cm1 = arith.constant -1 : index
  %0 = flow.ex.stream.fragment(%arg0, %cm1) : (tensor<8xi32>, index) -> tensor<2xi32> =
      (%a: tensor<8xi32>, %s: index) -> tensor<2xi32> {
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{has start index -1 in dimension 0, below 0}}
    %1 = flow.tensor.slice %a[%s for %c2] : tensor<8xi32> -> tensor<2xi32>
    flow.return %1 : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}

// -----

func.func @length_operand_contradicts_type(%arg0: tensor<8x4xi32>) -> tensor<2x4xi32> {
  %c3 = arith.constant 3 : index
  %0 = flow.ex.stream.fragment(%arg0, %c3) : (tensor<8x4xi32>, index) -> tensor<2x4xi32> =
      (%a: tensor<8x4xi32>, %i3: index) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{has length operand 3 in dimension 0 but its result type 'tensor<2x4xi32>' has 2}}
    %1 = flow.tensor.slice %a[%c0, %c0 for %i3, %c4] : tensor<8x4xi32> -> tensor<2x4xi32>
    flow.return %1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

// A ?x2 box of 8x4 rows is one run when it has a single row and several
// runs otherwise: its contiguity depends on the dynamic row count, and the
// error must not call it non-contiguous.
func.func @contiguity_depends_on_dynamic_length(%arg0: tensor<8x4xi32>, %n: index) -> tensor<?x2xi32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<8x4xi32>, index) -> tensor<?x2xi32>{%n} =
      (%a: tensor<8x4xi32>, %in: index) -> tensor<?x2xi32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{copies a box of 'tensor<8x4xi32>' whose contiguity depends on dynamic sizes (dimension 0)}}
    %1 = flow.tensor.slice %a[%c0, %c0 for %in, %c2] : tensor<8x4xi32> -> tensor<?x2xi32>{%in}
    flow.return %1 : tensor<?x2xi32>
  }
  return %0 : tensor<?x2xi32>
}
