// RUN: hal-opt %s -split-input-file --flow-materialize-copy-on-write --convert-flow-to-hal-patterns -verify-diagnostics
// RUN: not hal-opt %s -split-input-file --convert-flow-to-hal-patterns 2>&1 | FileCheck %s --check-prefix=NO-COW
// NO-COW: error: convert-flow-to-hal-patterns lowers a module after copy on write: run flow-materialize-copy-on-write first

// One case per error of lowering.md's "Errors" list. Errors the dialect
// verifiers already catch (missing callee, binding indices) are reported with
// the verifier's message; the others are lowering errors, located at the op
// at fault.

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @missing_executable(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{callee executable @nope not found}}
    %1 = flow.dispatch @nope::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @missing_entry_point(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{entry point @ex::@nope not found in any variant of @ex}}
    %1 = flow.dispatch @ex::@nope[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
  hal.executable.variant @other, target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> {
    hal.executable.entry_point @different attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @variant_without_entry_point(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{variant @other of executable @ex has no entry point @entry}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @bindings_missing(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{is missing its hal.bindings attribute}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @bindings_not_array(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{has a malformed hal.bindings attribute: expected an array of #hal.ex.* bindings}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = "arg0"} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @bindings_bad_entry(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{has a malformed hal.bindings entry 42 : i64: expected #hal.ex.* bindings}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, 42]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @unknown_binding(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{names unknown binding @nope of interface @io}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"nope", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @unknown_operand(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{references operand 3 but the op has 1 operands}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 3 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @unknown_result(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{references result 1 but the op has 1 results}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 1 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @push_constant_ordinal(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{push constant ordinal 1 is beyond the 1 push constants of interface @io}}
    %1 = flow.dispatch @ex::@entry[%c1](%a, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<1 : index, 1 : index>]} : (tensor<4xf32>, index) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @push_constant_type(%arg0: tensor<4xf32>, %f: f32) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %f) : (tensor<4xf32>, f32) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %if: f32) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{push constant operand 1 has type 'f32' but push constants take index or i32 values}}
    %1 = flow.dispatch @ex::@entry[%c1](%a, %if) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<4xf32>, f32) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Elements wider than 8 bytes have no lowering.
func.func @splat_i128(%v: i128) -> tensor<4xi128> {
  %0 = flow.ex.stream.fragment(%v) : (i128) -> tensor<4xi128> =
      (%iv: i128) -> tensor<4xi128> {
    // expected-error @+1 {{splats 'i128' values, but fills take a 32-bit pattern: only 8-, 16-, 32- and 64-bit elements (and complex<f32>) are supported}}
    %1 = flow.tensor.splat %iv : tensor<4xi128>
    flow.return %1 : tensor<4xi128>
  }
  return %0 : tensor<4xi128>
}

// -----

// A runtime complex value cannot be split into its parts; complex tensors
// have no HAL element type encoding either.
func.func @splat_complex_value(%v: complex<f32>) -> tensor<4xcomplex<f32>> {
  %0 = flow.ex.stream.fragment(%v) : (complex<f32>) -> tensor<4xcomplex<f32>> =
      (%iv: complex<f32>) -> tensor<4xcomplex<f32>> {
    // expected-error @+2 {{splats a 'complex<f32>' value that is not a constant: only constant complex splats can be lowered}}
    // expected-error @+1 {{has a tensor of element type 'complex<f32>' which has no HAL element type encoding}}
    %1 = flow.tensor.splat %iv : tensor<4xcomplex<f32>>
    flow.return %1 : tensor<4xcomplex<f32>>
  }
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @noncontiguous_dynamic_slice(%arg0: tensor<?x8xf32>, %n: index, %o: index) -> tensor<2x4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n, %o) : (tensor<?x8xf32>{%n}, index, index) -> tensor<2x4xf32> =
      (%a: tensor<?x8xf32>, %in: index, %io: index) -> tensor<2x4xf32> {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{copies a non-contiguous box of 'tensor<?x8xf32>' whose shape is dynamic (dimension 0)}}
    %1 = flow.tensor.slice %a[%io, %c2 for %c2, %c4] : tensor<?x8xf32>{%in} -> tensor<2x4xf32>
    flow.return %1 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @out_of_bounds_update(%arg0: tensor<5x1x10xf32>, %arg1: tensor<1x1x10xf32>) -> tensor<5x1x10xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %arg1) : (tensor<5x1x10xf32>, tensor<1x1x10xf32>) -> %arg0 =
      (%a: tensor<5x1x10xf32>, %u: tensor<1x1x10xf32>) -> tensor<5x1x10xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{out of bounds}}
    %1 = flow.tensor.update %u, %a[%c4, %c1, %c1] : tensor<1x1x10xf32> -> %a as tensor<5x1x10xf32>
    flow.return %1 : tensor<5x1x10xf32>
  }
  return %0 : tensor<5x1x10xf32>
}

// -----

func.func @unexpected_op(%arg0: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0, %n) : (tensor<4xf32>, index) -> tensor<4xf32> =
      (%a: tensor<4xf32>, %in: index) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{unexpected op in stream fragment}}
    %w = arith.addi %in, %c1 : index
    %1 = flow.tensor.clone %a : tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @outside_fragment(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{can only be lowered inside a flow.ex.stream.fragment}}
  %0 = flow.tensor.clone %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
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
util.global private @notbuffer : tensor<4xf32>
func.func @constant_storage_not_buffer(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{names constant storage @notbuffer that is not a !hal.buffer global}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.constant_storage<"ret0", "notbuffer", 0 : index, 16 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @no_encoding(%arg0: tensor<4xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{'flow.ex.stream.fragment' op has a tensor of element type 'index' which has no HAL element type encoding}}
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xindex>) -> tensor<4xindex> =
      (%a: tensor<4xindex>) -> tensor<4xindex> {
    // expected-error @+1 {{'flow.tensor.clone' op has a tensor of element type 'index' which has no HAL element type encoding}}
    %1 = flow.tensor.clone %a : tensor<4xindex>
    flow.return %1 : tensor<4xindex>
  }
  return %0 : tensor<4xindex>
}

// -----

func.func @too_many_runs(%arg0: tensor<70000x2xi8>) -> tensor<70000x1xi8> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<70000x2xi8>) -> tensor<70000x1xi8> =
      (%a: tensor<70000x2xi8>) -> tensor<70000x1xi8> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c70000 = arith.constant 70000 : index
    // expected-error @+1 {{would need 70000 separate copies for a non-contiguous box of 'tensor<70000x2xi8>' (the limit is 65536)}}
    %1 = flow.tensor.slice %a[%c0, %c0 for %c70000, %c1] : tensor<70000x2xi8> -> tensor<70000x1xi8>
    flow.return %1 : tensor<70000x1xi8>
  }
  return %0 : tensor<70000x1xi8>
}

// -----

util.global private @pool : !hal.buffer
func.func @dynamic_constant(%n: index) -> tensor<?xi32> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<?xi32>{%n} =
      (%in: index) -> tensor<?xi32> {
    // expected-error @+1 {{result dims count mismatch}}
    %cst = hal.constant.subspan @pool[#util.byte_range<0, 32>] : tensor<?xi32>
    flow.return %cst : tensor<?xi32>
  }
  return %0 : tensor<?xi32>
}

// -----

func.func @load_in_fragment(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xi32>) -> tensor<4xi32> =
      (%a: tensor<4xi32>) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'flow.tensor.load' op is an unexpected op in stream fragment: 'flow.tensor.load' cannot be recorded}}
    %v = flow.tensor.load %a[%c0] : tensor<4xi32>
    // expected-error @+1 {{uses scalar operand 0 that is neither a fragment argument nor a constant}}
    %1 = flow.tensor.splat %v : tensor<4xi32>
    flow.return %1 : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @dispatch_outside(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'flow.dispatch' op can only be lowered inside a flow.ex.stream.fragment}}
  %1 = flow.dispatch @ex::@entry[%c1](%arg0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %arg0
  return %1 : tensor<4xf32>
}

// -----

func.func @unranked(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has an unranked tensor 'tensor<*xf32>' that cannot be given storage}}
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<*xf32>) -> tensor<*xf32> =
      (%a: tensor<*xf32>) -> tensor<*xf32> {
    flow.return %a : tensor<*xf32>
  }
  return %0 : tensor<*xf32>
}

// -----

// A static tensor whose byte size does not fit in 64 bits.
func.func @byte_size_overflow(%arg0: tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> {
  // expected-error @+1 {{'flow.ex.stream.fragment' op has a tensor 'tensor<4611686018427387904x4xf32>' whose byte size does not fit in 64 bits}}
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> =
      (%a: tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> {
    // expected-error @+1 {{has a tensor 'tensor<4611686018427387904x4xf32>' whose byte size does not fit in 64 bits}}
    %1 = flow.tensor.clone %a : tensor<4611686018427387904x4xf32>
    flow.return %1 : tensor<4611686018427387904x4xf32>
  }
  return %0 : tensor<4611686018427387904x4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 4294967296 : index} {
    hal.interface.binding @ret0, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @too_many_push_constants() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{interface @io declares 4294967296 push constants; devices guarantee at most 32 (128 bytes)}}
    %1 = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 33 : index} {
    hal.interface.binding @ret0, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @push_constants_beyond_device() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    // A device guarantees 128 bytes of push constants: 33 values are too many.
    // expected-error @+1 {{interface @io declares 33 push constants; devices guarantee at most 32 (128 bytes)}}
    %1 = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @ret0, set=100000000000, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @descriptor_set_too_large() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{interface binding @ret0 of @io is in descriptor set 100000000000; sets 0 to 63 can be recorded}}
    %1 = flow.dispatch @ex::@entry[%c4]() {hal.bindings = [#hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @ret0, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// A wide ordinal of 2^64 is not ordinal 0.
func.func @wide_push_constant_ordinal(%n: index) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<4xf32> = (%in: index) -> tensor<4xf32> {
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{push constant ordinal 18446744073709551616 is beyond the 1 push constants of interface @io}}
    %1 = flow.dispatch @ex::@entry[%c4](%in) {hal.bindings = [#hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<18446744073709551616 : i128, 0 : index>]} : (index) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A tensor constant inside a fragment would get storage nobody fills.
func.func @tensor_constant_in_fragment() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    // expected-error @+1 {{defines a 'tensor<4xf32>' constant inside a stream fragment}}
    %t = arith.constant dense<1.0> : tensor<4xf32>
    %1 = flow.tensor.clone %t : tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @tensor_constant_outside_fragment() -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op uses tensors outside a flow.ex.stream.fragment}}
  %t = arith.constant dense<1.0> : tensor<4xf32>
  %0 = flow.ex.stream.fragment(%t) : (tensor<4xf32>) -> tensor<4xf32> = (%a: tensor<4xf32>) -> tensor<4xf32> {
    %1 = flow.tensor.clone %a : tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// One diagnostic, reported before the conversion starts.
func.func @load_without_encoding(%t: tensor<4xindex>, %i: index) -> index {
  // expected-error @+1 {{'flow.tensor.load' op uses element type 'index' which has no HAL element type encoding}}
  %x = flow.tensor.load %t[%i] : tensor<4xindex>
  return %x : index
}

// -----

// A device allocates at most max_allocation_size bytes at once: a 1 KiB
// value cannot be made under a 512-byte limit.
module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 512, min_buffer_offset_alignment = 16, max_buffer_range = 512, min_buffer_range_alignment = 16>}>]} {
func.func @allocation_beyond_device() -> tensor<256xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<256xf32> = () -> tensor<256xf32> {
    %cst = arith.constant 1.0 : f32
    // expected-error @+1 {{makes a 'tensor<256xf32>' of 1024 bytes, more than the device allocates at once (max_allocation_size = 512)}}
    %1 = flow.tensor.splat %cst : tensor<256xf32>
    flow.return %1 : tensor<256xf32>
  }
  return %0 : tensor<256xf32>
}
}

// -----

// The interface is the ABI of a variant's kernels: a dispatch binds every
// binding of it (another variant stands for an opaque executable, and may be
// bound in part: dispatch.mlir).
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 0 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
    // expected-note @+1 {{the interface binding}}
    hal.interface.binding @scratch, set=1, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {}
    }
  }
}
func.func @binding_left_unbound(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%a: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{leaves binding @scratch (set 1, binding 0) of interface @io unbound: hal.bindings must bind every binding the interface of @ex::@entry declares}}
    %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [
        #hal.ex.operand_buffer<"arg0", 0 : index>,
        #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A constant storage binding at a pool offset the module's devices cannot
// bind (64 is a multiple of 16, not of 256).
module attributes {hal.device.targets = [#hal.device.target<"vulkan", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 256, max_buffer_range = 134217728, min_buffer_range_alignment = 16>}>]} {
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
func.func @constant_storage_misaligned() -> tensor<4xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{binds constant storage @pool at pool offset 64, not a multiple of the binding offset alignment 256 (min_buffer_offset_alignment)}}
    %1 = flow.dispatch @ex::@entry[%c1]() {hal.bindings = [#hal.ex.constant_storage<"cst0", "pool", 64 : index, 16 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : () -> tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
}
