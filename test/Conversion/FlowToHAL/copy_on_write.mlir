// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal,hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal,hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{copies=always},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{copies=always barriers=full},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=memoize=false | FileCheck %s
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --streamhal-lower-to-hal=memoize=false | FileCheck %s --check-prefix=SCHED

// Copies the lowering removes once value semantics are explicit
// (docs/lowering.md, "Value semantics" and "Views instead of copies"):
// each case also keeps its bytes under every combination of scheduling,
// copy elision and barriers (the hal-exec runs above).

// A slice of one operand updated into another: distinct arguments are
// distinct buffers, so the slice is copied straight into the target's box
// (one copy, no transient).
// CHECK-LABEL: func.func @in_range_copy
// CHECK-NOT: hal.allocator.allocate
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return
func.func @in_range_copy(%src: tensor<8x4xf32>, %dst: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = flow.ex.stream.fragment(%src, %dst) : (tensor<8x4xf32>, tensor<8x4xf32>) -> %dst =
      (%s: tensor<8x4xf32>, %d: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %piece = flow.tensor.slice %s[%c2, %c0 for %c3, %c4] : tensor<8x4xf32> -> tensor<3x4xf32>
    %u = flow.tensor.update %piece, %d[%c4, %c0] : tensor<3x4xf32> -> %d as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

// Target splat, value splat, update: the value is filled in the target's
// box, scheduled or not (scheduling orders the value after the target).
// CHECK-LABEL: func.func @sink_after_splat
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return
// SCHED-LABEL: func.func @sink_after_splat
// SCHED-NOT: hal.command_buffer.copy_buffer
// SCHED: return
func.func @sink_after_splat() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %t = flow.tensor.splat %zero : tensor<4xf32>
    %v = flow.tensor.splat %one : tensor<2xf32>
    %u = flow.tensor.update %v, %t[%c1] : tensor<2xf32> -> %t as tensor<4xf32>
    flow.return %u : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A concatenation whose target is made after its pieces: the target's
// splat moves in front of the first piece, and every piece is computed in
// its rows of the output (no copy).
// CHECK-LABEL: func.func @concat_target_made_last
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return
// SCHED-LABEL: func.func @concat_target_made_last
func.func @concat_target_made_last(%a: tensor<2x4xf32>) -> tensor<6x4xf32> {
  %0 = flow.ex.stream.fragment(%a) : (tensor<2x4xf32>) -> tensor<6x4xf32> =
      (%x: tensor<2x4xf32>) -> tensor<6x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p0 = flow.dispatch @ex::@entry[%c4](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %p1 = flow.dispatch @ex::@entry[%c2](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %p2 = flow.dispatch @ex::@entry[%c0](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<6x4xf32>
    %u0 = flow.tensor.update %p0, %t[%c0, %c0] : tensor<2x4xf32> -> %t as tensor<6x4xf32>
    %u1 = flow.tensor.update %p1, %u0[%c2, %c0] : tensor<2x4xf32> -> %u0 as tensor<6x4xf32>
    %u2 = flow.tensor.update %p2, %u1[%c4, %c0] : tensor<2x4xf32> -> %u1 as tensor<6x4xf32>
    flow.return %u2 : tensor<6x4xf32>
  }
  return %0 : tensor<6x4xf32>
}

// -----

// A small slice returned from a large transient: a view would make the
// whole 400,000-byte transient an output, so the 8 bytes are copied into an
// output of their own. From a small root the view stays.
// CHECK-LABEL: func.func @returned_view_of_large_root
// CHECK: hal.allocator.allocate<%{{.+}} : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c8}
// CHECK: hal.command_buffer.copy_buffer
// CHECK-LABEL: func.func @returned_view_of_small_root
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return
func.func @returned_view_of_large_root() -> tensor<2xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2xf32> = () -> tensor<2xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<100000xf32>
    %v = flow.tensor.slice %s[%c0 for %c2] : tensor<100000xf32> -> tensor<2xf32>
    flow.return %v : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}
func.func @returned_view_of_small_root() -> tensor<2xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2xf32> = () -> tensor<2xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<16xf32>
    %v = flow.tensor.slice %s[%c0 for %c2] : tensor<16xf32> -> tensor<2xf32>
    flow.return %v : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// The fragment ties its result to %arg0, but the dispatch writes %b's
// storage in place: no single storage holds the value. The conversion alone
// rejects that (test/Conversion/FlowToHAL/invalid.mlir, @two_storages); the
// pipelines run copy on write first, which makes the dispatch write a copy
// of %b: the copy goes into %arg0's storage, the dispatch updates it there,
// and %arg1 is left as it was.
// CHECK-LABEL: func.func @tie_to_another_storage
// CHECK-NOT: hal.allocator.allocate
// CHECK: hal.command_buffer.copy_buffer<%{{.+}} : !hal.command_buffer> source(%arg1 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c0] length(%c16)
// CHECK: hal.command_buffer.push_descriptor_set<{{.*}}bindings([%c0 = (%arg0 : !hal.buffer)[%c0, %c16]])
// CHECK: return %arg0
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @tie_to_another_storage(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> %arg0 =
      (%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%b) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %b
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The same with a target the pieces cover only in part: its fill must come
// before the pieces are computed in its rows, so only moving the splat in
// front of them (--flow-emplace-update-targets) saves both copies.
// CHECK-LABEL: func.func @concat_partial_target_made_last
// CHECK: hal.command_buffer.fill_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: return
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @concat_partial_target_made_last(%a: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %0 = flow.ex.stream.fragment(%a) : (tensor<2x4xf32>) -> tensor<8x4xf32> =
      (%x: tensor<2x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p0 = flow.dispatch @ex::@entry[%c4](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %p1 = flow.dispatch @ex::@entry[%c2](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %u0 = flow.tensor.update %p0, %t[%c0, %c0] : tensor<2x4xf32> -> %t as tensor<8x4xf32>
    %u1 = flow.tensor.update %p1, %u0[%c4, %c0] : tensor<2x4xf32> -> %u0 as tensor<8x4xf32>
    flow.return %u1 : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Dispatch results updated into rows of a copy of an argument with a
// dynamic row count: the row stride (32 bytes) is static, so each result
// is computed in its rows (bound at offsets 0 and 32) and only the
// argument is copied.
// CHECK-LABEL: func.func @dynamic_rows_computed_in_place
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @dynamic_rows_computed_in_place(%t: tensor<?x8xi32>, %d: index) -> tensor<?x8xi32> {
  %0 = flow.ex.stream.fragment(%t, %d) : (tensor<?x8xi32>{%d}, index) -> tensor<?x8xi32>{%d} =
      (%a: tensor<?x8xi32>, %id: index) -> tensor<?x8xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %k = arith.constant 61 : i32
    %src = flow.tensor.splat %k : tensor<1x8xi32>
    %copy = flow.tensor.clone %a : tensor<?x8xi32>{%id}
    %r0 = flow.dispatch @ex::@entry[%c3](%src) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x8xi32>) -> tensor<1x8xi32>
    %u0 = flow.tensor.update %r0, %copy[%c0, %c0] : tensor<1x8xi32> -> %copy as tensor<?x8xi32>{%id}
    %r1 = flow.dispatch @ex::@entry[%c1](%src) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x8xi32>) -> tensor<1x8xi32>
    %u1 = flow.tensor.update %r1, %u0[%c1, %c0] : tensor<1x8xi32> -> %u0 as tensor<?x8xi32>{%id}
    flow.return %u1 : tensor<?x8xi32>
  }
  return %0 : tensor<?x8xi32>
}
