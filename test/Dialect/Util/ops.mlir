// RUN: hal-opt %s -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file | hal-opt -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file --mlir-print-op-generic | hal-opt -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file | FileCheck %s --strict-whitespace --check-prefix=SPACES

// Round trip of every util op and attribute of the dialect spec (dialects.md).

// Exactly one space around the visibility keyword, and none doubled when it
// is missing.
// SPACES: {{^}}  util.global private @pool : !hal.buffer{{$}}
// SPACES: {{^}}  util.global public mutable @v : tensor<i32>{{$}}
// SPACES: {{^}}  util.global @nv : !hal.device{{$}}
// SPACES: {{^}}  util.global mutable @nm = 1 : i32{{$}}

// CHECK-LABEL: util.global private @pool : !hal.buffer
util.global private @pool : !hal.buffer
// CHECK-NEXT: util.global public mutable @v : tensor<i32>
util.global public mutable @v : tensor<i32>
// CHECK-NEXT: util.global private @c = dense<1> : tensor<i32>
util.global private @c = dense<1> : tensor<i32>
// CHECK-NEXT: util.global private mutable @m = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
util.global private mutable @m = dense<[1.0, 2.0]> : tensor<2xf32>
// CHECK-NEXT: util.global nested @n : index
util.global nested @n : index
// CHECK-NEXT: util.global @nv : !hal.device
util.global @nv : !hal.device
// An initial value that is not typed is printed after the type.
// CHECK-NEXT: util.global private @r : index = #util.byte_range<0, 32>
util.global private @r : index = #util.byte_range<0, 32>
// An explicit type equal to the initial value's type is printed once.
// CHECK-NEXT: util.global private @t = 7 : index
util.global private @t : index = 7 : index
// CHECK-NEXT: util.global private @a {some.attr = 1 : i64} : i32
util.global private @a {some.attr = 1 : i64} : i32
// CHECK-NEXT: util.global mutable @nm = 1 : i32
util.global mutable @nm = 1 : i32

// -----

util.global private @buffer : !hal.buffer
util.global public mutable @counter : tensor<i32>

// CHECK-LABEL: func.func @load_store
func.func @load_store() -> !hal.buffer {
  // CHECK: %[[B:.+]] = util.global.load @buffer : !hal.buffer
  %b = util.global.load @buffer : !hal.buffer
  // CHECK-NEXT: %[[C:.+]] = util.global.load @counter : tensor<i32>
  %c = util.global.load @counter : tensor<i32>
  // CHECK-NEXT: util.global.store %[[C]], @counter : tensor<i32>
  util.global.store %c, @counter : tensor<i32>
  // CHECK-NEXT: return %[[B]] : !hal.buffer
  return %b : !hal.buffer
}

// -----

// CHECK-LABEL: func.func @byte_ranges
// CHECK-SAME: r0 = #util.byte_range<0, 0>
// CHECK-SAME: r1 = #util.byte_range<16, 64>
// CHECK-SAME: r2 = #util.byte_range<9223372036854775806, 1>
func.func @byte_ranges() attributes {
    r0 = #util.byte_range<0, 0>,
    r1 = #util.byte_range<16, 64>,
    r2 = #util.byte_range<9223372036854775806, 1>} {
  return
}

// -----

// A !hal.buffer global takes its initial contents from a typed attribute.

// CHECK-LABEL: util.global private @buffer_with_contents : !hal.buffer = dense<[1, 2]> : tensor<2xi32>
util.global private @buffer_with_contents : !hal.buffer = dense<[1, 2]> : tensor<2xi32>

// -----

// Pointers to globals and indirect access through them.

util.global private mutable @slot : tensor<4xf32>

// CHECK-LABEL: func.func @indirect
func.func @indirect() -> !util.ptr<tensor<4xf32>> {
  // CHECK: %[[P:.+]] = util.global.address @slot : !util.ptr<tensor<4xf32>>
  %p = util.global.address @slot : !util.ptr<tensor<4xf32>>
  // CHECK-NEXT: %[[V:.+]] = util.global.load.indirect %[[P]] : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
  %v = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
  // CHECK-NEXT: util.global.store.indirect %[[V]], %[[P]] : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
  util.global.store.indirect %v, %p : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
  // CHECK-NEXT: return %[[P]] : !util.ptr<tensor<4xf32>>
  return %p : !util.ptr<tensor<4xf32>>
}

// -----

// A pointer that does not come from util.global.address (here an argument)
// may be stored through: which global it addresses is not known.

// CHECK-LABEL: func.func @store_through_argument
// CHECK-SAME: (%[[P:.+]]: !util.ptr<!hal.buffer>, %[[B:.+]]: !hal.buffer)
func.func @store_through_argument(%p: !util.ptr<!hal.buffer>, %b: !hal.buffer) {
  // CHECK-NEXT: util.global.store.indirect %[[B]], %[[P]] : !hal.buffer -> !util.ptr<!hal.buffer>
  util.global.store.indirect %b, %p : !hal.buffer -> !util.ptr<!hal.buffer>
  return
}

// -----

util.global private mutable @initialized : tensor<i32>

// CHECK-LABEL: util.initializer {
// CHECK-NEXT:   %[[C:.+]] = arith.constant dense<3> : tensor<i32>
// CHECK-NEXT:   util.global.store %[[C]], @initialized : tensor<i32>
// CHECK-NEXT:   util.return
// CHECK-NEXT: }
util.initializer {
  %c = arith.constant dense<3> : tensor<i32>
  util.global.store %c, @initialized : tensor<i32>
  util.return
}

// An initializer with attributes prints them after `attributes`.
// CHECK-LABEL: util.initializer attributes {some.attr} {
// CHECK-NEXT:   util.return
util.initializer attributes {some.attr} {
  util.return
}
