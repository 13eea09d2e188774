// RUN: not hal-exec %s --split-input-file --skip-device-rules=allocation-size 2>&1 | FileCheck %s
// RUN: not hal-exec %s --split-input-file --skip-device-rules=allocation-size --function=fill_everything --max-memory=1048576 2>&1 | FileCheck %s --check-prefix=BUDGET

// Sizes, offsets and counts from the IR at their extremes: each is a located
// error with the right numbers (ends past INT64_MAX printed exactly, no
// signed overflow), never an abort or an allocation of what the IR asks.

// An offset of INT64_MAX: offset + length overflows int64_t.
// CHECK: offset :16:8: error: has a subspan [9223372036854775807, 9223372036854775823) outside its 16-byte buffer (of root allocation 0)
func.func @subspan_at_max() -> !hal.buffer {
  %c16 = arith.constant 16 : index
  %cmax = arith.constant 9223372036854775807 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %s = hal.buffer.subspan<%b : !hal.buffer>[%cmax, %c16] : !hal.buffer
  return %s : !hal.buffer
}

// -----

// CHECK: error: has a fill range [9223372036854775807, 9223372036854775823) outside its 16-byte buffer (of root allocation 0)
func.func @fill_at_max() -> !hal.buffer {
  %c16 = arith.constant 16 : index
  %cmax = arith.constant 9223372036854775807 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%cmax, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// CHECK: error: has a copy source range [9223372036854775807, 9223372036854775823) outside its 16-byte buffer (of root allocation 0)
func.func @copy_at_max() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %cmax = arith.constant 9223372036854775807 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%a : !hal.buffer)[%cmax] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
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
// CHECK: error: has a binding range [9223372036854775807, 9223372036854775823) outside its 16-byte buffer (of root allocation 0)
func.func @binding_at_max() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %cmax = arith.constant 9223372036854775807 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%cmax, %c16], %c1 = (%b : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// A binding [256, +INT64_MAX) of a global without contents (an endless
// stream to the executor): outside it, not an attempt to read 8 EiB.
util.global private @pool : !hal.buffer
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
// CHECK: error: has a binding range [256, 9223372036854776063) outside its 9223372036854775807-byte buffer (of root @pool)
func.func @pool_binding_past_end() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %cmax = arith.constant 9223372036854775807 : index
  %pool = util.global.load @pool : !hal.buffer
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%pool : !hal.buffer)[%c256, %cmax], %c1 = (%b : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// A view of the whole stream is fine; what a command touches must lie in
// the first 4 GiB.
util.global private @pool : !hal.buffer
// CHECK: error: has a copy source range [4294967296, 4294967312) of @pool beyond the 4 GiB the executor materializes
func.func @pool_copy_beyond_4gib() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4g = arith.constant 4294967296 : index
  %cmax = arith.constant 9223372036854775807 : index
  %pool = util.global.load @pool : !hal.buffer
  %view = hal.buffer.subspan<%pool : !hal.buffer>[%c0, %cmax] : !hal.buffer
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%view : !hal.buffer)[%c4g] target(%b : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// The flow level: a constant binding [256, +INT64_MAX) of a global.
util.global private @pool : !hal.buffer
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @cst0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK: error: byte range [256, 9223372036854776063) is outside global @pool of 9223372036854775807 bytes
func.func @flow_constant_storage_past_end(%n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<4xf32> =
      (%in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "pool", 256 : index, 9223372036854775807 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A global with contents, loaded: INT64_MAX + 16 must not wrap around to
// pass (byte ranges of hal.constant.subspan are checked by the verifier,
// those of hal.bindings by the executor).
util.global private @weights : !hal.buffer = dense<[1, 2, 3, 4]> : tensor<4xi32>
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @cst0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK: error: byte range [9223372036854775807, 9223372036854775823) is outside global @weights of 16 bytes
func.func @flow_constant_storage_at_max(%n: index) -> tensor<4xf32> {
  %w = util.global.load @weights : !hal.buffer
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<4xf32> =
      (%in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "weights", 9223372036854775807 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A start computed at run time (the verifier checks constant ones): the
// default index argument is 1, so the slice starts at INT64_MAX - 1.
// CHECK: error: is out of bounds: dim 0 covers [9223372036854775806, 9223372036854775808) of a source of extent 4
func.func @slice_at_max(%arg0: tensor<4xf32>, %n: index) -> tensor<2xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<2xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<2xf32> {
    %cmax = arith.constant 9223372036854775807 : index
    %c2 = arith.constant 2 : index
    %start = arith.subi %cmax, %in : index
    %1 = flow.tensor.slice %a[%start for %c2] : tensor<4xf32> -> tensor<2xf32>
    flow.return %1 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// A push-constant count of 2^32 - 1: refused before a value is made for
// each (the lowering refuses more than 1,024 too).
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 4294967295 : index} {
    hal.interface.binding @ret0, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK: error: dispatches an interface declaring 4294967295 push constants; the executor runs at most 1024
func.func @flow_push_constant_count(%n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<4xf32> =
      (%in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
// CHECK: error: targets an interface declaring 4294967295 push constants; the executor runs at most 1024
func.func @hal_push_constant_count() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%b : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %b : !hal.buffer
}

// -----

// CHECK: error: pushes constants [9223372036854775807, 9223372036854775808); the executor runs ordinals 0 to 1023
func.func @push_constant_ordinal(%v: i32) {
  %dev = hal.ex.shared_device : !hal.device
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(1) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(9223372036854775807) values([%v]) : i32
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  return
}

// -----

// CHECK: error: computes an offset that overflows 64 bits
func.func @offset_overflow() -> index {
  %cmax = arith.constant 9223372036854775807 : index
  %c2 = arith.constant 2 : index
  %et = arith.constant 50331680 : i32
  %enc = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %a = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %o = hal.allocator.compute_offset<%a : !hal.allocator> indices([%c2, %c2]) shape([%cmax, %cmax]) type(%et) encoding(%enc) : index
  return %o : index
}

// -----

// CHECK: error: packs a slice of 9223372036854775807 bytes; the executor places slices of 0 to 4 GiB
func.func @pack_huge_slice() -> index {
  %cmax = arith.constant 9223372036854775807 : index
  %dev = hal.ex.shared_device : !hal.device
  %a = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %t, %o = hal.allocator.pack<%a : !hal.allocator> slices({[0, 1] = %cmax}) : index
  return %t : index
}

// -----

// INT64_MIN / -1 overflows (and traps on x86).
// CHECK: error: divides -9223372036854775808 by -1, which overflows (signed)
func.func @divide_overflow() -> index {
  %min = arith.constant -9223372036854775808 : index
  %m1 = arith.constant -1 : index
  %q = arith.divsi %min, %m1 : index
  return %q : index
}

// -----

// CHECK: error: views a shape with a negative dim or a byte size that overflows 64 bits
func.func @view_overflow() -> !hal.buffer_view {
  %c16 = arith.constant 16 : index
  %cbig = arith.constant 4611686018427387904 : index
  %et = arith.constant 50331680 : i32
  %enc = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %bv = hal.buffer_view.create buffer(%b : !hal.buffer) shape([%cbig, %cbig]) type(%et) encoding(%enc) : !hal.buffer_view
  return %bv : !hal.buffer_view
}

// -----

// CHECK: error: allocates 4294967297 bytes; the executor allocates 0 to 4 GiB
func.func @allocate_past_limit() -> !hal.buffer {
  %size = arith.constant 4294967297 : index
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%size}
  return %b : !hal.buffer
}

// -----

// CHECK: error: loads global @huge of type 'tensor<4611686018427387904x4xf32>', too large for the executor (4 GiB at most)
util.global private @huge : tensor<4611686018427387904x4xf32>
func.func @huge_tensor_global() -> tensor<4611686018427387904x4xf32> {
  %0 = util.global.load @huge : tensor<4611686018427387904x4xf32>
  return %0 : tensor<4611686018427387904x4xf32>
}

// -----

// Filling all of a 4 GiB allocation writes 4 GiB: more than --max-memory
// allows, a located error before any page is made.
// BUDGET: offset :16:3: error: the fill needs 4294967296 more bytes of memory, beyond --max-memory=1048576 (0 bytes in use)
func.func @fill_everything() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4g = arith.constant 4294967296 : index
  %p = arith.constant 1 : i32
  %dev = hal.ex.shared_device : !hal.device
  %alloc = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %b = hal.allocator.allocate<%alloc : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c4g}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)[%c0, %c4g] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  %s = hal.buffer.subspan<%b : !hal.buffer>[%c0, %c16] : !hal.buffer
  return %s : !hal.buffer
}
