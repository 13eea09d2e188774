// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write | FileCheck %s
// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write > %t.once
// RUN: hal-opt %t.once -split-input-file --flow-materialize-copy-on-write > %t.twice
// RUN: diff %t.once %t.twice
// RUN: hal-exec %s --split-input-file --check-lowering --orders=2
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,streamhal-lower-to-hal{copies=always submission=blocking},hal-verify-command-buffers' --orders=2
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s --check-prefix=COPIES

// Argument moves (docs/lowering.md, "Value semantics"): a private function
// only called directly takes over an argument it clones and writes; each
// caller that still needs the value, or passes storage of its own argument
// (never donated by the program), copies it before the call instead. No
// call copies more than before. hal-exec checks every result and that the
// public functions' arguments are unchanged.

// The caller passes its last use of a fresh value: the callee's result is
// tied to the argument, its clone is gone, and nothing is copied.
// CHECK-LABEL: func.func private @fill_callee
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<8x4xi32>) -> %{{.+}} =
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.tensor.update
// CHECK-LABEL: func.func @last_use_caller
// CHECK-NOT: flow.tensor.clone
// CHECK: call @fill_callee
// COPIES-LABEL: func.func private @fill_callee
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES-LABEL: func.func @last_use_caller
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES: {{^ *}}return
func.func private @fill_callee(%arg: tensor<8x4xi32>) -> tensor<8x4xi32> {
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
func.func @last_use_caller(%x: i32) -> tensor<8x4xi32> {
  %s = flow.ex.stream.fragment(%x) : (i32) -> tensor<8x4xi32> = (%ix: i32) -> tensor<8x4xi32> {
    %splat = flow.tensor.splat %ix : tensor<8x4xi32>
    flow.return %splat : tensor<8x4xi32>
  }
  %r = func.call @fill_callee(%s) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}

// -----

// A public caller passing its own argument, and one returning the value it
// passed: each copies before the call (one copy, the callee's own clone
// moved out); the arguments stay unchanged.
// CHECK-LABEL: func.func private @fill_callee
// CHECK-LABEL: func.func @argument_caller
// CHECK: %[[COPY:.+]] = flow.ex.stream.fragment(%arg0) : (tensor<8x4xi32>) -> tensor<8x4xi32>
// CHECK-NEXT: flow.tensor.clone
// CHECK: call @fill_callee(%[[COPY]])
// CHECK-LABEL: func.func @kept_caller
// CHECK: %[[COPY:.+]] = flow.ex.stream.fragment(%{{.+}}) : (tensor<8x4xi32>) -> tensor<8x4xi32>
// CHECK-NEXT: flow.tensor.clone
// CHECK: call @fill_callee(%[[COPY]])
// COPIES-LABEL: func.func @argument_caller
// COPIES-COUNT-1: hal.command_buffer.copy_buffer
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES: {{^ *}}return
func.func private @fill_callee(%arg: tensor<8x4xi32>) -> tensor<8x4xi32> {
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
func.func @argument_caller(%t: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %r = func.call @fill_callee(%t) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}
func.func @kept_caller(%x: i32) -> (tensor<8x4xi32>, tensor<8x4xi32>) {
  %s = flow.ex.stream.fragment(%x) : (i32) -> tensor<8x4xi32> = (%ix: i32) -> tensor<8x4xi32> {
    %splat = flow.tensor.splat %ix : tensor<8x4xi32>
    flow.return %splat : tensor<8x4xi32>
  }
  %r = func.call @fill_callee(%s) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %r, %s : tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// Not moved: a public function (a caller outside the module keeps the
// argument), and a private one that reads its argument again after the
// fragment.
// CHECK-LABEL: func.func @public_fill
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<4xi32>) -> tensor<4xi32> =
// CHECK: flow.tensor.clone
// CHECK-LABEL: func.func private @reread_callee
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<4xi32>) -> tensor<4xi32> =
// CHECK: flow.tensor.clone
func.func @public_fill(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    %clone = flow.tensor.clone %a : tensor<4xi32>
    %v = flow.tensor.splat %c7 : tensor<2xi32>
    %fill = flow.tensor.update %v, %clone[%c0] : tensor<2xi32> -> %clone as tensor<4xi32>
    flow.return %fill : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
func.func private @reread_callee(%arg: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : i32
    %clone = flow.tensor.clone %a : tensor<4xi32>
    %v = flow.tensor.splat %c7 : tensor<2xi32>
    %fill = flow.tensor.update %v, %clone[%c0] : tensor<2xi32> -> %clone as tensor<4xi32>
    flow.return %fill : tensor<4xi32>
  }
  %1 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c = flow.tensor.clone %a : tensor<4xi32>
    flow.return %c : tensor<4xi32>
  }
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}
func.func @reread_caller(%x: i32) -> (tensor<4xi32>, tensor<4xi32>) {
  %s = flow.ex.stream.fragment(%x) : (i32) -> tensor<4xi32> = (%ix: i32) -> tensor<4xi32> {
    %splat = flow.tensor.splat %ix : tensor<4xi32>
    flow.return %splat : tensor<4xi32>
  }
  %r:2 = func.call @reread_callee(%s) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @rw, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A chain: the argument cloned and written, that cloned and written again.
// The second clone copies a value dead right after it: it goes, and the
// result is tied to the argument (no copy left). When the middle value is
// returned too, it is the one computed in the argument's clone: that result
// is tied to the argument, and only the second clone stays.
// CHECK-LABEL: func.func private @chain_callee
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<4xi32>) -> %{{.+}} =
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.dispatch
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.dispatch
// CHECK-LABEL: func.func private @chain_kept_callee
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<4xi32>) -> (tensor<4xi32>, %{{.+}}) =
// CHECK-COUNT-1: flow.tensor.clone
// CHECK-NOT: flow.tensor.clone
// CHECK: flow.return
// COPIES-LABEL: func.func private @chain_callee
// COPIES-NOT: hal.command_buffer.copy_buffer
// COPIES: {{^ *}}return
func.func private @chain_callee(%arg: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> tensor<4xi32> =
      (%r: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %clone1 = flow.tensor.clone %r : tensor<4xi32>
    %d1 = flow.dispatch @ex::@entry[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone1
    %clone2 = flow.tensor.clone %d1 : tensor<4xi32>
    %d2 = flow.dispatch @ex::@entry[%c1](%clone2) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone2
    flow.return %d2 : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
func.func private @chain_kept_callee(%arg: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0:2 = flow.ex.stream.fragment(%arg) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) =
      (%r: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
    %c1 = arith.constant 1 : index
    %clone1 = flow.tensor.clone %r : tensor<4xi32>
    %d1 = flow.dispatch @ex::@entry[%c1](%clone1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone1
    %clone2 = flow.tensor.clone %d1 : tensor<4xi32>
    %d2 = flow.dispatch @ex::@entry[%c1](%clone2) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xi32>) -> %clone2
    flow.return %d2, %d1 : tensor<4xi32>, tensor<4xi32>
  }
  return %0#0, %0#1 : tensor<4xi32>, tensor<4xi32>
}
func.func @chain_caller(%x: i32) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %s = flow.ex.stream.fragment(%x) : (i32) -> tensor<4xi32> = (%ix: i32) -> tensor<4xi32> {
    %splat = flow.tensor.splat %ix : tensor<4xi32>
    flow.return %splat : tensor<4xi32>
  }
  %r = func.call @chain_callee(%s) : (tensor<4xi32>) -> tensor<4xi32>
  %t = flow.ex.stream.fragment(%x) : (i32) -> tensor<4xi32> = (%ix: i32) -> tensor<4xi32> {
    %splat = flow.tensor.splat %ix : tensor<4xi32>
    flow.return %splat : tensor<4xi32>
  }
  %k:2 = func.call @chain_kept_callee(%t) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %r, %k#0, %k#1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
