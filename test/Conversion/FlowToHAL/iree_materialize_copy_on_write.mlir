// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s

// The cases of IREE's Stream copy-on-write test
// (compiler/src/iree/compiler/Dialect/Stream/Transforms/test/materialize_copy_on_write.mlir),
// rewritten as flow fragments under IREE's names. IREE's expected output is
// that of its copy-on-write pass alone: each case says how many clones it
// keeps (its elision pass may drop some later) and how many
// `hal.command_buffer.copy_buffer` commands the full lowering records here
// today; the CHECK lines pin today's count.
//
// How the stream ops are written here: a fill of a range is a splat of the
// range's shape updated into it; byte ranges become rows of 16 bytes; an
// argument written in place is not donated (no result tied to it: IREE's
// functions do not say they write their arguments); a dispatch reading and
// writing one resource through two operands (IREE's kernels tolerate it)
// binds both through MayAlias bindings; private functions are public so
// that hal-exec runs them.
// Not written: tiedCollectivesTODO (collectives and channels), blockArgMove
// (branches between blocks and a select of resources: no cf dialect here).

// A fill of half of an argument.
// IREE keeps 1 copies; here: 1
// The clone copy on write puts in front of the update moves in front of the
// fill's splat (flow-emplace-update-targets), which is filled in the clone.
// CHECK-LABEL: func.func @blockArgsNeedCopies(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @blockArgsNeedCopies(%src: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment(%src) : (tensor<8x4xi32>) -> tensor<8x4xi32> =
      (%s: tensor<8x4xi32>) -> tensor<8x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %v = flow.tensor.splat %c123 : tensor<4x4xi32>
    %fill = flow.tensor.update %v, %s[%c0, %c0] : tensor<4x4xi32> -> %s as tensor<8x4xi32>
    flow.return %fill : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
}

// -----

// Two fills of halves of a splat, one after the other.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @singleUseTiedOperand(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @singleUseTiedOperand() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %v1 = flow.tensor.splat %c456 : tensor<8x4xi32>
    %fill1 = flow.tensor.update %v1, %splat[%c0, %c0] : tensor<8x4xi32> -> %splat as tensor<16x4xi32>
    %v2 = flow.tensor.splat %c789 : tensor<8x4xi32>
    %fill2 = flow.tensor.update %v2, %fill1[%c8, %c0] : tensor<8x4xi32> -> %fill1 as tensor<16x4xi32>
    flow.return %fill2 : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
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
    hal.interface.binding @sa, set=0, binding=6, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @rwa, set=0, binding=7, type="StorageBuffer", access="Read|Write|MayAlias"
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
// A dispatch reading a splat at a second position while writing it in
// place at the first. IREE's kernel reads and writes one resource through
// two operands; here its bindings say so (MayAlias).
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @multipleUsesOneUser(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @multipleUsesOneUser() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.operand_buffer<"rwa", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
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
// The same on an argument.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @oneCopyPerOperation(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @oneCopyPerOperation(%src: tensor<16x4xi32>) -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment(%src) : (tensor<16x4xi32>) -> tensor<16x4xi32> =
      (%s: tensor<16x4xi32>) -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%s, %s) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %s
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// -----

// Two fills of halves of one splat, both results returned.
// IREE keeps 2 copies (1 after its elision pass); here: 1
// As after IREE's elision pass: the first fill's splat is filled in the clone.
// CHECK-LABEL: func.func @multiUseTiedOperand(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @multiUseTiedOperand() -> (tensor<16x4xi32>, tensor<16x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<16x4xi32>, tensor<16x4xi32>) =
      () -> (tensor<16x4xi32>, tensor<16x4xi32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %v1 = flow.tensor.splat %c456 : tensor<8x4xi32>
    %fill1 = flow.tensor.update %v1, %splat[%c0, %c0] : tensor<8x4xi32> -> %splat as tensor<16x4xi32>
    %v2 = flow.tensor.splat %c789 : tensor<8x4xi32>
    %fill2 = flow.tensor.update %v2, %splat[%c8, %c0] : tensor<8x4xi32> -> %splat as tensor<16x4xi32>
    flow.return %fill1, %fill2 : tensor<16x4xi32>, tensor<16x4xi32>
  }
  return %0#0, %0#1 : tensor<16x4xi32>, tensor<16x4xi32>
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
// Two dispatches writing in place in a chain, the second also reading the
// first one's input; nothing is returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @tiedDispatches(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @tiedDispatches() {
  flow.ex.stream.fragment() : () -> () = () -> () {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %splat0 = flow.tensor.splat %zero : tensor<10xi32>
    %splat1 = flow.tensor.splat %one : tensor<4xi32>
    %dispatch0 = flow.dispatch @ex::@dispatch0[%c1](%splat0, %splat1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<10xi32>, tensor<4xi32>) -> %splat0
    %dispatch1 = flow.dispatch @ex::@dispatch1[%c1](%dispatch0, %splat0) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<10xi32>, tensor<10xi32>) -> %dispatch0
    flow.return
  }
  return
}
