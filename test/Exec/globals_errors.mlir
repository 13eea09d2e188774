// RUN: not hal-exec %s --split-input-file 2>&1 | FileCheck %s

// Errors of pointers and initializers are located diagnostics, never aborts.

// The verifier cannot see which global a pointer passed to a function
// addresses; the store into the immutable global fails when it runs.
// CHECK-LABEL: error: stores through a pointer to immutable global @constant
// CHECK: error: failed in the call to @store
util.global private @constant = dense<1> : tensor<i32>
func.func private @store(%p: !util.ptr<tensor<i32>>, %v: tensor<i32>) {
  util.global.store.indirect %v, %p : tensor<i32> -> !util.ptr<tensor<i32>>
  return
}
func.func @store_into_constant(%v: tensor<i32>) {
  %p = util.global.address @constant : !util.ptr<tensor<i32>>
  func.call @store(%p, %v) : (!util.ptr<tensor<i32>>, tensor<i32>) -> ()
  return
}

// -----

// A failing initializer fails the load of the module, so no function runs.
// CHECK-LABEL: 'arith.addf' op is not supported by the executor
// CHECK: error: failed, so the module cannot be loaded
// CHECK-NOT: @never result
util.global private mutable @g : f32
util.initializer {
  %c = arith.constant 1.0 : f32
  %s = arith.addf %c, %c : f32
  util.global.store %s, @g : f32
  util.return
}
func.func @never() -> index {
  %c = arith.constant 1 : index
  return %c : index
}

// -----

// A splat initial value is one element in the IR, but the executor would
// expand it: its size is checked first (this one took minutes before).
// CHECK-LABEL: error: reads global @huge whose initial value of type 'tensor<4611686018427387904xbf16>' is too large for the executor (4 GiB at most)
util.global private @huge = dense<1.0> : tensor<4611686018427387904xbf16>
func.func @huge_splat_global() -> tensor<4611686018427387904xbf16> {
  %w = util.global.load @huge : tensor<4611686018427387904xbf16>
  return %w : tensor<4611686018427387904xbf16>
}
