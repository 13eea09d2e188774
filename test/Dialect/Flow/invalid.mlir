// RUN: hal-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the flow dialect.

func.func @splat_dims_missing(%v: f32) {
  // expected-error @+1 {{result dims count mismatch: the result types have 1 dynamic dimensions but 0 dims were given}}
  %0 = flow.tensor.splat %v : tensor<?x4xf32>
  return
}

// -----

func.func @splat_dims_extra(%v: f32, %n: index) {
  // expected-error @+1 {{result dims count mismatch: the result types have 0 dynamic dimensions but 1 dims were given}}
  %0 = flow.tensor.splat %v : tensor<4xf32>{%n}
  return
}

// -----

func.func @splat_value_type(%v: i32) {
  // expected-error @+1 {{value type matches the element type of the result}}
  %0 = "flow.tensor.splat"(%v) : (i32) -> tensor<4xf32>
  return
}

// -----

func.func @clone_dims(%t: tensor<?x?xf32>, %n: index) {
  // expected-error @+1 {{operand dims count mismatch: the operand types have 2 dynamic dimensions but 1 dims were given}}
  %0 = flow.tensor.clone %t : tensor<?x?xf32>{%n}
  return
}

// -----

func.func @slice_source_dims(%t: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{source dims count mismatch}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %c1, %c1] : tensor<?x4xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @slice_result_dims(%t: tensor<8x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result dims count mismatch}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %n, %c1] : tensor<8x4xf32> -> tensor<?x1xf32>
  return
}

// -----

func.func @slice_start_count(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has 1 start indices but 'tensor<8x4xf32>' has rank 2}}
  %0 = flow.tensor.slice %t[%c0 for %c1, %c1] : tensor<8x4xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @slice_length_count(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has 3 lengths but 'tensor<8x4xf32>' has rank 2}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %c1, %c1, %c1] : tensor<8x4xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @slice_rank(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result rank 1 does not match source rank 2}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %c1, %c1] : tensor<8x4xf32> -> tensor<1xf32>
  return
}

// -----

func.func @slice_element_type(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result element type 'f16' does not match source element type 'f32'}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %c1, %c1] : tensor<8x4xf32> -> tensor<1x1xf16>
  return
}

// -----

func.func @slice_length_vs_result(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{length 2 of dimension 0 does not match result type 'tensor<1x1xf32>'}}
  %0 = flow.tensor.slice %t[%c0, %c0 for %c2, %c1] : tensor<8x4xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%t: tensor<8x4xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  // expected-error @+1 {{slice at [7, 2] is out of bounds of 'tensor<8x4xf32>': dimension 0 needs 9 elements but has 8}}
  %0 = flow.tensor.slice %t[%c7, %c2 for %c2, %c2] : tensor<8x4xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_out_of_bounds_inner(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{slice at [0, 3] is out of bounds of 'tensor<8x4xf32>': dimension 1 needs 5 elements but has 4}}
  %0 = flow.tensor.slice %t[%c0, %c3 for %c2, %c2] : tensor<8x4xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_negative_start(%t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{slice start index -1 in dimension 1 is negative}}
  %0 = flow.tensor.slice %t[%c0, %cm1 for %c2, %c2] : tensor<8x4xf32> -> tensor<2x2xf32>
  return
}

// -----

// The common bad program of the spec: an update at [4, 1, 1] into
// tensor<5x1x10xf32> does not fit.
func.func @update_out_of_bounds(%u: tensor<1x1x9xf32>, %t: tensor<5x1x10xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{update at [4, 1, 1] is out of bounds of 'tensor<5x1x10xf32>': dimension 1 needs 2 elements but has 1}}
  %0 = flow.tensor.update %u, %t[%c4, %c1, %c1] : tensor<1x1x9xf32> -> %t as tensor<5x1x10xf32>
  return
}

// -----

func.func @update_out_of_bounds_last(%u: tensor<1x1x10xf32>, %t: tensor<5x1x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{update at [0, 0, 1] is out of bounds of 'tensor<5x1x10xf32>': dimension 2 needs 11 elements but has 10}}
  %0 = flow.tensor.update %u, %t[%c0, %c0, %c1] : tensor<1x1x10xf32> -> %t as tensor<5x1x10xf32>
  return
}

// -----

func.func @update_index_count(%u: tensor<1x4xf32>, %t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has 1 start indices but 'tensor<8x4xf32>' has rank 2}}
  %0 = flow.tensor.update %u, %t[%c0] : tensor<1x4xf32> -> %t as tensor<8x4xf32>
  return
}

// -----

func.func @update_rank(%u: tensor<4xf32>, %t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{update rank 1 does not match target rank 2}}
  %0 = flow.tensor.update %u, %t[%c0, %c0] : tensor<4xf32> -> %t as tensor<8x4xf32>
  return
}

// -----

func.func @update_element_type(%u: tensor<1x4xi32>, %t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{update element type 'i32' does not match target element type 'f32'}}
  %0 = flow.tensor.update %u, %t[%c0, %c0] : tensor<1x4xi32> -> %t as tensor<8x4xf32>
  return
}

// -----

func.func @update_target_dims(%u: tensor<1x4xf32>, %t: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{target dims count mismatch}}
  %0 = flow.tensor.update %u, %t[%c0, %c0] : tensor<1x4xf32> -> %t as tensor<?x4xf32>
  return
}

// -----

func.func @update_update_dims(%u: tensor<?x4xf32>, %t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{update dims count mismatch}}
  %0 = flow.tensor.update %u, %t[%c0, %c0] : tensor<?x4xf32> -> %t as tensor<8x4xf32>
  return
}

// -----

func.func @update_tied_to_other(%u: tensor<1x4xf32>, %t: tensor<8x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the result of flow.tensor.update is tied to its target %t, not %u}}
  %0 = flow.tensor.update %u, %t[%c0, %c0] : tensor<1x4xf32> -> %u as tensor<8x4xf32>
  return
}

// -----

func.func @reshape_byte_size(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{tied result type 'tensor<16xf32>' (64 bytes) must have the same byte size as operand type 'tensor<8x4xf32>' (128 bytes)}}
  %0 = flow.tensor.reshape %t : tensor<8x4xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reshape_element_type(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{tied result type 'tensor<32xi32>' must have the same element type as operand type 'tensor<8x4xf32>'}}
  %0 = flow.tensor.reshape %t : tensor<8x4xf32> -> tensor<32xi32>
  return
}

// -----

func.func @reshape_dims(%t: tensor<?x4xf32>, %n: index) {
  // expected-error @+1 {{result dims count mismatch}}
  %0 = flow.tensor.reshape %t : tensor<?x4xf32>{%n} -> tensor<?x?xf32>{%n}
  return
}

// -----

func.func @load_index_count(%t: tensor<2x3xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has 1 indices but 'tensor<2x3xi32>' has rank 2}}
  %0 = flow.tensor.load %t[%c0] : tensor<2x3xi32>
  return
}

// -----

func.func @load_out_of_bounds(%t: tensor<2x3xi32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{element at [0, 3] is out of bounds of 'tensor<2x3xi32>'}}
  %0 = flow.tensor.load %t[%c0, %c3] : tensor<2x3xi32>
  return
}

// -----

func.func @load_dims(%t: tensor<?x3xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tensor dims count mismatch}}
  %0 = flow.tensor.load %t[%c0, %c0] : tensor<?x3xi32>
  return
}

// -----

func.func @load_result_type(%t: tensor<2x3xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{result type matches the element type of the source}}
  %0 = "flow.tensor.load"(%t, %c0, %c0) <{operandSegmentSizes = array<i32: 1, 0, 2>}> : (tensor<2x3xi32>, index, index) -> f32
  return
}

// -----

func.func @store_index_count(%t: tensor<2x3xi32>, %x: i32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has 3 indices but 'tensor<2x3xi32>' has rank 2}}
  %0 = flow.tensor.store %x, %t[%c0, %c0, %c0] : tensor<2x3xi32>
  return
}

// -----

func.func @store_out_of_bounds(%t: tensor<2x3xi32>, %x: i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{element at [2, 0] is out of bounds of 'tensor<2x3xi32>'}}
  %0 = flow.tensor.store %x, %t[%c2, %c0] : tensor<2x3xi32>
  return
}

// -----

func.func @store_value_type(%t: tensor<2x3xi32>, %x: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{value type matches the element type of the target}}
  %0 = "flow.tensor.store"(%x, %t, %c0, %c0) <{operandSegmentSizes = array<i32: 1, 1, 0, 2>}> : (f32, tensor<2x3xi32>, index, index) -> tensor<2x3xi32>
  return
}

// -----

func.func @fragment_operand_dims(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{operand dims count mismatch: the operand types have 1 dynamic dimensions but 0 dims were given}}
  %0 = flow.ex.stream.fragment(%a) : (tensor<?x4xf32>) -> tensor<4xf32> =
      (%ia: tensor<?x4xf32>) -> tensor<4xf32> {
    %c = arith.constant dense<0.0> : tensor<4xf32>
    flow.return %c : tensor<4xf32>
  }
  return
}

// -----

func.func @fragment_result_dims(%n: index) {
  // expected-error @+1 {{result dims count mismatch: the result types have 1 dynamic dimensions but 0 dims were given}}
  %0 = flow.ex.stream.fragment(%n) : (index) -> tensor<?xf32> =
      (%in: index) -> tensor<?xf32> {
    %f = arith.constant 0.0 : f32
    %c = flow.tensor.splat %f : tensor<?xf32>{%in}
    flow.return %c : tensor<?xf32>
  }
  return
}

// -----

func.func @fragment_tied_element_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{tied result type 'tensor<4xi32>' must have the same element type as operand type 'tensor<4xf32>'}}
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %a as tensor<4xi32> =
      (%ia: tensor<4xf32>) -> tensor<4xi32> {
    %c = arith.constant dense<0> : tensor<4xi32>
    flow.return %c : tensor<4xi32>
  }
  return
}

// -----

func.func @fragment_tied_byte_size(%a: tensor<4xf32>) {
  // expected-error @+1 {{tied result type 'tensor<8xf32>' (32 bytes) must have the same byte size as operand type 'tensor<4xf32>' (16 bytes)}}
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %a as tensor<8xf32> =
      (%ia: tensor<4xf32>) -> tensor<8xf32> {
    %c = arith.constant dense<0.0> : tensor<8xf32>
    flow.return %c : tensor<8xf32>
  }
  return
}

// -----

func.func @fragment_tied_not_operand(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{tied result names %b which is not an operand of this op}}
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %b =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    flow.return %ia : tensor<4xf32>
  }
  return
}

// -----

func.func @fragment_operand_type_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 operand types but got 2}}
  flow.ex.stream.fragment(%a) : (tensor<4xf32>, index) -> () = (%ia: tensor<4xf32>) -> () {
    flow.return
  }
  return
}

// -----

func.func @fragment_region_arity(%a: tensor<4xf32>, %n: index) {
  // expected-error @+1 {{fragment region takes 1 arguments but the fragment has 2 operands}}
  flow.ex.stream.fragment(%a, %n) : (tensor<4xf32>, index) -> () = (%ia: tensor<4xf32>) -> () {
    flow.return
  }
  return
}

// -----

func.func @fragment_region_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{fragment region result types do not match the fragment's result types}}
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> = (%ia: tensor<4xf32>) -> index {
    flow.return %ia : tensor<4xf32>
  }
  return
}

// -----

func.func @fragment_region_argument_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{region argument 0 has type 'tensor<4xi32>' but its operand has type 'tensor<4xf32>'}}
  flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> () = (%ia: tensor<4xi32>) -> () {
    flow.return
  }
  return
}

// -----

func.func @fragment_return_types(%a: tensor<4xf32>) {
  %0 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> = (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant 1 : index
    // expected-error @+1 {{returns types that do not match the fragment results}}
    flow.return %c : index
  }
  return
}

// -----

func.func @fragment_isolated(%a: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = flow.ex.stream.fragment() : () -> tensor<4xf32> = () -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    flow.return %a : tensor<4xf32>
  }
  return
}

// -----

func.func @return_outside_fragment() {
  // expected-error @+1 {{expects parent op 'flow.ex.stream.fragment'}}
  flow.return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_operand_dims(%a: tensor<?x4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{operand dims count mismatch: the operand types have 1 dynamic dimensions but 0 dims were given}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<?x4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_result_dims(%a: tensor<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result dims count mismatch: the result types have 2 dynamic dimensions but 1 dims were given}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<4xf32>) -> tensor<?x?xf32>{%n}
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_tied_element_type(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tied result type 'tensor<4xi32>' must have the same element type as operand type 'tensor<4xf32>'}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<4xf32>) -> %a as tensor<4xi32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_tied_byte_size(%a: tensor<2x4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tied result type 'tensor<4xf32>' (16 bytes) must have the same byte size as operand type 'tensor<2x4xf32>' (32 bytes)}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<2x4xf32>) -> %a as tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_tied_not_tensor(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tied result type 'index' and operand type 'index' must both be tensors}}
  %0 = flow.dispatch @ex::@entry[%c1](%n) : (index) -> %n
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_tied_index_out_of_range(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result 0 is tied to operand 3 which does not exist}}
  %0 = "flow.dispatch"(%c1, %a) <{entry_point = @ex::@entry, operandSegmentSizes = array<i32: 1, 1, 0, 0>, tied_operands = [3]}> : (index, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_tied_count(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tied_operands has 2 entries but the op has 1 results}}
  %0 = "flow.dispatch"(%c1, %a) <{entry_point = @ex::@entry, operandSegmentSizes = array<i32: 1, 1, 0, 0>, tied_operands = [0, -1]}> : (index, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_empty_workload(%a: tensor<4xf32>) {
  // expected-error @+1 {{needs a workload of at least one index value}}
  %0 = flow.dispatch @ex::@entry[](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dispatch_missing_executable(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{callee executable @missing not found}}
  %0 = flow.dispatch @missing::@entry[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// A symbol named like the executable that is not a hal.executable.
func.func private @ex()
func.func @dispatch_callee_not_executable(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{callee executable @ex not found}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
  hal.executable.variant @other, target = #hal.executable.target<"llvm", "embedded-elf"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_missing_entry_point(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{entry point @ex::@missing not found in any variant of @ex}}
  %0 = flow.dispatch @ex::@missing[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
}
func.func @dispatch_no_variants(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{entry point @ex::@entry not found in any variant of @ex}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
}
func.func @dispatch_flat_callee(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{entry point @ex must have the form @executable::@entry}}
  %0 = flow.dispatch @ex[%c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index} {
    ^bb0(%x: index, %y: index):
      hal.return %x, %y, %y : index, index, index
    }
  }
}
func.func @dispatch_workload_arity(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{workload has 3 values but entry point @ex::@entry takes 2}}
  %0 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_binding_operand(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binding #hal.ex.operand_buffer<"arg0", 1 : index> references operand 1 but the op has 1 operands}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 1 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_binding_negative_operand(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{references operand -1 but the op has 1 operands}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", -1 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @ret0, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_binding_result(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binding #hal.ex.result_buffer<"ret0", 2 : index> references result 2 but the op has 2 results}}
  %0:2 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.result_buffer<"ret0", 2 : index>]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_binding_push_constant(%a: tensor<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binding #hal.ex.push_constant<0 : index, 2 : index> references operand 2 but the op has 2 operands}}
  %0 = flow.dispatch @ex::@entry[%c1](%a, %n) {hal.bindings = [#hal.ex.push_constant<0 : index, 2 : index>]} : (tensor<4xf32>, index) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// The result is never bound: @arg0 takes both the operand and the result.
func.func @dispatch_binding_bound_twice(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binds interface binding @arg0 twice in hal.bindings: #hal.ex.operand_buffer<"arg0", 0 : index> and #hal.ex.result_buffer<"arg0", 0 : index>}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @io0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Result 0 is tied to operand 0, not to operand 1: operand 1 and the result
// are two values on one binding.
func.func @dispatch_binding_tied_to_other_operand(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binds interface binding @io0 twice in hal.bindings: #hal.ex.operand_buffer<"io0", 1 : index> and #hal.ex.result_buffer<"io0", 0 : index>}}
  %0 = flow.dispatch @ex::@entry[%c1](%a, %b) {hal.bindings = [#hal.ex.operand_buffer<"io0", 1 : index>, #hal.ex.result_buffer<"io0", 0 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> %a
  return
}

// -----

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @io0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
// Two different operands on one binding, tied or not.
func.func @dispatch_binding_two_operands(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{binds interface binding @io0 twice in hal.bindings: #hal.ex.operand_buffer<"io0", 0 : index> and #hal.ex.operand_buffer<"io0", 1 : index>}}
  %0 = flow.dispatch @ex::@entry[%c1](%a, %b) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.operand_buffer<"io0", 1 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> %a
  return
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
func.func @dispatch_push_constant_twice(%a: tensor<4xf32>, %n: index, %m: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{sets push constant ordinal 0 twice in hal.bindings}}
  %0 = flow.dispatch @ex::@entry[%c1](%a, %n, %m) {hal.bindings = [#hal.ex.push_constant<0 : index, 1 : index>, #hal.ex.push_constant<0 : index, 2 : index>]} : (tensor<4xf32>, index, index) -> tensor<4xf32>
  return
}
