// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=submission=blocking --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal | FileCheck %s --check-prefix=PACK
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
}
// Two chained dispatches: the result gets its own host-visible allocation, the
// intermediate value a slice of the transient slab; the second dispatch reads
// what the first wrote, so one barrier goes between them and none after.
// CHECK-LABEL: func.func @two_dispatches
// CHECK-SAME: (%[[ARG:.+]]: !hal.buffer) -> !hal.buffer
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: %[[DEV:.+]] = hal.ex.shared_device : !hal.device
// CHECK: %[[ALLOC:.+]] = hal.device.allocator<%[[DEV]] : !hal.device> : !hal.allocator
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<%[[ALLOC]] : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C512]]}
// A pack of one slice folds: the slab is the slice, at offset 0.
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<%[[ALLOC]] : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[C512]]}
// CHECK: %[[TMP:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C0]], %[[C512]]] : !hal.buffer
// CHECK: %[[LAYOUT:.+]] = hal.executable_layout.lookup device(%[[DEV]] : !hal.device) push_constants(0) layouts({{\[\[}}#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
// CHECK-NOT: hal.executable_layout.lookup
// CHECK: %[[CMD:.+]] = hal.command_buffer.create device(%[[DEV]] : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
// CHECK-NEXT: hal.command_buffer.begin<%[[CMD]] : !hal.command_buffer>
// CHECK-NEXT: hal.device.switch<%[[DEV]] : !hal.device>
// CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[ARG]] : !hal.buffer)[%[[C0]], %[[C512]]], %[[C1]] = (%[[TMP]] : !hal.buffer)[%[[C0]], %[[C512]]]])
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C128]], %[[C1]], %[[C1]]])
// CHECK-NEXT: hal.return
// CHECK-NEXT: }
// CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
// CHECK-NEXT: hal.device.switch<%[[DEV]] : !hal.device>
// CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[TMP]] : !hal.buffer)[%[[C0]], %[[C512]]], %[[C1]] = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[C512]]]])
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C128]], %[[C1]], %[[C1]]])
// CHECK-NEXT: hal.return
// CHECK-NEXT: }
// CHECK-NEXT: hal.command_buffer.end<%[[CMD]] : !hal.command_buffer>
// CHECK-NEXT: hal.ex.submit_and_wait %[[DEV]], %[[CMD]]
// CHECK-NEXT: return %[[OUT]] : !hal.buffer
func.func @two_dispatches(%arg0: tensor<128xf32>) -> tensor<128xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<128xf32>) -> tensor<128xf32> =
      (%a: tensor<128xf32>) -> tensor<128xf32> {
    %c128 = arith.constant 128 : index
    %1 = flow.dispatch @ex::@entry[%c128](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<128xf32>) -> tensor<128xf32>
    %2 = flow.dispatch @ex::@entry[%c128](%1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<128xf32>) -> tensor<128xf32>
    flow.return %2 : tensor<128xf32>
  }
  return %0 : tensor<128xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 3 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @ret1, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Bindings are pushed per set in hal.bindings order; push constants are
// ordered by ordinal, `index` operands are cast to i32, i32 ones are used as
// is and an ordinal no binding provides is zero.
// CHECK-LABEL: func.func @push_constants_and_sets
// CHECK-SAME: (%[[A:[^:]+]]: !hal.buffer, %[[B:[^:]+]]: !hal.buffer, %[[N:[^:]+]]: index, %[[M:[^:]+]]: i32) -> (!hal.buffer, !hal.buffer)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[OUT0:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C16]]}
// CHECK: %[[OUT1:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C4]]}
// CHECK-NOT: hal.allocator.pack
// CHECK: %[[LAYOUT:.+]] = hal.executable_layout.lookup device({{.+}}) push_constants(3) layouts({{\[\[}}#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<2, "StorageBuffer", DW>], [#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]])
// CHECK: %[[NI32:.+]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// CHECK: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C1]] = (%[[B]] : !hal.buffer)[%[[C0]], %[[C32]]], %[[C0]] = (%[[A]] : !hal.buffer)[%[[C0]], %[[C16]]], %[[C2]] = (%[[OUT0]] : !hal.buffer)[%[[C0]], %[[C16]]]])
// CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout)[%[[C1]]] bindings([%[[C0]] = (%[[OUT1]] : !hal.buffer)[%[[C0]], %[[C4]]]])
// CHECK-NEXT: hal.command_buffer.push_constants<%[[CMD]] : !hal.command_buffer> layout(%[[LAYOUT]] : !hal.executable_layout) offset(0) values([%[[M]], %[[ZERO]], %[[NI32]]]) : i32, i32, i32
// CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C4]], %[[C1]], %[[C1]]])
// CHECK: return %[[OUT0]], %[[OUT1]] : !hal.buffer, !hal.buffer
func.func @push_constants_and_sets(%arg0: tensor<4xf32>, %arg1: tensor<8xi32>, %n: index, %m: i32) -> (tensor<4xf32>, tensor<2xf16>) {
  %0:2 = flow.ex.stream.fragment(%arg0, %arg1, %n, %m) : (tensor<4xf32>, tensor<8xi32>, index, i32) -> (tensor<4xf32>, tensor<2xf16>) =
      (%a: tensor<4xf32>, %b: tensor<8xi32>, %in: index, %im: i32) -> (tensor<4xf32>, tensor<2xf16>) {
    %c4 = arith.constant 4 : index
    %1:2 = flow.dispatch @ex::@entry[%c4](%a, %b, %in, %im) {hal.bindings = [#hal.ex.operand_buffer<"arg1", 1 : index>, #hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret1", 1 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<2 : index, 2 : index>, #hal.ex.push_constant<0 : index, 3 : index>]} : (tensor<4xf32>, tensor<8xi32>, index, i32) -> (tensor<4xf32>, tensor<2xf16>)
    flow.return %1#0, %1#1 : tensor<4xf32>, tensor<2xf16>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<2xf16>
}

// -----

util.global private @storage : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @weights, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Constant storage binds the global's buffer at the attribute's byte range.
// CHECK-LABEL: func.func @constant_storage
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C64]]}
// CHECK: %[[STORAGE:.+]] = util.global.load @storage : !hal.buffer
// CHECK: bindings([%[[C0]] = (%{{.+}} : !hal.buffer)[%[[C0]], %[[C64]]], %[[C1]] = (%[[STORAGE]] : !hal.buffer)[%[[C64]], %[[C256]]], %[[C2]] = (%[[OUT]] : !hal.buffer)[%[[C0]], %[[C64]]]])
func.func @constant_storage(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<16xf32>) -> tensor<16xf32> =
      (%a: tensor<16xf32>) -> tensor<16xf32> {
    %c16 = arith.constant 16 : index
    %1 = flow.dispatch @ex::@entry[%c16](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.constant_storage<"weights", "storage", 64 : index, 256 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<16xf32>) -> tensor<16xf32>
    flow.return %1 : tensor<16xf32>
  }
  return %0 : tensor<16xf32>
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
// A result nobody reads still needs storage: a transient live for its own op.
// CHECK-LABEL: func.func @dead_result
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C16]]}
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[C16]]}
// CHECK: %[[DEAD:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%{{.+}}, %[[C16]]] : !hal.buffer
// PACK-LABEL: func.func @dead_result
// PACK: hal.allocator.pack<{{.+}}> slices({[1, 1] = %{{.+}}})
// CHECK: hal.command_buffer.push_descriptor_set{{.+}}, %{{.+}} = (%[[DEAD]] : !hal.buffer)
// CHECK: hal.command_buffer.push_descriptor_set{{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)
// CHECK: return %[[OUT]]
func.func @dead_result(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %dead = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
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
// Two fragments in one function share the device and allocator, each gets
// its own command buffer.
// CHECK-LABEL: func.func @two_fragments
// CHECK: %[[DEV:.+]] = hal.ex.shared_device
// CHECK-NOT: hal.ex.shared_device
// CHECK: %[[ALLOC:.+]] = hal.device.allocator<%[[DEV]]
// CHECK-NOT: hal.device.allocator
// CHECK: %[[OUT0:.+]] = hal.allocator.allocate<%[[ALLOC]]
// CHECK: %[[CMD0:.+]] = hal.command_buffer.create device(%[[DEV]]
// CHECK: hal.ex.submit_and_wait %[[DEV]], %[[CMD0]]
// CHECK: %[[OUT1:.+]] = hal.allocator.allocate<%[[ALLOC]]
// CHECK: %[[CMD1:.+]] = hal.command_buffer.create device(%[[DEV]]
// CHECK: bindings([%{{.+}} = (%[[OUT0]] : !hal.buffer)[%{{.+}}], %{{.+}} = (%[[OUT1]] : !hal.buffer)
// CHECK: hal.ex.submit_and_wait %[[DEV]], %[[CMD1]]
// CHECK: return %[[OUT1]] : !hal.buffer
func.func @two_fragments(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  %2 = flow.ex.stream.fragment(%0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %2 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @s1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=3, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A dispatch that names two of its interface's four bindings is recorded
// with a layout of those two: a device requires every binding of the layout
// to be bound, and one left over from an earlier push would be visible to
// the kernel. Each distinct set of bindings is its own layout.
// CHECK-LABEL: func.func @layout_of_named_bindings
// CHECK-DAG: hal.executable_layout.lookup device(%{{.+}} : !hal.device) push_constants(0) layouts({{\[\[}}#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<2, "StorageBuffer", DW>]]) : !hal.executable_layout
// CHECK-DAG: hal.executable_layout.lookup device(%{{.+}} : !hal.device) push_constants(0) layouts({{\[\[}}#hal.descriptor_set_layout_binding<3, "StorageBuffer", RW>]]) : !hal.executable_layout
func.func @layout_of_named_bindings(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = flow.dispatch @ex::@entry[%c1](%1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %1
    flow.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=1, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The second dispatch binds nothing in set 1, which the first one pushed:
// set 1 is pushed empty before it, or its kernel would write the first
// dispatch's result through @ret0 (the push stays in effect).
// CHECK-LABEL: func.func @stale_set_unbound
// CHECK: push_descriptor_set<{{.+}})[%c1] bindings([%c0 = (%[[OUT:.+]] : !hal.buffer)
// CHECK-NEXT: dispatch.symbol
// CHECK: push_descriptor_set<{{.+}})[%c0] bindings([%c1 = (%[[OUT]] : !hal.buffer)
// CHECK-NEXT: push_descriptor_set<{{.+}})[%c1] bindings([])
// CHECK-NEXT: dispatch.symbol
func.func @stale_set_unbound(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = flow.dispatch @ex::@entry[%c1](%1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %1
    flow.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A dispatch that binds nothing: each set of its interface is pushed empty
// with its layout, which names no binding (otherwise no push would be in
// effect and the device rule unbound-binding would fail at run time).
// CHECK-LABEL: func.func @no_bindings
// CHECK: %[[LAYOUT:.+]] = hal.executable_layout.lookup device({{.+}}) push_constants(0) layouts([]) : !hal.executable_layout
// CHECK: push_descriptor_set<{{.+}}> layout(%[[LAYOUT]] : !hal.executable_layout)[%c0] bindings([])
// CHECK-NEXT: push_descriptor_set<{{.+}}> layout(%[[LAYOUT]] : !hal.executable_layout)[%c1] bindings([])
// CHECK-NEXT: dispatch.symbol
func.func @no_bindings(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> %arg0 =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = []} : (tensor<4xf32>) -> %a
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=1, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The first dispatch binds nothing in set 1, which nothing pushed yet: set 1
// is pushed empty with its layout (set 0 only), so that hal-exec's
// unbound-binding rule sees that its kernel does not use @rw.
// CHECK-LABEL: func.func @set_never_pushed
// CHECK: push_descriptor_set<{{.+}})[%c0] bindings([%c0 = (%arg0 : !hal.buffer)
// CHECK-NEXT: push_descriptor_set<{{.+}})[%c1] bindings([])
// CHECK-NEXT: dispatch.symbol
// CHECK: push_descriptor_set<{{.+}})[%c1] bindings([%c0 =
// CHECK-NEXT: push_descriptor_set<{{.+}})[%c0] bindings([])
// CHECK-NEXT: dispatch.symbol
func.func @set_never_pushed(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = flow.dispatch @ex::@entry[%c1](%1) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %1
    flow.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
