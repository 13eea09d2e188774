// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s

// The cases of IREE's Stream copy elision test
// (compiler/src/iree/compiler/Dialect/Stream/Transforms/test/elide_async_copies.mlir),
// rewritten as flow fragments, one function (or caller and callee) per case
// under IREE's name. Each case says how many copies IREE's expected output
// keeps (clones, slices, copies, updates and transfers left after its pass)
// and how many `hal.command_buffer.copy_buffer` commands the full lowering
// records here today; the CHECK lines pin today's count.
//
// How the stream ops are written here:
// - a fill of a range is a splat of the range's shape updated into it;
// - an alloca is a zero splat (a fill, not a copy);
// - an async.copy is a slice of the source (none when it is the whole
//   source) updated into the target;
// - a transfer with no affinity is a clone;
// - byte ranges become rows of 16 bytes (tensor<Nx4xi32>), so that every
//   view is aligned the way a device needs;
// - a function writing its argument in place with no clone in between (the
//   IR IREE's pass receives says the callee may) returns a result tied to
//   that argument; one that clones first does not;
// - a dispatch reading and writing one resource through two operands (IREE's
//   kernels tolerate it) binds both through MayAlias bindings;
// - private functions that nothing calls are public here, so that hal-exec
//   runs them.
// Not written: blockArgMove (branches between blocks: no cf dialect here),
// the second multiCloneImmutableSource (the same case twice in IREE's file).

// A clone of a fresh splat whose only use overwrites it whole.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @cloneSameLifetime(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @cloneSameLifetime() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %splat = flow.tensor.splat %c123 : tensor<4xi32>
    %clone = flow.tensor.clone %splat : tensor<4xi32>
    %v = flow.tensor.splat %c456 : tensor<4xi32>
    %fill = flow.tensor.update %v, %clone[%c0] : tensor<4xi32> -> %clone as tensor<4xi32>
    flow.return %fill : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

// Two clones of one splat, each partly overwritten and both returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @multiUseTiedOperand(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @multiUseTiedOperand() -> (tensor<8x4xi32>, tensor<8x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<8x4xi32>, tensor<8x4xi32>) =
      () -> (tensor<8x4xi32>, tensor<8x4xi32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %splat = flow.tensor.splat %c123 : tensor<8x4xi32>
    %clone0 = flow.tensor.clone %splat : tensor<8x4xi32>
    %v0 = flow.tensor.splat %c456 : tensor<4x4xi32>
    %fill0 = flow.tensor.update %v0, %clone0[%c0, %c0] : tensor<4x4xi32> -> %clone0 as tensor<8x4xi32>
    %clone1 = flow.tensor.clone %splat : tensor<8x4xi32>
    %v1 = flow.tensor.splat %c789 : tensor<4x4xi32>
    %fill1 = flow.tensor.update %v1, %clone1[%c4, %c0] : tensor<4x4xi32> -> %clone1 as tensor<8x4xi32>
    flow.return %fill0, %fill1 : tensor<8x4xi32>, tensor<8x4xi32>
  }
  return %0#0, %0#1 : tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// The callee clones its argument and writes the clone; its only caller
// passes a value it never uses again.
// IREE keeps 0 copies; here: 0
// A private callee takes over the argument it clones and writes (argument
// moves, flow-materialize-copy-on-write): its fragment result is tied to
// the argument and the clone is gone; the caller passes its last use.
// CHECK-LABEL: func.func private @argMoveCallee(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func private @argMoveCallee(%arg: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<8x4xi32>) -> tensor<8x4xi32> =
      (%a: tensor<8x4xi32>) -> tensor<8x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %clone = flow.tensor.clone %a : tensor<8x4xi32>
    %v = flow.tensor.splat %c123 : tensor<4x4xi32>
    %fill = flow.tensor.update %v, %clone[%c0, %c0] : tensor<4x4xi32> -> %clone as tensor<8x4xi32>
    flow.return %fill : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
}
// CHECK-LABEL: func.func @argMoveCaller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @argMoveCaller() -> tensor<8x4xi32> {
  %s = flow.ex.stream.fragment() : () -> tensor<8x4xi32> = () -> tensor<8x4xi32> {
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<8x4xi32>
    flow.return %splat : tensor<8x4xi32>
  }
  %r = func.call @argMoveCallee(%s) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}

// -----

// The same callee, but the caller returns the value it passed as well.
// IREE keeps 1 copies; here: 1
// The callee writes its argument in place (as above), so the caller, which
// still returns the value, copies it before the call.
// CHECK-LABEL: func.func private @argCopyCallee(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func private @argCopyCallee(%arg: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<8x4xi32>) -> tensor<8x4xi32> =
      (%a: tensor<8x4xi32>) -> tensor<8x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %clone = flow.tensor.clone %a : tensor<8x4xi32>
    %v = flow.tensor.splat %c123 : tensor<4x4xi32>
    %fill = flow.tensor.update %v, %clone[%c0, %c0] : tensor<4x4xi32> -> %clone as tensor<8x4xi32>
    flow.return %fill : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
}
// CHECK-LABEL: func.func @argCopyCaller(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @argCopyCaller() -> (tensor<8x4xi32>, tensor<8x4xi32>) {
  %s = flow.ex.stream.fragment() : () -> tensor<8x4xi32> = () -> tensor<8x4xi32> {
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<8x4xi32>
    flow.return %splat : tensor<8x4xi32>
  }
  %r = func.call @argCopyCallee(%s) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %s, %r : tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// A row of an argument, overwritten whole and returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @slice_unsupported_fold(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @slice_unsupported_fold(%producer: tensor<3x4xi32>) -> tensor<1x4xi32> {
  %0 = flow.ex.stream.fragment(%producer) : (tensor<3x4xi32>) -> tensor<1x4xi32> =
      (%p: tensor<3x4xi32>) -> tensor<1x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c123 = arith.constant 123 : i32
    %slice = flow.tensor.slice %p[%c1, %c0 for %c1, %c4] : tensor<3x4xi32> -> tensor<1x4xi32>
    %v = flow.tensor.splat %c123 : tensor<1x4xi32>
    %consumer = flow.tensor.update %v, %slice[%c0, %c0] : tensor<1x4xi32> -> %slice as tensor<1x4xi32>
    flow.return %consumer : tensor<1x4xi32>
  }
  return %0 : tensor<1x4xi32>
}

// -----

// An argument copied into fresh storage, a row of that sliced and copied
// into a second fresh storage, which is returned.
// IREE keeps 3 copies; here: 2
// CHECK-LABEL: func.func @slice_unsupported_tied(
// CHECK-COUNT-2: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @slice_unsupported_tied(%input: tensor<3x4xi32>) -> tensor<1x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<3x4xi32>) -> tensor<1x4xi32> =
      (%i: tensor<3x4xi32>) -> tensor<1x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %pstore = flow.tensor.splat %zero : tensor<3x4xi32>
    %producer = flow.tensor.update %i, %pstore[%c0, %c0] : tensor<3x4xi32> -> %pstore as tensor<3x4xi32>
    %slice = flow.tensor.slice %producer[%c1, %c0 for %c1, %c4] : tensor<3x4xi32> -> tensor<1x4xi32>
    %cstore = flow.tensor.splat %zero : tensor<1x4xi32>
    %consumer = flow.tensor.update %slice, %cstore[%c0, %c0] : tensor<1x4xi32> -> %cstore as tensor<1x4xi32>
    flow.return %consumer : tensor<1x4xi32>
  }
  return %0 : tensor<1x4xi32>
}

// -----

// A row of an argument copied out, then rows overlapping it filled; both
// results returned.
// IREE keeps 2 copies; here: 2
// The clone copy on write puts in front of the update moves in front of the
// fill's splat (flow-emplace-update-targets), so the splat is filled in it.
// CHECK-LABEL: func.func @slice_overlap_preventing(
// CHECK-COUNT-2: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @slice_overlap_preventing(%producer: tensor<3x4xi32>) -> (tensor<1x4xi32>, tensor<3x4xi32>) {
  %0:2 = flow.ex.stream.fragment(%producer) : (tensor<3x4xi32>) -> (tensor<1x4xi32>, tensor<3x4xi32>) =
      (%p: tensor<3x4xi32>) -> (tensor<1x4xi32>, tensor<3x4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %slice = flow.tensor.slice %p[%c1, %c0 for %c1, %c4] : tensor<3x4xi32> -> tensor<1x4xi32>
    %cstore = flow.tensor.splat %zero : tensor<1x4xi32>
    %consumer = flow.tensor.update %slice, %cstore[%c0, %c0] : tensor<1x4xi32> -> %cstore as tensor<1x4xi32>
    %v = flow.tensor.splat %c123 : tensor<2x4xi32>
    %fill = flow.tensor.update %v, %p[%c0, %c0] : tensor<2x4xi32> -> %p as tensor<3x4xi32>
    flow.return %consumer, %fill : tensor<1x4xi32>, tensor<3x4xi32>
  }
  return %0#0, %0#1 : tensor<1x4xi32>, tensor<3x4xi32>
}

// -----

// The same with the fill on a row the copied row does not overlap.
// IREE's fill writes the argument with no clone in between (its pass gets IR
// copy on write already made safe), so the result is tied to it.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @slice_overlap_exclusive(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @slice_overlap_exclusive(%producer: tensor<3x4xi32>) -> (tensor<1x4xi32>, tensor<3x4xi32>) {
  %0:2 = flow.ex.stream.fragment(%producer) : (tensor<3x4xi32>) -> (tensor<1x4xi32>, %producer) =
      (%p: tensor<3x4xi32>) -> (tensor<1x4xi32>, tensor<3x4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %slice = flow.tensor.slice %p[%c1, %c0 for %c1, %c4] : tensor<3x4xi32> -> tensor<1x4xi32>
    %cstore = flow.tensor.splat %zero : tensor<1x4xi32>
    %consumer = flow.tensor.update %slice, %cstore[%c0, %c0] : tensor<1x4xi32> -> %cstore as tensor<1x4xi32>
    %v = flow.tensor.splat %c123 : tensor<1x4xi32>
    %fill = flow.tensor.update %v, %p[%c2, %c0] : tensor<1x4xi32> -> %p as tensor<3x4xi32>
    flow.return %consumer, %fill : tensor<1x4xi32>, tensor<3x4xi32>
  }
  return %0#0, %0#1 : tensor<1x4xi32>, tensor<3x4xi32>
}

// -----

// Two overlapping reads of one slice of an argument, each copied into
// fresh storage and returned.
// IREE keeps 2 copies; here: 2
// CHECK-LABEL: func.func @slice_overlap_readonly(
// CHECK-COUNT-2: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @slice_overlap_readonly(%producer: tensor<4x4xi32>) -> (tensor<2x4xi32>, tensor<1x4xi32>) {
  %0:2 = flow.ex.stream.fragment(%producer) : (tensor<4x4xi32>) -> (tensor<2x4xi32>, tensor<1x4xi32>) =
      (%p: tensor<4x4xi32>) -> (tensor<2x4xi32>, tensor<1x4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %slice = flow.tensor.slice %p[%c1, %c0 for %c2, %c4] : tensor<4x4xi32> -> tensor<2x4xi32>
    %s0 = flow.tensor.splat %zero : tensor<2x4xi32>
    %consumer0 = flow.tensor.update %slice, %s0[%c0, %c0] : tensor<2x4xi32> -> %s0 as tensor<2x4xi32>
    %part = flow.tensor.slice %slice[%c1, %c0 for %c1, %c4] : tensor<2x4xi32> -> tensor<1x4xi32>
    %s1 = flow.tensor.splat %zero : tensor<1x4xi32>
    %consumer1 = flow.tensor.update %part, %s1[%c0, %c0] : tensor<1x4xi32> -> %s1 as tensor<1x4xi32>
    flow.return %consumer0, %consumer1 : tensor<2x4xi32>, tensor<1x4xi32>
  }
  return %0#0, %0#1 : tensor<2x4xi32>, tensor<1x4xi32>
}

// -----

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
// A row of an argument read by a dispatch (with a uniform).
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @slice_dispatch_fold(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @slice_dispatch_fold(%producer: tensor<3x4xi32>) -> tensor<1x4xi32> {
  %0 = flow.ex.stream.fragment(%producer) : (tensor<3x4xi32>) -> tensor<1x4xi32> =
      (%p: tensor<3x4xi32>) -> tensor<1x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c123 = arith.constant 123 : i32
    %slice = flow.tensor.slice %p[%c1, %c0 for %c1, %c4] : tensor<3x4xi32> -> tensor<1x4xi32>
    %consumer = flow.dispatch @ex::@dispatch[%c1](%c123, %slice) {hal.bindings = [#hal.ex.push_constant<0 : index, 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (i32, tensor<1x4xi32>) -> tensor<1x4xi32>
    flow.return %consumer : tensor<1x4xi32>
  }
  return %0 : tensor<1x4xi32>
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
util.global private mutable @global_var : tensor<4xi32>
// A dispatch result cloned, the clone stored to a global and returned.
// IREE keeps 1 copies; here: 0 (IREE's clone is a lifetime change)
// CHECK-LABEL: func.func @cloneToVariable(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @cloneToVariable() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@dispatch[%c1]() {hal.bindings = [#hal.ex.result_buffer<"d0", 0 : index>]} : () -> tensor<4xi32>
    %clone = flow.tensor.clone %d : tensor<4xi32>
    flow.return %clone : tensor<4xi32>
  }
  util.global.store %0, @global_var : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A splat cloned and returned.
// IREE keeps 1 copies; here: 0 (IREE's clone is a lifetime change)
// CHECK-LABEL: func.func @cloneToExternal(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @cloneToExternal() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<4xi32>
    %clone = flow.tensor.clone %splat : tensor<4xi32>
    flow.return %clone : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

util.global private @pool : !hal.buffer
// A constant cloned and returned.
// IREE keeps 0 copies; here: 1
// More here: a returned constant gets a buffer of its own, since a caller may
// write a result (IREE's result is an immutable constant).
// CHECK-LABEL: func.func @constantCloneSingleUse(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @constantCloneSingleUse() -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<8x4xi32> = () -> tensor<8x4xi32> {
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 128>] : tensor<8x4xi32>
    %clone = flow.tensor.clone %cst : tensor<8x4xi32>
    flow.return %clone : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
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
util.global private @pool : !hal.buffer
// Two clones of a constant, each read by a dispatch.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @constantCloneMultiUse(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @constantCloneMultiUse() -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<8x4xf32>, tensor<8x4xf32>) =
      () -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %c1 = arith.constant 1 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 128>] : tensor<8x4xf32>
    %clone0 = flow.tensor.clone %cst : tensor<8x4xf32>
    %clone1 = flow.tensor.clone %cst : tensor<8x4xf32>
    %r0 = flow.dispatch @ex::@dispatch[%c1](%clone0) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %r1 = flow.dispatch @ex::@dispatch[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    flow.return %r0, %r1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

util.global private @pool : !hal.buffer
// A 4-byte constant cloned, the clone overwritten whole and returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @constantToGenericPreserved(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @constantToGenericPreserved() -> tensor<1xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<1xi32> = () -> tensor<1xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 4>] : tensor<1xi32>
    %clone = flow.tensor.clone %cst : tensor<1xi32>
    %v = flow.tensor.splat %c123 : tensor<1xi32>
    %fill = flow.tensor.update %v, %clone[%c0] : tensor<1xi32> -> %clone as tensor<1xi32>
    flow.return %fill : tensor<1xi32>
  }
  return %0 : tensor<1xi32>
}

// -----

util.global private @pool : !hal.buffer
// A constant cloned, a quarter of the clone filled, the clone returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @constantCloneTiedMutation(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @constantCloneTiedMutation() -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<8x4xi32> = () -> tensor<8x4xi32> {
    %c0 = arith.constant 0 : index
    %c456 = arith.constant 456 : i32
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 128>] : tensor<8x4xi32>
    %clone = flow.tensor.clone %cst : tensor<8x4xi32>
    %v = flow.tensor.splat %c456 : tensor<2x4xi32>
    %fill = flow.tensor.update %v, %clone[%c0, %c0] : tensor<2x4xi32> -> %clone as tensor<8x4xi32>
    flow.return %fill : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
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
// The callee clones its argument and passes the clone twice to a dispatch
// that writes it in place; its caller passes a fresh splat. IREE's kernel
// reads and writes one resource through two operands; here its bindings say
// so (MayAlias), and the callee takes over its argument (argument move).
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func private @aliasing_user_provided_output_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func private @aliasing_user_provided_output_callee(%resource: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%resource) : (tensor<4xi32>) -> tensor<4xi32> =
      (%r: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %clone = flow.tensor.clone %r : tensor<4xi32>
    %result = flow.dispatch @ex::@dispatch[%c1](%clone, %clone) {hal.bindings = [#hal.ex.operand_buffer<"rwa", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<4xi32>, tensor<4xi32>) -> %clone
    flow.return %result : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @aliasing_user_provided_output_caller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @aliasing_user_provided_output_caller() -> tensor<4xi32> {
  %s = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c123 = arith.constant 123 : i32
    %initial = flow.tensor.splat %c123 : tensor<4xi32>
    flow.return %initial : tensor<4xi32>
  }
  %r = func.call @aliasing_user_provided_output_callee(%s) : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
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
// The callee clones its argument and a dispatch reads the clone twice.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func private @dispatch_same_value_twice_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @dispatch_same_value_twice_callee(%resource: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%resource) : (tensor<4xi32>) -> tensor<4xi32> =
      (%r: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %clone = flow.tensor.clone %r : tensor<4xi32>
    %result = flow.dispatch @ex::@dispatch[%c1](%clone, %clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.operand_buffer<"s1", 1 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    flow.return %result : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @dispatch_same_value_twice_caller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @dispatch_same_value_twice_caller() -> tensor<4xi32> {
  %s = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c123 = arith.constant 123 : i32
    %initial = flow.tensor.splat %c123 : tensor<4xi32>
    flow.return %initial : tensor<4xi32>
  }
  %r = func.call @dispatch_same_value_twice_callee(%s) : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
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
// A splat cloned and the clone written in place by a dispatch, in a callee.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func private @splat_then_inplace_dispatch_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @splat_then_inplace_dispatch_callee() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<4xi32>
    %clone = flow.tensor.clone %splat : tensor<4xi32>
    %result = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone
    flow.return %result : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @splat_then_inplace_dispatch_caller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @splat_then_inplace_dispatch_caller() -> tensor<4xi32> {
  %r = func.call @splat_then_inplace_dispatch_callee() : () -> tensor<4xi32>
  return %r : tensor<4xi32>
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
// A splat cloned and the clone read by a dispatch, in a callee.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func private @splat_then_new_output_dispatch_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @splat_then_new_output_dispatch_callee() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<4xi32>
    %clone = flow.tensor.clone %splat : tensor<4xi32>
    %result = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    flow.return %result : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @splat_then_new_output_dispatch_caller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @splat_then_new_output_dispatch_caller() -> tensor<4xi32> {
  %r = func.call @splat_then_new_output_dispatch_callee() : () -> tensor<4xi32>
  return %r : tensor<4xi32>
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
// The callee clones its argument, writes the clone in place, clones that
// and writes it in place again; its caller passes a fresh splat.
// IREE keeps 0 copies; here: 0
// An argument move through the chain: the second clone copies a value dead
// right after it and goes, and the result is tied to the argument.
// CHECK-LABEL: func.func private @chained_inplace_dispatches_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func private @chained_inplace_dispatches_callee(%resource: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%resource) : (tensor<4xi32>) -> tensor<4xi32> =
      (%r: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %clone1 = flow.tensor.clone %r : tensor<4xi32>
    %d1 = flow.dispatch @ex::@dispatch0[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone1
    %clone2 = flow.tensor.clone %d1 : tensor<4xi32>
    %d2 = flow.dispatch @ex::@dispatch1[%c1](%clone2) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone2
    flow.return %d2 : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @chained_inplace_dispatches_caller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @chained_inplace_dispatches_caller() -> tensor<4xi32> {
  %s = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c123 = arith.constant 123 : i32
    %initial = flow.tensor.splat %c123 : tensor<4xi32>
    flow.return %initial : tensor<4xi32>
  }
  %r = func.call @chained_inplace_dispatches_callee(%s) : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
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
// One callee (clone of its argument, filled, result dropped) called by a
// caller that never uses its value again and by one that reads it after.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func private @mixedSemanticsSameCallee(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func private @mixedSemanticsSameCallee(%arg: tensor<25xi32>) {
  flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> () = (%a: tensor<25xi32>) -> () {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %clone = flow.tensor.clone %a : tensor<25xi32>
    %v = flow.tensor.splat %c123 : tensor<25xi32>
    %filled = flow.tensor.update %v, %clone[%c0] : tensor<25xi32> -> %clone as tensor<25xi32>
    flow.return
  }
  return
}
// CHECK-LABEL: func.func @mixedSemanticsByvalCaller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @mixedSemanticsByvalCaller() {
  %s = flow.ex.stream.fragment() : () -> tensor<25xi32> = () -> tensor<25xi32> {
    %zero = arith.constant 0 : i32
    %resource = flow.tensor.splat %zero : tensor<25xi32>
    flow.return %resource : tensor<25xi32>
  }
  func.call @mixedSemanticsSameCallee(%s) : (tensor<25xi32>) -> ()
  return
}
// CHECK-LABEL: func.func @mixedSemanticsByrefCaller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @mixedSemanticsByrefCaller() {
  %s = flow.ex.stream.fragment() : () -> tensor<25xi32> = () -> tensor<25xi32> {
    %zero = arith.constant 0 : i32
    %resource = flow.tensor.splat %zero : tensor<25xi32>
    flow.return %resource : tensor<25xi32>
  }
  func.call @mixedSemanticsSameCallee(%s) : (tensor<25xi32>) -> ()
  %d = flow.ex.stream.fragment(%s) : (tensor<25xi32>) -> tensor<25xi32> =
      (%r: tensor<25xi32>) -> tensor<25xi32> {
    %c1 = arith.constant 1 : index
    %dispatch = flow.dispatch @ex::@dispatch[%c1](%r) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<25xi32>) -> tensor<25xi32>
    flow.return %dispatch : tensor<25xi32>
  }
  return
}

// -----

// An argument transferred (cloned) and returned, same lifetime in IREE.
// IREE keeps 0 copies; here: 1
// More here: a result never shares an argument's buffer unless tied to it, so
// the returned clone is a copy.
// CHECK-LABEL: func.func @transferSameTypeFromArg(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @transferSameTypeFromArg(%arg: tensor<25xi32>) -> tensor<25xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> tensor<25xi32> =
      (%a: tensor<25xi32>) -> tensor<25xi32> {
    %transfer = flow.tensor.clone %a : tensor<25xi32>
    flow.return %transfer : tensor<25xi32>
  }
  return %0 : tensor<25xi32>
}

// -----

// The same, a lifetime change in IREE.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @transferTypeChangingFromArg(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @transferTypeChangingFromArg(%arg: tensor<25xi32>) -> tensor<25xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> tensor<25xi32> =
      (%a: tensor<25xi32>) -> tensor<25xi32> {
    %transfer = flow.tensor.clone %a : tensor<25xi32>
    flow.return %transfer : tensor<25xi32>
  }
  return %0 : tensor<25xi32>
}

// -----

// Two transfers (clones) in a row from an argument, the last returned.
// IREE keeps 2 copies; here: 1
// CHECK-LABEL: func.func @transferChainFromArg(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @transferChainFromArg(%arg: tensor<25xi32>) -> tensor<25xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> tensor<25xi32> =
      (%a: tensor<25xi32>) -> tensor<25xi32> {
    %t1 = flow.tensor.clone %a : tensor<25xi32>
    %t2 = flow.tensor.clone %t1 : tensor<25xi32>
    flow.return %t2 : tensor<25xi32>
  }
  return %0 : tensor<25xi32>
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
// An argument and its transfer (clone) each read by a dispatch.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @transferSameTypeMultiUse(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @transferSameTypeMultiUse(%arg: tensor<25xi32>) -> (tensor<25xi32>, tensor<25xi32>) {
  %0:2 = flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> (tensor<25xi32>, tensor<25xi32>) =
      (%a: tensor<25xi32>) -> (tensor<25xi32>, tensor<25xi32>) {
    %c1 = arith.constant 1 : index
    %transfer = flow.tensor.clone %a : tensor<25xi32>
    %d1 = flow.dispatch @ex::@dispatch1[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<25xi32>) -> tensor<25xi32>
    %d2 = flow.dispatch @ex::@dispatch2[%c1](%transfer) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<25xi32>) -> tensor<25xi32>
    flow.return %d1, %d2 : tensor<25xi32>, tensor<25xi32>
  }
  return %0#0, %0#1 : tensor<25xi32>, tensor<25xi32>
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
// A public function clones its argument and overwrites the clone whole;
// its caller reads the value it passed afterwards.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @cloneByrefToTied(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @cloneByrefToTied(%arg: tensor<25xi32>) -> tensor<25xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<25xi32>) -> tensor<25xi32> =
      (%a: tensor<25xi32>) -> tensor<25xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %clone = flow.tensor.clone %a : tensor<25xi32>
    %v = flow.tensor.splat %c123 : tensor<25xi32>
    %filled = flow.tensor.update %v, %clone[%c0] : tensor<25xi32> -> %clone as tensor<25xi32>
    flow.return %filled : tensor<25xi32>
  }
  return %0 : tensor<25xi32>
}
// CHECK-LABEL: func.func @cloneByrefToTiedCaller(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @cloneByrefToTiedCaller() {
  %s = flow.ex.stream.fragment() : () -> tensor<25xi32> = () -> tensor<25xi32> {
    %zero = arith.constant 0 : i32
    %resource = flow.tensor.splat %zero : tensor<25xi32>
    flow.return %resource : tensor<25xi32>
  }
  %r = func.call @cloneByrefToTied(%s) : (tensor<25xi32>) -> tensor<25xi32>
  %d = flow.ex.stream.fragment(%s) : (tensor<25xi32>) -> tensor<25xi32> =
      (%x: tensor<25xi32>) -> tensor<25xi32> {
    %c1 = arith.constant 1 : index
    %dispatch = flow.dispatch @ex::@dispatch[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<25xi32>) -> tensor<25xi32>
    flow.return %dispatch : tensor<25xi32>
  }
  return
}

// -----

// A row splat updated into a splat, returned.
// IREE keeps 1 copies; here: 0
// CHECK-LABEL: func.func @updateElisionOverwrite(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateElisionOverwrite() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update = flow.tensor.splat %c456 : tensor<1x4xi32>
    %updated = flow.tensor.update %update, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    flow.return %updated : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

// The same, then the updated row filled again before anything reads it.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @updateElisionNoRead(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateElisionNoRead() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update = flow.tensor.splat %c456 : tensor<1x4xi32>
    %updated = flow.tensor.update %update, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %v = flow.tensor.splat %c789 : tensor<1x4xi32>
    %filled = flow.tensor.update %v, %updated[%c0, %c0] : tensor<1x4xi32> -> %updated as tensor<4x4xi32>
    flow.return %filled : tensor<4x4xi32>
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
// A row splat updated into a splat, then read by a dispatch.
// IREE keeps 1 copies; here: 0
// CHECK-LABEL: func.func @updateNotElided_regionRead(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateNotElided_regionRead() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update = flow.tensor.splat %c456 : tensor<1x4xi32>
    %updated = flow.tensor.update %update, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %dispatch = flow.dispatch @ex::@dispatch[%c1](%updated) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %dispatch : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

// A callee updates a row of its argument in place; the caller returns the
// value it passed as well.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func private @updateNotElided_byRefArg(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @updateNotElided_byRefArg(%target: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%target) : (tensor<4x4xi32>) -> %target =
      (%t: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %update = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update, %t[%c0, %c0] : tensor<1x4xi32> -> %t as tensor<4x4xi32>
    flow.return %updated : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}
// CHECK-LABEL: func.func @updateNotElided_byRefArg_caller(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateNotElided_byRefArg_caller() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %s = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<4x4xi32>
    flow.return %splat : tensor<4x4xi32>
  }
  %r = func.call @updateNotElided_byRefArg(%s) : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %s, %r : tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// A splat updated over the whole of another splat.
// IREE keeps 1 copies; here: 0
// CHECK-LABEL: func.func @updateFullBuffer(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateFullBuffer() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %target = flow.tensor.splat %c123 : tensor<4xi32>
    %update = flow.tensor.splat %c456 : tensor<4xi32>
    %updated = flow.tensor.update %update, %target[%c0] : tensor<4xi32> -> %target as tensor<4xi32>
    flow.return %updated : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
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
// A row update, then an in-place dispatch on the updated value, then two
// rows of the result copied into fresh storage.
// IREE keeps 2 copies; here: 1
// CHECK-LABEL: func.func @updateNotElided_tiedDispatch(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateNotElided_tiedDispatch() -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2x4xi32> = () -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update_src = flow.tensor.splat %c456 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %dispatch = flow.dispatch @ex::@dispatch[%c1](%updated) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %updated
    %output = flow.tensor.splat %zero : tensor<2x4xi32>
    %rows = flow.tensor.slice %dispatch[%c0, %c0 for %c2, %c4] : tensor<4x4xi32> -> tensor<2x4xi32>
    %copy = flow.tensor.update %rows, %output[%c0, %c0] : tensor<2x4xi32> -> %output as tensor<2x4xi32>
    flow.return %copy : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

// Two row splats updated into fresh storage, one row each (a concat).
// IREE keeps 2 copies; here: 0
// CHECK-LABEL: func.func @updateChained(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateChained() -> tensor<2x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<2x4xi32> = () -> tensor<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %alloca = flow.tensor.splat %zero : tensor<2x4xi32>
    %splat0 = flow.tensor.splat %one : tensor<1x4xi32>
    %splat1 = flow.tensor.splat %two : tensor<1x4xi32>
    %update0 = flow.tensor.update %splat0, %alloca[%c0, %c0] : tensor<1x4xi32> -> %alloca as tensor<2x4xi32>
    %update1 = flow.tensor.update %splat1, %update0[%c1, %c0] : tensor<1x4xi32> -> %update0 as tensor<2x4xi32>
    flow.return %update1 : tensor<2x4xi32>
  }
  return %0 : tensor<2x4xi32>
}

// -----

// A callee fills a row of its argument in place, then updates the same
// row; the caller returns the value it passed as well.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func private @updateNotElided_tiedChainFromByRef(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @updateNotElided_tiedChainFromByRef(%input: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<4x4xi32>) -> %input =
      (%i: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %v = flow.tensor.splat %c123 : tensor<1x4xi32>
    %filled = flow.tensor.update %v, %i[%c0, %c0] : tensor<1x4xi32> -> %i as tensor<4x4xi32>
    %update_src = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %filled[%c0, %c0] : tensor<1x4xi32> -> %filled as tensor<4x4xi32>
    flow.return %updated : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}
// CHECK-LABEL: func.func @updateNotElided_tiedChainFromByRef_caller(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateNotElided_tiedChainFromByRef_caller() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %s = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<4x4xi32>
    flow.return %splat : tensor<4x4xi32>
  }
  %r = func.call @updateNotElided_tiedChainFromByRef(%s) : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %s, %r : tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// A row update into a splat; both the splat and the updated value returned.
// IREE keeps 1 copies; here: 1
// The clone copy on write puts in front of the update moves in front of the
// update's splat, which is filled in the clone.
// CHECK-LABEL: func.func @updateNotElided_targetMultipleUsers(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateNotElided_targetMultipleUsers() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update_src = flow.tensor.splat %c456 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    flow.return %target, %updated : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// Two row updates of the same row, both sources made before either update.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @updateElided_chainedSameRegion(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateElided_chainedSameRegion() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update1_src = flow.tensor.splat %c456 : tensor<1x4xi32>
    %update2_src = flow.tensor.splat %c789 : tensor<1x4xi32>
    %updated1 = flow.tensor.update %update1_src, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %updated2 = flow.tensor.update %update2_src, %updated1[%c0, %c0] : tensor<1x4xi32> -> %updated1 as tensor<4x4xi32>
    flow.return %updated2 : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

// The same into two different rows.
// IREE keeps 2 copies; here: 0
// CHECK-LABEL: func.func @updateNotElided_chainedDifferentRegion(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateNotElided_chainedDifferentRegion() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %c456 = arith.constant 456 : i32
    %c789 = arith.constant 789 : i32
    %target = flow.tensor.splat %c123 : tensor<4x4xi32>
    %update1_src = flow.tensor.splat %c456 : tensor<1x4xi32>
    %update2_src = flow.tensor.splat %c789 : tensor<1x4xi32>
    %updated1 = flow.tensor.update %update1_src, %target[%c0, %c0] : tensor<1x4xi32> -> %target as tensor<4x4xi32>
    %updated2 = flow.tensor.update %update2_src, %updated1[%c1, %c0] : tensor<1x4xi32> -> %updated1 as tensor<4x4xi32>
    flow.return %updated2 : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

// A row splat updated into fresh storage, then a row of an argument
// copied into the next row.
// IREE keeps 2 copies; here: 1
// CHECK-LABEL: func.func @updateNotElided_followedByCopyToDifferentRegion(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateNotElided_followedByCopyToDifferentRegion(%copy_src: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%copy_src) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%src: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %alloca = flow.tensor.splat %zero : tensor<4x4xi32>
    %update_src = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %alloca[%c0, %c0] : tensor<1x4xi32> -> %alloca as tensor<4x4xi32>
    %row = flow.tensor.slice %src[%c0, %c0 for %c1, %c4] : tensor<4x4xi32> -> tensor<1x4xi32>
    %copied = flow.tensor.update %row, %updated[%c1, %c0] : tensor<1x4xi32> -> %updated as tensor<4x4xi32>
    flow.return %copied : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}

// -----

// The same with the argument's row copied over the updated row.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @updateElided_followedByCopyToSameRegion(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @updateElided_followedByCopyToSameRegion(%copy_src: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%copy_src) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%src: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %alloca = flow.tensor.splat %zero : tensor<4x4xi32>
    %update_src = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %alloca[%c0, %c0] : tensor<1x4xi32> -> %alloca as tensor<4x4xi32>
    %row = flow.tensor.slice %src[%c0, %c0 for %c1, %c4] : tensor<4x4xi32> -> tensor<1x4xi32>
    %copied = flow.tensor.update %row, %updated[%c0, %c0] : tensor<1x4xi32> -> %updated as tensor<4x4xi32>
    flow.return %copied : tensor<4x4xi32>
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
// A row splat updated into fresh storage, then a dispatch writing the
// updated value in place.
// IREE keeps 1 copies; here: 0
// CHECK-LABEL: func.func @updateNotElided_followedByTiedDispatch(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateNotElided_followedByTiedDispatch() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %alloca = flow.tensor.splat %zero : tensor<4x4xi32>
    %update_src = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %alloca[%c0, %c0] : tensor<1x4xi32> -> %alloca as tensor<4x4xi32>
    %dispatch = flow.dispatch @ex::@dispatch[%c1](%updated) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %updated
    flow.return %dispatch : tensor<4x4xi32>
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
// Three clones of a splat, each read by a dispatch.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @multiCloneImmutableSource(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @multiCloneImmutableSource() -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:3 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone0 = flow.tensor.clone %source : tensor<4x4xi32>
    %d0 = flow.dispatch @ex::@dispatch[%c1](%clone0) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %clone1 = flow.tensor.clone %source : tensor<4x4xi32>
    %d1 = flow.dispatch @ex::@dispatch[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %clone2 = flow.tensor.clone %source : tensor<4x4xi32>
    %d2 = flow.dispatch @ex::@dispatch[%c1](%clone2) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %d0, %d1, %d2 : tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1, %0#2 : tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>
}

// -----

// A row splat updated into row 1 of fresh storage, then a 4-row splat
// copied over rows 0-3, covering it.
// IREE keeps 2 copies; here: 0
// CHECK-LABEL: func.func @updateNotElided_copyWritesSupersetRegion(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @updateNotElided_copyWritesSupersetRegion() -> tensor<8x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<8x4xi32> = () -> tensor<8x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %c123 = arith.constant 123 : i32
    %alloca = flow.tensor.splat %zero : tensor<8x4xi32>
    %update_src = flow.tensor.splat %c123 : tensor<1x4xi32>
    %updated = flow.tensor.update %update_src, %alloca[%c1, %c0] : tensor<1x4xi32> -> %alloca as tensor<8x4xi32>
    %copy_src = flow.tensor.splat %c123 : tensor<4x4xi32>
    %copy = flow.tensor.update %copy_src, %updated[%c0, %c0] : tensor<4x4xi32> -> %updated as tensor<8x4xi32>
    flow.return %copy : tensor<8x4xi32>
  }
  return %0 : tensor<8x4xi32>
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
// A clone written in place while its source is still read afterwards.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @cloneMutatedNotLastUser(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @cloneMutatedNotLastUser() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    %d0 = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %clone
    %d1 = flow.dispatch @ex::@dispatch[%c1](%source) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %d0, %d1 : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<4x4xi32>, tensor<4x4xi32>
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
// A clone written in place, its source used by nothing else.
// IREE keeps 0 copies; here: 0
// CHECK-LABEL: func.func @cloneMutatedLastUser(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @cloneMutatedLastUser() -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi32> = () -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    %d = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %clone
    flow.return %d : tensor<4x4xi32>
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
// A clone only read, its source overwritten whole in place meanwhile.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @clonePreservedSourceMutatedElsewhere(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @clonePreservedSourceMutatedElsewhere() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    %v = flow.tensor.splat %c123 : tensor<4x4xi32>
    %mutated_source = flow.tensor.update %v, %source[%c0, %c0] : tensor<4x4xi32> -> %source as tensor<4x4xi32>
    %read_clone = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %mutated_source, %read_clone : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<4x4xi32>, tensor<4x4xi32>
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
// A clone only read, its source written in place by a dispatch meanwhile.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @clonePreservedSourceMutatedViaTiedDispatch(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @clonePreservedSourceMutatedViaTiedDispatch() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    %mutated = flow.dispatch @ex::@dispatch[%c1](%source) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %source
    %read = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %mutated, %read : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<4x4xi32>, tensor<4x4xi32>
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
// A clone passed to a callee that overwrites its argument in place; the
// caller reads the source afterwards.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func private @mutating_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @mutating_callee(%arg: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4x4xi32>) -> %arg =
      (%a: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c0 = arith.constant 0 : index
    %c123 = arith.constant 123 : i32
    %v = flow.tensor.splat %c123 : tensor<4x4xi32>
    %mutated = flow.tensor.update %v, %a[%c0, %c0] : tensor<4x4xi32> -> %a as tensor<4x4xi32>
    flow.return %mutated : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}
// CHECK-LABEL: func.func @clonePreservedCrossFunctionMutation(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @clonePreservedCrossFunctionMutation() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    flow.return %source, %clone : tensor<4x4xi32>, tensor<4x4xi32>
  }
  %call_result = func.call @mutating_callee(%0#1) : (tensor<4x4xi32>) -> tensor<4x4xi32>
  %read = flow.ex.stream.fragment(%0#0) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%s: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %r : tensor<4x4xi32>
  }
  return %call_result, %read : tensor<4x4xi32>, tensor<4x4xi32>
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
// A clone passed to a callee that only reads it; the caller reads the
// source afterwards.
// IREE keeps 0 copies; here: 0
// Nothing after the fragment writes the clone or its source (the callee only
// reads its argument), so both results share one storage.
// CHECK-LABEL: func.func private @reading_callee(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func private @reading_callee(%arg: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%a: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %result = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %result : tensor<4x4xi32>
  }
  return %0 : tensor<4x4xi32>
}
// CHECK-LABEL: func.func @cloneElidedCrossFunctionReadOnly(
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @cloneElidedCrossFunctionReadOnly() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    flow.return %source, %clone : tensor<4x4xi32>, tensor<4x4xi32>
  }
  %call_result = func.call @reading_callee(%0#1) : (tensor<4x4xi32>) -> tensor<4x4xi32>
  %read = flow.ex.stream.fragment(%0#0) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%s: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %r : tensor<4x4xi32>
  }
  return %call_result, %read : tensor<4x4xi32>, tensor<4x4xi32>
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
// A slice of a splat overwritten whole and returned; a clone of the splat
// read by a dispatch.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @clonePreservedAfterSliceMutation(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @clonePreservedAfterSliceMutation() -> (tensor<2x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<2x4xi32>, tensor<4x4xi32>) =
      () -> (tensor<2x4xi32>, tensor<4x4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c123 = arith.constant 123 : i32
    %source = flow.tensor.splat %c123 : tensor<4x4xi32>
    %slice = flow.tensor.slice %source[%c0, %c0 for %c2, %c4] : tensor<4x4xi32> -> tensor<2x4xi32>
    %clone = flow.tensor.clone %source : tensor<4x4xi32>
    %v = flow.tensor.splat %c123 : tensor<2x4xi32>
    %mutated_slice = flow.tensor.update %v, %slice[%c0, %c0] : tensor<2x4xi32> -> %slice as tensor<2x4xi32>
    %read = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %mutated_slice, %read : tensor<2x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<2x4xi32>, tensor<4x4xi32>
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
// A clone of an argument read by a dispatch.
// IREE keeps 1 copies; here: 0 (IREE's clone is a lifetime change)
// CHECK-LABEL: func.func @crossLifetimeClonePreserved_readOnly(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @crossLifetimeClonePreserved_readOnly(%input: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%i: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %clone = flow.tensor.clone %i : tensor<4x4xi32>
    %d = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %d : tensor<4x4xi32>
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
// A clone of an argument written in place by a dispatch and returned.
// IREE keeps 1 copies; here: 1
// CHECK-LABEL: func.func @crossLifetimeClonePreserved_resultMutated(
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: {{^ *}}return
func.func @crossLifetimeClonePreserved_resultMutated(%input: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = flow.ex.stream.fragment(%input) : (tensor<4x4xi32>) -> tensor<4x4xi32> =
      (%i: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %c1 = arith.constant 1 : index
    %clone = flow.tensor.clone %i : tensor<4x4xi32>
    %d = flow.dispatch @ex::@dispatch[%c1](%clone) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xi32>) -> %clone
    flow.return %d : tensor<4x4xi32>
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
// Two clones of an argument, each read by a dispatch.
// IREE keeps 2 copies; here: 0 (IREE's clones are lifetime changes)
// CHECK-LABEL: func.func @crossLifetimeClonePreserved_multipleReadOnly(
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @crossLifetimeClonePreserved_multipleReadOnly(%input: tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %0:2 = flow.ex.stream.fragment(%input) : (tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>) =
      (%i: tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %c1 = arith.constant 1 : index
    %clone0 = flow.tensor.clone %i : tensor<4x4xi32>
    %d0 = flow.dispatch @ex::@dispatch[%c1](%clone0) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %clone1 = flow.tensor.clone %i : tensor<4x4xi32>
    %d1 = flow.dispatch @ex::@dispatch[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xi32>) -> tensor<4x4xi32>
    flow.return %d0, %d1 : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %0#0, %0#1 : tensor<4x4xi32>, tensor<4x4xi32>
}
