// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
  hal.executable.variant @llvm, target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index):
      %c64 = arith.constant 64 : index
      %c1 = arith.constant 1 : index
      %wx = arith.ceildivui %x, %c64 : index
      hal.return %wx, %c1, %c1 : index, index, index
    }
    builtin.module {}
  }
}
// Two variants: two switch cases, each with its own format, its own target
// and its own workgroup count; the bindings are pushed in both.
// CHECK-LABEL: func.func @two_variants
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer) -> !hal.buffer
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[C1024:.+]] = arith.constant 1024 : index
// CHECK: %[[DEV:.+]] = hal.ex.shared_device
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C1024]]}
// CHECK: %[[LAYOUT:.+]] = hal.executable_layout.lookup
// CHECK-NOT: hal.executable_layout.lookup
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK: hal.device.switch<%[[DEV]] : !hal.device>
// CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[ARG]] : !hal.buffer)[%[[C0]], %[[C1024]]], %[[C1]] = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[C1024]]]])
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C256]], %[[C1]], %[[C1]]])
// CHECK-NEXT: hal.return
// CHECK-NEXT: },
// CHECK-NEXT: #hal.device.match.executable.format<"embedded-elf-x86_64"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[ARG]] : !hal.buffer)[%[[C0]], %[[C1024]]], %[[C1]] = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[C1024]]]])
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@llvm::@entry) workgroups([%[[C4]], %[[C1]], %[[C1]]])
// CHECK-NEXT: hal.return
// CHECK-NEXT: }
// CHECK-NEXT: hal.command_buffer.end
func.func @two_variants(%arg0: tensor<256xf32>) -> tensor<256xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<256xf32>) -> tensor<256xf32> =
      (%a: tensor<256xf32>) -> tensor<256xf32> {
    %c256 = arith.constant 256 : index
    %1 = flow.dispatch @ex::@entry[%c256](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<256xf32>) -> tensor<256xf32>
    flow.return %1 : tensor<256xf32>
  }
  return %0 : tensor<256xf32>
}
