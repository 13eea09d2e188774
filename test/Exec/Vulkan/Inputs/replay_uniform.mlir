// A splat of a scalar argument: memoized, the fill's pattern is the
// recording's only uniform, and every call (another seed) binds another.
func.func @splat(%k: i32) -> tensor<16xi32> {
  %r = flow.ex.stream.fragment(%k) : (i32) -> tensor<16xi32> =
      (%v: i32) -> tensor<16xi32> {
    %s = flow.tensor.splat %v : tensor<16xi32>
    flow.return %s : tensor<16xi32>
  }
  return %r : tensor<16xi32>
}
