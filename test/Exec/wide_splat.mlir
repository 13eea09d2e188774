// Splats of 8-byte elements are lowered to two 4-byte fills and doubling
// copies; the executor proves the lowered command buffers write the same
// bytes as the splat, in every order the barriers allow.
// RUN: hal-exec %s --split-input-file --check-lowering --orders=4 | FileCheck %s --check-prefix=LOWER
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4 | FileCheck %s --check-prefix=LOWER
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-verify-command-buffers,hal-pack-allocations{strategy=in-order},canonicalize' --orders=4 | FileCheck %s --check-prefix=LOWER
// RUN: hal-exec %s --split-input-file --function=static_lengths --print-bytes | FileCheck %s --check-prefix=BYTES

// Dynamic lengths: 0, 1, 3, 5, 7, 16 and 17 elements of a runtime i64 whose
// halves differ, and 3, 5 and 7 rows of three f64 values.
// RUN: for n in 0 1 3 5 7 16 17; do hal-exec %s --split-input-file --function=dynamic_i64 --input=-4294967294 --input=$n --check-lowering --orders=4; done | FileCheck %s --check-prefix=DYNAMIC-I64
// RUN: for n in 3 5 7; do hal-exec %s --split-input-file --function=dynamic_f64 --input=-2.75 --input=$n '--check-lowering=convert-flow-to-hal{barriers=hazard},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4; done | FileCheck %s --check-prefix=DYNAMIC-F64
// RUN: hal-exec %s --split-input-file --function=dynamic_i64 --input=-4294967294 --input=3 --print-bytes | FileCheck %s --check-prefix=DYNAMIC-BYTES

// LOWER: @static_lengths: the HAL level matches
// BYTES-LABEL: @static_lengths result 0: 3xi64
// BYTES-NEXT: bytes: 02 00 00 00 01 00 00 00 02 00 00 00 01 00 00 00 02 00 00 00 01 00 00 00
// BYTES-NEXT: @static_lengths result 1: 5xf64
// BYTES-NEXT: bytes: 00 00 00 00 00 00 f8 bf 00 00 00 00 00 00 f8 bf 00 00 00 00 00 00 f8 bf 00 00 00 00 00 00 f8 bf 00 00 00 00 00 00 f8 bf
// BYTES-NEXT: @static_lengths result 2: 7x1xi64
// BYTES-NEXT: bytes: ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00 ff ff ff ff 00 00 00 00{{$}}
// BYTES-NEXT: @static_lengths result 3: 0xi64
func.func @static_lengths() -> (tensor<3xi64>, tensor<5xf64>, tensor<7x1xi64>, tensor<0xi64>) {
  %0:4 = flow.ex.stream.fragment() : () -> (tensor<3xi64>, tensor<5xf64>, tensor<7x1xi64>, tensor<0xi64>) =
      () -> (tensor<3xi64>, tensor<5xf64>, tensor<7x1xi64>, tensor<0xi64>) {
    %a = arith.constant 4294967298 : i64
    %b = arith.constant -1.5 : f64
    %c = arith.constant 4294967295 : i64
    %1 = flow.tensor.splat %a : tensor<3xi64>
    %2 = flow.tensor.splat %b : tensor<5xf64>
    %3 = flow.tensor.splat %c : tensor<7x1xi64>
    %4 = flow.tensor.splat %a : tensor<0xi64>
    flow.return %1, %2, %3, %4 : tensor<3xi64>, tensor<5xf64>, tensor<7x1xi64>, tensor<0xi64>
  }
  return %0#0, %0#1, %0#2, %0#3 : tensor<3xi64>, tensor<5xf64>, tensor<7x1xi64>, tensor<0xi64>
}

// -----

// A wide splat next to other commands of the fragment: the copies of one
// splat do not disturb a 4-byte splat and a clone recorded around them.
// LOWER: @mixed: the HAL level matches
func.func @mixed(%v: i64) -> (tensor<5xi64>, tensor<6xi32>, tensor<5xi64>) {
  %0:3 = flow.ex.stream.fragment(%v) : (i64) -> (tensor<5xi64>, tensor<6xi32>, tensor<5xi64>) =
      (%iv: i64) -> (tensor<5xi64>, tensor<6xi32>, tensor<5xi64>) {
    %c = arith.constant 9 : i32
    %1 = flow.tensor.splat %iv : tensor<5xi64>
    %2 = flow.tensor.splat %c : tensor<6xi32>
    %3 = flow.tensor.clone %1 : tensor<5xi64>
    flow.return %1, %2, %3 : tensor<5xi64>, tensor<6xi32>, tensor<5xi64>
  }
  return %0#0, %0#1, %0#2 : tensor<5xi64>, tensor<6xi32>, tensor<5xi64>
}

// -----

// LOWER: @dynamic_i64: the HAL level matches
// DYNAMIC-I64-COUNT-7: @dynamic_i64: the HAL level matches
// DYNAMIC-BYTES: @dynamic_i64 result 0: 3xi64
// DYNAMIC-BYTES-NEXT: bytes: 02 00 00 00 ff ff ff ff 02 00 00 00 ff ff ff ff 02 00 00 00 ff ff ff ff
func.func @dynamic_i64(%v: i64, %n: index) -> tensor<?xi64> {
  %0 = flow.ex.stream.fragment(%v, %n) : (i64, index) -> tensor<?xi64>{%n} =
      (%iv: i64, %in: index) -> tensor<?xi64> {
    %1 = flow.tensor.splat %iv : tensor<?xi64>{%in}
    flow.return %1 : tensor<?xi64>
  }
  return %0 : tensor<?xi64>
}

// -----

// LOWER: @dynamic_f64: the HAL level matches
// DYNAMIC-F64-COUNT-3: @dynamic_f64: the HAL level matches
func.func @dynamic_f64(%v: f64, %n: index) -> tensor<?x3xf64> {
  %0 = flow.ex.stream.fragment(%v, %n) : (f64, index) -> tensor<?x3xf64>{%n} =
      (%iv: f64, %in: index) -> tensor<?x3xf64> {
    %1 = flow.tensor.splat %iv : tensor<?x3xf64>{%in}
    flow.return %1 : tensor<?x3xf64>
  }
  return %0 : tensor<?x3xf64>
}
