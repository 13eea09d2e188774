// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=streamhal-lower-to-hal' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=streamhal-lower-to-hal{submission=blocking}' --orders=4
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=memoize=false --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=submission=blocking memoize=false' | FileCheck %s --check-prefix=BLOCKING

// submission=async (the default, docs/async.md): a chain of fragments is
// ordered by fences alone, an independent fragment waits for nothing, the
// host waits only before it loads a result and before the return.

// CHECK-LABEL: func.func @chain_and_branch
// CHECK-NOT: hal.ex.submit_and_wait
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// The second fragment reads the first's result: it waits on its fence.
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// The third reads the argument only.
// CHECK: %[[F2:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F2]])
// The host load of the second's result waits for it alone (the first is
// ordered before it).
// CHECK-NEXT: hal.fence.await until([%[[F1]]])
// CHECK-NEXT: hal.buffer.load
// The fourth reads the first's result, which is complete now.
// CHECK: %[[F3:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F3]])
// CHECK: %[[J:.+]] = hal.fence.join at([%[[F2]], %[[F3]]])
// CHECK-NEXT: hal.fence.await until([%[[J]]])
// CHECK-NEXT: return
// BLOCKING-LABEL: func.func @chain_and_branch
// BLOCKING-COUNT-4: hal.ex.submit_and_wait
// BLOCKING-NOT: hal.fence
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @chain_and_branch(%arg0: tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %r1 = flow.ex.stream.fragment(%arg0, %c16, %zero) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %r2 = flow.ex.stream.fragment(%r1, %c16, %zero) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %b = flow.ex.stream.fragment(%arg0, %c16, %zero) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %x = flow.tensor.load %r2[%c0] : tensor<16xi32>
  %r3 = flow.ex.stream.fragment(%r1, %c16, %x) : (tensor<16xi32>, index, i32) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index, %k: i32) -> tensor<16xi32> {
    %d = flow.dispatch @ex::@entry[%n](%a, %k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<16xi32>, i32) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  return %r3, %b : tensor<16xi32>, tensor<16xi32>
}

// -----

// A fragment overwriting an argument in place that an earlier pending
// fragment reads waits for it (write after read); the result tied to the
// argument is complete at the return.
// CHECK-LABEL: func.func @write_after_read
// CHECK: %[[F0:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([]) signal(%[[F0]])
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.execute<{{.+}}> wait([%[[F0]]]) signal(%[[F1]])
// CHECK-NEXT: hal.fence.await until([%[[F1]]])
// CHECK-NEXT: return
// BLOCKING-LABEL: func.func @write_after_read
hal.executable private @ex2 {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @io0, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @write_after_read(%arg0: tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>) {
  %c16 = arith.constant 16 : index
  %r1 = flow.ex.stream.fragment(%arg0, %c16) : (tensor<16xi32>, index) -> tensor<16xi32> =
      (%a: tensor<16xi32>, %n: index) -> tensor<16xi32> {
    %d = flow.dispatch @ex2::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<16xi32>) -> tensor<16xi32>
    flow.return %d : tensor<16xi32>
  }
  %r2 = flow.ex.stream.fragment(%arg0, %c16) : (tensor<16xi32>, index) -> %arg0 =
      (%a: tensor<16xi32>, %n: index) -> tensor<16xi32> {
    %d = flow.dispatch @ex2::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>]} : (tensor<16xi32>) -> %a
    flow.return %d : tensor<16xi32>
  }
  return %r1, %r2 : tensor<16xi32>, tensor<16xi32>
}
