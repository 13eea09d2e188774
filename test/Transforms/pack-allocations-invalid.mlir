// RUN: hal-opt %s -split-input-file --hal-pack-allocations -verify-diagnostics
// A bad strategy is rejected while the options are parsed: see
// test/Tools/hal-opt/command-line.test.

func.func @negative_size(%allocator: !hal.allocator) -> index {
  %c-4 = arith.constant -4 : index
  // expected-error @+1 {{slice 0 has negative size -4}}
  %total, %o = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c-4}) : index
  return %total : index
}
