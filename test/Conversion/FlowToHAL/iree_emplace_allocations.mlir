// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s

// The cases of IREE's Stream allocation emplacement test
// (compiler/src/iree/compiler/Dialect/Stream/Transforms/test/emplace_allocations.mlir),
// rewritten as flow fragments under IREE's names. Each case says how many
// copies (updates not placed into their target) IREE's expected output
// keeps and how many `hal.command_buffer.copy_buffer` commands the full
// lowering records here today; the CHECK lines pin today's count.
//
// How the stream ops are written here: an alloca is a zero splat (a fill,
// not a copy); byte ranges become rows of 16 bytes; a dynamic offset is an
// index argument; a target argument updated in place is donated by a
// fragment result tied to it; private functions are public so that hal-exec
// runs them. The dispatches are distinct entry points of one executable.

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// A dispatch result (with two uniforms) updated into an argument at a
// dynamic row.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceDispatch(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceDispatch(%input: tensor<1x4xi32>, %update_offset: index, %target: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input, %update_offset, %target) : (tensor<1x4xi32>, index, tensor<4x4xi32>) -> %target =
      (%i: tensor<1x4xi32>, %off: index, %t: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %uniform0 = arith.constant 123 : i32
    %uniform1 = arith.constant 456 : i32
    %update = flow.dispatch @ex::@dispatch[%c1](%uniform0, %i, %uniform1) {hal.bindings = [#hal.ex.push_constant<0 : index, 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>, #hal.ex.push_constant<1 : index, 2 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (i32, tensor<1x4xi32>, i32) -> tensor<1x4xi32>
    %result = flow.tensor.update %update, %t[%off, %c0] : tensor<1x4xi32> -> %t as tensor<4x4xi32>
    flow.return %result : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// A dispatch writing its argument in place, its result updated into another
// argument at a dynamic row.
// IREE keeps 1 copies; here: 1
// The copy here is the argument copied into the target's row, where the
// dispatch then writes in place (the argument is not donated); IREE's is the
// update.
// CHECK-LABEL: func.func @dontEmplaceTiedDispatch(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @dontEmplaceTiedDispatch(%tied_input: tensor<1x4xi32>, %update_offset: index, %target: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%tied_input, %update_offset, %target) : (tensor<1x4xi32>, index, tensor<4x4xi32>) -> %target =
      (%ti: tensor<1x4xi32>, %off: index, %t: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %update = flow.dispatch @ex::@dispatch[%c1](%ti) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<1x4xi32>) -> %ti
    %result = flow.tensor.update %update, %t[%off, %c0] : tensor<1x4xi32> -> %t as tensor<4x4xi32>
    flow.return %result : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// Four dispatch results concatenated into fresh storage made after them.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceDispatchSequence(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceDispatchSequence(%input: tensor<1x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<4x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0 : i32
    %update0 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update1 = flow.dispatch @ex::@dispatch1[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update2 = flow.dispatch @ex::@dispatch2[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update3 = flow.dispatch @ex::@dispatch3[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %target = flow.tensor.splat %zero : tensor<4x4xi32>
    %target0 = flow.tensor.update %update0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %target1 = flow.tensor.update %update1, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<4x4xi32>
    %target2 = flow.tensor.update %update2, %target1[%c2, %c0] : tensor<1x4xi32> -> %target1 as tensor<4x4xi32>
    %target3 = flow.tensor.update %update3, %target2[%c3, %c0] : tensor<1x4xi32> -> %target2 as tensor<4x4xi32>
    flow.return %target3 : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// The first piece of a concatenation written in place by a second dispatch
// while a third still reads it; both pieces go into fresh storage.
// IREE keeps 2 copies; here: 1
// The copy here is copy on write's clone of the first piece (still read
// after the in-place write); both pieces are then computed in their rows.
// CHECK-LABEL: func.func @dontEmplaceDispatchWithTiedResults(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @dontEmplaceDispatchWithTiedResults(%input: tensor<1x4xi32>) -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<2x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %update0 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %temp0 = flow.dispatch @ex::@dispatch1[%c1](%update0) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<1x4xi32>) -> %update0
    %update1 = flow.dispatch @ex::@dispatch2[%c1](%temp0, %update0) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<1x4xi32>, tensor<1x4xi32>) -> %temp0
    %target = flow.tensor.splat %zero : tensor<2x4xi32>
    %target0 = flow.tensor.update %update0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<2x4xi32>
    %target1 = flow.tensor.update %update1, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<2x4xi32>
    flow.return %target1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// A concatenation of four pieces, one of them computed from the second
// result of another piece's dispatch.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceMultiResultDispatchSequence(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceMultiResultDispatchSequence(%input: tensor<1x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<4x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0 : i32
    %update0 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update1_temp:2 = flow.dispatch @ex::@dispatch1[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>, #hal.ex.result_buffer<"d1", 1 : index>]} : (tensor<1x4xi32>) -> (tensor<1x4xi32>, tensor<1x4xi32>)
    %update2 = flow.dispatch @ex::@dispatch2[%c1](%update1_temp#1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update3 = flow.dispatch @ex::@dispatch3[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %target = flow.tensor.splat %zero : tensor<4x4xi32>
    %target0 = flow.tensor.update %update0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %target1 = flow.tensor.update %update1_temp#0, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<4x4xi32>
    %target2 = flow.tensor.update %update2, %target1[%c2, %c0] : tensor<1x4xi32> -> %target1 as tensor<4x4xi32>
    %target3 = flow.tensor.update %update3, %target2[%c3, %c0] : tensor<1x4xi32> -> %target2 as tensor<4x4xi32>
    flow.return %target3 : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// Both results of one dispatch concatenated in order.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceMultiResultDispatchInto(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceMultiResultDispatchInto(%input: tensor<1x4xi32>) -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<2x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %update:2 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>, #hal.ex.result_buffer<"d1", 1 : index>]} : (tensor<1x4xi32>) -> (tensor<1x4xi32>, tensor<1x4xi32>)
    %target = flow.tensor.splat %zero : tensor<2x4xi32>
    %target0 = flow.tensor.update %update#0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<2x4xi32>
    %target1 = flow.tensor.update %update#1, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<2x4xi32>
    flow.return %target1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// Both results of one dispatch concatenated in reverse order.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceMultiResultDispatchIntoSwapped(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceMultiResultDispatchIntoSwapped(%input: tensor<1x4xi32>) -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<2x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %update:2 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>, #hal.ex.result_buffer<"d1", 1 : index>]} : (tensor<1x4xi32>) -> (tensor<1x4xi32>, tensor<1x4xi32>)
    %target = flow.tensor.splat %zero : tensor<2x4xi32>
    %target0 = flow.tensor.update %update#1, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<2x4xi32>
    %target1 = flow.tensor.update %update#0, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<2x4xi32>
    flow.return %target1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// Two of a dispatch's three results concatenated, the middle one unused.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @emplaceSparseMultiResult(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceSparseMultiResult(%input: tensor<1x4xi32>) -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<2x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %update:3 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>, #hal.ex.result_buffer<"d1", 1 : index>, #hal.ex.result_buffer<"d2", 2 : index>]} : (tensor<1x4xi32>) -> (tensor<1x4xi32>, tensor<1x4xi32>, tensor<1x4xi32>)
    %target = flow.tensor.splat %zero : tensor<2x4xi32>
    %target0 = flow.tensor.update %update#0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<2x4xi32>
    %target1 = flow.tensor.update %update#2, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<2x4xi32>
    flow.return %target1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// Two pieces concatenated into fresh storage; IREE hides the second behind
// an optimization barrier, which this IR does not have (left out).
// IREE keeps 1 copies; here: 0
// CHECK-LABEL: func.func @emplaceDependentDispatchSequence(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @emplaceDependentDispatchSequence(%input: tensor<1x4xi32>) -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<2x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %update0 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %update1 = flow.dispatch @ex::@dispatch1[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %target = flow.tensor.splat %zero : tensor<2x4xi32>
    %target0 = flow.tensor.update %update0, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<2x4xi32>
    %target1 = flow.tensor.update %update1, %target0[%c1, %c0] : tensor<1x4xi32> -> %target0 as tensor<2x4xi32>
    flow.return %target1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d1, set=0, binding=3, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @d2, set=0, binding=4, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=5, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @dispatch0 attributes {interface = @io, ordinal = 1 : index}
    hal.executable.entry_point @dispatch1 attributes {interface = @io, ordinal = 2 : index}
    hal.executable.entry_point @dispatch2 attributes {interface = @io, ordinal = 3 : index}
    hal.executable.entry_point @dispatch3 attributes {interface = @io, ordinal = 4 : index}
    builtin.module {}
  }
}
// One result of a dispatch updated into a value computed later from its
// other result.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @emplaceMultiResultDependentDispatchSequence(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @emplaceMultiResultDependentDispatchSequence(%input: tensor<1x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<1x4xi32>) -> tensor<4x4xi32> =
      (%i: tensor<1x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %update0:2 = flow.dispatch @ex::@dispatch0[%c1](%i) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>, #hal.ex.result_buffer<"d1", 1 : index>]} : (tensor<1x4xi32>) -> (tensor<1x4xi32>, tensor<1x4xi32>)
    %update1 = flow.dispatch @ex::@dispatch1[%c1](%update0#1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<1x4xi32>) -> tensor<4x4xi32>
    %target0 = flow.tensor.update %update0#0, %update1[%c0, %c0] : tensor<1x4xi32> -> %update1 as tensor<4x4xi32>
    flow.return %target0 : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}
