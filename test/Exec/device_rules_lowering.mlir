// RUN: not hal-exec %s --check-lowering --skip-device-rules=none 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: not hal-opt %s --pass-pipeline='builtin.module(convert-flow-to-hal,hal-verify-command-buffers{skip-device-rules=none})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: hal-exec %s --check-lowering | FileCheck %s --check-prefix=DEFAULT

// Programs whose lowering still breaks the device rules the checkers skip by
// default (docs/concurrency.md, "Device rules"): both the executor and the
// verifier report each one when asked to check every rule. When the
// lowering obeys a rule, its case here starts failing: drop the case and
// take the rule off the default skip lists (the verifier's
// skip-device-rules option and hal-exec's --skip-device-rules).

// DEFAULT: @unbound: the HAL level matches
// DEFAULT: @unaligned_view: the HAL level matches
// DEFAULT: @short_fill: the HAL level matches

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @in1, set=0, binding=2, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @unbound(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // The interface declares @in1; the dispatch binds in0 and out0 only.
    // EXEC: device_rules_lowering.mlir:[[# @LINE + 2]]:10: error: breaks device rule unbound-binding: the interface declares binding @in1 (set 0, binding 2) and the push_descriptor_set of set 0 in effect does not bind it
    // VERIFY: device_rules_lowering.mlir:[[# @LINE + 1]]:10: error: 'hal.command_buffer.dispatch.symbol' op breaks device rule unbound-binding: binding @in1 (set 0, binding 2) of interface @io is not bound by the push_descriptor_set of set 0 in effect, which binds ordinals [0, 1]
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @unaligned_view(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<8xf32>) -> tensor<4xf32> =
      (%a: tensor<8xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = flow.tensor.slice %a[%c1 for %c4] : tensor<8xf32> -> tensor<4xf32>
    // The slice is a view of the argument at byte 4.
    // EXEC: device_rules_lowering.mlir:[[# @LINE + 3]]:10: error: breaks device rule binding-offset-alignment: binding ordinal 0 starts at byte 4 of argument 0, not a multiple of min_buffer_offset_alignment 16
    // VERIFY: device_rules_lowering.mlir:[[# @LINE + 2]]:10: error: 'hal.command_buffer.push_descriptor_set' op breaks device rule binding-offset-alignment: binding 0 (ordinal 0) starts at byte 4 of argument %arg0, not a multiple of min_buffer_offset_alignment 16
    // VERIFY: device_rules_lowering.mlir:[[# @LINE + 1]]:10: error: 'hal.command_buffer.push_descriptor_set' op breaks device rule binding-offset-alignment: binding 2 (ordinal 2) starts at byte 4 of argument %arg0
    %1 = flow.dispatch @ex::@entry[%c1](%s, %s) {hal.bindings = [#hal.ex.operand_buffer<"in0", 0 : index>, #hal.ex.result_buffer<"out0", 0 : index>, #hal.ex.operand_buffer<"in1", 1 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
func.func @short_fill() -> tensor<3xi8> {
  %0 = flow.ex.stream.fragment() : () -> tensor<3xi8> =
      () -> tensor<3xi8> {
    %c7 = arith.constant 7 : i8
    // Three bytes: the fill is not whole 32-bit words.
    // EXEC: device_rules_lowering.mlir:[[# @LINE + 2]]:10: error: breaks device rule fill-alignment: fills [0, +3) of allocation 0; offset and length must be multiples of 4 (the 32-bit pattern)
    // VERIFY: device_rules_lowering.mlir:[[# @LINE + 1]]:10: error: 'hal.command_buffer.fill_buffer' op breaks device rule fill-alignment: the fill length 3 is not a multiple of 4 (the 32-bit pattern)
    %1 = flow.tensor.splat %c7 : tensor<3xi8>
    flow.return %1 : tensor<3xi8>
  }
  return %0 : tensor<3xi8>
}
