// RUN: hal-opt %s -split-input-file --hal-verify-command-buffers=skip-device-rules=allocation-size,fill-alignment | FileCheck %s
// RUN: hal-opt %s -split-input-file --hal-verify-command-buffers=device-rules=false | FileCheck %s
// RUN: hal-opt %s -split-input-file '--pass-pipeline=builtin.module(hal-verify-command-buffers{device-rules=false skip-device-rules=none})' | FileCheck %s
// RUN: not hal-opt %s -split-input-file --hal-verify-command-buffers=skip-device-rules=fill-alignment,bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not hal-opt %s -split-input-file --hal-verify-command-buffers=skip-device-rules=none 2>&1 | FileCheck %s --check-prefix=ALL --implicit-check-not=error:
// RUN: not hal-opt %s -split-input-file --hal-verify-command-buffers 2>&1 | FileCheck %s --check-prefix=ALL --implicit-check-not=error:

// What the device rules accept: aligned and unprovable offsets, and which
// rules each option set checks. The last two cases break rules, both
// checked by default (docs/concurrency.md).

// UNKNOWN: error: hal-verify-command-buffers: unknown device rule 'bogus' in skip-device-rules

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 32 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Aligned constant offsets through a subspan and a pack slice, a dynamic
// offset (unprovable), every declared binding bound (in a device switch's
// case, pushed before the switch), 32 push constants, a fill of whole words.
// CHECK-LABEL: func.func @obeys
func.func @obeys(%arg0: !hal.buffer, %n: index, %x: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %c64 = arith.constant 64 : index
  %c1g = arith.constant 1073741824 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %total, %o:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c64, [0, 1] = %c64}) : index
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%total}
  %big = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c1g}
  %s1 = hal.buffer.subspan<%slab : !hal.buffer>[%o#1, %c64] : !hal.buffer
  %sub = hal.buffer.subspan<%arg0 : !hal.buffer>[%c16, %c64] : !hal.buffer
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(32) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s1 : !hal.buffer)[%c0, %c4] pattern(%c0_i32 : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s1 : !hal.buffer)[%c4, %c60] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Transfer") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%s1 : !hal.buffer)[%c0, %c64], %c1 = (%sub : !hal.buffer)[%n, %c16]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(31) values([%x]) : i32
  hal.device.switch<%dev : !hal.device>
  #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
    hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
    hal.return
  }
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}

// -----

// Breaks allocation-size: checked by default.
// ALL: error: 'hal.allocator.allocate' op breaks device rule allocation-size: allocates 1073741828 bytes, more than max_allocation_size 1073741824
// CHECK-LABEL: func.func @too_large
func.func @too_large() {
  %size = arith.constant 1073741828 : index
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %buf = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%size}
  return
}

// -----

// Breaks fill-alignment: checked by default, skipped by the first RUN line.
// ALL: error: 'hal.command_buffer.fill_buffer' op breaks device rule fill-alignment: the fill length 2 is not a multiple of 4
// CHECK-LABEL: func.func @short_fill
func.func @short_fill(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c0, %c2] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
