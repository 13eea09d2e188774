// --hal-plan-function-transients: which submissions' bytes may be shared
// with submission=async, sizes computed late, and callees' slabs planned
// into their callers'.
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal | FileCheck %s
// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal=submission=blocking | FileCheck %s --check-prefix=BLOCKING
// RUN: hal-exec %s -split-input-file --orders=2 '--check-lowering=streamhal-lower-to-hal,hal-verify-command-buffers'
// RUN: hal-exec %s -split-input-file --orders=2 '--check-lowering=streamhal-lower-to-hal{submission=blocking},hal-verify-command-buffers'
// RUN: hal-exec %s -split-input-file '--check-lowering=streamhal-lower-to-hal{external-transients=true},hal-verify-command-buffers'

// One fragment computes a branch from %x that only the last one reads; a
// chain of four fragments runs meanwhile. The branch may still read %x
// while the chain runs, so %x keeps its bytes until the chain ends (4 KiB
// more than blocking), but the chain's own values share bytes among
// themselves: one long branch does not keep every later fragment apart
// (40 KiB if every later submission kept apart from the branch).
// CHECK-LABEL: func.func @long_branch
// CHECK: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c16384}
// BLOCKING-LABEL: func.func @long_branch
// BLOCKING: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c12288}

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @join attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
func.func @long_branch(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %0 : tensor<1024xf32>
  }
  %branch = flow.ex.stream.fragment(%c1024, %x) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %0 : tensor<1024xf32>
  }
  %c0 = flow.ex.stream.fragment(%c1024, %x) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c1 = flow.ex.stream.fragment(%c1024, %c0) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c2 = flow.ex.stream.fragment(%c1024, %c1) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c3 = flow.ex.stream.fragment(%c1024, %c2) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %r = flow.ex.stream.fragment(%c1024, %branch, %c3) : (index, tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %p: tensor<1024xf32>, %q: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@join[%n](%p, %q) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.operand_buffer<"in2", 1>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %0 : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
}

// -----

// A shortcut computed from the argument after a chain of four fragments
// (a residual block's projection): the shortcut keeps apart from the whole
// chain, and the chain still shares bytes (40 KiB if every chain value
// were kept until the shortcut instead).
// CHECK-LABEL: func.func @shortcut
// CHECK: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c16384}
// BLOCKING-LABEL: func.func @shortcut
// BLOCKING: hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c12288}

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @join attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
func.func @shortcut(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %c0 = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c1 = flow.ex.stream.fragment(%c1024, %c0) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c2 = flow.ex.stream.fragment(%c1024, %c1) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %c3 = flow.ex.stream.fragment(%c1024, %c2) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %s = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %r = flow.ex.stream.fragment(%c1024, %s, %c3) : (index, tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %p: tensor<1024xf32>, %q: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@join[%n](%p, %q) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.operand_buffer<"in2", 1>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %0 : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
}

// -----

// The second fragment's size is computed after the first fragment: the
// plan computes it again where the slab is allocated, so both fragments'
// transients are in the one slab.
// CHECK-LABEL: func.func @late_size
// CHECK: arith.muli
// CHECK: hal.allocator.allocate<{{.+}} type(DeviceLocal) usage(Dispatch|Transfer) {hal.ex.function_transients}
// CHECK-NOT: type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: return

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @join attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
func.func @late_size(%a: tensor<1024xf32>, %k: index) -> tensor<?xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %m = arith.muli %k, %c1024 : index
  %y = flow.ex.stream.fragment(%c1024, %m) : (index, index) -> tensor<?xf32>{%m} =
      (%n: index, %im: index) -> tensor<?xf32> {
    %f = arith.constant 1.0 : f32
    %s = flow.tensor.splat %f : tensor<?xf32>{%im}
    %0 = flow.dispatch @ex::@step[%n](%s) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<?xf32>{%im}) -> tensor<?xf32>{%im}
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<?xf32>{%im}) -> tensor<?xf32>{%im}
    flow.return %1 : tensor<?xf32>
  }
  return %y : tensor<?xf32>
}
}

// -----

// A private callee takes its transients from its callers: each call
// passes a range of the caller's slab, so the call chain costs one slab.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: %{{.+}}: !hal.buffer {hal.ex.transients}
// CHECK-NOT: hal.ex.function_transients
// CHECK: return
// CHECK-LABEL: func.func @call_chain
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}} {hal.ex.function_transients} : !hal.buffer{%c4096}
// CHECK: hal.device.queue.execute
// CHECK: %[[PIECE:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>
// CHECK: call @callee(%{{.+}}, %[[PIECE]])
// CHECK: %[[PIECE2:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>
// CHECK: call @callee(%{{.+}}, %[[PIECE2]])
// CHECK-NOT: type(DeviceLocal) usage(Dispatch|Transfer)
// CHECK: return

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @join attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
func.func private @callee(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  return %x : tensor<1024xf32>
}
func.func @call_chain(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %y = call @callee(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %z = call @callee(%y) : (tensor<1024xf32>) -> tensor<1024xf32>
  %w = flow.ex.stream.fragment(%c1024, %z) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  return %w : tensor<1024xf32>
}
}

// -----

// Functions that call each other keep their own slabs: no caller's plan
// can hold a callee that may be on the stack twice.
// CHECK-LABEL: func.func private @ping(%{{[^,]+}}: !hal.buffer) -> !hal.buffer
// CHECK: hal.ex.function_transients
// CHECK-LABEL: func.func private @pong(%{{[^,]+}}: !hal.buffer) -> !hal.buffer
// CHECK: hal.ex.function_transients

module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>]} {
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @in2, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @step attributes {interface = @io, ordinal = 0 : index}
    hal.executable.entry_point @join attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
func.func private @ping(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %y = call @pong(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
func.func private @pong(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %x = flow.ex.stream.fragment(%c1024, %a) : (index, tensor<1024xf32>) -> tensor<1024xf32> =
      (%n: index, %in: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = flow.dispatch @ex::@step[%n](%in) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = flow.dispatch @ex::@step[%n](%0) {hal.bindings = [#hal.ex.operand_buffer<"in", 0>, #hal.ex.result_buffer<"out", 0>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %1 : tensor<1024xf32>
  }
  %y = call @ping(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
}
