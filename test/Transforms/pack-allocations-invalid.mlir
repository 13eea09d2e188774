// RUN: hal-opt %s -split-input-file --hal-pack-allocations -verify-diagnostics
// A bad strategy is rejected while the options are parsed: see
// test/Tools/hal-opt/command-line.test.

// RUN: not hal-opt %s --hal-pack-allocations=time-limit=nan 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not hal-opt %s --hal-pack-allocations=time-limit=-1 2>&1 | FileCheck %s --check-prefix=TIME

// TIME: invalid time-limit '{{.+}}' for --hal-pack-allocations: expected a number of seconds >= 0
// TIME-NOT: func.func

// A transient of 2^63-1 bytes cannot be aligned to 16 without overflowing.
func.func @aligned_size_overflows(%allocator: !hal.allocator) -> index {
  %huge = arith.constant 9223372036854775807 : index
  // expected-error @+1 {{cannot pack its static slices: buffer 0: size out of range}}
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %huge}) : index
  return %total : index
}

// -----

func.func @negative_size(%allocator: !hal.allocator) -> index {
  %c-4 = arith.constant -4 : index
  // expected-error @+1 {{slice 0 has negative size -4}}
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c-4}) : index
  return %total : index
}

// -----

// The slab is one allocation: its static part may not exceed the device's
// max_allocation_size.
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 256, min_buffer_offset_alignment = 16, max_buffer_range = 256, min_buffer_range_alignment = 16>}>]} {
func.func @slab_beyond_device(%allocator: !hal.allocator) -> index {
  %c200 = arith.constant 200 : index
  // expected-error @+1 {{packs its static slices into 416 bytes, more than the device allocates at once (max_allocation_size = 256)}}
  %total, %offsets:2 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c200, [1, 2] = %c200}) : index
  return %total : index
}
}
