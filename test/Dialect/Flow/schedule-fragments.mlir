// RUN: hal-opt %s -split-input-file --flow-schedule-fragments | FileCheck %s
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --test-stream-liveness | FileCheck %s --check-prefix=LIVE
// RUN: hal-opt %s -split-input-file --test-stream-liveness | FileCheck %s --check-prefix=RAW

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Two chains from one input, written one after the other: the heads form
// wave 0, the tails wave 1, in their original relative order. The constant
// stays before everything; the clone of the first tail waits for it.
// CHECK-LABEL: func.func @two_chains
// CHECK: arith.constant 1 : index
// CHECK-NEXT: %[[A1:.+]] = flow.dispatch @ex::@entry[%{{.+}}](%[[ARG:.+]]) {flow.wave = 0 : i64
// CHECK-NEXT: %[[B1:.+]] = flow.dispatch @ex::@entry[%{{.+}}](%[[ARG]]) {flow.wave = 0 : i64
// CHECK-NEXT: %[[A2:.+]] = flow.dispatch @ex::@entry[%{{.+}}](%[[A1]]) {flow.wave = 1 : i64
// CHECK-NEXT: %[[B2:.+]] = flow.dispatch @ex::@entry[%{{.+}}](%[[B1]]) {flow.wave = 1 : i64
// CHECK-NEXT: flow.tensor.clone %[[A2]] : tensor<64xf32> attributes {flow.wave = 2 : i64}
// CHECK-NEXT: flow.return
// Every op of a wave has one liveness index: the heads' results live
// together with both tails' results.
// LIVE-LABEL: func.func @two_chains
// LIVE: flow.dispatch {{.*}}test.liveness = ["[0, 1] class 1"]
// LIVE: flow.dispatch {{.*}}test.liveness = ["[0, 1] class 2"]
// LIVE: flow.dispatch {{.*}}test.liveness = ["[1, 2] class 3"]
// LIVE: flow.dispatch {{.*}}test.liveness = ["[1, out] class 4"]
func.func @two_chains(%arg0: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0:2 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) =
      (%a: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %2 = flow.dispatch @ex::@entry[%c1](%1) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %3 = flow.tensor.clone %2 : tensor<64xf32>
    %4 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %5 = flow.dispatch @ex::@entry[%c1](%4) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    flow.return %3, %5 : tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Value semantics first: the later clone reads %a's original value, so the
// tied write cannot overwrite %a (copy on write, run by the scheduler
// first, writes a clone and drops the tie). The write then waits only for
// its copy: the reader, both clones and the write take two waves.
// CHECK-LABEL: func.func @in_place
// CHECK: flow.ex.stream.fragment(%{{.+}}) : (tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
// CHECK: flow.dispatch {{.*}}(%{{.+}}) {flow.wave = 0 : i64
// CHECK-NEXT: %[[COPY:.+]] = flow.tensor.clone {{.*}} {flow.wave = 0 : i64}
// CHECK-NEXT: flow.tensor.clone {{.*}} {flow.wave = 0 : i64}
// CHECK-NEXT: flow.dispatch {{.*}}(%[[COPY]]) {flow.wave = 1 : i64
// CHECK-NEXT: flow.return
// LIVE-LABEL: func.func @in_place
func.func @in_place(%arg0: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0:3 = flow.ex.stream.fragment(%arg0) : (tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, %arg0) =
      (%a: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %2 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<64xf32>) -> %a
    %3 = flow.tensor.clone %a : tensor<64xf32>
    flow.return %1, %3, %2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A reshape is no command: it goes right after the wave of its operand and
// before the wave that uses it, without a wave attribute; the independent
// splat written last joins wave 0.
// CHECK-LABEL: func.func @reshape_between_waves
// CHECK: %[[D:.+]] = flow.dispatch {{.*}}{flow.wave = 0 : i64
// CHECK-NEXT: %[[S:.+]] = flow.tensor.splat {{.*}} attributes {flow.wave = 0 : i64}
// CHECK-NEXT: %[[R:.+]] = flow.tensor.reshape %[[D]] : tensor<4x4xf32> -> tensor<16xf32>{{$}}
// CHECK-NEXT: flow.tensor.clone %[[R]] : tensor<16xf32> attributes {flow.wave = 1 : i64}
func.func @reshape_between_waves(%arg0: tensor<4x4xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = flow.ex.stream.fragment(%arg0) : (tensor<4x4xf32>) -> (tensor<16xf32>, tensor<16xf32>) =
      (%a: tensor<4x4xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
    %c1 = arith.constant 1 : index
    %d = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %r = flow.tensor.reshape %d : tensor<4x4xf32> -> tensor<16xf32>
    %c = flow.tensor.clone %r : tensor<16xf32>
    %f = arith.constant 1.0 : f32
    %s = flow.tensor.splat %f : tensor<16xf32>
    flow.return %c, %s : tensor<16xf32>, tensor<16xf32>
  }
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// Waves that decrease along the body are not the scheduler's: liveness
// ignores them and counts ops (the splat is op 1, its user op 2).
// RAW-LABEL: func.func @decreasing_waves
// RAW: flow.tensor.splat {{.*}}test.liveness = ["[1, 2] class 0"]
// RAW: flow.tensor.clone {{.*}}test.liveness = ["[2, out] class 1"]
func.func @decreasing_waves() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %f = arith.constant 1.0 : f32
    %s = flow.tensor.splat %f : tensor<4xf32> attributes {flow.wave = 5 : i64}
    %c = flow.tensor.clone %s : tensor<4xf32> attributes {flow.wave = 1 : i64}
    flow.return %c : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @inout, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// One argument passed twice is one buffer, which %b still reads: the tie
// is dropped and the write goes into a copy of %a made in the first wave.
// CHECK-LABEL: func.func @operand_passed_twice
// CHECK: flow.dispatch {{.*}}(%[[B:.+]]) {flow.wave = 0 : i64, hal.bindings = [#hal.ex.operand_buffer<"in0"
// CHECK-NEXT: flow.tensor.clone {{.*}} {flow.wave = 0 : i64}
// CHECK-NEXT: flow.dispatch {{.*}} {flow.wave = 1 : i64, hal.bindings = [#hal.ex.operand_buffer<"inout"
func.func @operand_passed_twice(%arg0: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %c64 = arith.constant 64 : index
  %0:2 = flow.ex.stream.fragment(%c64, %arg0, %arg0) : (index, tensor<64xf32>, tensor<64xf32>) -> (%arg0, tensor<64xf32>) =
      (%n: index, %a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %r = flow.dispatch @ex::@entry[%n](%b) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out", 0 : index>]} : (tensor<64xf32>) -> tensor<64xf32>
    %w = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"inout", 0 : index>]} : (tensor<64xf32>) -> %a
    flow.return %w, %r : tensor<64xf32>, tensor<64xf32>
  }
  return %0#0, %0#1 : tensor<64xf32>, tensor<64xf32>
}
