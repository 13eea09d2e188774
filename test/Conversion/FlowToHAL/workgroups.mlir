// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %s -split-input-file --canonicalize --convert-flow-to-hal --canonicalize | FileCheck %s
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
    hal.executable.entry_point @with_region attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index, %y: index):
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %wx = arith.ceildivui %x, %c4 : index
      hal.return %wx, %y, %c1 : index, index, index
    }
    hal.executable.entry_point @without_region attributes {interface = @io, ordinal = 1 : index}
    builtin.module {}
  }
}
// An entry point with a workgroup-count region has it inlined with the
// workload as arguments; one without takes the workload as the count.
// CHECK-LABEL: func.func @region_vs_default
// CHECK-SAME: (%{{[^:]+}}: !hal.buffer, %[[N:[^:]+]]: index) -> !hal.buffer
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set
// CHECK-NEXT: %[[X:.+]] = arith.ceildivui %[[N]], %[[C4]] : index
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%{{.+}} : !hal.command_buffer> target(@ex::@vmvx::@with_region) workgroups([%[[X]], %[[C16]], %[[C1]]])
// CHECK: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%{{.+}} : !hal.command_buffer> target(@ex::@vmvx::@without_region) workgroups([%[[N]], %[[C16]], %[[C1]]])
func.func @region_vs_default(%arg0: tensor<?x16xf32>, %n: index) -> tensor<?x16xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<?x16xf32>{%n}, index) -> tensor<?x16xf32>{%n} =
      (%a: tensor<?x16xf32>, %in: index) -> tensor<?x16xf32> {
    %c16 = arith.constant 16 : index
    %1 = flow.dispatch @ex::@with_region[%in, %c16](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<?x16xf32>{%in}) -> tensor<?x16xf32>{%in}
    %2 = flow.dispatch @ex::@without_region[%in, %c16](%1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<?x16xf32>{%in}) -> tensor<?x16xf32>{%in}
    flow.return %2 : tensor<?x16xf32>
  }
  return %0 : tensor<?x16xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Without a region: 1 value -> (w0, 1, 1); 3 -> (w0, w1, w2); 5 -> (w0, w1,
// w2 * w3 * w4).
// CHECK-LABEL: func.func @workload_sizes
// CHECK-SAME: (%{{[^:]+}}: !hal.buffer, %[[W0:[^:]+]]: index, %[[W1:[^:]+]]: index, %[[W2:[^:]+]]: index, %[[W3:[^:]+]]: index, %[[W4:[^:]+]]: index)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[Z23:.+]] = arith.muli %[[W2]], %[[W3]] : index
// CHECK: %[[Z:.+]] = arith.muli %[[Z23]], %[[W4]] : index
// CHECK: hal.command_buffer.create
// CHECK: dispatch.symbol<{{.+}}> target(@ex::@vmvx::@entry) workgroups([%[[W0]], %[[C1]], %[[C1]]])
// CHECK: dispatch.symbol<{{.+}}> target(@ex::@vmvx::@entry) workgroups([%[[W0]], %[[W1]], %[[W2]]])
// CHECK: dispatch.symbol<{{.+}}> target(@ex::@vmvx::@entry) workgroups([%[[W0]], %[[W1]], %[[Z]]])
func.func @workload_sizes(%arg0: tensor<4xf32>, %w0: index, %w1: index, %w2: index, %w3: index, %w4: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %w0, %w1, %w2, %w3, %w4) : (tensor<4xf32>, index, index, index, index, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %i0: index, %i1: index, %i2: index, %i3: index, %i4: index) -> tensor<4xf32> {
    %1 = flow.dispatch @ex::@entry[%i0](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = flow.dispatch @ex::@entry[%i0, %i1, %i2](%1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = flow.dispatch @ex::@entry[%i0, %i1, %i2, %i3, %i4](%2) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %3 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A constant workload of 4 values folds z = 5 * 7.
// CHECK-LABEL: func.func @constant_workload
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C35:.+]] = arith.constant 35 : index
// CHECK: workgroups([%[[C2]], %[[C3]], %[[C35]]])
func.func @constant_workload(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %1 = flow.dispatch @ex::@entry[%c2, %c3, %c5, %c7](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
