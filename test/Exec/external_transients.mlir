// --hal-external-transients (external-transients=true): a public function
// with transients takes them as a trailing !hal.buffer and the module gets
// @<name>_transient_size; hal-exec makes the buffer from the query
// (--transients=auto) and refuses one that is too small.
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=external-transients=true' | FileCheck %s
// RUN: hal-exec %s -split-input-file --orders=2 '--check-lowering=streamhal-lower-to-hal{external-transients=true},hal-verify-command-buffers' | FileCheck %s --check-prefix=MATCH
// RUN: hal-exec %s -split-input-file '--check-lowering=streamhal-lower-to-hal{external-transients=true submission=blocking}' --transients=100000 | FileCheck %s --check-prefix=MATCH
// RUN: not hal-exec %s -split-input-file --function=three '--check-lowering=streamhal-lower-to-hal{external-transients=true}' --transients=8176 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=external-transients=true' -o %t.mlir
// RUN: head -c 4096 /dev/zero > %t.bin
// RUN: hal-exec %t.mlir --split-input-file --function=three_transient_size --input=1024xf32=@%t.bin --print-values | FileCheck %s --check-prefix=QUERY
// RUN: hal-opt %s -split-input-file '--streamhal-lower-to-hal=external-transients=true transients=fragment' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FRAGMENT

// MATCH: @three: the HAL level matches
// MATCH: @none: the HAL level matches
// SMALL: error: is given a transient buffer of 8176 bytes but @three_transient_size asks for 8192
// QUERY: value: 8192
// FRAGMENT: warning: keeps 5 device-only allocation(s) of its own

// The slab becomes the argument; the query computes its size.
// CHECK-LABEL: func.func @three_transient_size(
// CHECK-SAME: !hal.buffer) -> index
// CHECK: return %c8192
// CHECK-LABEL: func.func @three(
// CHECK-SAME: %[[T:[a-z0-9]+]]: !hal.buffer {hal.ex.transients}) -> !hal.buffer attributes {hal.ex.transient_size = @three_transient_size}
// CHECK-NOT: hal.ex.function_transients
// CHECK: hal.buffer.subspan<%[[T]] : !hal.buffer>

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

// No transients: no argument, no query.
// CHECK-LABEL: func.func @none(
// CHECK-SAME: !hal.buffer) -> !hal.buffer {
// CHECK-NOT: transient

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

