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
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Dynamic sizes become `%n * 512` after canonicalization; the input and the
// output share one size value; the `index` push constant is cast to i32.
// CHECK-LABEL: func.func @dynamic_dispatch
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index) -> !hal.buffer
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C512]] : index
// CHECK-NOT: arith.muli
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[SIZE]]}
// CHECK: %[[LAYOUT:.+]] = hal.executable_layout.lookup {{.+}} push_constants(1)
// CHECK: %[[NI32:.+]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[ARG]] : !hal.buffer)[%[[C0]], %[[SIZE]]], %[[C1]] = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[SIZE]]]])
// CHECK-NEXT: hal.command_buffer.push_constants<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout) offset(0) values([%[[NI32]]]) : i32
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[N]], %[[C1]], %[[C1]]])
// CHECK: return %[[OUT]] : !hal.buffer
func.func @dynamic_dispatch(%arg0: tensor<?x128xf32>, %n: index) -> tensor<?x128xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<?x128xf32>{%n}, index) -> tensor<?x128xf32>{%n} =
      (%a: tensor<?x128xf32>, %in: index) -> tensor<?x128xf32> {
    %1 = flow.dispatch @ex::@entry[%in](%a, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    flow.return %1 : tensor<?x128xf32>
  }
  return %0 : tensor<?x128xf32>
}

// -----

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
// Three chained dispatches: two transients in one pack and one slab, with
// overlapping lifetimes [0, 1] and [1, 2]; one index_cast for all pushes.
// CHECK-LABEL: func.func @three_dispatch_chain
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index) -> !hal.buffer
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C512]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[SIZE]]}
// CHECK: %[[TOTAL:.+]], %[[OFFSETS:.+]]:2 = hal.allocator.pack<{{.+}}> slices({[0, 1] = %[[SIZE]], [1, 2] = %[[SIZE]]}) : index
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[TOTAL]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: %[[T0:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFFSETS]]#0, %[[SIZE]]] : !hal.buffer
// CHECK: %[[T1:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFFSETS]]#1, %[[SIZE]]] : !hal.buffer
// CHECK: %[[NI32:.+]] = arith.index_cast %[[N]] : index to i32
// CHECK-NOT: arith.index_cast
// CHECK: bindings([%{{.+}} = (%[[ARG]] : !hal.buffer)[%{{.+}}, %[[SIZE]]], %{{.+}} = (%[[T0]] : !hal.buffer)[%{{.+}}, %[[SIZE]]]])
// CHECK-NEXT: values([%[[NI32]]])
// CHECK: bindings([%{{.+}} = (%[[T0]] : !hal.buffer)[%{{.+}}, %[[SIZE]]], %{{.+}} = (%[[T1]] : !hal.buffer)[%{{.+}}, %[[SIZE]]]])
// CHECK-NEXT: values([%[[NI32]]])
// CHECK: bindings([%{{.+}} = (%[[T1]] : !hal.buffer)[%{{.+}}, %[[SIZE]]], %{{.+}} = (%[[OUT]] : !hal.buffer)[%{{.+}}, %[[SIZE]]]])
// CHECK-NEXT: values([%[[NI32]]])
// CHECK: return %[[OUT]] : !hal.buffer
func.func @three_dispatch_chain(%arg0: tensor<?x128xf32>, %n: index) -> tensor<?x128xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<?x128xf32>{%n}, index) -> tensor<?x128xf32>{%n} =
      (%a: tensor<?x128xf32>, %in: index) -> tensor<?x128xf32> {
    %1 = flow.dispatch @ex::@entry[%in](%a, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    %2 = flow.dispatch @ex::@entry[%in](%1, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    %3 = flow.dispatch @ex::@entry[%in](%2, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    flow.return %3 : tensor<?x128xf32>
  }
  return %0 : tensor<?x128xf32>
}

// -----

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
// Four chained dispatches: three transients; the first and the third have
// disjoint lifetimes, so the pack may let them share bytes.
// CHECK-LABEL: func.func @four_dispatch_chain
// CHECK: %[[SIZE:.+]] = arith.muli
// CHECK: hal.allocator.pack<{{.+}}> slices({[0, 1] = %[[SIZE]], [1, 2] = %[[SIZE]], [2, 3] = %[[SIZE]]}) : index
// CHECK-COUNT-3: hal.buffer.subspan
// CHECK-NOT: hal.buffer.subspan
// CHECK-COUNT-4: hal.command_buffer.dispatch.symbol
func.func @four_dispatch_chain(%arg0: tensor<?x128xf32>, %n: index) -> tensor<?x128xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<?x128xf32>{%n}, index) -> tensor<?x128xf32>{%n} =
      (%a: tensor<?x128xf32>, %in: index) -> tensor<?x128xf32> {
    %1 = flow.dispatch @ex::@entry[%in](%a, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    %2 = flow.dispatch @ex::@entry[%in](%1, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    %3 = flow.dispatch @ex::@entry[%in](%2, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    %4 = flow.dispatch @ex::@entry[%in](%3, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x128xf32>{%in}, index) -> tensor<?x128xf32>{%in}
    flow.return %4 : tensor<?x128xf32>
  }
  return %0 : tensor<?x128xf32>
}

// -----

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
// Two dynamic dims, in order, and a result whose dims are swapped: two sizes.
// CHECK-LABEL: func.func @two_dynamic_dims
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index, %[[M:[^:]+]]: index) -> !hal.buffer
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[NM:.+]] = arith.muli %[[N]], %[[M]] : index
// CHECK: %[[IN_SIZE:.+]] = arith.muli %[[NM]], %[[C4]] : index
// CHECK: %[[MN:.+]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[OUT_SIZE:.+]] = arith.muli %[[MN]], %[[C4]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[OUT_SIZE]]}
// CHECK: bindings([%{{.+}} = (%[[ARG]] : !hal.buffer)[%{{.+}}, %[[IN_SIZE]]], %{{.+}} = (%[[OUT]] : !hal.buffer)[%{{.+}}, %[[OUT_SIZE]]]])
// CHECK: workgroups([%[[N]], %[[M]], %{{.+}}])
func.func @two_dynamic_dims(%arg0: tensor<?x4x?xi8>, %n: index, %m: index) -> tensor<?x4x?xi8> {
  %0 = flow.ex.stream.fragment(%arg0, %n, %m) : (tensor<?x4x?xi8>{%n, %m}, index, index) -> tensor<?x4x?xi8>{%m, %n} =
      (%a: tensor<?x4x?xi8>, %in: index, %im: index) -> tensor<?x4x?xi8> {
    %1 = flow.dispatch @ex::@entry[%in, %im](%a, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x4x?xi8>{%in, %im}, index) -> tensor<?x4x?xi8>{%im, %in}
    flow.return %1 : tensor<?x4x?xi8>
  }
  return %0 : tensor<?x4x?xi8>
}
