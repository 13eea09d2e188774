// A module the lowering rejects makes hal-opt exit non-zero, with the
// diagnostic on stderr, and an existing -o file left untouched.
// RUN: rm -f %t
// RUN: not hal-opt %s --convert-flow-to-hal -o %t 2>&1 | FileCheck %s
// RUN: not ls %t
// RUN: echo "previous contents" > %t
// RUN: not hal-opt %s --convert-flow-to-hal -o %t 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KEPT < %t
// KEPT: previous contents

// CHECK: error: 'flow.tensor.splat' op splats 'i64' values
func.func @splat_i64(%v: i64) -> tensor<4xi64> {
  %0 = flow.ex.stream.fragment(%v) : (i64) -> tensor<4xi64> =
      (%iv: i64) -> tensor<4xi64> {
    %1 = flow.tensor.splat %iv : tensor<4xi64>
    flow.return %1 : tensor<4xi64>
  }
  return %0 : tensor<4xi64>
}
