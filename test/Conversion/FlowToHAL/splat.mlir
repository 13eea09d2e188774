// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file --check-lowering --dims=1
// RUN: hal-exec %s --split-input-file --check-lowering --dims=6
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

// i8 1 is repeated 4 times: 0x01010101.
// CHECK-LABEL: func.func @splat_i8(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 16843009 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i8(%unused: index) -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<16xi8> =
      (%iunused: index) -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  return %0 : tensor<16xi8>
}

// -----

// i8 -2 is zero-extended, then repeated: 0xFEFEFEFE.
// CHECK-LABEL: func.func @splat_i8_negative(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant -16843010 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i8_negative(%unused: index) -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<16xi8> =
      (%iunused: index) -> tensor<16xi8> {
    %c = arith.constant -2 : i8
    %1 = flow.tensor.splat %c : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  return %0 : tensor<16xi8>
}

// -----

// i16 258 = 0x0102 is repeated twice: 0x01020102.
// CHECK-LABEL: func.func @splat_i16(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 16908546 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i16(%unused: index) -> tensor<8xi16> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<8xi16> =
      (%iunused: index) -> tensor<8xi16> {
    %c = arith.constant 258 : i16
    %1 = flow.tensor.splat %c : tensor<8xi16>
    flow.return %1 : tensor<8xi16>
  }
  return %0 : tensor<8xi16>
}

// -----

// i32 is the pattern as is.
// CHECK-LABEL: func.func @splat_i32(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant -7 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i32(%unused: index) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<4xi32> =
      (%iunused: index) -> tensor<4xi32> {
    %c = arith.constant -7 : i32
    %1 = flow.tensor.splat %c : tensor<4xi32>
    flow.return %1 : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

// f16 1.0 = 0x3C00 is bitcast then repeated: 0x3C003C00.
// CHECK-LABEL: func.func @splat_f16(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 1006648320 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_f16(%unused: index) -> tensor<8xf16> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<8xf16> =
      (%iunused: index) -> tensor<8xf16> {
    %c = arith.constant 1.0 : f16
    %1 = flow.tensor.splat %c : tensor<8xf16>
    flow.return %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

// f32 1.0 is bitcast: 0x3F800000.
// CHECK-LABEL: func.func @splat_f32(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 1065353216 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_f32(%unused: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<4xf32> =
      (%iunused: index) -> tensor<4xf32> {
    %c = arith.constant 1.0 : f32
    %1 = flow.tensor.splat %c : tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A dynamic shape and a runtime value: the pattern is computed on the host.
// Fills take 4-byte aligned lengths: the output is allocated with its size
// rounded up to 4, filled whole, and returned as its first SIZE bytes.
// CHECK-LABEL: func.func @splat_dynamic
// CHECK-SAME: (%[[V:[^:]+]]: i8, %[[N:[^:]+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[REPEAT:.+]] = arith.constant 16843009 : i32
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C3]] : index
// CHECK: %[[PLUS3:.+]] = arith.addi %[[SIZE]], %[[C3]] : index
// CHECK: %[[ALIGNED:.+]] = arith.andi %[[PLUS3]], %{{.+}} : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[ALIGNED]]}
// CHECK: %[[RESULT:.+]] = hal.buffer.subspan<%[[OUT]] : !hal.buffer>[%[[C0]], %[[SIZE]]]
// CHECK: %[[EXT:.+]] = arith.extui %[[V]] : i8 to i32
// CHECK: %[[PATTERN:.+]] = arith.muli %[[EXT]], %[[REPEAT]] : i32
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[ALIGNED]]] pattern(%[[PATTERN]] : i32)
// CHECK: return %[[RESULT]]
func.func @splat_dynamic(%v: i8, %n: index) -> tensor<?x3xi8> {
  %0 = flow.ex.stream.fragment(%v, %n) : (i8, index) -> tensor<?x3xi8>{%n} =
      (%iv: i8, %in: index) -> tensor<?x3xi8> {
    %1 = flow.tensor.splat %iv : tensor<?x3xi8>{%in}
    flow.return %1 : tensor<?x3xi8>
  }
  return %0 : tensor<?x3xi8>
}

// -----

// i1 takes a byte: true is 0x01010101, 5 bytes for 5 elements, in an
// 8-byte allocation filled whole (fills take 4-byte aligned lengths).
// CHECK-LABEL: func.func @splat_i1(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[ALIGNED:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 16843009 : i32
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[ALIGNED]]}
// CHECK: %[[RESULT:.+]] = hal.buffer.subspan<%[[OUT]] : !hal.buffer>[%[[C0]], %[[SIZE]]]
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK-NEXT: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[ALIGNED]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i1(%unused: index) -> tensor<5xi1> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<5xi1> =
      (%iunused: index) -> tensor<5xi1> {
    %true = arith.constant true
    %1 = flow.tensor.splat %true : tensor<5xi1>
    flow.return %1 : tensor<5xi1>
  }
  return %0 : tensor<5xi1>
}

// -----

// 64-bit elements whose constant value has two equal 32-bit halves are one
// 4-byte fill of that half: -1 as i64, 0.0 as f64, and 0x0000000500000005
// passed in as a fragment operand.
// CHECK-LABEL: func.func @splat_wide_equal_halves
// CHECK-DAG: %[[CM1:.+]] = arith.constant -1 : i32
// CHECK-DAG: %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : i32
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: fill_buffer<{{.+}}, %[[C32]]{{\]}} pattern(%[[CM1]] : i32)
// CHECK: fill_buffer<{{.+}}, %[[C32]]{{\]}} pattern(%[[CZ]] : i32)
// CHECK: fill_buffer<{{.+}}, %[[C32]]{{\]}} pattern(%[[C5]] : i32)
func.func @splat_wide_equal_halves(%unused: index) -> (tensor<4xi64>, tensor<4xf64>, tensor<4xi64>) {
  %five = arith.constant 21474836485 : i64
  %0:3 = flow.ex.stream.fragment(%unused, %five) : (index, i64) -> (tensor<4xi64>, tensor<4xf64>, tensor<4xi64>) =
      (%iunused: index, %ifive: i64) -> (tensor<4xi64>, tensor<4xf64>, tensor<4xi64>) {
    %m1 = arith.constant -1 : i64
    %z = arith.constant 0.0 : f64
    %1 = flow.tensor.splat %m1 : tensor<4xi64>
    %2 = flow.tensor.splat %z : tensor<4xf64>
    %3 = flow.tensor.splat %ifive : tensor<4xi64>
    flow.return %1, %2, %3 : tensor<4xi64>, tensor<4xf64>, tensor<4xi64>
  }
  return %0#0, %0#1, %0#2 : tensor<4xi64>, tensor<4xf64>, tensor<4xi64>
}

// -----

// i64 0x00000001_00000002, 5 elements (40 bytes): the first element's low
// and high halves, then copies doubling the filled prefix, the last one
// clamped to the 8 bytes left. Each copy reads what the command before it
// wrote, so a barrier goes before it; the last copy only reads
// the first element, which the one before it does not write.
// CHECK-LABEL: func.func @splat_i64_unequal_static(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[LOW:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[HIGH:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 40 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer<{{.+}}> target(%[[OUT]] : !hal.buffer)[%[[C0]], %[[C4]]] pattern(%[[LOW]] : i32)
// CHECK-NEXT: fill_buffer<{{.+}}> target(%[[OUT]] : !hal.buffer)[%[[C4]], %[[C4]]] pattern(%[[HIGH]] : i32)
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}}> source(%[[OUT]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C8]]] length(%[[C8]])
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}}> source(%[[OUT]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C16]]] length(%[[C16]])
// CHECK-NEXT: copy_buffer<{{.+}}> source(%[[OUT]] : !hal.buffer)[%[[C0]]] target(%[[OUT]] : !hal.buffer)[%[[C32]]] length(%[[C8]])
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i64_unequal_static(%unused: index) -> tensor<5xi64> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<5xi64> =
      (%iunused: index) -> tensor<5xi64> {
    %c = arith.constant 4294967298 : i64
    %1 = flow.tensor.splat %c : tensor<5xi64>
    flow.return %1 : tensor<5xi64>
  }
  return %0 : tensor<5xi64>
}

// -----

// f64 1.0 = 0x3FF00000_00000000 over 4 elements: a power of two, so the
// last copy is a full doubling.
// CHECK-LABEL: func.func @splat_f64_constant(
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[LOW:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[HIGH:.+]] = arith.constant 1072693248 : i32
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C0]], %[[C4]]] pattern(%[[LOW]] : i32)
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C4]], %[[C4]]] pattern(%[[HIGH]] : i32)
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[C8]]] length(%[[C8]])
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[C16]]] length(%[[C16]])
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_f64_constant(%unused: index) -> tensor<2x2xf64> {
  %0 = flow.ex.stream.fragment(%unused) : (index) -> tensor<2x2xf64> =
      (%iunused: index) -> tensor<2x2xf64> {
    %c = arith.constant 1.0 : f64
    %1 = flow.tensor.splat %c : tensor<2x2xf64>
    flow.return %1 : tensor<2x2xf64>
  }
  return %0 : tensor<2x2xf64>
}

// -----

// A runtime i64 value: its halves are computed on the host.
// CHECK-LABEL: func.func @splat_i64_value
// CHECK-SAME: (%[[V:[^:]+]]: i64)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant 32 : i64
// CHECK: %[[LOW:.+]] = arith.trunci %[[V]] : i64 to i32
// CHECK: %[[SHIFTED:.+]] = arith.shrui %[[V]], %[[SHIFT]] : i64
// CHECK: %[[HIGH:.+]] = arith.trunci %[[SHIFTED]] : i64 to i32
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C0]], %[[C4]]] pattern(%[[LOW]] : i32)
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C4]], %[[C4]]] pattern(%[[HIGH]] : i32)
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[C8]]] length(%[[C8]])
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[C16]]] length(%[[C8]])
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i64_value(%v: i64) -> tensor<3xi64> {
  %0 = flow.ex.stream.fragment(%v) : (i64) -> tensor<3xi64> =
      (%iv: i64) -> tensor<3xi64> {
    %1 = flow.tensor.splat %iv : tensor<3xi64>
    flow.return %1 : tensor<3xi64>
  }
  return %0 : tensor<3xi64>
}

// -----

// Exactly one element: the two fills and no copy.
// CHECK-LABEL: func.func @splat_i64_one_element
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer
// CHECK-NEXT: fill_buffer
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i64_one_element(%v: i64) -> tensor<1xi64> {
  %0 = flow.ex.stream.fragment(%v) : (i64) -> tensor<1xi64> =
      (%iv: i64) -> tensor<1xi64> {
    %1 = flow.tensor.splat %iv : tensor<1xi64>
    flow.return %1 : tensor<1xi64>
  }
  return %0 : tensor<1xi64>
}

// -----

// No element: nothing is recorded.
// CHECK-LABEL: func.func @splat_i64_empty
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_i64_empty(%v: i64) -> tensor<0x3xi64> {
  %0 = flow.ex.stream.fragment(%v) : (i64) -> tensor<0x3xi64> =
      (%iv: i64) -> tensor<0x3xi64> {
    %1 = flow.tensor.splat %iv : tensor<0x3xi64>
    flow.return %1 : tensor<0x3xi64>
  }
  return %0 : tensor<0x3xi64>
}

// -----

// A dynamic length n = 8 * %n and a runtime f64: the halves go to [0, h)
// and [h, 2h) with h = min(n, 4) (nothing when n = 0), then one copy per
// L = 8 * 2^k below the allocation limit (1 GiB by default: k = 0..26), to
// start = min(L, n) of min(L, n - start) bytes: the copies past the end have
// length zero.
// CHECK-LABEL: func.func @splat_f64_dynamic
// CHECK-SAME: (%[[V:[^:]+]]: f64, %[[N:[^:]+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[CLAST:.+]] = arith.constant 536870912 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C8]] : index
// CHECK: %[[BITS:.+]] = arith.bitcast %[[V]] : f64 to i64
// CHECK: %[[LOW:.+]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK: %[[HIGH:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[HALF:.+]] = arith.minui %[[SIZE]], %[[C4]] : index
// CHECK: %[[START0:.+]] = arith.minui %[[SIZE]], %[[C8]] : index
// CHECK: %[[REST0:.+]] = arith.subi %[[SIZE]], %[[START0]] : index
// CHECK: %[[LEN0:.+]] = arith.minui %[[REST0]], %[[C8]] : index
// CHECK: %[[START1:.+]] = arith.minui %[[SIZE]], %[[C16]] : index
// CHECK: %[[REST1:.+]] = arith.subi %[[SIZE]], %[[START1]] : index
// CHECK: %[[LEN1:.+]] = arith.minui %[[REST1]], %[[C16]] : index
// CHECK: %[[STARTL:.+]] = arith.minui %[[SIZE]], %[[CLAST]] : index
// CHECK: %[[RESTL:.+]] = arith.subi %[[SIZE]], %[[STARTL]] : index
// CHECK: %[[LENL:.+]] = arith.minui %[[RESTL]], %[[CLAST]] : index
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C0]], %[[HALF]]] pattern(%[[LOW]] : i32)
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: fill_buffer<{{.+}})[%[[HALF]], %[[HALF]]] pattern(%[[HIGH]] : i32)
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[START0]]] length(%[[LEN0]])
// CHECK-NEXT: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[START1]]] length(%[[LEN1]])
// CHECK-COUNT-24: copy_buffer
// CHECK: copy_buffer<{{.+}})[%[[C0]]] target({{.+}})[%[[STARTL]]] length(%[[LENL]])
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_f64_dynamic(%v: f64, %n: index) -> tensor<?xf64> {
  %0 = flow.ex.stream.fragment(%v, %n) : (f64, index) -> tensor<?xf64>{%n} =
      (%iv: f64, %in: index) -> tensor<?xf64> {
    %1 = flow.tensor.splat %iv : tensor<?xf64>{%in}
    flow.return %1 : tensor<?xf64>
  }
  return %0 : tensor<?xf64>
}

// -----

// Equal halves stay one fill, also with a dynamic length.
// CHECK-LABEL: func.func @splat_wide_equal_halves_dynamic
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[PATTERN:.+]] = arith.constant 7 : i32
// CHECK: %[[SIZE:.+]] = arith.muli
// CHECK: hal.command_buffer.begin
// CHECK-NEXT: fill_buffer<{{.+}})[%[[C0]], %[[SIZE]]] pattern(%[[PATTERN]] : i32)
// CHECK-NEXT: hal.command_buffer.end
func.func @splat_wide_equal_halves_dynamic(%n: index) -> tensor<?xi64> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<?xi64>{%n} =
      (%in: index) -> tensor<?xi64> {
    %c = arith.constant 30064771079 : i64
    %1 = flow.tensor.splat %c : tensor<?xi64>{%in}
    flow.return %1 : tensor<?xi64>
  }
  return %0 : tensor<?xi64>
}

// -----

// A device that allocates at most 256 bytes holds at most 32 elements: the
// copies to 8, 16, ..., 128 cover every length it can have.
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 256, min_buffer_offset_alignment = 16, max_buffer_range = 256, min_buffer_range_alignment = 16>}>]} {
// CHECK-LABEL: func.func @splat_i64_dynamic_small_device
// CHECK: hal.command_buffer.begin
// CHECK-COUNT-2: fill_buffer
// CHECK-COUNT-5: copy_buffer
// CHECK-NOT: copy_buffer
// CHECK: hal.command_buffer.end
func.func @splat_i64_dynamic_small_device(%v: i64, %n: index) -> tensor<?xi64> {
  %0 = flow.ex.stream.fragment(%v, %n) : (i64, index) -> tensor<?xi64>{%n} =
      (%iv: i64, %in: index) -> tensor<?xi64> {
    %1 = flow.tensor.splat %iv : tensor<?xi64>{%in}
    flow.return %1 : tensor<?xi64>
  }
  return %0 : tensor<?xi64>
}
}

// -----

// A splat computed in storage sized exactly (here the operand its result is
// tied to) whose length is not a multiple of 4: fills take 4-byte lengths,
// so the aligned prefix is filled and the 2-byte tail copied from it.
// CHECK-LABEL: func.func @splat_into_tied_operand
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%arg0 : !hal.buffer)[%c0, %c4]
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%arg0 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c4] length(%c2)
func.func @splat_into_tied_operand(%t: tensor<3xi16>, %v: i16) -> tensor<3xi16> {
  %0 = flow.ex.stream.fragment(%t, %v) : (tensor<3xi16>, i16) -> %t =
      (%a: tensor<3xi16>, %x: i16) -> tensor<3xi16> {
    %s = flow.tensor.splat %x : tensor<3xi16>
    flow.return %s : tensor<3xi16>
  }
  return %0 : tensor<3xi16>
}

// -----

// A splat into an operand's storage smaller than one 4-byte fill: there is
// no filled prefix to copy the tail from, so the pattern is filled into 4
// bytes of slab scratch and the 3 bytes are copied from there.
// CHECK-LABEL: func.func @splat_into_tied_operand_sub_word
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[SCRATCH:.+]] = hal.buffer.subspan<%{{.+}} : !hal.buffer>[%{{.+}}, %[[C4]]]
// CHECK-NOT: hal.command_buffer.fill_buffer<{{.+}}> target(%arg0
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%[[SCRATCH]] : !hal.buffer)[%[[C0]], %[[C4]]]
// CHECK-NOT: hal.command_buffer.fill_buffer<{{.+}}> target(%arg0
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[SCRATCH]] : !hal.buffer)[%[[C0]]] target(%arg0 : !hal.buffer)[%[[C0]]] length(%[[C3]])
func.func @splat_into_tied_operand_sub_word(%t: tensor<3xi8>, %v: i8) -> tensor<3xi8> {
  %0 = flow.ex.stream.fragment(%t, %v) : (tensor<3xi8>, i8) -> %t =
      (%a: tensor<3xi8>, %x: i8) -> tensor<3xi8> {
    %s = flow.tensor.splat %x : tensor<3xi8>
    flow.return %s : tensor<3xi8>
  }
  return %0 : tensor<3xi8>
}

// -----

// One 16-bit element in an operand: the same scratch, 2 bytes copied.
// CHECK-LABEL: func.func @splat_into_tied_operand_one_i16
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[SCRATCH:.+]] = hal.buffer.subspan
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%[[SCRATCH]] : !hal.buffer)
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[SCRATCH]] : !hal.buffer)[%{{.+}}] target(%arg0 : !hal.buffer)[%{{.+}}] length(%[[C2]])
func.func @splat_into_tied_operand_one_i16(%t: tensor<1xi16>) -> tensor<1xi16> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<1xi16>) -> %t =
      (%a: tensor<1xi16>) -> tensor<1xi16> {
    %x = arith.constant -2 : i16
    %s = flow.tensor.splat %x : tensor<1xi16>
    flow.return %s : tensor<1xi16>
  }
  return %0 : tensor<1xi16>
}

// -----

// A dynamic size in an operand: the aligned prefix SIZE & ~3 is filled in
// place (nothing when SIZE < 4) and the last SIZE & 3 bytes are copied from
// filled scratch, so every fill has a 4-byte aligned length.
// CHECK-LABEL: func.func @splat_into_tied_operand_dynamic
// CHECK-SAME: (%[[T:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index, %[[V:[^:]+]]: i8)
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[SCRATCH:.+]] = hal.buffer.subspan<%{{.+}} : !hal.buffer>[%{{.+}}, %[[C4]]]
// CHECK-DAG: %[[PREFIX:.+]] = arith.andi %[[N]], %{{.+}} : index
// CHECK-DAG: %[[TAIL:.+]] = arith.andi %[[N]], %[[C3]] : index
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%[[T]] : !hal.buffer)[%{{.+}}, %[[PREFIX]]]
// CHECK: hal.command_buffer.fill_buffer<{{.+}}> target(%[[SCRATCH]] : !hal.buffer)[%{{.+}}, %[[C4]]]
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[SCRATCH]] : !hal.buffer)[%{{.+}}] target(%[[T]] : !hal.buffer)[%[[PREFIX]]] length(%[[TAIL]])
func.func @splat_into_tied_operand_dynamic(%t: tensor<?xi8>, %n: index, %v: i8) -> tensor<?xi8> {
  %0 = flow.ex.stream.fragment(%t, %n, %v) : (tensor<?xi8>{%n}, index, i8) -> %t =
      (%a: tensor<?xi8>, %in: index, %x: i8) -> tensor<?xi8> {
    %s = flow.tensor.splat %x : tensor<?xi8>{%in}
    flow.return %s : tensor<?xi8>
  }
  return %0 : tensor<?xi8>
}

// -----

// A dynamic 16-bit splat into an operand, run with several sizes (the
// hal-exec lines with --dims): the prefix fill and the scratch tail.
// CHECK-LABEL: func.func @splat_into_tied_operand_dynamic_i16
// CHECK: hal.command_buffer.copy_buffer
func.func @splat_into_tied_operand_dynamic_i16(%t: tensor<?x1xi16>, %n: index) -> tensor<?x1xi16> {
  %0 = flow.ex.stream.fragment(%t, %n) : (tensor<?x1xi16>{%n}, index) -> %t =
      (%a: tensor<?x1xi16>, %in: index) -> tensor<?x1xi16> {
    %x = arith.constant 771 : i16
    %s = flow.tensor.splat %x : tensor<?x1xi16>{%in}
    flow.return %s : tensor<?x1xi16>
  }
  return %0 : tensor<?x1xi16>
}
