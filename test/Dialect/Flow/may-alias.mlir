// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write | FileCheck %s
// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-exec %s --split-input-file '--check-lowering=streamhal-lower-to-hal{copies=always submission=blocking},hal-verify-command-buffers' --orders=2
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s --check-prefix=COPIES

// MayAlias bindings (docs/lowering.md, "Value semantics"): a dispatch that
// reads a value through one binding and writes it in place through another
// needs a clone, since a kernel may assume its bindings do not alias;
// unless both bindings are declared MayAlias (SPIR-V's Aliased), when the
// kernel promises to read what it needs before it overwrites it.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @sa, set=0, binding=1, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @rwa, set=0, binding=3, type="StorageBuffer", access="Read|Write|MayAlias"
    hal.interface.binding @da, set=0, binding=4, type="StorageBuffer", access="Write|MayAlias"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}

// Both bindings MayAlias: written in place, no clone, no copy.
// CHECK-LABEL: func.func @both_may_alias
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.dispatch @ex::@dispatch
// COPIES-LABEL: func.func @both_may_alias
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES: {{^ *}}return
func.func @both_may_alias() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.operand_buffer<"rwa", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// A tied result written through its own MayAlias result binding.
// CHECK-LABEL: func.func @result_binding_may_alias
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.dispatch @ex::@dispatch
func.func @result_binding_may_alias() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.result_buffer<"da", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// The read binding is not MayAlias: the written value is a clone.
// CHECK-LABEL: func.func @read_not_may_alias
// CHECK: %[[CLONE:.+]] = flow.tensor.clone
// CHECK: flow.dispatch @ex::@dispatch[%{{.+}}](%[[CLONE]], %{{.+}})
// COPIES-LABEL: func.func @read_not_may_alias
// COPIES-COUNT-1: hal.command_buffer.copy_buffer
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES: {{^ *}}return
func.func @read_not_may_alias() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.operand_buffer<"rwa", 0 : index>, #hal.ex.operand_buffer<"s0", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// The written binding is not MayAlias: the written value is a clone.
// CHECK-LABEL: func.func @written_not_may_alias
// CHECK: %[[CLONE:.+]] = flow.tensor.clone
// CHECK: flow.dispatch @ex::@dispatch[%{{.+}}](%[[CLONE]], %{{.+}})
func.func @written_not_may_alias() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// MayAlias does not let a value still needed after the dispatch be
// overwritten: the clone stays.
// CHECK-LABEL: func.func @needed_later
// CHECK: flow.tensor.clone
func.func @needed_later() -> (tensor<16x4xi32>, tensor<16x4xi32>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<16x4xi32>, tensor<16x4xi32>) = () -> (tensor<16x4xi32>, tensor<16x4xi32>) {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat, %splat) {hal.bindings = [#hal.ex.operand_buffer<"rwa", 0 : index>, #hal.ex.operand_buffer<"sa", 1 : index>]} : (tensor<16x4xi32>, tensor<16x4xi32>) -> %splat
    flow.return %r, %splat : tensor<16x4xi32>, tensor<16x4xi32>
  }
  return %0#0, %0#1 : tensor<16x4xi32>, tensor<16x4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @sa, set=0, binding=1, type="StorageBuffer", access="Read|MayAlias"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @da, set=0, binding=3, type="StorageBuffer", access="Write|MayAlias"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @dispatch attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}

// A tied result written through one binding while its operand is read
// through another: computed in place, the kernel would read bytes it
// overwrites, so the tie (a permission) is dropped.
// CHECK-LABEL: func.func @tied_apart
// CHECK: flow.dispatch @ex::@dispatch{{.+}} : (tensor<16x4xi32>) -> tensor<16x4xi32>
func.func @tied_apart() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}

// Both bindings MayAlias: the tie stays.
// CHECK-LABEL: func.func @tied_apart_may_alias
// CHECK: flow.dispatch @ex::@dispatch{{.+}} : (tensor<16x4xi32>) -> %
func.func @tied_apart_may_alias() -> tensor<16x4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16x4xi32> = () -> tensor<16x4xi32> {
    %c1 = arith.constant 1 : index
    %c123 = arith.constant 123 : i32
    %splat = flow.tensor.splat %c123 : tensor<16x4xi32>
    %r = flow.dispatch @ex::@dispatch[%c1](%splat) {hal.bindings = [#hal.ex.operand_buffer<"sa", 0 : index>, #hal.ex.result_buffer<"da", 0 : index>]} : (tensor<16x4xi32>) -> %splat
    flow.return %r : tensor<16x4xi32>
  }
  return %0 : tensor<16x4xi32>
}
