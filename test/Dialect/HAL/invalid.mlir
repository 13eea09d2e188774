// RUN: hal-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the hal dialect.

// Attributes and enums.

// expected-error @+1 {{buffer constraint alignments must be powers of two, got 12}}
func.func @constraints_alignment() attributes {c = #hal.buffer_constraints<max_allocation_size = 1024, min_buffer_offset_alignment = 12, max_buffer_range = 1024, min_buffer_range_alignment = 16>} {
  return
}

// -----

// expected-error @+1 {{buffer constraint sizes must be positive}}
func.func @constraints_size() attributes {c = #hal.buffer_constraints<max_allocation_size = 0, min_buffer_offset_alignment = 16, max_buffer_range = 1024, min_buffer_range_alignment = 16>} {
  return
}

// -----

// expected-error @+1 {{unknown descriptor type 'TexelBuffer'}}
func.func @layout_binding_type() attributes {b = #hal.descriptor_set_layout_binding<0, "TexelBuffer", R>} {
  return
}

// -----

// expected-error @+1 {{unknown access 'RWX' (expected R, W, RW, DW or MemoryAccess bits)}}
func.func @layout_binding_access() attributes {b = #hal.descriptor_set_layout_binding<0, "StorageBuffer", RWX>} {
  return
}

// -----

// expected-error @+1 {{binding ordinal must be non-negative}}
func.func @layout_binding_ordinal() attributes {b = #hal.descriptor_set_layout_binding<-1, "StorageBuffer", R>} {
  return
}

// -----

func.func @allocate_memory_type(%a: !hal.allocator, %n: index) {
  // expected-error @+1 {{invalid memory_type value 'DeviceLocal|Bogus'}}
  %b = hal.allocator.allocate<%a : !hal.allocator> type(DeviceLocal|Bogus) usage(All) : !hal.buffer{%n}
  return
}

// -----

func.func @allocate_usage(%a: !hal.allocator, %n: index) {
  // expected-error @+1 {{invalid buffer_usage value 'Everything'}}
  %b = hal.allocator.allocate<%a : !hal.allocator> type(DeviceLocal) usage(Everything) : !hal.buffer{%n}
  return
}

// -----

func.func @barrier_stage(%cmd: !hal.command_buffer) {
  // expected-error @+1 {{invalid execution_stage value 'Dispatch|Fragment'}}
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Fragment") target("CommandIssue") flags("None")
  return
}

// -----

func.func @command_buffer_mode(%dev: !hal.device) {
  // expected-error @+1 {{invalid command_buffer_mode value 'Reusable'}}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(Reusable) categories(Transfer) : !hal.command_buffer
  return
}

// -----

// expected-error @+1 {{byte range offset and length must be non-negative, got <0, -4>}}
func.func @byte_range_negative() attributes {r = #util.byte_range<0, -4>} {
  return
}

// -----
// hal.device.switch

func.func @switch_case_count(%dev: !hal.device) {
  // expected-error @+1 {{has 1 conditions but 2 regions}}
  "hal.device.switch"(%dev) ({
    hal.return
  }, {
    hal.return
  }) {conditions = [#hal.device.match.executable.format<"a">]} : (!hal.device) -> ()
  return
}

// -----

func.func @switch_no_cases(%dev: !hal.device) {
  // expected-error @+1 {{needs at least one case}}
  "hal.device.switch"(%dev) {conditions = []} : (!hal.device) -> ()
  return
}

// -----

func.func @switch_return_types(%dev: !hal.device) -> i32 {
  %r = hal.device.switch<%dev : !hal.device> -> i32
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      %c = arith.constant 1 : index
      // expected-error @+1 {{returns 1 values whose types do not match the switch results}}
      hal.return %c : index
    }
  return %r : i32
}

// -----

func.func @switch_return_count(%dev: !hal.device) -> i32 {
  %r = hal.device.switch<%dev : !hal.device> -> i32
    #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
      %c = arith.constant 1 : i32
      hal.return %c : i32
    },
    #hal.device.match.executable.format<"embedded-elf"> {
      // expected-error @+1 {{returns 0 values whose types do not match the switch results}}
      hal.return
    }
  return %r : i32
}

// -----

func.func @switch_region_arguments(%dev: !hal.device) {
  // expected-error @+1 {{region should have no arguments}}
  "hal.device.switch"(%dev) ({
  ^bb0(%x: index):
    hal.return
  }) {conditions = [#hal.device.match.executable.format<"a">]} : (!hal.device) -> ()
  return
}

// -----

func.func @switch_empty_block(%dev: !hal.device) {
  // expected-error @+1 {{empty block: expect at least a terminator}}
  "hal.device.switch"(%dev) ({
  ^bb0:
  }) {conditions = [#hal.device.match.executable.format<"a">]} : (!hal.device) -> ()
  return
}

// -----

func.func @switch_no_terminator(%dev: !hal.device) {
  "hal.device.switch"(%dev) ({
    // expected-error @+1 {{block with no terminator}}
    %c = arith.constant 1 : index
  }) {conditions = [#hal.device.match.executable.format<"a">]} : (!hal.device) -> ()
  return
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{expects parent op to be one of 'hal.device.switch, hal.executable.entry_point, hal.device.memoize'}}
  hal.return
}

// -----
// hal.allocator.pack

func.func @pack_interval_count(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{needs two lifetime integers per slice: 1 integers for 1 slice sizes}}
  %0:2 = "hal.allocator.pack"(%a, %s) <{lifetime_intervals = [0 : index], operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hal.allocator, index) -> (index, index)
  return
}

// -----

func.func @pack_size_count(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{needs two lifetime integers per slice: 4 integers for 1 slice sizes}}
  %0:2 = "hal.allocator.pack"(%a, %s) <{lifetime_intervals = [0 : index, 1 : index, 2 : index, 3 : index], operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hal.allocator, index) -> (index, index)
  return
}

// -----

func.func @pack_interval_type(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{attribute 'lifetime_intervals' failed to satisfy constraint: index array}}
  %0:2 = "hal.allocator.pack"(%a, %s) <{lifetime_intervals = [0, 1], operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hal.allocator, index) -> (index, index)
  return
}

// -----

func.func @pack_start_after_end(%a: !hal.allocator, %s0: index, %s1: index) {
  // expected-error @+1 {{slice 1 has lifetime [3, 2] whose start is after its end}}
  %t, %o:2 = hal.allocator.pack<%a : !hal.allocator> slices({[0, 4] = %s0, [3, 2] = %s1}) : index
  return
}

// -----

func.func @pack_result_count(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{must have one result per slice plus the total length: 3 results for 1 slices}}
  %0:3 = "hal.allocator.pack"(%a, %s) <{lifetime_intervals = [0 : index, 1 : index], operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hal.allocator, index) -> (index, index, index)
  return
}

// -----

func.func @pack_result_binding(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{operation defines 2 results but was provided 3 to bind}}
  %t, %o:2 = hal.allocator.pack<%a : !hal.allocator> slices({[0, 1] = %s}) : index
  return
}

// -----

func.func @pack_missing_size(%a: !hal.allocator, %s: index) {
  // expected-error @+1 {{expected SSA operand}}
  %t, %o = hal.allocator.pack<%a : !hal.allocator> slices({[0, 1] = }) : index
  return
}

// -----
// Other allocator and buffer ops.

func.func @compute_offset_rank(%a: !hal.allocator, %i: index, %et: i32, %enc: i32) {
  // expected-error @+1 {{has 1 indices for a shape of rank 2}}
  %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%i]) shape([%i, %i]) type(%et) encoding(%enc) : index
  return
}

// -----

func.func @buffer_view_dim(%bv: !hal.buffer_view) {
  // expected-error @+1 {{dimension index must be non-negative}}
  %d = hal.buffer_view.dim<%bv : !hal.buffer_view>[-1] : index
  return
}

// -----

func.func @buffer_load_type(%b: !hal.buffer, %o: index) {
  // expected-error @+1 {{result #0 must be signless integer or floating-point}}
  %x = hal.buffer.load<%b : !hal.buffer>[%o] : index
  return
}

// -----

func.func @push_constants_offset(%cmd: !hal.command_buffer, %l: !hal.executable_layout, %x: i32) {
  // expected-error @+1 {{push constant offset must be non-negative}}
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%l : !hal.executable_layout) offset(-1) values([%x]) : i32
  return
}

// -----
// hal.tensor.cast and hal.constant.subspan

func.func @tensor_cast_types(%t: tensor<4xf32>) {
  // expected-error @+1 {{casts between a !hal.buffer_view and a ranked tensor, not 'tensor<4xf32>' -> 'tensor<4xf32>'}}
  %0 = hal.tensor.cast %t : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @tensor_cast_target_dims(%bv: !hal.buffer_view) {
  // expected-error @+1 {{target dims count mismatch: the target types have 1 dynamic dimensions but 0 dims were given}}
  %0 = hal.tensor.cast %bv : !hal.buffer_view -> tensor<?xf32>
  return
}

// -----

func.func @tensor_cast_source_dims(%t: tensor<?x?xf32>, %n: index) {
  // expected-error @+1 {{source dims count mismatch: the source types have 2 dynamic dimensions but 1 dims were given}}
  %0 = hal.tensor.cast %t : tensor<?x?xf32>{%n} -> !hal.buffer_view
  return
}

// -----

func.func @constant_subspan_missing() {
  // expected-error @+1 {{references undefined global @pool}}
  %0 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<8xi32>
  return
}

// -----

util.global private @pool : tensor<8xi32>
func.func @constant_subspan_not_buffer() {
  // expected-error @+1 {{references global @pool of type 'tensor<8xi32>' but needs a !hal.buffer}}
  %0 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<8xi32>
  return
}

// -----

util.global private @pool : !hal.buffer
func.func @constant_subspan_too_small() {
  // expected-error @+1 {{result type 'tensor<9xi32>' (36 bytes) does not fit in the 32-byte range}}
  %0 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<9xi32>
  return
}

// -----

util.global private @pool : !hal.buffer
func.func @constant_subspan_dims() {
  // expected-error @+1 {{result dims count mismatch}}
  %0 = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<?xi32>
  return
}

// -----

util.global private @pool : !hal.buffer
func.func @constant_subspan_negative() {
  // expected-error @+1 {{byte range offset and length must be non-negative, got <-8, 32>}}
  %0 = hal.constant.subspan @pool[#util.byte_range<-8, 32>] : tensor<8xi32>
  return
}

// -----
// Layouts.

func.func @layout_push_constants(%dev: !hal.device) {
  // expected-error @+1 {{push constant count must be non-negative}}
  %l = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(-1) layouts([]) : !hal.executable_layout
  return
}

// -----

func.func @layout_not_nested(%dev: !hal.device) {
  // expected-error @+1 {{layouts must be a list of lists of #hal.descriptor_set_layout_binding}}
  %l = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>]) : !hal.executable_layout
  return
}

// -----

func.func @layout_entry(%dev: !hal.device) {
  // expected-error @+1 {{layout entry 1 : i64 is not a #hal.descriptor_set_layout_binding}}
  %l = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[1]]) : !hal.executable_layout
  return
}

// -----
// Executables.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    // expected-error @+1 {{duplicates set=0, binding=0}}
    hal.interface.binding @arg1, set=0, binding=0, type="StorageBuffer", access="Read"
  }
}

// -----

// The interface's duplicate check runs after its bindings verified, so a
// binding without `set` is reported, not read.
"hal.executable"() <{sym_name = "ex"}> ({
  "hal.interface"() <{sym_name = "io"}> ({
    // expected-error @+1 {{requires attribute 'set'}}
    "hal.interface.binding"() <{access = #hal.memory_access<Read>, binding = 1 : index, sym_name = "arg0", type = #hal.descriptor_type<StorageBuffer>}> : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

// The largest set and binding are ordinary keys of the duplicate check.
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=9223372036854775807, binding=9223372036854775807, type="StorageBuffer", access="Read"
    // expected-error @+1 {{duplicates set=9223372036854775807, binding=9223372036854775807}}
    hal.interface.binding @arg1, set=9223372036854775807, binding=9223372036854775807, type="StorageBuffer", access="Read"
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
    // expected-error @+1 {{set and binding must be non-negative}}
    hal.interface.binding @arg0, set=-1, binding=0, type="StorageBuffer", access="Read"
  }
}

// -----

hal.executable private @ex {
  // expected-error @+1 {{push_constants must be non-negative}}
  hal.interface @io attributes {push_constants = -1 : index} {
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
    // expected-error @+1 {{invalid memory_access value 'Read|Execute'}}
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Execute"
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{interface @missing is not a hal.interface of the executable}}
    hal.executable.entry_point @entry attributes {interface = @missing, ordinal = 0 : index}
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{workgroup count region must return exactly three index values (x, y, z), got 2}}
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index):
      hal.return %x, %x : index, index
    }
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{workgroup count region must return exactly three index values (x, y, z), got 3}}
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index):
      %c = arith.constant 1 : i32
      hal.return %x, %x, %c : index, index, i32
    }
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{workgroup count region arguments must be index values, got 'i32'}}
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index, %y: i32):
      hal.return %x, %x, %x : index, index, index
    }
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{workgroup count region must take the workload as at least one index argument}}
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
      %c = arith.constant 1 : index
      hal.return %c, %c, %c : index, index, index
    }
  }
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_symbol_missing(%cmd: !hal.command_buffer, %c: index) {
  // expected-error @+1 {{target @ex::@vmvx::@missing is not a hal.executable.entry_point}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@missing) workgroups([%c, %c, %c])
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
}
func.func @dispatch_symbol_not_entry_point(%cmd: !hal.command_buffer, %c: index) {
  // expected-error @+1 {{target @ex::@io is not a hal.executable.entry_point}}
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@io) workgroups([%c, %c, %c])
  return
}

// -----

// expected-error @+1 {{'hal.interface' op expects parent op 'hal.executable'}}
hal.interface @io {
}

// -----

hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    // expected-error @+1 {{ordinal must be non-negative}}
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = -1 : index}
    builtin.module {}
  }
}

// -----
// Dispatch binding attributes.

// expected-error @+1 {{binding operand index must be an integer of at least one bit, got 0 : i0}}
func.func @binding_zero_width() attributes {b = #hal.ex.operand_buffer<"arg0", 0 : i0>} {
  return
}

// -----

// expected-error @+1 {{binding result index must be an integer of at least one bit, got 0 : i0}}
func.func @binding_zero_width() attributes {b = #hal.ex.result_buffer<"ret0", 0 : i0>} {
  return
}

// -----

// expected-error @+1 {{binding push constant ordinal must be an integer of at least one bit, got 0 : i0}}
func.func @binding_zero_width() attributes {b = #hal.ex.push_constant<0 : i0, 0 : index>} {
  return
}

// -----

// expected-error @+1 {{binding length must be an integer of at least one bit, got 0 : i0}}
func.func @binding_zero_width() attributes {b = #hal.ex.constant_storage<"arg0", "pool", 0 : index, 0 : i0>} {
  return
}

// -----

// Fences and queue submission (async.md).

func.func @fence_signalled_twice(%cmd: !hal.command_buffer) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{'hal.fence.create' op is signalled by 2 submissions; a fence is signalled once}}
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f) commands([%cmd])
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f) commands([])
  return
}

// -----

func.func @execute_waits_on_own_signal(%cmd: !hal.command_buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.execute' op waits on the fence it signals; it would never start}}
  hal.device.queue.execute<%dev : !hal.device> wait([%f]) signal(%f) commands([%cmd])
  return
}

// -----

func.func @execute_signals_join(%cmd: !hal.command_buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %a = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %j = hal.fence.join at([%a]) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.execute' op signals a joined fence; a join is signalled by the fences it joins}}
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%j) commands([%cmd])
  return
}

// -----

func.func @execute_same_command_buffer_twice(%cmd: !hal.command_buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.execute' op submits command buffer 1 twice; a one-shot command buffer runs once}}
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f) commands([%cmd, %cmd])
  return
}

// -----

func.func @join_of_nothing() {
  // expected-error @+1 {{'hal.fence.join' op joins no fence}}
  %j = hal.fence.join at([]) : !hal.fence
  return
}

// -----

func.func @await_nothing() {
  // expected-error @+1 {{'hal.fence.await' op awaits no fence}}
  hal.fence.await until([])
  return
}

// -----

func.func @fence_signalled_by_alloca_and_execute(%cmd: !hal.command_buffer, %n: index) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{'hal.fence.create' op is signalled by 2 submissions; a fence is signalled once}}
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %buf = hal.device.queue.alloca<%dev> wait([]) signal(%f) type(DeviceLocal) usage(All) : !hal.buffer{%n}
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f) commands([%cmd])
  return
}

// -----

func.func @alloca_waits_on_own_signal(%n: index) {
  %dev = hal.ex.shared_device : !hal.device
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.alloca' op waits on the fence it signals; it would never start}}
  %buf = hal.device.queue.alloca<%dev> wait([%f]) signal(%f) type(DeviceLocal) usage(All) : !hal.buffer{%n}
  return
}

// -----

func.func @dealloca_signals_join(%n: index) {
  %dev = hal.ex.shared_device : !hal.device
  %a = hal.fence.create device(%dev : !hal.device) : !hal.fence
  %buf = hal.device.queue.alloca<%dev> wait([]) signal(%a) type(DeviceLocal) usage(All) : !hal.buffer{%n}
  %j = hal.fence.join at([%a]) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.dealloca' op signals a joined fence; a join is signalled by the fences it joins}}
  hal.device.queue.dealloca<%dev> wait([%a]) signal(%j) buffer(%buf : !hal.buffer)
  return
}

// -----

func.func @dealloca_of_other_buffer(%b: !hal.buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{'hal.device.queue.dealloca' op releases a buffer that hal.device.queue.alloca did not allocate}}
  hal.device.queue.dealloca<%dev> wait([]) signal(%f) buffer(%b : !hal.buffer)
  return
}

// -----

func.func @memoize_negative_class() {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{has a negative slot alias class}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([-1]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_slot_not_buffer() {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{slot argument 1 is not a !hal.buffer}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %n: index):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_missing_device() {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{body must take the device and then 1 !hal.buffer slot arguments}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%a: !hal.buffer, %d: !hal.device):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_bad_uniform() {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{uniform argument 0 is neither index nor i32}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %f: f32):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_returns_nothing() {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{body must return one command buffer}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    hal.return
  }
  return
}

// -----

func.func @memoize_returns_outer(%outer: !hal.command_buffer) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-error @+1 {{body must return a command buffer it creates}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %n: index):
    %sw = hal.device.switch<%d : !hal.device> -> !hal.command_buffer
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
        hal.return %cb : !hal.command_buffer
      }
    hal.return %sw : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_one_shot() {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    // expected-error @+1 {{creates a one-shot command buffer in a hal.device.memoize; a memoized command buffer is replayed}}
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_host_arithmetic() {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %n: index):
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    // expected-error @+1 {{cannot be memoized: a memoized recording holds only commands, device switches, layouts and constants}}
    %twice = arith.addi %n, %n : index
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%a : !hal.buffer)[%c0, %twice] pattern(%c0_i32 : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @memoize_captures(%outer: !hal.buffer) {
  %dev = hal.ex.shared_device : !hal.device
  // expected-note @+1 {{required by region isolation constraints}}
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c0_i32 = arith.constant 0 : i32
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.command_buffer.begin<%cb : !hal.command_buffer>
    // expected-error @+1 {{using value defined outside the region}}
    hal.command_buffer.fill_buffer<%cb : !hal.command_buffer> target(%outer : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
    hal.command_buffer.end<%cb : !hal.command_buffer>
    hal.return %cb : !hal.command_buffer
  }
  return
}

// -----

func.func @indirect_slot_count(%x: !hal.buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0, 0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %b: !hal.buffer):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{binds 1 buffers to a command buffer with 2 slots}}
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%x])
  return
}

// -----

func.func @indirect_uniform_count(%x: !hal.buffer, %n: index) {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{supplies 1 uniforms to a command buffer that reads 0}}
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%x]) uniforms([%n] : index)
  return
}

// -----

func.func @indirect_uniform_type(%x: !hal.buffer, %v: i32) {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer, %n: index):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{uniform 0 has type 'i32'; the recording reads 'index'}}
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([]) signal(%f) commands(%cmd) bindings([%x]) uniforms([%v] : i32)
  return
}

// -----

func.func @indirect_waits_own_signal(%x: !hal.buffer) {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([0]) : !hal.command_buffer {
  ^bb0(%d: !hal.device, %a: !hal.buffer):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{waits on the fence it signals; it would never start}}
  hal.device.queue.execute.indirect<%dev : !hal.device> wait([%f]) signal(%f) commands(%cmd) bindings([%x])
  return
}

// -----

func.func @execute_memoized_directly() {
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.device.memoize<%dev : !hal.device> slots([]) : !hal.command_buffer {
  ^bb0(%d: !hal.device):
    %cb = hal.command_buffer.create device(%d : !hal.device) mode(None) categories(Transfer) : !hal.command_buffer
    hal.return %cb : !hal.command_buffer
  }
  %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
  // expected-error @+1 {{submits command buffer 0, a memoized one, without its bindings; submit it with hal.device.queue.execute.indirect}}
  hal.device.queue.execute<%dev : !hal.device> wait([]) signal(%f) commands([%cmd])
  return
}
