// A module the lowering rejects makes hal-opt exit non-zero, with the
// diagnostic on stderr, and an existing -o file left untouched.
// RUN: rm -f %t
// RUN: not hal-opt %s --convert-flow-to-hal -o %t 2>&1 | FileCheck %s
// RUN: not ls %t
// RUN: echo "previous contents" > %t
// RUN: not hal-opt %s --convert-flow-to-hal -o %t 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KEPT < %t
// KEPT: previous contents

// CHECK: error: 'flow.tensor.splat' op splats 'i128' values
func.func @splat_i128(%v: i128) -> tensor<4xi128> {
  %0 = flow.ex.stream.fragment(%v) : (i128) -> tensor<4xi128> =
      (%iv: i128) -> tensor<4xi128> {
    %1 = flow.tensor.splat %iv : tensor<4xi128>
    flow.return %1 : tensor<4xi128>
  }
  return %0 : tensor<4xi128>
}
