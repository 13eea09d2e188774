// RUN: hal-exec %s --print-values --input=i32=-7 --input=index=5 | FileCheck %s
// RUN: hal-exec %s --print-values --input=i32=-7 --input=index=5 --check-lowering | FileCheck %s --check-prefix=LOWER

// --print-values prints a scalar result by its value (a digest alone says
// nothing of an index a size query returns).

// CHECK-LABEL: @scalars result 0: i32
// CHECK-NEXT: value: -7
// CHECK-NEXT: @scalars result 1: index
// CHECK-NEXT: value: 40
// CHECK-NEXT: @scalars result 2: f32
// CHECK-NEXT: value: 1.5
// LOWER: @scalars: the HAL level matches
func.func @scalars(%a: i32, %n: index) -> (i32, index, f32) {
  %c8 = arith.constant 8 : index
  %bytes = arith.muli %n, %c8 : index
  %half = arith.constant 1.5 : f32
  return %a, %bytes, %half : i32, index, f32
}
