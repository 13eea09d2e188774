// RUN: hal-opt %s --flow-materialize-copy-on-write | FileCheck %s
// RUN: hal-opt %s --flow-materialize-copy-on-write > %t.once
// RUN: hal-opt %t.once --flow-materialize-copy-on-write > %t.twice
// RUN: diff %t.once %t.twice
// RUN: hal-exec %s --skip-function=external_callee '--check-lowering=flow-materialize-copy-on-write,convert-flow-to-hal,hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --skip-function=external_callee '--check-lowering=flow-schedule-fragments,convert-flow-to-hal,hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --skip-function=external_callee '--check-lowering=convert-flow-to-hal{copies=always},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --skip-function=external_callee '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{copies=always barriers=full},hal-verify-command-buffers,hal-pack-allocations,canonicalize' --orders=4

// Value semantics (docs/lowering.md, "Value semantics: copy on write"):
// every copy a tie would otherwise lose becomes explicit, and nothing else
// changes. Each function is also run by hal-exec under every combination of
// scheduling, copy elision and barriers, which checks results and the
// arguments the caller keeps.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=3, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}

// A value written in place and read afterwards: the write goes into a
// clone made right before it.
// CHECK-LABEL: func.func @read_after_tied_write
// CHECK: %[[S:.+]] = flow.tensor.splat
// CHECK-NEXT: %[[C:.+]] = flow.tensor.clone %[[S]] : tensor<4xf32>
// CHECK-NEXT: %[[W:.+]] = flow.dispatch @ex::@entry[%{{.+}}](%[[C]]) {{.*}} -> %[[C]]
// CHECK-NEXT: flow.dispatch @ex::@entry[%{{.+}}](%[[S]])
func.func @read_after_tied_write() -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xf32>, tensor<4xf32>) =
      () -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c4](%s) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %s
    %r = flow.dispatch @ex::@entry[%c4](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %w, %r : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// A kernel that writes an operand through a writable binding with no
// result tied to it writes in place all the same: the write gets a result
// tied to the operand (unused), and the argument the caller keeps is
// written only as a clone.
// CHECK-LABEL: func.func @untied_binding_write
// CHECK: %[[C:.+]] = flow.tensor.clone %[[A:.+]] : tensor<4xf32>
// CHECK-NEXT: %[[W:.+]]:2 = flow.dispatch @ex::@entry[%{{.+}}](%[[C]]) {{.*}} -> (tensor<4xf32>, %[[C]])
// CHECK-NEXT: flow.return %[[W]]#0
func.func @untied_binding_write(%arg: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %r = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// One value passed twice, the tie on the read-only position (the first
// one the printed `-> %a` names) and the writable binding on the other:
// each position the op writes gets its own clone, so the caller's argument
// is never written.
// CHECK-LABEL: func.func @tie_on_read_position
// CHECK: %[[C0:.+]] = flow.tensor.clone %[[A:.+]] : tensor<4xf32>
// CHECK-NEXT: %[[C1:.+]] = flow.tensor.clone %[[A]] : tensor<4xf32>
// CHECK-NEXT: flow.dispatch @ex::@entry[%{{.+}}](%[[C0]], %[[C1]]) {{.*}} -> (%[[C0]], %[[C1]])
func.func @tie_on_read_position(%arg: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %w = flow.dispatch @ex::@entry[%c4](%a, %a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.operand_buffer<"rw", 1 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> %a
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// Read through a reshape taken before the write: same storage, so a copy.
// CHECK-LABEL: func.func @read_through_reshape
// CHECK: %[[S:.+]] = flow.tensor.splat
// CHECK-NEXT: %[[R:.+]] = flow.tensor.reshape %[[S]]
// CHECK: %[[C:.+]] = flow.tensor.clone %[[S]]
// CHECK-NEXT: flow.tensor.update %{{.+}}, %[[C]]
func.func @read_through_reshape() -> (tensor<4xf32>, tensor<2x2xf32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<4xf32>, tensor<2x2xf32>) =
      () -> (tensor<4xf32>, tensor<2x2xf32>) {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %s = flow.tensor.splat %cst : tensor<4xf32>
    %r = flow.tensor.reshape %s : tensor<4xf32> -> tensor<2x2xf32>
    %p = flow.tensor.splat %one : tensor<1xf32>
    %u = flow.tensor.update %p, %s[%c0] : tensor<1xf32> -> %s as tensor<4xf32>
    flow.return %u, %r : tensor<4xf32>, tensor<2x2xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<2x2xf32>
}

// The writing dispatch reads the same value through another binding: a
// kernel may not read bytes it overwrites, so it writes a clone.
// CHECK-LABEL: func.func @second_operand
// CHECK: %[[C:.+]] = flow.tensor.clone %[[S:.+]] : tensor<4xf32>
// CHECK-NEXT: flow.dispatch @ex::@entry[%{{.+}}](%[[C]], %[[S]]) {{.*}} -> %[[C]]
func.func @second_operand() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %cst = arith.constant 2.0 : f32
    %s = flow.tensor.splat %cst : tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c4](%s, %s) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> %s
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// An operand written in place with no result tied to it: the caller keeps
// it, so the update writes a clone. A tied operand is the caller's donation
// and is written in place.
// CHECK-LABEL: func.func @untied_operand
// CHECK: %[[C:.+]] = flow.tensor.clone %arg1 : tensor<4xf32>
// CHECK-NEXT: flow.tensor.update %{{.+}}, %[[C]]
// CHECK-LABEL: func.func @donated_operand
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.tensor.update %{{.+}}, %arg1
func.func @untied_operand(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 1.0 : f32
    %s = flow.tensor.splat %cst : tensor<1xf32>
    %u = flow.tensor.update %s, %a[%c0] : tensor<1xf32> -> %a as tensor<4xf32>
    flow.return %u : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @donated_operand(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> %t =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 1.0 : f32
    %s = flow.tensor.splat %cst : tensor<1xf32>
    %u = flow.tensor.update %s, %a[%c0] : tensor<1xf32> -> %a as tensor<4xf32>
    flow.return %u : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// The operand is read again after the fragment (directly, and as the
// function's result): the tie is dropped and the body copies first.
// CHECK-LABEL: func.func @read_after_fragment
// CHECK: flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: flow.tensor.clone
// CHECK: return %{{.+}}, %arg0
func.func @read_after_fragment(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> %t =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %w = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %w : tensor<4xf32>
  }
  return %0, %t : tensor<4xf32>, tensor<4xf32>
}

// A callee writes its argument in place (a tie donates it); the caller
// still needs the value after the call, so it passes a copy. A declaration
// writes none of its arguments.
// CHECK-LABEL: func.func @caller
// CHECK: %[[COPY:.+]] = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> = (%{{.+}}: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: flow.tensor.clone
// CHECK: call @writes_argument(%[[COPY]])
// CHECK: flow.ex.stream.fragment(%arg0)
// CHECK-LABEL: func.func @external_callee
// CHECK-NOT: flow.ex.stream.fragment
func.func private @writes_argument(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> %t =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %w = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = call @writes_argument(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = flow.ex.stream.fragment(%x) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %r = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %r : tensor<4xf32>
  }
  return %y, %z : tensor<4xf32>, tensor<4xf32>
}
func.func private @declared(%t: tensor<4xf32>) -> tensor<4xf32>
func.func @external_callee(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = call @declared(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y, %x : tensor<4xf32>, tensor<4xf32>
}

// One tensor passed as two operands: writing one in place would change
// the other, which is read afterwards.
// CHECK-LABEL: func.func @operand_passed_twice
// CHECK: flow.ex.stream.fragment(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: flow.tensor.clone %arg1
func.func @operand_passed_twice(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment(%t, %t) : (tensor<4xf32>, tensor<4xf32>) -> (%t, tensor<4xf32>) =
      (%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %w = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    %r = flow.dispatch @ex::@entry[%c4](%b) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %w, %r : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// A fresh value returned tied to an operand is computed in the operand's
// buffer; here the operand is read after the value is made, so the tie is
// dropped. Where the operand is dead first, the tie stays.
// CHECK-LABEL: func.func @fresh_value_tied_too_early
// CHECK: flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func @fresh_value_tied
// CHECK: flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> (%arg0, tensor<4xf32>)
func.func @fresh_value_tied_too_early(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> (%t, tensor<4xf32>) =
      (%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %y = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"d0", 0 : index>]} : () -> tensor<4xf32>
    %r = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %y, %r : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
func.func @fresh_value_tied(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> (%t, tensor<4xf32>) =
      (%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %p = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %q = flow.dispatch @ex::@entry[%c4](%p, %a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.operand_buffer<"s1", 1 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %y = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"d0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %y, %q : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// A clone of a donated operand, written and returned tied: source and copy
// would be one buffer, so the clone (a copy onto itself) is removed.
// CHECK-LABEL: func.func @copy_onto_itself
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.dispatch @ex::@entry[%{{.+}}](%arg1) {{.*}} -> %arg1
func.func @copy_onto_itself(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> %t =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %c = flow.tensor.clone %a : tensor<4xf32>
    %w = flow.dispatch @ex::@entry[%c4](%c) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %c
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// A host store into a tensor still returned: the store writes a copy.
// CHECK-LABEL: func.func @host_store
// CHECK: %[[COPY:.+]] = flow.ex.stream.fragment(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: flow.tensor.store %{{.+}}, %[[COPY]][%{{.+}}] : tensor<4xi32>
func.func @host_store(%t: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %s = flow.tensor.store %c7, %t[%c1] : tensor<4xi32>
  return %s, %t : tensor<4xi32>, tensor<4xi32>
}

// A global's tensor is the global's storage: a fragment may not write it
// in place through a tie when the global keeps its value (no store of the
// result back into it).
util.global private mutable @state : tensor<4xf32>
// CHECK-LABEL: func.func @global_value
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: flow.tensor.clone
func.func @global_value() -> tensor<4xf32> {
  %g = util.global.load @state : tensor<4xf32>
  %0 = flow.ex.stream.fragment(%g) : (tensor<4xf32>) -> %g =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    %w = flow.dispatch @ex::@entry[%c4](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %w : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// A global updated in place: the loaded value goes through one tied
// fragment straight back into the same global, and nothing reads the global
// in between, so nothing can see its old bytes: no copy (a KV-cache step).
// Read again before the store, the old value needs its copy.
util.global private mutable @cache = dense<2.0> : tensor<8x4xf32>
// CHECK-LABEL: func.func @global_round_trip
// CHECK: flow.ex.stream.fragment(%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<8x4xf32>, tensor<1x4xf32>, index) -> %{{.+}} =
// CHECK-NOT: flow.tensor.clone
// CHECK: util.global.store
// CHECK-LABEL: func.func @global_read_before_store
// CHECK: flow.ex.stream.fragment(%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<8x4xf32>, tensor<1x4xf32>, index) -> tensor<8x4xf32> =
// CHECK: flow.tensor.clone
func.func @global_round_trip(%new: tensor<1x4xf32>, %row: index) -> tensor<8x4xf32> {
  %c = util.global.load @cache : tensor<8x4xf32>
  %0 = flow.ex.stream.fragment(%c, %new, %row) : (tensor<8x4xf32>, tensor<1x4xf32>, index) -> %c =
      (%a: tensor<8x4xf32>, %n: tensor<1x4xf32>, %r: index) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %u = flow.tensor.update %n, %a[%r, %c0] : tensor<1x4xf32> -> %a as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  util.global.store %0, @cache : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func @global_read_before_store(%new: tensor<1x4xf32>, %row: index) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c = util.global.load @cache : tensor<8x4xf32>
  %old = util.global.load @cache : tensor<8x4xf32>
  %0 = flow.ex.stream.fragment(%c, %new, %row) : (tensor<8x4xf32>, tensor<1x4xf32>, index) -> %c =
      (%a: tensor<8x4xf32>, %n: tensor<1x4xf32>, %r: index) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %u = flow.tensor.update %n, %a[%r, %c0] : tensor<1x4xf32> -> %a as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  util.global.store %0, @cache : tensor<8x4xf32>
  return %0, %old : tensor<8x4xf32>, tensor<8x4xf32>
}

// A storage whose members' last uses differ: the first fragment passes
// %arg0 through (its result, dead, shares %arg0's storage), so the class
// of %arg0 and that result lives until the last use of either, the return
// of %arg0. The second fragment may not write %arg0 in place: its tie is
// dropped, and the dispatch writes a copy in the result's own storage.
// CHECK-LABEL: func.func @pass_through_then_tied
// CHECK: flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK: %[[W:.+]] = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK: flow.tensor.clone
// CHECK: return %[[W]], %arg0
func.func @pass_through_then_tied(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %dead = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    flow.return %a : tensor<4xf32>
  }
  %w = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> %arg0 =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %1 : tensor<4xf32>
  }
  return %w, %arg0 : tensor<4xf32>, tensor<4xf32>
}

// A storage a global holds through one member only: %arg0 is stored into
// @kept, then passed through a fragment (its result shares the storage),
// and that result is written in place. The class is held by the global from
// the store on, whichever member the write goes through: the second
// fragment's tie is dropped and the dispatch writes a copy.
util.global private mutable @kept : tensor<4xf32>
// CHECK-LABEL: func.func @global_pins_pass_through
// CHECK: util.global.store %arg0, @kept
// CHECK: %[[P:.+]] = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK: flow.ex.stream.fragment(%[[P]]) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK: flow.tensor.clone
func.func @global_pins_pass_through(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  util.global.store %arg0, @kept : tensor<4xf32>
  %p = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    flow.return %a : tensor<4xf32>
  }
  %w = flow.ex.stream.fragment(%p) : (tensor<4xf32>) -> %p =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %a
    flow.return %1 : tensor<4xf32>
  }
  return %w : tensor<4xf32>
}
