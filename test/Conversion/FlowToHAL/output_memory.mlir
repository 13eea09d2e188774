// RUN: hal-exec %s --split-input-file --check-lowering
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal,hal-pack-allocations,canonicalize'
// RUN: not hal-exec %s --split-input-file --function=feeds_fragment '--check-lowering=convert-flow-to-hal{output-memory-type=DeviceLocal},canonicalize' 2>&1 >/dev/null | FileCheck %s --check-prefix=WRONG
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=output-memory-type=auto --canonicalize | FileCheck %s
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=output-memory-type=auto transients=fragment memoize=false' | FileCheck %s
// RUN: hal-opt %s -split-input-file '--convert-flow-to-hal=output-memory-type=DeviceLocal|HostCached' --canonicalize | FileCheck %s --check-prefix=OVERRIDE
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=output-memory-type=DeviceLocal|HostCached memoize=false' | FileCheck %s --check-prefix=OVERRIDE

// Where a fragment's output lives follows from its uses: device-local
// (usage Dispatch|Transfer) when only later fragments read it, host-visible
// (usage All) when the host may. An explicit output-memory-type applies to
// every output, with usage All.

// OVERRIDE-NOT: type(DeviceLocal|HostVisible)

// The executor refuses an output the host reads in device-local memory.
// WRONG: error: returns to the host (result 0) allocation 1, device memory the host cannot access (allocated without HostVisible)
// WRONG: note: allocated here

// Returned from a public function: the host reads it.
// CHECK-LABEL: func.func @returned
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK-NOT: hal.allocator.allocate
// OVERRIDE-LABEL: func.func @returned
// OVERRIDE: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @returned() -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> = () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  return %0 : tensor<16xi8>
}

// -----

// Only read by a later fragment: device-local. The later fragment's own
// output is returned, so host-visible.
// CHECK-LABEL: func.func @feeds_fragment
// CHECK: %[[DEVICE:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: fill_buffer<{{.+}}> target(%[[DEVICE]] : !hal.buffer)
// CHECK: %[[HOST:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: copy_buffer<{{.+}}> source(%[[DEVICE]] : !hal.buffer){{.+}} target(%[[HOST]] : !hal.buffer)
// CHECK: return %[[HOST]]
// OVERRIDE-LABEL: func.func @feeds_fragment
// OVERRIDE-COUNT-2: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @feeds_fragment() -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> = () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  %2 = flow.ex.stream.fragment(%0) : (tensor<16xi8>) -> tensor<16xi8> =
      (%a: tensor<16xi8>) -> tensor<16xi8> {
    %3 = flow.tensor.clone %a : tensor<16xi8>
    flow.return %3 : tensor<16xi8>
  }
  return %2 : tensor<16xi8>
}

// -----

// Read by a later fragment that returns it tied to that operand (and one
// that returns it as is): the same buffer reaches the host.
// CHECK-LABEL: func.func @feeds_tied_result
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK-NOT: usage(All)
// CHECK: return %[[OUT]]
// OVERRIDE-LABEL: func.func @feeds_tied_result
// OVERRIDE: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @feeds_tied_result() -> tensor<4x4xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi8> = () -> tensor<4x4xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<4x4xi8>
    flow.return %1 : tensor<4x4xi8>
  }
  %2 = flow.ex.stream.fragment(%0) : (tensor<4x4xi8>) -> %0 =
      (%a: tensor<4x4xi8>) -> tensor<4x4xi8> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : i8
    %u = flow.tensor.splat %c7 : tensor<1x4xi8>
    %3 = flow.tensor.update %u, %a[%c2, %c0] : tensor<1x4xi8> -> %a as tensor<4x4xi8>
    flow.return %3 : tensor<4x4xi8>
  }
  %4 = flow.ex.stream.fragment(%2) : (tensor<4x4xi8>) -> tensor<4x4xi8> =
      (%b: tensor<4x4xi8>) -> tensor<4x4xi8> {
    flow.return %b : tensor<4x4xi8>
  }
  return %4 : tensor<4x4xi8>
}

// -----

// Read by the host element by element.
// CHECK-LABEL: func.func @host_load
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: hal.buffer.load<%[[OUT]] : !hal.buffer>
// OVERRIDE-LABEL: func.func @host_load
// OVERRIDE: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @host_load() -> i8 {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> = () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  %c3 = arith.constant 3 : index
  %v = flow.tensor.load %0[%c3] : tensor<16xi8>
  return %v : i8
}

// -----

util.global private mutable @state : tensor<16xi8>
// Stored to a global: any later code may read it.
// CHECK-LABEL: func.func @global_store
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: util.global.store %[[OUT]], @state
// OVERRIDE-LABEL: func.func @global_store
// OVERRIDE: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @global_store() {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> = () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  util.global.store %0, @state : tensor<16xi8>
  return
}

// -----

func.func private @consume(%t: tensor<16xi8>) -> tensor<16xi8> {
  return %t : tensor<16xi8>
}
// Passed to a call: the callee may hand it to the host.
// CHECK-LABEL: func.func @call_operand
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: call @consume(%[[OUT]])
// OVERRIDE-LABEL: func.func @call_operand
// OVERRIDE: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @call_operand() -> tensor<16xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<16xi8> = () -> tensor<16xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1 : tensor<16xi8>
  }
  %2 = func.call @consume(%0) : (tensor<16xi8>) -> tensor<16xi8>
  return %2 : tensor<16xi8>
}

// -----

// One value returned twice is one buffer: host-visible when either result
// reaches the host (here the second), although the first only feeds a
// fragment.
// CHECK-LABEL: func.func @returned_twice
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK-NOT: hal.allocator.allocate
// OVERRIDE-LABEL: func.func @returned_twice
// OVERRIDE-COUNT-2: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @returned_twice() -> (tensor<16xi8>, tensor<16xi8>) {
  %0:2 = flow.ex.stream.fragment() : () -> (tensor<16xi8>, tensor<16xi8>) =
      () -> (tensor<16xi8>, tensor<16xi8>) {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<16xi8>
    flow.return %1, %1 : tensor<16xi8>, tensor<16xi8>
  }
  %2 = flow.ex.stream.fragment(%0#0) : (tensor<16xi8>) -> tensor<16xi8> =
      (%a: tensor<16xi8>) -> tensor<16xi8> {
    %3 = flow.tensor.clone %a : tensor<16xi8>
    flow.return %3 : tensor<16xi8>
  }
  return %0#1, %2 : tensor<16xi8>, tensor<16xi8>
}

// -----

// Updated in place by a second fragment (a tied result) that only a third
// fragment reads: the whole chain stays on the device.
// CHECK-LABEL: func.func @tied_chain_on_device
// CHECK: %[[DEVICE:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: target(%[[DEVICE]] : !hal.buffer)
// CHECK: %[[HOST:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: copy_buffer<{{.+}}> source(%[[DEVICE]] : !hal.buffer){{.+}} target(%[[HOST]] : !hal.buffer)
// CHECK: return %[[HOST]]
// OVERRIDE-LABEL: func.func @tied_chain_on_device
// OVERRIDE-COUNT-2: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostCached) usage(All)
func.func @tied_chain_on_device() -> tensor<4x4xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4x4xi8> = () -> tensor<4x4xi8> {
    %c1 = arith.constant 1 : i8
    %1 = flow.tensor.splat %c1 : tensor<4x4xi8>
    flow.return %1 : tensor<4x4xi8>
  }
  %2 = flow.ex.stream.fragment(%0) : (tensor<4x4xi8>) -> %0 =
      (%a: tensor<4x4xi8>) -> tensor<4x4xi8> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : i8
    %u = flow.tensor.splat %c7 : tensor<1x4xi8>
    %3 = flow.tensor.update %u, %a[%c2, %c0] : tensor<1x4xi8> -> %a as tensor<4x4xi8>
    flow.return %3 : tensor<4x4xi8>
  }
  %4 = flow.ex.stream.fragment(%2) : (tensor<4x4xi8>) -> tensor<4x4xi8> =
      (%b: tensor<4x4xi8>) -> tensor<4x4xi8> {
    %5 = flow.tensor.clone %b : tensor<4x4xi8>
    flow.return %5 : tensor<4x4xi8>
  }
  return %4 : tensor<4x4xi8>
}
