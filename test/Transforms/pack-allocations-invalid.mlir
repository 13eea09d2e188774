// RUN: hal-opt %s -split-input-file --hal-pack-allocations -verify-diagnostics
// RUN: not hal-opt %s --hal-pack-allocations=strategy=best 2>&1 | FileCheck %s --check-prefix=STRATEGY

// STRATEGY: unknown packing strategy 'best' (expected in-order, greedy or optimal)

func.func @negative_size(%allocator: !hal.allocator) -> index {
  %c-4 = arith.constant -4 : index
  // expected-error @+1 {{slice 0 has negative size -4}}
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c-4}) : index
  return %total : index
}
