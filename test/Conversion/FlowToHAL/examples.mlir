// RUN: hal-exec %S/../../../examples/mlp.mlir --check-lowering --orders=4
// RUN: hal-exec %S/../../../examples/mlp.mlir '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %S/../../../examples/mlp.mlir '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// The README's first command on the example program, verified after every
// pass; its output holds no tensor and no flow op outside the executable.
// RUN: hal-opt %S/../../../examples/mlp.mlir --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %S/../../../examples/mlp.mlir --convert-flow-to-hal --canonicalize | FileCheck %s --check-prefix=NOTENSOR
// RUN: hal-opt %S/../../../examples/mlp.mlir --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %S/../../../examples/mlp.mlir --convert-flow-to-hal=barriers=hazard --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %S/../../../examples/mlp.mlir --flow-schedule-fragments --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %S/../../../examples/mlp.mlir --flow-schedule-fragments --convert-flow-to-hal=barriers=hazard --canonicalize --hal-verify-command-buffers > /dev/null

// NOTENSOR-NOT: tensor<
// NOTENSOR-NOT: flow.

// CHECK-LABEL: func.func @predict
// CHECK-SAME: (%[[INPUT:[^:]+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C40:.+]] = arith.constant 40 : index
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[BATCH:.+]] = hal.buffer_view.dim<%[[INPUT]] : !hal.buffer_view>[0] : index
// CHECK: %[[IN:.+]] = hal.buffer_view.buffer<%[[INPUT]] : !hal.buffer_view> : !hal.buffer
// CHECK: %[[HIDDEN_SIZE:.+]] = arith.muli %[[BATCH]], %[[C256]] : index
// CHECK: %[[OUT_SIZE:.+]] = arith.muli %[[BATCH]], %[[C40]] : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[OUT_SIZE]]}
// CHECK: %[[PARAMS:.+]] = util.global.load @params : !hal.buffer
// CHECK: %[[W1:.+]] = hal.buffer.subspan<%[[PARAMS]] : !hal.buffer>
// CHECK: %[[W2:.+]] = hal.buffer.subspan<%[[PARAMS]] : !hal.buffer>
// Transients: the splat bias, the second bias and the hidden layer (one
// class with its in-place ReLU). The second bias is row 1 of a table in the
// parameter pool, at pool byte 18,984: not a multiple of the 16-byte
// binding alignment, so it is copied into aligned storage instead of being
// bound as a view of the pool.
// CHECK: %[[TABLE:.+]] = hal.buffer.subspan<%[[PARAMS]] : !hal.buffer>[%{{.+}}, %{{.+}}]
// CHECK: %[[TOTAL:.+]], %[[OFFSETS:.+]]:3 = hal.allocator.pack<{{.+}}> slices({[8, 10] = %[[C256]], [9, 12] = %[[C40]], [10, 12] = %[[HIDDEN_SIZE]]}) : index
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[TOTAL]]}
// CHECK: %[[B1:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFFSETS]]#0, %[[C256]]]
// CHECK: %[[B2:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFFSETS]]#1, %[[C40]]]
// CHECK: %[[HIDDEN:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFFSETS]]#2, %[[HIDDEN_SIZE]]]
// CHECK: %[[BATCH_I32:.+]] = arith.index_cast %[[BATCH]] : index to i32
// CHECK: %[[CMD:.+]] = hal.command_buffer.create
// Each dispatch reads what the command before wrote: one barrier before
// each.
// CHECK: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[B1]] : !hal.buffer)[%[[C0]], %[[C256]]] pattern(%[[ZERO]] : i32)
// CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[TABLE]] : !hal.buffer)[%[[C40]]] target(%[[B2]] : !hal.buffer)[%[[C0]]] length(%[[C40]])
// CHECK-NEXT: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.device.switch
// CHECK-NEXT: #hal.device.match.executable.format
// CHECK-NEXT: bindings([%{{.+}} = (%[[IN]] : !hal.buffer){{.+}}, %{{.+}} = (%[[W1]] : !hal.buffer){{.+}}, %{{.+}} = (%[[B1]] : !hal.buffer){{.+}}, %{{.+}} = (%[[HIDDEN]] : !hal.buffer)
// CHECK-NEXT: values([%[[BATCH_I32]]])
// CHECK-NEXT: target(@mlp::@vmvx::@dense)
// CHECK: target(@mlp::@cpu::@dense)
// CHECK: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.device.switch
// CHECK: bindings([%{{.+}} = (%[[HIDDEN]] : !hal.buffer)[%[[C0]], %[[HIDDEN_SIZE]]]])
// CHECK: target(@mlp::@vmvx::@relu)
// CHECK: target(@mlp::@cpu::@relu)
// CHECK: hal.command_buffer.execution_barrier
// CHECK-NEXT: hal.device.switch
// CHECK: bindings([%{{.+}} = (%[[HIDDEN]] : !hal.buffer){{.+}}, %{{.+}} = (%[[W2]] : !hal.buffer){{.+}}, %{{.+}} = (%[[B2]] : !hal.buffer){{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)
// The last command is followed by the end, not by a barrier.
// CHECK: target(@mlp::@cpu::@dense)
// CHECK-NEXT: hal.return
// CHECK-NEXT: }
// CHECK-NEXT: hal.command_buffer.end
// Queued, not waited for: the host's only wait is for the result, right
// before it is returned (docs/async.md).
// CHECK-NEXT: %[[FENCE:.+]] = hal.fence.create device(%[[DEV:.+]] : !hal.device) : !hal.fence
// CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> wait([]) signal(%[[FENCE]]) commands([%[[CMD]]])
// CHECK-NEXT: %[[VIEW:.+]] = hal.buffer_view.create buffer(%[[OUT]] : !hal.buffer)
// CHECK-NEXT: hal.fence.await until([%[[FENCE]]])
// CHECK-NEXT: return %[[VIEW]] : !hal.buffer_view
