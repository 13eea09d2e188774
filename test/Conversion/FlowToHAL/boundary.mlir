// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=submission=blocking --canonicalize --verify-each | FileCheck %s
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
// A buffer view in: its buffer is the fragment operand; out: a new view of
// the output buffer with the shape, element type (f32) and encoding 0.
// CHECK-LABEL: func.func @tensor_cast_in_out
// CHECK-SAME: (%[[VIEW:[^:]+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[F32:.+]] = arith.constant 50331680 : i32
// CHECK-DAG: %[[DENSE:.+]] = arith.constant 0 : i32
// CHECK: %[[N:.+]] = hal.buffer_view.dim<%[[VIEW]] : !hal.buffer_view>[0] : index
// CHECK: %[[IN:.+]] = hal.buffer_view.buffer<%[[VIEW]] : !hal.buffer_view> : !hal.buffer
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %[[C16]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[SIZE]]}
// CHECK: bindings([%{{.+}} = (%[[IN]] : !hal.buffer)[%{{.+}}, %[[SIZE]]], %{{.+}} = (%[[OUT]] : !hal.buffer)[%{{.+}}, %[[SIZE]]]])
// CHECK: hal.ex.submit_and_wait
// CHECK-NEXT: %[[RESULT:.+]] = hal.buffer_view.create buffer(%[[OUT]] : !hal.buffer) shape([%[[N]], %[[C4]]]) type(%[[F32]]) encoding(%[[DENSE]]) : !hal.buffer_view
// CHECK-NEXT: return %[[RESULT]] : !hal.buffer_view
func.func @tensor_cast_in_out(%view: !hal.buffer_view) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %n = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
  %t = hal.tensor.cast %view : !hal.buffer_view -> tensor<?x4xf32>{%n}
  %0 = flow.ex.stream.fragment(%t, %n) : (tensor<?x4xf32>{%n}, index) -> tensor<?x4xf32>{%n} =
      (%a: tensor<?x4xf32>, %in: index) -> tensor<?x4xf32> {
    %1 = flow.dispatch @ex::@entry[%in](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<?x4xf32>{%in}) -> tensor<?x4xf32>{%in}
    flow.return %1 : tensor<?x4xf32>
  }
  %r = hal.tensor.cast %0 : tensor<?x4xf32>{%n} -> !hal.buffer_view
  return %r : !hal.buffer_view
}

// -----

// Host element access: row-major byte offsets, then buffer load/store; the
// store's result is the same buffer.
// CHECK-LABEL: func.func @host_load_store
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index) -> (i32, !hal.buffer)
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : i32
// CHECK: %[[ROW:.+]] = arith.muli %[[I]], %[[C3]] : index
// CHECK: %[[ELEMENT:.+]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK: %[[OFFSET:.+]] = arith.muli %[[ELEMENT]], %[[C4]] : index
// CHECK: %[[V:.+]] = hal.buffer.load<%[[ARG]] : !hal.buffer>[%[[OFFSET]]] : i32
// CHECK: %[[ROW2:.+]] = arith.muli %[[J]], %[[C3]] : index
// CHECK: %[[ELEMENT2:.+]] = arith.addi %[[ROW2]], %[[I]] : index
// CHECK: %[[OFFSET2:.+]] = arith.muli %[[ELEMENT2]], %[[C4]] : index
// CHECK: hal.buffer.store<%[[ARG]] : !hal.buffer>[%[[OFFSET2]]] value(%[[C7]] : i32)
// CHECK: return %[[V]], %[[ARG]] : i32, !hal.buffer
func.func @host_load_store(%arg0: tensor<2x3xi32>, %i: index, %j: index) -> (i32, tensor<2x3xi32>) {
  %v = flow.tensor.load %arg0[%i, %j] : tensor<2x3xi32>
  %c7 = arith.constant 7 : i32
  %t = flow.tensor.store %c7, %arg0[%j, %i] : tensor<2x3xi32>
  return %v, %t : i32, tensor<2x3xi32>
}

// -----

// [1, 2] of ?x3xf16: byte (1 * 3 + 2) * 2 = 10, whatever %n is.
// CHECK-LABEL: func.func @host_load_dynamic
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer, %{{[^:]+}}: index) -> f16
// CHECK: %[[C10:.+]] = arith.constant 10 : index
// CHECK: %[[V:.+]] = hal.buffer.load<%[[ARG]] : !hal.buffer>[%[[C10]]] : f16
// CHECK: return %[[V]] : f16
func.func @host_load_dynamic(%arg0: tensor<?x3xf16>, %n: index) -> f16 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = flow.tensor.load %arg0[%c1, %c2] : tensor<?x3xf16>{%n}
  return %v : f16
}

// -----

util.global private mutable @state : tensor<16xf32>
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
// A tensor global becomes a buffer global; load and store follow.
// CHECK: util.global private mutable @state : !hal.buffer
// CHECK-LABEL: func.func @tensor_global
// CHECK: %[[STATE:.+]] = util.global.load @state : !hal.buffer
// CHECK: %[[OUT:.+]] = hal.allocator.allocate
// CHECK: bindings([%{{.+}} = (%[[STATE]] : !hal.buffer){{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)
// CHECK: hal.ex.submit_and_wait
// CHECK-NEXT: util.global.store %[[OUT]], @state : !hal.buffer
func.func @tensor_global() {
  %s = util.global.load @state : tensor<16xf32>
  %0 = flow.ex.stream.fragment(%s) : (tensor<16xf32>) -> tensor<16xf32> =
      (%a: tensor<16xf32>) -> tensor<16xf32> {
    %c16 = arith.constant 16 : index
    %1 = flow.dispatch @ex::@entry[%c16](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<16xf32>) -> tensor<16xf32>
    flow.return %1 : tensor<16xf32>
  }
  util.global.store %0, @state : tensor<16xf32>
  return
}

// -----

func.func private @callee(%arg0: tensor<4xf32>) -> tensor<4xf32>
// Calls and declarations convert their signatures.
// CHECK: func.func private @callee(!hal.buffer) -> !hal.buffer
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer) -> !hal.buffer
// CHECK: %[[R0:.+]] = call @callee(%[[ARG]]) : (!hal.buffer) -> !hal.buffer
// CHECK: %[[R1:.+]] = call @callee(%[[R0]]) : (!hal.buffer) -> !hal.buffer
// CHECK: return %[[R1]] : !hal.buffer
func.func @caller(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @callee(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @callee(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

util.global private @pool : !hal.buffer
// A constant subspan outside fragments: the pool's subspan.
// CHECK-LABEL: func.func @constant_subspan_outside
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C28:.+]] = arith.constant 28 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[SUB:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C16]], %[[C28]]] : !hal.buffer
// CHECK: return %[[SUB]] : !hal.buffer
func.func @constant_subspan_outside() -> tensor<7xi32> {
  %0 = hal.constant.subspan @pool[#util.byte_range<16, 28>] : tensor<7xi32>
  return %0 : tensor<7xi32>
}

// -----

util.global private @pool : !hal.buffer
// A value shorter than its byte range: the subspan is the value's bytes, not
// the whole range (the caller reads the buffer's length as the value's).
// CHECK-LABEL: func.func @constant_subspan_outside_shorter
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[SUB:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C16]], %[[C4]]] : !hal.buffer
// CHECK: return %[[SUB]] : !hal.buffer
func.func @constant_subspan_outside_shorter() -> tensor<i32> {
  %0 = hal.constant.subspan @pool[#util.byte_range<16, 28>] : tensor<i32>
  return %0 : tensor<i32>
}

// -----

util.global private @pool : !hal.buffer
// A dynamic value: the subspan's length is computed from its dims.
// CHECK-LABEL: func.func @constant_subspan_outside_dynamic
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[SIZE:.+]] = arith.muli %arg0, %{{.+}} : index
// CHECK: %[[SUB:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C16]], %[[SIZE]]] : !hal.buffer
// CHECK: return %[[SUB]] : !hal.buffer
func.func @constant_subspan_outside_dynamic(%n: index) -> tensor<?x2xi32> {
  %0 = hal.constant.subspan @pool[#util.byte_range<16, 40>] : tensor<?x2xi32>{%n}
  return %0 : tensor<?x2xi32>
}
