// A result and a buffer view of the same value are one value: returning
// both must not be reported as aliasing results (test/Exec/oracle.test).
func.func @cast_twice(%t: tensor<4xf32>) -> (tensor<4xf32>, !hal.buffer_view) {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<4xf32>
    flow.return %s : tensor<4xf32>
  }
  %v = hal.tensor.cast %0 : tensor<4xf32> -> !hal.buffer_view
  return %0, %v : tensor<4xf32>, !hal.buffer_view
}
