// RUN: hal-exec %s --split-input-file --check-lowering --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=flow-schedule-fragments,convert-flow-to-hal{barriers=hazard},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{barriers=full},hal-pack-allocations{strategy=in-order},canonicalize' --orders=4
// RUN: hal-exec %s --split-input-file '--check-lowering=convert-flow-to-hal{copies=always},hal-pack-allocations,canonicalize' --orders=4
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --verify-each | FileCheck %s
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=copies=always --canonicalize | FileCheck %s --check-prefix=ALWAYS
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal=barriers=full --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --convert-flow-to-hal --canonicalize --hal-pack-allocations --canonicalize --hal-verify-command-buffers > /dev/null
// RUN: hal-opt %s -split-input-file --flow-schedule-fragments --convert-flow-to-hal --canonicalize --hal-verify-command-buffers > /dev/null

// Views instead of copies (docs/lowering.md): a contiguous slice or a clone
// shares its source's storage when no execution can tell the difference,
// and keeps its copy otherwise. With copies=always every one is a copy.
// ALWAYS-COUNT-30: func.func
// ALWAYS-NOT: func.func

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Q and K are contiguous row blocks of the fused projection, only read:
// subspans of its slab slice, and the slice stays live until both die.
// CHECK-LABEL: func.func @slices_feeding_dispatches
// CHECK: hal.allocator.pack<{{.+}}> slices({[3, 7] = %[[C192:.+]], [6, 8] = %{{.+}}})
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate
// CHECK: %[[P:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[OFF:.+]]#0, %[[C192]]]
// CHECK: hal.buffer.subspan<%[[P]] : !hal.buffer>[%[[C0:.+]], %[[C64:.+]]]
// CHECK: hal.buffer.subspan<%[[P]] : !hal.buffer>[%[[C64]], %[[C64]]]
// CHECK-NOT: copy_buffer
// CHECK: hal.command_buffer.end
func.func @slices_feeding_dispatches(%arg0: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %k = flow.tensor.slice %p[%c4_0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %y = flow.dispatch @ex::@entry[%n](%k) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %z = flow.dispatch @ex::@entry[%n](%x) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %z, %y : tensor<4x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A leading-row block is a view; a column is not contiguous: four copies.
// CHECK-LABEL: func.func @strided_slice_keeps_copies
// CHECK: %[[P:.+]] = hal.buffer.subspan<%[[SLAB:.+]] : !hal.buffer>[%[[OFF:.+]]#0, %{{.+}}]
// CHECK: hal.buffer.subspan<%[[P]] : !hal.buffer>[%{{.+}}, %[[C128:.+]]]
// CHECK-COUNT-4: copy_buffer<{{.+}}> source(%[[P]] : !hal.buffer)
// CHECK-NOT: copy_buffer
func.func @strided_slice_keeps_copies(%arg0: tensor<12x4xf32>) -> (tensor<8x4xf32>, tensor<4x1xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<8x4xf32>, tensor<4x1xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<8x4xf32>, tensor<4x1xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %s = flow.tensor.slice %p[%c0, %c0 for %c8, %c4_0] : tensor<12x4xf32> -> tensor<8x4xf32>
    %c1 = arith.constant 1 : index
    %t = flow.tensor.slice %p[%c0, %c1 for %c4_0, %c1] : tensor<12x4xf32> -> tensor<4x1xf32>
    %y = flow.dispatch @ex::@entry[%n](%t) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %x = flow.dispatch @ex::@entry[%n](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    flow.return %x, %y : tensor<8x4xf32>, tensor<4x1xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x1xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: the source is written in place (tied dispatch) before the slice
// is read, so the slice keeps its copy of the old bytes.
// CHECK-LABEL: func.func @source_written_while_slice_live
// CHECK: hal.command_buffer.copy_buffer
func.func @source_written_while_slice_live(%arg0: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%p) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<12x4xf32>) -> %p
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %y = flow.dispatch @ex::@entry[%n](%w) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    flow.return %x, %y : tensor<4x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The source is written in place only after the last read of the slice.
// CHECK-LABEL: func.func @source_written_after_slice_dies
// CHECK-DAG: %[[C192:.+]] = arith.constant 192 : index
// CHECK: %[[P:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C192]]}
// CHECK: hal.buffer.subspan<%[[P]] : !hal.buffer>[%{{.+}}, %{{.+}}]
// CHECK-NOT: copy_buffer
// CHECK: hal.command_buffer.end
func.func @source_written_after_slice_dies(%arg0: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%p) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<12x4xf32>) -> %p
    flow.return %x, %w : tensor<4x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: the slice is written in place while the source is still read.
// CHECK-LABEL: func.func @slice_written_while_source_live
// CHECK: hal.command_buffer.copy_buffer
func.func @slice_written_while_source_live(%arg0: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xf32>) -> %q
    %y = flow.dispatch @ex::@entry[%n](%p) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    flow.return %w, %y : tensor<4x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The slice is written in place after the source's last use: a view.
// CHECK-LABEL: func.func @slice_written_after_source_dies
// CHECK-NOT: copy_buffer
// CHECK: hal.command_buffer.end
func.func @slice_written_after_source_dies(%arg0: tensor<12x4xf32>) -> tensor<4x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<4x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xf32>) -> %q
    %x = flow.dispatch @ex::@entry[%n](%w) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %x : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: writing a view of an input would change the caller's buffer.
// CHECK-LABEL: func.func @slice_of_input_written
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK: hal.command_buffer.copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)
func.func @slice_of_input_written(%arg0: tensor<12x4xf32>) -> tensor<4x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<4x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %q = flow.tensor.slice %a[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xf32>) -> %q
    %x = flow.dispatch @ex::@entry[%n](%w) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %x : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A read-only slice of an input is a subspan of the input.
// CHECK-LABEL: func.func @slice_of_input_read
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK: %[[Q:.+]] = hal.buffer.subspan<%[[ARG]] : !hal.buffer>[%[[C64:.+]], %[[C64]]]
// CHECK-NOT: copy_buffer
// CHECK: bindings([%{{.+}} = (%[[Q]] : !hal.buffer)
func.func @slice_of_input_read(%arg0: tensor<12x4xf32>) -> tensor<4x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<4x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %q = flow.tensor.slice %a[%c4_0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %x : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The clone takes its dying source over: the dispatch writes the output.
// CHECK-LABEL: func.func @returned_clone_of_dying_source
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C192:.+]]}
// CHECK-NOT: hal.allocator.pack
// CHECK: bindings([{{.+}}, %{{.+}} = (%[[OUT]] : !hal.buffer)[%{{.+}}, %[[C192]]]])
// CHECK-NOT: copy_buffer
// CHECK: return %[[OUT]]
func.func @returned_clone_of_dying_source(%arg0: tensor<12x4xf32>) -> tensor<12x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<12x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<12x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %c = flow.tensor.clone %p : tensor<12x4xf32>
    flow.return %c : tensor<12x4xf32>
  }
  return %0 : tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: both results would be one buffer the caller may write.
// CHECK-LABEL: func.func @returned_clone_of_returned_source
// CHECK: %[[A:.+]] = hal.allocator.allocate
// CHECK: %[[B:.+]] = hal.allocator.allocate
// CHECK: copy_buffer<{{.+}}> source(%[[A]] : !hal.buffer)[%{{.+}}] target(%[[B]] : !hal.buffer)
// CHECK: return %[[A]], %[[B]]
func.func @returned_clone_of_returned_source(%arg0: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %c = flow.tensor.clone %p : tensor<12x4xf32>
    flow.return %p, %c : tensor<12x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<12x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The source is read after the clone but never written: the source becomes
// the returned buffer and the later read reads it too.
// CHECK-LABEL: func.func @returned_clone_of_live_source
// CHECK: %[[C:.+]] = hal.allocator.allocate
// CHECK: %[[X:.+]] = hal.allocator.allocate
// CHECK-NOT: hal.allocator.pack
// CHECK-NOT: copy_buffer
// CHECK: return %[[C]], %[[X]]
func.func @returned_clone_of_live_source(%arg0: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %c = flow.tensor.clone %p : tensor<12x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%p) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    flow.return %c, %x : tensor<12x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<12x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: a returned clone of an input would alias the caller's buffer.
// CHECK-LABEL: func.func @returned_clone_of_input
// CHECK-SAME: (%[[ARG:[^:]+]]: !hal.buffer)
// CHECK: copy_buffer<{{.+}}> source(%[[ARG]] : !hal.buffer)
func.func @returned_clone_of_input(%arg0: tensor<12x4xf32>) -> tensor<12x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<12x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<12x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c = flow.tensor.clone %a : tensor<12x4xf32>
    flow.return %c : tensor<12x4xf32>
  }
  return %0 : tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Returned slices of a dying transient: the transient becomes one output
// allocation and the disjoint row blocks are returned as subspans of it; a
// block overlapping them keeps its own output and copy, since the caller
// may write each result in place.
// CHECK-LABEL: func.func @returned_slices
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C192:.+]] = arith.constant 192 : index
// CHECK: %[[P:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C192]]}
// CHECK: %[[O:.+]] = hal.allocator.allocate<{{.+}} type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%[[C64]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: %[[Q:.+]] = hal.buffer.subspan<%[[P]] : !hal.buffer>[%[[C0]], %[[C64]]]
// CHECK: %[[K:.+]] = hal.buffer.subspan<%[[P]] : !hal.buffer>[%[[C64]], %[[C64]]]
// CHECK: copy_buffer<{{.+}}> source(%[[P]] : !hal.buffer)[%[[C32]]] target(%[[O]] : !hal.buffer)[%[[C0]]] length(%[[C64]])
// CHECK-NOT: copy_buffer
// CHECK: return %[[Q]], %[[K]], %[[O]]
func.func @returned_slices(%arg0: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:3 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4_0 = arith.constant 4 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%c0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %k = flow.tensor.slice %p[%c4_0, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %o = flow.tensor.slice %p[%c2, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    flow.return %q, %k, %o : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A clone only read while its source is read too: both read one storage.
// CHECK-LABEL: func.func @clone_read_next_to_source
// CHECK: %[[P:.+]] = hal.buffer.subspan
// CHECK-NOT: copy_buffer
// CHECK: bindings([%{{.+}} = (%[[P]] : !hal.buffer)
// CHECK: bindings([%{{.+}} = (%[[P]] : !hal.buffer)
// CHECK: bindings([%{{.+}} = (%[[P]] : !hal.buffer)
func.func @clone_read_next_to_source(%arg0: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) =
      (%n: index, %a: tensor<12x4xf32>) -> (tensor<12x4xf32>, tensor<12x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %c = flow.tensor.clone %p : tensor<12x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%c) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %y = flow.dispatch @ex::@entry[%n](%p) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    flow.return %x, %y : tensor<12x4xf32>, tensor<12x4xf32>
  }
  return %0#0, %0#1 : tensor<12x4xf32>, tensor<12x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A view of a view names the real storage at the summed offset.
// CHECK-LABEL: func.func @slice_of_slice
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK: %[[SLAB:.+]] = hal.allocator.allocate<{{.+}}> type(DeviceLocal)
// CHECK: %[[Q:.+]] = hal.buffer.subspan<%[[SLAB]] : !hal.buffer>[%[[C128]], %{{.+}}]
// CHECK-NOT: copy_buffer
// CHECK: bindings([%{{.+}} = (%[[Q]] : !hal.buffer)
func.func @slice_of_slice(%arg0: tensor<12x4xf32>) -> tensor<4x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<12x4xf32>) -> tensor<4x4xf32> =
      (%n: index, %a: tensor<12x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %h = flow.tensor.slice %p[%c4_0, %c0 for %c8, %c4_0] : tensor<12x4xf32> -> tensor<8x4xf32>
    %q = flow.tensor.slice %h[%c4_0, %c0 for %c4_0, %c4_0] : tensor<8x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %x : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A row block at a dynamic row: a subspan at the computed offset.
// CHECK-LABEL: func.func @dynamic_start_slice
// CHECK-SAME: (%{{[^:]+}}: !hal.buffer, %[[ROW:[^:]+]]: index)
// CHECK: %[[OFF:.+]] = arith.muli %[[ROW]], %{{.+}} : index
// CHECK: %[[Q:.+]] = hal.buffer.subspan<%{{.+}} : !hal.buffer>[%[[OFF]], %{{.+}}]
// CHECK-NOT: copy_buffer
// CHECK: bindings([%{{.+}} = (%[[Q]] : !hal.buffer)
func.func @dynamic_start_slice(%arg0: tensor<12x4xf32>, %row: index) -> tensor<4x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0, %row) : (index, tensor<12x4xf32>, index) -> tensor<4x4xf32> =
      (%n: index, %a: tensor<12x4xf32>, %r: index) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %p = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<12x4xf32>) -> tensor<12x4xf32>
    %q = flow.tensor.slice %p[%r, %c0 for %c4_0, %c4_0] : tensor<12x4xf32> -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%q) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %x : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
util.global private @pool : !hal.buffer
// A read-only slice of a constant is a subspan of the pool; one written in
// place gets a copy (constant storage is read-only).
// CHECK-LABEL: func.func @constant_slices
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : index
// CHECK-DAG: %[[C80:.+]] = arith.constant 80 : index
// CHECK: %[[POOL:.+]] = util.global.load @pool : !hal.buffer
// CHECK: %[[CST:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%{{.+}}, %[[C48]]]
// CHECK: %[[R:.+]] = hal.buffer.subspan<%[[POOL]] : !hal.buffer>[%[[C80]], %[[C16:.+]]]
// CHECK: copy_buffer<{{.+}}> source(%[[CST]] : !hal.buffer)[%{{.+}}] target(%{{.+}} : !hal.buffer)[%{{.+}}] length(%[[C16]])
// CHECK: bindings([%{{.+}} = (%[[R]] : !hal.buffer)
func.func @constant_slices(%n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = flow.ex.stream.fragment(%n) : (index) -> (tensor<4xf32>, tensor<4xf32>) =
      (%in: index) -> (tensor<4xf32>, tensor<4xf32>) {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %cst = hal.constant.subspan @pool[#util.byte_range<64, 48>] : tensor<12xf32>
    %r = flow.tensor.slice %cst[%c4 for %c4] : tensor<12xf32> -> tensor<4xf32>
    %w = flow.tensor.slice %cst[%c8 for %c4] : tensor<12xf32> -> tensor<4xf32>
    %x = flow.dispatch @ex::@entry[%in](%r) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    %y = flow.dispatch @ex::@entry[%in](%w) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4xf32>) -> %w
    flow.return %x, %y : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Heads computed straight into their rows of the concatenation: the
// splat initializes the target first and nothing touches it until each
// update, so each dispatch writes its row block of the output.
// CHECK-LABEL: func.func @update_sinks_concat
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK: %[[OUT:.+]] = hal.allocator.allocate<{{.+}} : !hal.buffer{%[[C128]]}
// CHECK-NOT: hal.allocator.allocate
// CHECK: %[[H1:.+]] = hal.buffer.subspan<%[[OUT]] : !hal.buffer>[%[[C0]], %[[C64]]]
// CHECK: %[[H2:.+]] = hal.buffer.subspan<%[[OUT]] : !hal.buffer>[%[[C64]], %[[C64]]]
// CHECK: fill_buffer<{{.+}}> target(%[[OUT]] : !hal.buffer)
// CHECK-NOT: copy_buffer
// CHECK: bindings([{{.+}}, %{{.+}} = (%[[H1]] : !hal.buffer)
// CHECK: bindings([{{.+}}, %{{.+}} = (%[[H2]] : !hal.buffer)
// CHECK: return %[[OUT]]
func.func @update_sinks_concat(%arg0: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> tensor<8x4xf32> =
      (%n: index, %a: tensor<4x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h1 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u1 = flow.tensor.update %h1, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %h2 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u2 = flow.tensor.update %h2, %u1[%c4_0, %c0] : tensor<4x4xf32> -> %u1 as tensor<8x4xf32>
    flow.return %u2 : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: the target is computed after the value (by a dispatch, which
// cannot move in front like a splat); computed in the box, the value would
// be overwritten by the target's dispatch.
// CHECK-LABEL: func.func @update_sink_target_initialized_after
// CHECK: hal.command_buffer.copy_buffer
func.func @update_sink_target_initialized_after(%arg0: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> tensor<8x4xf32> =
      (%n: index, %a: tensor<4x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %h = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = flow.dispatch @ex::@entry[%n]() {hal.bindings = [#hal.ex.result_buffer<"d0", 0 : index>]} : () -> tensor<8x4xf32>
    %u = flow.tensor.update %h, %t[%c4_0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: the target is read between the value's dispatch and the update;
// it would see the box early.
// CHECK-LABEL: func.func @update_sink_target_read_in_between
// CHECK: hal.command_buffer.copy_buffer
func.func @update_sink_target_read_in_between(%arg0: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) =
      (%n: index, %a: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %x = flow.dispatch @ex::@entry[%n](%t) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %u = flow.tensor.update %h, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    flow.return %u, %x : tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: after the update the target is written in place while the
// value is still read.
// CHECK-LABEL: func.func @update_sink_target_written_after
// CHECK: hal.command_buffer.copy_buffer
func.func @update_sink_target_written_after(%arg0: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) =
      (%n: index, %a: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u = flow.tensor.update %h, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%u) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<8x4xf32>) -> %u
    %x = flow.dispatch @ex::@entry[%n](%h) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %w, %x : tensor<8x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: after the update the value is written in place while the
// target is still needed (returned).
// CHECK-LABEL: func.func @update_sink_value_written_after
// CHECK: hal.command_buffer.copy_buffer
func.func @update_sink_value_written_after(%arg0: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) =
      (%n: index, %a: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u = flow.tensor.update %h, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%h) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<4x4xf32>) -> %h
    flow.return %u, %w : tensor<8x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// The second value's dispatch reads the first, already computed in rows
// 0-3 of the target; its own box is rows 4-7, which nothing touches in
// between: both are computed in place.
// CHECK-LABEL: func.func @update_sink_reads_earlier_value
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: hal.command_buffer.end
func.func @update_sink_reads_earlier_value(%arg0: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> tensor<8x4xf32> =
      (%n: index, %a: tensor<4x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h1 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u1 = flow.tensor.update %h1, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %h2 = flow.dispatch @ex::@entry[%n](%h1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u = flow.tensor.update %h2, %u1[%c4_0, %c0] : tensor<4x4xf32> -> %u1 as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound for the second value: its box (rows 2-5) overlaps rows 0-3,
// where the first value, which its dispatch reads, already lives.
// CHECK-LABEL: func.func @update_sink_overlapping_box_read
// CHECK-COUNT-1: hal.command_buffer.copy_buffer
// CHECK-NOT: hal.command_buffer.copy_buffer
func.func @update_sink_overlapping_box_read(%arg0: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> tensor<8x4xf32> =
      (%n: index, %a: tensor<4x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h1 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u1 = flow.tensor.update %h1, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %h2 = flow.dispatch @ex::@entry[%n](%h1) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u = flow.tensor.update %h2, %u1[%c2, %c0] : tensor<4x4xf32> -> %u1 as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Both values computed first, then both updates (a concatenation): the
// first update touches only rows 0-3 while the second value is pending in
// rows 4-7, so both are computed in place.
// CHECK-LABEL: func.func @update_sinks_after_all_computed
// CHECK-NOT: hal.command_buffer.copy_buffer
// CHECK: hal.command_buffer.end
func.func @update_sinks_after_all_computed(%arg0: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %c4 = arith.constant 4 : index
  %0 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<4x4xf32>) -> tensor<8x4xf32> =
      (%n: index, %a: tensor<4x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4_0 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %t = flow.tensor.splat %zero : tensor<8x4xf32>
    %h1 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %h2 = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %u1 = flow.tensor.update %h1, %t[%c0, %c0] : tensor<4x4xf32> -> %t as tensor<8x4xf32>
    %u = flow.tensor.update %h2, %u1[%c4_0, %c0] : tensor<4x4xf32> -> %u1 as tensor<8x4xf32>
    flow.return %u : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: %a and %b are one buffer (the argument is passed twice), and %b
// is read after the splat's definition: computing the splat in %a's box
// early would change what that read sees. Every fragment operand counts as
// the same storage for these rules.
// CHECK-LABEL: func.func @sink_into_operand_passed_twice
// CHECK: hal.command_buffer.copy_buffer
func.func @sink_into_operand_passed_twice(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0, %arg0) : (index, tensor<8x4xf32>, tensor<8x4xf32>) -> (%arg0, tensor<8x4xf32>) =
      (%n: index, %a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %s = flow.tensor.splat %one : tensor<4x4xf32>
    %r = flow.dispatch @ex::@entry[%n](%b) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %u = flow.tensor.update %s, %a[%c0, %c0] : tensor<4x4xf32> -> %a as tensor<8x4xf32>
    flow.return %u, %r : tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Unsound: the slice of %b is read after a tied write through %a, the same
// buffer; the slice keeps its copy of the old bytes.
// CHECK-LABEL: func.func @view_of_operand_passed_twice
// CHECK: hal.command_buffer.copy_buffer
func.func @view_of_operand_passed_twice(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:2 = flow.ex.stream.fragment(%c4, %arg0, %arg0) : (index, tensor<8x4xf32>, tensor<8x4xf32>) -> (%arg0, tensor<4x4xf32>) =
      (%n: index, %a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c4_0 = arith.constant 4 : index
    %s = flow.tensor.slice %b[%c0, %c0 for %c4_0, %c4_0] : tensor<8x4xf32> -> tensor<4x4xf32>
    %w = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"rw", 0 : index>]} : (tensor<8x4xf32>) -> %a
    %r = flow.dispatch @ex::@entry[%n](%s) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    flow.return %w, %r : tensor<8x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @s0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @d0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    hal.interface.binding @rw, set=0, binding=2, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// Empty returned slices hold no byte, so they overlap nothing: all three
// results are views of the dispatch's output (the empty ones and the rows
// 0-3 block are disjoint).
// CHECK-LABEL: func.func @empty_views
// CHECK-NOT: copy_buffer
// CHECK: hal.command_buffer.end
func.func @empty_views(%arg0: tensor<8x4xf32>) -> (tensor<0x4xf32>, tensor<0x4xf32>, tensor<4x4xf32>) {
  %c4 = arith.constant 4 : index
  %0:3 = flow.ex.stream.fragment(%c4, %arg0) : (index, tensor<8x4xf32>) -> (tensor<0x4xf32>, tensor<0x4xf32>, tensor<4x4xf32>) =
      (%n: index, %a: tensor<8x4xf32>) -> (tensor<0x4xf32>, tensor<0x4xf32>, tensor<4x4xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4_0 = arith.constant 4 : index
    %x = flow.dispatch @ex::@entry[%n](%a) {hal.bindings = [#hal.ex.operand_buffer<"s0", 0 : index>, #hal.ex.result_buffer<"d0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %b = flow.tensor.slice %x[%c2, %c0 for %c0, %c4_0] : tensor<8x4xf32> -> tensor<0x4xf32>
    %c = flow.tensor.slice %x[%c2, %c0 for %c0, %c4_0] : tensor<8x4xf32> -> tensor<0x4xf32>
    %d = flow.tensor.slice %x[%c0, %c0 for %c4_0, %c4_0] : tensor<8x4xf32> -> tensor<4x4xf32>
    flow.return %b, %c, %d : tensor<0x4xf32>, tensor<0x4xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<0x4xf32>, tensor<0x4xf32>, tensor<4x4xf32>
}

// -----

// A result returned tied to %a is computed into %a's storage (by a clone of
// %b, not an in-place op) while a clone of %a is still read: that clone
// keeps its copy, made before %a is overwritten.
// CHECK-LABEL: func.func @view_source_overwritten_by_tied_result
// CHECK-SAME: (%[[A:.+]]: !hal.buffer, %[[B:.+]]: !hal.buffer)
// CHECK: %[[OUT:.+]] = hal.allocator.allocate
// CHECK: copy_buffer<{{.+}}> source(%[[A]] : !hal.buffer)[%{{.+}}] target(%[[OUT]] : !hal.buffer)
// CHECK: execution_barrier
// CHECK-NEXT: copy_buffer<{{.+}}> source(%[[B]] : !hal.buffer)[%{{.+}}] target(%[[A]] : !hal.buffer)
// CHECK-NEXT: hal.command_buffer.end
// CHECK: return %[[A]], %[[OUT]]
func.func @view_source_overwritten_by_tied_result(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0:2 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<3xf32>, tensor<3xf32>) -> (%arg0, tensor<3xf32>) =
      (%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
    %1 = flow.tensor.clone %a : tensor<3xf32>
    %2 = flow.tensor.clone %b : tensor<3xf32>
    %3 = flow.tensor.clone %1 : tensor<3xf32>
    flow.return %2, %3 : tensor<3xf32>, tensor<3xf32>
  }
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// A clone of a clone of %a returned tied to %a: the inner clone is no view
// of %a (the outer one writes %a's storage while it is read), so no copy
// goes from %a onto itself (overlapping copies are undefined on a device).
// CHECK-LABEL: func.func @clone_of_clone_returned_tied
// CHECK-SAME: (%[[A:.+]]: !hal.buffer)
// CHECK: %[[TMP:.+]] = hal.buffer.subspan
// CHECK: copy_buffer<{{.+}}> source(%[[A]] : !hal.buffer)[%{{.+}}] target(%[[TMP]] : !hal.buffer)
// CHECK: copy_buffer<{{.+}}> source(%[[TMP]] : !hal.buffer)[%{{.+}}] target(%[[A]] : !hal.buffer)
// CHECK-NEXT: hal.command_buffer.end
func.func @clone_of_clone_returned_tied(%arg0: tensor<100xi8>) -> tensor<100xi8> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<100xi8>) -> %arg0 =
      (%a: tensor<100xi8>) -> tensor<100xi8> {
    %t = flow.tensor.clone %a : tensor<100xi8>
    %r = flow.tensor.clone %t : tensor<100xi8>
    flow.return %r : tensor<100xi8>
  }
  return %0 : tensor<100xi8>
}
