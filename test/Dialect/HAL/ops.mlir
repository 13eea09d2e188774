// RUN: hal-opt %s -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file | hal-opt -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file --mlir-print-op-generic | hal-opt -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file | FileCheck %s --strict-whitespace --check-prefix=SPACES

// Round trip of every hal type, enum, attribute and op of the dialect spec
// (dialects.md).

// CHECK-LABEL: func.func private @types(!hal.device, !hal.allocator, !hal.buffer, !hal.buffer_view, !hal.command_buffer, !hal.executable_layout)
func.func private @types(!hal.device, !hal.allocator, !hal.buffer, !hal.buffer_view, !hal.command_buffer, !hal.executable_layout)

// -----

// CHECK-LABEL: module attributes
// CHECK-SAME: hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>, #hal.device.target<"llvm">]
module attributes {hal.device.targets = [
  #hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16>}>,
  #hal.device.target<"llvm">
]} {
}

// -----

// Enums and attributes in their attribute form. Multi-bit values print one
// way, whatever order they were written in.
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: access0 = #hal.memory_access<Read|Write>
// CHECK-SAME: access1 = #hal.memory_access<Write|Discard>
// CHECK-SAME: access2 = #hal.memory_access<Read|MayAlias>
// CHECK-SAME: barrier0 = #hal.execution_barrier_flag<None>
// CHECK-SAME: barrier1 = #hal.execution_barrier_flag<Reserved>
// CHECK-SAME: category = #hal.command_category<Transfer|Dispatch>
// CHECK-SAME: descriptor0 = #hal.descriptor_type<StorageBuffer>
// CHECK-SAME: descriptor1 = #hal.descriptor_type<UniformBuffer>
// CHECK-SAME: layout0 = #hal.descriptor_set_layout_binding<0, "StorageBuffer", R>
// CHECK-SAME: layout1 = #hal.descriptor_set_layout_binding<1, "StorageBuffer", W>
// CHECK-SAME: layout2 = #hal.descriptor_set_layout_binding<2, "UniformBuffer", RW>
// CHECK-SAME: layout3 = #hal.descriptor_set_layout_binding<3, "StorageBuffer", DW>
// CHECK-SAME: layout4 = #hal.descriptor_set_layout_binding<4, "StorageBuffer", RW>
// CHECK-SAME: layout5 = #hal.descriptor_set_layout_binding<5, "StorageBuffer", Read|MayAlias>
// CHECK-SAME: match = #hal.device.match.executable.format<"vmvx-bytecode-fb">
// CHECK-SAME: memory0 = #hal.memory_type<DeviceLocal|HostVisible>
// CHECK-SAME: memory1 = #hal.memory_type<HostLocal>
// CHECK-SAME: memory2 = #hal.memory_type<HostLocal>
// CHECK-SAME: memory3 = #hal.memory_type<None>
// CHECK-SAME: memory4 = #hal.memory_type<Transient|HostCached|DeviceVisible>
// CHECK-SAME: mode = #hal.command_buffer_mode<OneShot|AllowInlineExecution>
// CHECK-SAME: stage0 = #hal.execution_stage<CommandRetire|Dispatch>
// CHECK-SAME: stage1 = #hal.execution_stage<CommandIssue|Dispatch>
// CHECK-SAME: stage2 = #hal.execution_stage<CommandProcess|Transfer|Host>
// CHECK-SAME: target0 = #hal.executable.target<"vmvx", "vmvx-bytecode-fb">
// CHECK-SAME: target1 = #hal.executable.target<"llvm", "embedded-elf", {cpu = "generic"}>
// CHECK-SAME: usage0 = #hal.buffer_usage<All>
// CHECK-SAME: usage1 = #hal.buffer_usage<Dispatch|Transfer>
// CHECK-SAME: usage2 = #hal.buffer_usage<Constant|Mapping>
// CHECK-SAME: usage3 = #hal.buffer_usage<All>
func.func @attributes() attributes {
  access0 = #hal.memory_access<Write|Read>,
  access1 = #hal.memory_access<Discard|Write>,
  access2 = #hal.memory_access<Read|MayAlias>,
  barrier0 = #hal.execution_barrier_flag<None>,
  barrier1 = #hal.execution_barrier_flag<Reserved>,
  category = #hal.command_category<Dispatch|Transfer>,
  descriptor0 = #hal.descriptor_type<StorageBuffer>,
  descriptor1 = #hal.descriptor_type<UniformBuffer>,
  layout0 = #hal.descriptor_set_layout_binding<0, "StorageBuffer", R>,
  layout1 = #hal.descriptor_set_layout_binding<1, "StorageBuffer", W>,
  layout2 = #hal.descriptor_set_layout_binding<2, "UniformBuffer", RW>,
  layout3 = #hal.descriptor_set_layout_binding<3, "StorageBuffer", DW>,
  layout4 = #hal.descriptor_set_layout_binding<4, "StorageBuffer", Read|Write>,
  layout5 = #hal.descriptor_set_layout_binding<5, "StorageBuffer", MayAlias|Read>,
  match = #hal.device.match.executable.format<"vmvx-bytecode-fb">,
  memory0 = #hal.memory_type<HostVisible|DeviceLocal>,
  memory1 = #hal.memory_type<HostLocal>,
  memory2 = #hal.memory_type<HostVisible|HostCoherent>,
  memory3 = #hal.memory_type<None>,
  memory4 = #hal.memory_type<Transient|HostCached|DeviceVisible>,
  mode = #hal.command_buffer_mode<AllowInlineExecution|OneShot>,
  stage0 = #hal.execution_stage<Dispatch|CommandRetire>,
  stage1 = #hal.execution_stage<Dispatch|CommandIssue>,
  stage2 = #hal.execution_stage<Host|Transfer|CommandProcess>,
  target0 = #hal.executable.target<"vmvx", "vmvx-bytecode-fb">,
  target1 = #hal.executable.target<"llvm", "embedded-elf", {cpu = "generic"}>,
  usage0 = #hal.buffer_usage<All>,
  usage1 = #hal.buffer_usage<Transfer|Dispatch>,
  usage2 = #hal.buffer_usage<Mapping|Constant>,
  usage3 = #hal.buffer_usage<Transfer|Mapping|Dispatch>
} {
  return
}

// -----

// CHECK-LABEL: hal.executable private @ex {
hal.executable private @ex {
  // CHECK-NEXT: hal.interface @io attributes {push_constants = 2 : index} {
  // CHECK-NEXT: hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  // CHECK-NEXT: hal.interface.binding @arg1, set=0, binding=1, type="UniformBuffer", access="Read|MayAlias"
  // CHECK-NEXT: hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  // CHECK-NEXT: hal.interface.binding @ret1, set=1, binding=1, type="StorageBuffer", access="None"
  // CHECK-NEXT: }
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @arg1, set=0, binding=1, type="UniformBuffer", access="MayAlias|Read"
    hal.interface.binding @ret0, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @ret1, set=1, binding=1, type="StorageBuffer", access="None"
  }
  // push_constants defaults to 0 and is not printed.
  // CHECK-NEXT: hal.interface @io2 {
  // CHECK-NEXT: }
  hal.interface @io2 {
  }
  // CHECK-NEXT: hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // CHECK-NEXT: hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    // CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: index, %[[Z:.+]]: index):
    // CHECK-NEXT: hal.return %[[X]], %[[Y]], %[[Z]] : index, index, index
    // CHECK-NEXT: }
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index, %y: index, %z: index):
      hal.return %x, %y, %z : index, index, index
    }
    // An entry point without a workgroup count region.
    // CHECK-NEXT: hal.executable.entry_point @entry2 attributes {interface = @io2, ordinal = 1 : index}{{$}}
    hal.executable.entry_point @entry2 attributes {interface = @io2, ordinal = 1 : index}
    // CHECK-NEXT: builtin.module {
    // CHECK-NEXT: }
    builtin.module {}
  // CHECK-NEXT: }
  }
  // CHECK-NEXT: hal.executable.variant @llvm, target = #hal.executable.target<"llvm", "embedded-elf", {cpu = "generic"}> {
  hal.executable.variant @llvm, target = #hal.executable.target<"llvm", "embedded-elf", {cpu = "generic"}> {
    // CHECK-NEXT: hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    // CHECK-NEXT: ^bb0(%[[X:.+]]: index):
    // CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : index
    // CHECK-NEXT: hal.return %[[X]], %[[C1]], %[[C1]] : index, index, index
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index):
      %c1 = arith.constant 1 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
  }
}
// A public executable prints no visibility keyword.
// CHECK: hal.executable @public_ex {
// SPACES: {{^}}  hal.executable private @ex {{[{]}}{{$}}
// SPACES: {{^}}  hal.executable @public_ex {{[{]}}{{$}}
hal.executable @public_ex {
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
  hal.executable.variant @llvm, target = #hal.executable.target<"llvm", "embedded-elf"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}

// CHECK-LABEL: func.func @device_switch
// CHECK-SAME: (%[[DEV:[^:]+]]: !hal.device, %[[CMD:[^:]+]]: !hal.command_buffer)
func.func @device_switch(%dev: !hal.device, %cmd: !hal.command_buffer) -> i32 {
  // CHECK: %[[C1:.+]] = arith.constant 1 : index
  %c1 = arith.constant 1 : index
  // CHECK-NEXT: hal.device.switch<%[[DEV]] : !hal.device>{{$}}
  // CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
  // CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C1]], %[[C1]], %[[C1]]])
  // CHECK-NEXT: hal.return{{$}}
  // CHECK-NEXT: },
  // CHECK-NEXT: #hal.device.match.executable.format<"embedded-elf"> {
  // CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@llvm::@entry) workgroups([%[[C1]], %[[C1]], %[[C1]]])
  // CHECK-NEXT: hal.return{{$}}
  // CHECK-NEXT: }{{$}}
  hal.device.switch<%dev : !hal.device>
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    },
    #hal.device.match.executable.format<"embedded-elf"> {
      hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@llvm::@entry) workgroups([%c1, %c1, %c1])
      hal.return
    }
  // CHECK-NEXT: %[[R:.+]] = hal.device.switch<%[[DEV]] : !hal.device> -> i32{{$}}
  // CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
  // CHECK-NEXT: %[[A:.+]] = arith.constant 1 : i32
  // CHECK-NEXT: hal.return %[[A]] : i32
  // CHECK-NEXT: },
  // CHECK-NEXT: #hal.device.match.executable.format<"embedded-elf"> {
  // CHECK-NEXT: %[[B:.+]] = arith.constant 2 : i32
  // CHECK-NEXT: hal.return %[[B]] : i32
  // CHECK-NEXT: }{{$}}
  %r = hal.device.switch<%dev : !hal.device> -> i32
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      %a = arith.constant 1 : i32
      hal.return %a : i32
    },
    #hal.device.match.executable.format<"embedded-elf"> {
      %b = arith.constant 2 : i32
      hal.return %b : i32
    }
  // Several results and an attribute dictionary.
  // CHECK-NEXT: %{{.+}}:2 = hal.device.switch<%[[DEV]] : !hal.device> -> i32, index{{$}}
  // CHECK-NEXT: #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
  // CHECK-NEXT: %[[A:.+]] = arith.constant 1 : i32
  // CHECK-NEXT: hal.return %[[A]], %[[C1]] : i32, index
  // CHECK-NEXT: } attributes {foo}
  %r2:2 = hal.device.switch<%dev : !hal.device> -> i32, index
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      %a = arith.constant 1 : i32
      hal.return %a, %c1 : i32, index
    } attributes {foo}
  // CHECK-NEXT: return %[[R]] : i32
  return %r : i32
}

// -----

// CHECK-LABEL: func.func @device_and_submission
// CHECK-SAME: (%[[CMD:[^:]+]]: !hal.command_buffer)
func.func @device_and_submission(%cmd: !hal.command_buffer) -> !hal.allocator {
  // CHECK-NEXT: %[[DEV:.+]] = hal.ex.shared_device : !hal.device
  %dev = hal.ex.shared_device : !hal.device
  // CHECK-NEXT: hal.ex.submit_and_wait %[[DEV]], %[[CMD]]{{$}}
  hal.ex.submit_and_wait %dev, %cmd
  // CHECK-NEXT: %[[A:.+]] = hal.device.allocator<%[[DEV]] : !hal.device> : !hal.allocator
  %a = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  // CHECK-NEXT: return %[[A]]
  return %a : !hal.allocator
}

// -----

// The timeline ops of async.md, in their exact forms.
// CHECK-LABEL: func.func @fences_and_queue
// CHECK-SAME: (%[[CMD:[^:]+]]: !hal.command_buffer, %[[CMD2:[^:]+]]: !hal.command_buffer)
func.func @fences_and_queue(%cmd: !hal.command_buffer, %cmd2: !hal.command_buffer) {
  // CHECK-NEXT: %[[DEV:.+]] = hal.ex.shared_device : !hal.device
  %dev = hal.ex.shared_device : !hal.device
  // CHECK-NEXT: %[[A:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) : !hal.fence{{$}}
  %a = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: %[[B:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) : !hal.fence{{$}}
  %b = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: %[[F:.+]] = hal.fence.create
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> wait([]) signal(%[[A]]) commands([%[[CMD]]]){{$}}
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%a) commands([%cmd])
  // CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> wait([%[[A]]]) signal(%[[B]]) commands([]){{$}}
  hal.device.queue.execute<%dev : !hal.device> wait([%a]) signal(%b) commands([])
  // CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> wait([%[[A]], %[[B]]]) signal(%[[F]]) commands([%[[CMD2]]]){{$}}
  hal.device.queue.execute<%dev : !hal.device> wait([%a, %b]) signal(%f) commands([%cmd2])
  // CHECK-NEXT: %[[J:.+]] = hal.fence.join at([%[[A]], %[[F]]]) : !hal.fence{{$}}
  %j = hal.fence.join at([%a, %f]) : !hal.fence
  // CHECK-NEXT: hal.fence.await until([%[[J]]]){{$}}
  hal.fence.await until([%j])
  // CHECK-NEXT: hal.fence.await until([%[[A]], %[[B]]]){{$}}
  hal.fence.await until([%a, %b])
  return
}

// -----

// A transient slab on the device timeline: allocated, used, released after
// its use without a host wait.
// CHECK-LABEL: func.func @queue_alloca_dealloca
// CHECK-SAME: (%[[CMD:[^:]+]]: !hal.command_buffer, %[[N:[^:]+]]: index)
func.func @queue_alloca_dealloca(%cmd: !hal.command_buffer, %n: index) {
  // CHECK-NEXT: %[[DEV:.+]] = hal.ex.shared_device
  %dev = hal.ex.shared_device : !hal.device
  // CHECK-NEXT: %[[A:.+]] = hal.fence.create
  %a = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: %[[B:.+]] = hal.fence.create
  %b = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: %[[C:.+]] = hal.fence.create
  %c = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // CHECK-NEXT: %[[BUF:.+]] = hal.device.queue.alloca<%[[DEV]]> wait([]) signal(%[[A]]) type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[N]]}{{$}}
  %buf = hal.device.queue.alloca<%dev> wait([]) signal(%a) type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%n}
  // CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> wait([%[[A]]]) signal(%[[B]]) commands([%[[CMD]]])
  hal.device.queue.execute<%dev : !hal.device> wait([%a]) signal(%b) commands([%cmd])
  // CHECK-NEXT: hal.device.queue.dealloca<%[[DEV]]> wait([%[[B]]]) signal(%[[C]]) buffer(%[[BUF]] : !hal.buffer){{$}}
  hal.device.queue.dealloca<%dev> wait([%b]) signal(%c) buffer(%buf : !hal.buffer)
  return
}

// -----

// CHECK-LABEL: func.func private @fence_type(!hal.fence)
func.func private @fence_type(!hal.fence)

// -----

// CHECK-LABEL: func.func @allocator
// CHECK-SAME: (%[[A:[^:]+]]: !hal.allocator, %[[N:[^:]+]]: index, %[[I:[^:]+]]: index, %[[ET:[^:]+]]: i32, %[[ENC:[^:]+]]: i32)
func.func @allocator(%a: !hal.allocator, %n: index, %i: index, %et: i32, %enc: i32) {
  // CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
  %c4 = arith.constant 4 : index
  // CHECK-NEXT: %[[S:.+]] = hal.allocator.compute_size<%[[A]] : !hal.allocator> shape([%[[N]], %[[C4]]]) type(%[[ET]]) encoding(%[[ENC]]) : index
  %s = hal.allocator.compute_size<%a : !hal.allocator> shape([%n, %c4]) type(%et) encoding(%enc) : index
  // A scalar (rank 0) shape.
  // CHECK-NEXT: hal.allocator.compute_size<%[[A]] : !hal.allocator> shape([]) type(%[[ET]]) encoding(%[[ENC]]) : index
  %s0 = hal.allocator.compute_size<%a : !hal.allocator> shape([]) type(%et) encoding(%enc) : index
  // CHECK-NEXT: hal.allocator.compute_offset<%[[A]] : !hal.allocator> indices([%[[I]], %[[C4]]]) shape([%[[N]], %[[C4]]]) type(%[[ET]]) encoding(%[[ENC]]) : index
  %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%i, %c4]) shape([%n, %c4]) type(%et) encoding(%enc) : index
  // CHECK-NEXT: hal.allocator.allocate<%[[A]] : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[S]]}
  %b0 = hal.allocator.allocate<%a : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%s}
  // CHECK-NEXT: hal.allocator.allocate<%[[A]] : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%[[S]]}
  %b1 = hal.allocator.allocate<%a : !hal.allocator> type(DeviceLocal) usage(Transfer|Dispatch) : !hal.buffer{%s}
  // CHECK-NEXT: hal.allocator.allocate<%[[A]] : !hal.allocator> type(HostLocal) usage(Constant|Mapping) : !hal.buffer{%[[N]]}
  %b2 = hal.allocator.allocate<%a : !hal.allocator> type(HostVisible|HostCoherent) usage(Constant|Mapping) : !hal.buffer{%n}
  // CHECK-NEXT: hal.allocator.allocate<%[[A]] : !hal.allocator> type(Transient) usage(None) : !hal.buffer{%[[N]]}
  %b3 = hal.allocator.allocate<%a : !hal.allocator> type(Transient) usage(None) : !hal.buffer{%n}
  return
}

// -----

// CHECK-LABEL: func.func @pack
// CHECK-SAME: (%[[A:[^:]+]]: !hal.allocator, %[[BASE:[^:]+]]: index, %[[S0:[^:]+]]: index, %[[S1:[^:]+]]: index)
func.func @pack(%a: !hal.allocator, %base: index, %s0: index, %s1: index) {
  // CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
  %c4 = arith.constant 4 : index
  // An offset and a trailing comma, which is dropped when printing.
  // CHECK-NEXT: %{{.+}}, %{{.+}}:3 = hal.allocator.pack<%[[A]] : !hal.allocator> offset(%[[BASE]]) slices({[0, 4] = %[[S0]], [1, 2] = %[[S1]], [3, 3] = %[[C4]]}) : index
  %t, %o:3 = hal.allocator.pack<%a : !hal.allocator> offset(%base) slices({[0, 4] = %s0, [1, 2] = %s1, [3, 3] = %c4,}) : index
  // CHECK-NEXT: %{{.+}}, %{{.+}}:2 = hal.allocator.pack<%[[A]] : !hal.allocator> slices({[0, 0] = %[[S0]], [0, 0] = %[[S1]]}) : index
  %t1, %o1:2 = hal.allocator.pack<%a : !hal.allocator> slices({[0, 0] = %s0, [0, 0] = %s1}) : index
  // Zero slices: only the total length.
  // CHECK-NEXT: %{{[^,]+}} = hal.allocator.pack<%[[A]] : !hal.allocator> slices({}) : index
  %t2 = hal.allocator.pack<%a : !hal.allocator> slices({}) : index
  // CHECK-NEXT: %{{[^,]+}} = hal.allocator.pack<%[[A]] : !hal.allocator> offset(%[[BASE]]) slices({}) : index
  %t3 = hal.allocator.pack<%a : !hal.allocator> offset(%base) slices({}) : index
  return
}

// -----

// CHECK-LABEL: func.func @buffers
// CHECK-SAME: (%[[B:[^:]+]]: !hal.buffer, %[[OFF:[^:]+]]: index, %[[LEN:[^:]+]]: index, %[[ET:[^:]+]]: i32, %[[ENC:[^:]+]]: i32, %[[F:[^:]+]]: f16)
func.func @buffers(%b: !hal.buffer, %off: index, %len: index, %et: i32, %enc: i32, %f: f16) {
  // CHECK-NEXT: hal.buffer.subspan<%[[B]] : !hal.buffer>[%[[OFF]], %[[LEN]]] : !hal.buffer
  %sub = hal.buffer.subspan<%b : !hal.buffer>[%off, %len] : !hal.buffer
  // CHECK-NEXT: %[[X:.+]] = hal.buffer.load<%[[B]] : !hal.buffer>[%[[OFF]]] : i32
  %x = hal.buffer.load<%b : !hal.buffer>[%off] : i32
  // CHECK-NEXT: hal.buffer.load<%[[B]] : !hal.buffer>[%[[OFF]]] : f16
  %y = hal.buffer.load<%b : !hal.buffer>[%off] : f16
  // CHECK-NEXT: hal.buffer.store<%[[B]] : !hal.buffer>[%[[OFF]]] value(%[[X]] : i32)
  hal.buffer.store<%b : !hal.buffer>[%off] value(%x : i32)
  // CHECK-NEXT: hal.buffer.store<%[[B]] : !hal.buffer>[%[[LEN]]] value(%[[F]] : f16)
  hal.buffer.store<%b : !hal.buffer>[%len] value(%f : f16)
  // CHECK-NEXT: %[[BV:.+]] = hal.buffer_view.create buffer(%[[B]] : !hal.buffer) shape([%[[LEN]], %[[OFF]]]) type(%[[ET]]) encoding(%[[ENC]]) : !hal.buffer_view
  %bv = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%len, %off]) type(%et) encoding(%enc) : !hal.buffer_view
  // CHECK-NEXT: hal.buffer_view.buffer<%[[BV]] : !hal.buffer_view> : !hal.buffer
  %bb = hal.buffer_view.buffer<%bv : !hal.buffer_view> : !hal.buffer
  // CHECK-NEXT: hal.buffer_view.dim<%[[BV]] : !hal.buffer_view>[1] : index
  %d1 = hal.buffer_view.dim<%bv : !hal.buffer_view>[1] : index
  return
}

// -----

util.global private @pool : !hal.buffer

// CHECK-LABEL: func.func @tensor_boundary
// CHECK-SAME: (%[[BV:[^:]+]]: !hal.buffer_view, %[[N:[^:]+]]: index, %[[T:[^:]+]]: tensor<4x4xi8>)
func.func @tensor_boundary(%bv: !hal.buffer_view, %n: index, %t: tensor<4x4xi8>) {
  // CHECK-NEXT: %[[D:.+]] = hal.tensor.cast %[[BV]] : !hal.buffer_view -> tensor<?xf32>{%[[N]]}
  %d = hal.tensor.cast %bv : !hal.buffer_view -> tensor<?xf32>{%n}
  // CHECK-NEXT: hal.tensor.cast %[[D]] : tensor<?xf32>{%[[N]]} -> !hal.buffer_view
  %bv2 = hal.tensor.cast %d : tensor<?xf32>{%n} -> !hal.buffer_view
  // CHECK-NEXT: hal.tensor.cast %[[BV]] : !hal.buffer_view -> tensor<4x4xi8>{{$}}
  %s = hal.tensor.cast %bv : !hal.buffer_view -> tensor<4x4xi8>
  // CHECK-NEXT: hal.tensor.cast %[[T]] : tensor<4x4xi8> -> !hal.buffer_view
  %bv3 = hal.tensor.cast %t : tensor<4x4xi8> -> !hal.buffer_view
  // CHECK-NEXT: hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32>{{$}}
  %c0 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32>
  // CHECK-NEXT: hal.constant.subspan @pool[#util.byte_range<64, 128>] : tensor<?x4xf32>{%[[N]]}
  %c1 = hal.constant.subspan @pool[#util.byte_range<64, 128>] : tensor<?x4xf32>{%n}
  // Discardable attributes follow the `attributes` keyword (a bare `{` after
  // the type is its dims).
  // CHECK-NEXT: hal.tensor.cast %[[T]] : tensor<4x4xi8> -> !hal.buffer_view attributes {test.a}
  %bv4 = hal.tensor.cast %t : tensor<4x4xi8> -> !hal.buffer_view attributes {test.a}
  // CHECK-NEXT: hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32> attributes {test.a}
  %c2 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<7xi32> attributes {test.a}
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}

// CHECK-LABEL: func.func @command_buffers
// CHECK-SAME: (%[[DEV:[^:]+]]: !hal.device, %[[B:[^:]+]]: !hal.buffer, %[[OFF:[^:]+]]: index, %[[LEN:[^:]+]]: index, %[[X:[^:]+]]: i32)
func.func @command_buffers(%dev: !hal.device, %b: !hal.buffer, %off: index, %len: index, %x: i32) {
  // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK-NEXT: %[[L0:.+]] = hal.executable_layout.lookup device(%[[DEV]] : !hal.device) push_constants(1) layouts({{\[\[}}#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %l0 = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  // CHECK-NEXT: hal.executable_layout.lookup device(%[[DEV]] : !hal.device) push_constants(0) layouts([]) : !hal.executable_layout
  %l1 = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([]) : !hal.executable_layout
  // CHECK-NEXT: hal.executable_layout.lookup device(%[[DEV]] : !hal.device) push_constants(3) layouts({{\[\[}}#hal.descriptor_set_layout_binding<0, "UniformBuffer", RW>], [], [#hal.descriptor_set_layout_binding<0, "StorageBuffer", W>]]) : !hal.executable_layout
  %l2 = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(3) layouts([[#hal.descriptor_set_layout_binding<0, "UniformBuffer", RW>], [], [#hal.descriptor_set_layout_binding<0, "StorageBuffer", W>]]) : !hal.executable_layout
  // CHECK-NEXT: %[[CMD:.+]] = hal.command_buffer.create device(%[[DEV]] : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  // CHECK-NEXT: hal.command_buffer.create device(%[[DEV]] : !hal.device) mode(None) categories(Dispatch) : !hal.command_buffer
  %cmd2 = hal.command_buffer.create device(%dev : !hal.device) mode(None) categories(Dispatch) : !hal.command_buffer
  // CHECK-NEXT: hal.command_buffer.begin<%[[CMD]] : !hal.command_buffer>{{$}}
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  // CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[B]] : !hal.buffer)[%[[OFF]], %[[LEN]]] pattern(%[[X]] : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%off, %len] pattern(%x : i32)
  // CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[B]] : !hal.buffer)[%[[OFF]]] target(%[[B]] : !hal.buffer)[%[[C0]]] length(%[[LEN]])
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%b : !hal.buffer)[%off] target(%b : !hal.buffer)[%c0] length(%len)
  // CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[L0]] : !hal.executable_layout)[%[[C0]]] bindings([%[[C0]] = (%[[B]] : !hal.buffer)[%[[OFF]], %[[LEN]]], %[[C1]] = (%[[B]] : !hal.buffer)[%[[C0]], %[[LEN]]]])
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%l0 : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%off, %len], %c1 = (%b : !hal.buffer)[%c0, %len]])
  // CHECK-NEXT: hal.command_buffer.push_descriptor_set<%[[CMD]] : !hal.command_buffer> layout(%[[L0]] : !hal.executable_layout)[%[[C1]]] bindings([])
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%l0 : !hal.executable_layout)[%c1] bindings([])
  // CHECK-NEXT: hal.command_buffer.push_constants<%[[CMD]] : !hal.command_buffer> layout(%[[L0]] : !hal.executable_layout) offset(0) values([%[[X]], %[[X]]]) : i32, i32
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%l0 : !hal.executable_layout) offset(0) values([%x, %x]) : i32, i32
  // CHECK-NEXT: hal.command_buffer.push_constants<%[[CMD]] : !hal.command_buffer> layout(%[[L0]] : !hal.executable_layout) offset(2) values([%[[X]]]) : i32
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%l0 : !hal.executable_layout) offset(2) values([%x]) : i32
  // CHECK-NEXT: hal.command_buffer.dispatch.symbol<%[[CMD]] : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%[[C1]], %[[LEN]], %[[C1]]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %len, %c1])
  // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("Transfer|Host") target("CommandProcess") flags("Reserved")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Host|Transfer") target("CommandProcess") flags("Reserved")
  // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("None") target("CommandRetire|CommandIssue|CommandProcess|Dispatch|Transfer|Host") flags("None")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("None") target("CommandIssue|CommandProcess|Dispatch|Transfer|CommandRetire|Host") flags("None")
  // CHECK-NEXT: hal.command_buffer.end<%[[CMD]] : !hal.command_buffer>{{$}}
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  // CHECK-NEXT: hal.ex.submit_and_wait %[[DEV]], %[[CMD]]
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// A dispatch target whose executable is not in this module (linked later)
// is accepted: the spec gives dispatch.symbol no symbol rule.
// CHECK-LABEL: func.func @dispatch_symbol_external
// CHECK: hal.command_buffer.dispatch.symbol<%{{.+}} : !hal.command_buffer> target(@other::@vmvx::@entry) workgroups([%{{.+}}, %{{.+}}, %{{.+}}])
func.func @dispatch_symbol_external(%cmd: !hal.command_buffer, %c: index) {
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@other::@vmvx::@entry) workgroups([%c, %c, %c])
  return
}

// -----

// A memoized recording: the device, slots and uniforms are the body's
// arguments; the indirect submission binds them.
// CHECK-LABEL: func.func @memoize
// CHECK: %[[CMD:.+]] = hal.device.memoize<%[[DEV:.+]] : !hal.device> slots([0, 1]) : !hal.command_buffer {
// CHECK-NEXT: ^bb0(%[[D:.+]]: !hal.device, %[[A:.+]]: !hal.buffer, %[[B:.+]]: !hal.buffer, %[[N:.+]]: index, %[[V:.+]]: i32):
// CHECK: %[[CB:.+]] = hal.command_buffer.create device(%[[D]] : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
// CHECK: hal.command_buffer.fill_buffer<%[[CB]] : !hal.command_buffer> target(%[[B]] : !hal.buffer)[%{{.+}}, %[[N]]] pattern(%[[V]] : i32)
// CHECK: hal.return %[[CB]] : !hal.command_buffer
// CHECK-NEXT: }
// CHECK: hal.device.queue.execute.indirect<%[[DEV]] : !hal.device> wait([%{{.+}}]) signal(%{{.+}}) commands(%[[CMD]]) bindings([%{{.+}}, %{{.+}}]) uniforms([%{{.+}}, %{{.+}}] : index, i32)
// CHECK: hal.device.queue.execute.indirect<%[[DEV]] : !hal.device> wait([]) signal(%{{.+}}) commands(%{{.+}}) bindings([]){{$}}
func.func @memoize(%x: !hal.buffer, %y: !hal.buffer, %n: index, %v: i32, %ready: !hal.fence) {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 1]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer, %len: index, %pattern: i32):
    %c0 = arith.constant 0 : index
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.copy_buffer<%cb : !hal.command_buffer> source(%a : !hal.buffer)[%c0] target(%b : !hal.buffer)[%c0] length(%len)
    hal.command_buffer.execution_barrier<%cb : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Transfer") flags("None")
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %len] pattern(%pattern : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %done = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([%ready]) signal(%done) commands(%cmd) bindings([%x, %y]) uniforms([%n, %v] : index, i32)
  %empty = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  %again = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%again) commands(%empty) bindings([])
  hal.fence.await until([%done, %again])
  return
}
