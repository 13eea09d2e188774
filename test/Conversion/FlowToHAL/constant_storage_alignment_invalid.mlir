// RUN: hal-opt %s -split-input-file --streamhal-lower-to-hal -verify-diagnostics

// Misaligned constant storage that cannot be read as a constant subspan
// (flow-read-misaligned-constant-storage leaves it): the fragment check
// reports it at the dispatch, as without the pass; and a range too large
// for the device is refused at the dispatch that binds it.

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
util.global private @scalar : i32
func.func @not_a_buffer() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{names constant storage @scalar that is not a !hal.buffer global}}
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "scalar", 8 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

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
func.func @missing_global() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{names constant storage @nope that is not a !hal.buffer global}}
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "nope", 8 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

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
util.global private @pool : !hal.buffer
func.func @copy_too_large() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{more than the device allocates at once (max_allocation_size = 1073741824)}}
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "pool", 8 : index, 4611686018427387904 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
