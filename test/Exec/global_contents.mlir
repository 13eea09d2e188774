// A !hal.buffer global with initial contents: hal.constant.subspan reads
// those bytes at the flow level, as the HAL level's util.global.load does
// (the flow level once read the seeded stream of a global without
// contents instead). --print-values prints the elements; --lower runs the
// lowered HAL level alone.

// RUN: hal-exec %s --print-values | FileCheck %s --check-prefix=FLOW
// FLOW: @read result 0: 2xi32 [[DIGEST:0x[0-9a-f]+]]
// FLOW-NEXT: values: 3 -4
// FLOW: @read_float result 0: 3xf32
// FLOW-NEXT: values: 1.5 -0.25 3.14159274

// RUN: hal-exec %s --check-lowering | FileCheck %s --check-prefix=MATCH
// MATCH: @read: the HAL level matches
// MATCH: @read_float: the HAL level matches

// A returned !hal.buffer has no element type: no values.
// RUN: hal-exec %s --lower --print-values --function=read | FileCheck %s --check-prefix=LOWER
// LOWER: @read result 0: buffer<8 bytes> [[DIGEST:0x[0-9a-f]+]]
// LOWER-NOT: values

// RUN: not hal-exec %s --lower --check-lowering 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: hal-exec: --lower runs the lowered module alone; drop --check-lowering and --check-against

util.global private @pool : !hal.buffer = dense<[1, 2, 3, -4, 5, 6]> : tensor<6xi32>
util.global private @floats : !hal.buffer = dense<[0.0, 1.5, -0.25, 3.14159265]> : tensor<4xf32>

func.func @read() -> tensor<2xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2xi32> = () -> tensor<2xi32> {
    %c = hal.constant.subspan @pool[#util.byte_range<8, 8>] : tensor<2xi32>
    %s = flow.tensor.clone %c : tensor<2xi32>
    flow.return %s : tensor<2xi32>
  }
  return %0 : tensor<2xi32>
}

func.func @read_float() -> tensor<3xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<3xf32> = () -> tensor<3xf32> {
    %c = hal.constant.subspan @floats[#util.byte_range<4, 12>] : tensor<3xf32>
    %s = flow.tensor.clone %c : tensor<3xf32>
    flow.return %s : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}
