// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write | FileCheck %s
// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write > %t.once
// RUN: hal-opt %t.once -split-input-file --flow-materialize-copy-on-write > %t.twice
// RUN: diff %t.once %t.twice
// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,streamhal-lower-to-hal{copies=always submission=blocking},hal-verify-command-buffers' --orders=2

// Read-only clones (docs/lowering.md, "Value semantics"): a fragment
// returning a value and a clone of it (or a clone of an operand) gives its
// caller two equal values; when nothing after the fragment writes either
// one, the clone is replaced by its source and the results share storage.
// And callers learn which results of a callee share storage.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func private @reader(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    flow.return %r : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
func.func private @writer(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> %arg =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %a
    flow.return %r : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// The clone goes to a callee that only reads it, its source to a host
// load and a later fragment's untied operand: the clone is gone.
// CHECK-LABEL: func.func @read_only_after
// CHECK: flow.ex.stream.fragment
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.return %[[S:.+]], %[[S]] :
func.func @read_only_after() -> (tensor<4xi32>, i32) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %c7 = arith.constant 7 : i32
    %s = flow.tensor.splat %c7 : tensor<4xi32>
    %c = flow.tensor.clone %s : tensor<4xi32>
    flow.return %s, %c : tensor<4xi32>, tensor<4xi32>
  }
  %r = call @reader(%0#1) : (tensor<4xi32>) -> tensor<4xi32>
  %c0 = arith.constant 0 : index
  %e = flow.tensor.load %0#0[%c0] : tensor<4xi32>
  %d = flow.ex.stream.fragment(%0#0, %r) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    flow.return %x : tensor<4xi32>
  }
  return %d, %e : tensor<4xi32>, i32
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func private @writer(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> %arg =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %r = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %a
    flow.return %r : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// A callee writes the clone in place: the clone stays.
// CHECK-LABEL: func.func @callee_writes
// CHECK: flow.tensor.clone
// CHECK: call @writer
func.func @callee_writes() -> (tensor<4xi32>, tensor<4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %c7 = arith.constant 7 : i32
    %s = flow.tensor.splat %c7 : tensor<4xi32>
    %c = flow.tensor.clone %s : tensor<4xi32>
    flow.return %s, %c : tensor<4xi32>, tensor<4xi32>
  }
  %w = call @writer(%0#1) : (tensor<4xi32>) -> tensor<4xi32>
  %r = flow.ex.stream.fragment(%0#0) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    flow.return %x : tensor<4xi32>
  }
  return %w, %r : tensor<4xi32>, tensor<4xi32>
}

// -----

// Both values are returned by the function (a caller may write a result):
// the clone stays.
// CHECK-LABEL: func.func @returned
// CHECK: flow.tensor.clone
func.func @returned() -> (tensor<4xi32>, tensor<4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %c7 = arith.constant 7 : i32
    %s = flow.tensor.splat %c7 : tensor<4xi32>
    %c = flow.tensor.clone %s : tensor<4xi32>
    flow.return %s, %c : tensor<4xi32>, tensor<4xi32>
  }
  return %0#0, %0#1 : tensor<4xi32>, tensor<4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}

// A clone of an operand read afterwards, as is the operand: the result
// returns the operand's storage.
// CHECK-LABEL: func.func @clone_of_operand
// CHECK: flow.ex.stream.fragment
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.return %{{.+}}, %[[ARG:[^ ]+]] :
func.func @clone_of_operand(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0:2 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) =
      (%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@dispatch[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    %c = flow.tensor.clone %a : tensor<4xi32>
    flow.return %x, %c : tensor<4xi32>, tensor<4xi32>
  }
  %r = flow.ex.stream.fragment(%0#0, %0#1, %arg) : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %x = flow.dispatch @ex::@dispatch[%c1](%b) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xi32>) -> tensor<4xi32>
    flow.return %x : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// The clone's source is written in place later: the clone stays in the
// first fragment, and the write keeps its tie.
// CHECK-LABEL: func.func @source_written
// CHECK: %[[F:.+]]:2 = flow.ex.stream.fragment()
// CHECK: flow.tensor.splat
// CHECK-NEXT: flow.tensor.clone
// CHECK: flow.ex.stream.fragment(%[[F]]#0) : (tensor<4xi32>) -> %[[F]]#0
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.tensor.update
func.func @source_written() -> (tensor<4xi32>, tensor<4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %c7 = arith.constant 7 : i32
    %s = flow.tensor.splat %c7 : tensor<4xi32>
    %c = flow.tensor.clone %s : tensor<4xi32>
    flow.return %s, %c : tensor<4xi32>, tensor<4xi32>
  }
  %w = flow.ex.stream.fragment(%0#0) : (tensor<4xi32>) -> %0#0 =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c9 = arith.constant 9 : i32
    %p = flow.tensor.splat %c9 : tensor<1xi32>
    %u = flow.tensor.update %p, %a[%c0] : tensor<1xi32> -> %a as tensor<4xi32>
    flow.return %u : tensor<4xi32>
  }
  %r = flow.ex.stream.fragment(%0#1) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %sl = flow.tensor.slice %a[%c0 for %c1] : tensor<4xi32> -> tensor<1xi32>
    %c5 = arith.constant 5 : i32
    %z = flow.tensor.splat %c5 : tensor<4xi32>
    %u = flow.tensor.update %sl, %z[%c1] : tensor<1xi32> -> %z as tensor<4xi32>
    flow.return %u : tensor<4xi32>
  }
  return %w, %r : tensor<4xi32>, tensor<4xi32>
}

// -----

// A callee returns one value at two results; its caller writes the first in
// place and returns the second: the tie is dropped, the write goes into a
// clone.
// CHECK-LABEL: func.func @shared_results_caller
// CHECK: %[[R:.+]]:2 = call @shared_results
// CHECK: flow.ex.stream.fragment(%[[R]]#0) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: flow.tensor.clone
// CHECK: flow.tensor.update
func.func private @shared_results() -> (tensor<4xi32>, tensor<4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %c123 = arith.constant 123 : i32
    %s = flow.tensor.splat %c123 : tensor<4xi32>
    flow.return %s, %s : tensor<4xi32>, tensor<4xi32>
  }
  return %0#0, %0#1 : tensor<4xi32>, tensor<4xi32>
}
func.func @shared_results_caller() -> (tensor<4xi32>, tensor<4xi32>) {
  %r:2 = call @shared_results() : () -> (tensor<4xi32>, tensor<4xi32>)
  %w = flow.ex.stream.fragment(%r#0) : (tensor<4xi32>) -> %r#0 =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    %s = flow.tensor.splat %c7 : tensor<1xi32>
    %u = flow.tensor.update %s, %a[%c0] : tensor<1xi32> -> %a as tensor<4xi32>
    flow.return %u : tensor<4xi32>
  }
  return %w, %r#1 : tensor<4xi32>, tensor<4xi32>
}
