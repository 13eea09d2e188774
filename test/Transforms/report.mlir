// RUN: hal-opt %S/../../examples/mlp.mlir --hal-report=label=flow --convert-flow-to-hal=barriers=full --canonicalize --hal-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: hal-opt %S/../../examples/mlp.mlir --flow-schedule-fragments --hal-report=label=flow --convert-flow-to-hal --canonicalize --hal-pack-allocations --canonicalize --hal-report=label=packed -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: hal-opt %s --hal-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATIC
// The README's "waves, checked, figures" command: waves before the lowering,
// the command-buffer figures after it.
// RUN: hal-opt %S/../../examples/mlp.mlir --flow-schedule-fragments --hal-report=label=flow --convert-flow-to-hal --canonicalize --hal-verify-command-buffers --hal-report=label=hal -o /dev/null 2>&1 | FileCheck %s --check-prefix=README
// README: hal-report[flow] @predict: fragments=1 waves=4 command-buffers=0
// README-NEXT: hal-report[hal] @predict: command-buffers=1 commands=5 barriers=3
// README-NOT: error

// The example before and after the lowering: the fill (256 bytes of zeros),
// the copy of the 40-byte bias row (at pool byte 18,984, not a multiple of
// the 16-byte binding alignment, so copied into aligned storage) and three
// dispatches; `full` records a barrier after each of the five commands,
// `hazard` three. The slab's size is the
// pack's total until --hal-pack-allocations; with a dynamic batch it stays
// dynamic, and so does the size of the host-visible output. Fragments and
// waves are figures of the flow level: gone after the lowering, and so not
// printed there.
// FULL: hal-report[flow] @predict: fragments=1 waves=0 command-buffers=0 commands=0 barriers=0 bytes-copied=0 bytes-filled=0 slab-bytes=0 copies=0 host-visible-bytes=0 allocated-bytes=0 allocations=0{{$}}
// FULL-NEXT: hal-report @predict: command-buffers=1 commands=5 barriers=5 bytes-copied=40 bytes-filled=256 slab-bytes=0+dynamic copies=1 host-visible-bytes=0+dynamic allocated-bytes=0+dynamic allocations=2{{$}}
// WAVES: hal-report[flow] @predict: fragments=1 waves=4 command-buffers=0
// WAVES-NEXT: hal-report[packed] @predict: command-buffers=1 commands=5 barriers=3 bytes-copied=40 bytes-filled=256 slab-bytes=0+dynamic copies=1 host-visible-bytes=0+dynamic allocated-bytes=0+dynamic allocations=2{{$}}

// A static command buffer: a local slab of 64 bytes, two copies of which
// one has a dynamic length, one fill; a second, escaping allocation is not
// a slab. Neither is host-visible. The 32-byte HostLocal (HostVisible|
// HostCoherent) staging slab is, and so is the 48-byte returned
// DeviceLocal|HostVisible output; a dynamic size is `+dynamic`.
// STATIC: hal-report @static: command-buffers=1 commands=3 barriers=1 bytes-copied=16+dynamic bytes-filled=64 slab-bytes=64 copies=2 host-visible-bytes=0 allocated-bytes=128 allocations=2{{$}}
// STATIC-NEXT: hal-report @host_visible: command-buffers=1 commands=2 barriers=0 bytes-copied=48 bytes-filled=32 slab-bytes=32 copies=1 host-visible-bytes=80 allocated-bytes=80 allocations=2{{$}}
// STATIC-NEXT: hal-report @host_visible_dynamic: command-buffers=0 commands=0 barriers=0 bytes-copied=0 bytes-filled=0 slab-bytes=0 copies=0 host-visible-bytes=16+dynamic allocated-bytes=16+dynamic allocations=2{{$}}
func.func @static(%arg0: !hal.buffer, %n: index) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%c64}
  %out = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(All) : !hal.buffer{%c64}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%slab : !hal.buffer)[%c0, %c64] pattern(%c0_i32 : i32)
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("CommandRetire|Dispatch") target("CommandIssue|Dispatch") flags("None")
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%slab : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c16] length(%n)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %out : !hal.buffer
}

func.func @host_visible(%arg0: !hal.buffer) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %staging = hal.allocator.allocate<%allocator : !hal.allocator> type(HostLocal) usage(Transfer|Mapping) : !hal.buffer{%c32}
  %out = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c48}
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%out : !hal.buffer)[%c0] length(%c48)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%staging : !hal.buffer)[%c0, %c32] pattern(%c0_i32 : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return %out : !hal.buffer
}

func.func @host_visible_dynamic(%n: index) -> (!hal.buffer, !hal.buffer) {
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %a = hal.allocator.allocate<%allocator : !hal.allocator> type(HostVisible) usage(All) : !hal.buffer{%c16}
  %b = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%n}
  return %a, %b : !hal.buffer, !hal.buffer
}
