// --hal-plan-function-transients (in --streamhal-lower-to-hal by default):
// one slab per function for every fragment's transients and the values
// passed between fragments, packed on the function's timeline.
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=submission=blocking | FileCheck %s --check-prefix=BLOCKING
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal --hal-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=transients=fragment --hal-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FRAGMENT
// RUN: hal-exec %s -split-input-file --orders=2 --check-lowering
// RUN: hal-exec %s -split-input-file --orders=2 '--check-lowering=streamhal-lower-to-hal{submission=blocking},hal-verify-command-buffers'
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal='barriers=none submission=blocking' --hal-plan-function-transients --verify-each -o /dev/null
// Three fragments in a row, each a chain of four 4 KiB dispatches: one
// 8 KiB slab for every transient and the two values passed between the
// fragments, plus the returned result: 12,288 bytes in 2 allocations
// (36,864 in 6 with transients=fragment).
// CHECK-LABEL: func.func @three
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) {hal.ex.function_transients} : !hal.buffer{%c8192}
// CHECK-NOT: hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c4096}
// CHECK-NOT: hal.allocator.allocate
// CHECK: return
// REPORT: hal-report @three: {{.*}} allocated-bytes=12288 allocations=2
// FRAGMENT: hal-report @three: {{.*}} allocated-bytes=36864 allocations=6

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @three(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  %y = flow.ex.stream.fragment(%c1024, %x) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  %z = flow.ex.stream.fragment(%c1024, %y) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  return %z : tensor<1024xf32>
}
}

// -----

// Two fragments that do not depend on each other: with submission=async
// they may run at once, so their transients stay apart (16 KiB); blocking
// runs them one after the other and shares the bytes (8 KiB).
// CHECK-LABEL: func.func @independent
// CHECK: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c16384}
// BLOCKING-LABEL: func.func @independent
// BLOCKING: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c8192}

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @independent(%a: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  %y = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  return %x, %y : tensor<1024xf32>, tensor<1024xf32>
}
}

// -----

// One dispatch straight into the result: no transient, no slab.
// CHECK-LABEL: func.func @none
// CHECK-NOT: hal.ex.function_transients
// CHECK: return

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @none(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %0 : tensor<1024xf32>
  }
  return %x : tensor<1024xf32>
}
}

// -----

// A value the host reads between the fragments is host-visible, not a
// piece: only the fragments' transients share the slab.
// CHECK-LABEL: func.func @host_read
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All)
// CHECK: hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) {hal.ex.function_transients} : !hal.buffer{%c8192}
// CHECK: hal.buffer.load

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @host_read(%a: tensor<1024xf32>) -> (tensor<1024xf32>, f32) {
  %c1024 = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  %e = flow.tensor.load %x[%c0] : tensor<1024xf32>
  %y = flow.ex.stream.fragment(%c1024, %x) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = flow.dispatch @ex::@step[%n](%1) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = flow.dispatch @ex::@step[%n](%2) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %3 : tensor<1024xf32>
  }
  return %y, %e : tensor<1024xf32>, f32
}
}
