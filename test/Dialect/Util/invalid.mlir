// RUN: hal-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the util dialect.

// expected-error @+1 {{initial value type 'tensor<i64>' does not match global type 'tensor<i32>'}}
util.global private @g : tensor<i32> = dense<1> : tensor<i64>

// -----

// expected-error @+1 {{expected a typed initial value or `: type`}}
util.global private @g = #util.byte_range<0, 4>

// -----

func.func @load_undefined() {
  // expected-error @+1 {{'util.global.load' op references undefined global @missing}}
  %v = util.global.load @missing : !hal.buffer
  return
}

// -----

// A symbol that exists but is not a util.global.
func.func @not_a_global() {
  // expected-error @+1 {{references undefined global @not_a_global}}
  %v = util.global.load @not_a_global : index
  return
}

// -----

util.global private @g : tensor<i32>
func.func @load_type_mismatch() {
  // expected-error @+1 {{result type 'tensor<i64>' does not match global type 'tensor<i32>'}}
  %v = util.global.load @g : tensor<i64>
  return
}

// -----

func.func @store_undefined(%v: index) {
  // expected-error @+1 {{'util.global.store' op references undefined global @missing}}
  util.global.store %v, @missing : index
  return
}

// -----

util.global private @g : tensor<i32>
func.func @store_immutable(%v: tensor<i32>) {
  // expected-error @+1 {{cannot store to immutable global @g}}
  util.global.store %v, @g : tensor<i32>
  return
}

// -----

util.global private mutable @g : tensor<i32>
func.func @store_type_mismatch(%v: tensor<f32>) {
  // expected-error @+1 {{value type 'tensor<f32>' does not match global type 'tensor<i32>'}}
  util.global.store %v, @g : tensor<f32>
  return
}

// -----

// expected-error @+1 {{byte range offset and length must be non-negative, got <-1, 4>}}
func.func @negative_offset() attributes {r = #util.byte_range<-1, 4>} {
  return
}

// -----

// expected-error @+1 {{byte range offset and length must be non-negative, got <0, -8>}}
func.func @negative_length() attributes {r = #util.byte_range<0, -8>} {
  return
}

// -----

// expected-error @+1 {{byte range <16, 9223372036854775807> ends past the largest 64-bit offset}}
func.func @end_overflows() attributes {r = #util.byte_range<16, 9223372036854775807>} {
  return
}

// -----

// expected-error @+1 {{expected valid '@'-identifier for symbol name}}
util.global secret @g : index

// -----

func.func @address_undefined() {
  // expected-error @+1 {{'util.global.address' op references undefined global @missing}}
  %p = util.global.address @missing : !util.ptr<tensor<i32>>
  return
}

// -----

util.global private @g : tensor<i32>
func.func @address_type_mismatch() {
  // expected-error @+1 {{pointer target type 'tensor<i64>' does not match global type 'tensor<i32>'}}
  %p = util.global.address @g : !util.ptr<tensor<i64>>
  return
}

// -----

func.func @address_not_a_pointer() {
  // expected-error @+1 {{result #0 must be the address of a global}}
  %p = "util.global.address"() {global = @g} : () -> tensor<i32>
  return
}

// -----

func.func @load_indirect_type_mismatch(%p: !util.ptr<tensor<i32>>) {
  // expected-error @+1 {{result type 'tensor<f32>' does not match pointer target type 'tensor<i32>'}}
  %v = util.global.load.indirect %p : !util.ptr<tensor<i32>> -> tensor<f32>
  return
}

// -----

func.func @store_indirect_type_mismatch(%p: !util.ptr<tensor<i32>>, %v: tensor<f32>) {
  // expected-error @+1 {{value type 'tensor<f32>' does not match pointer target type 'tensor<i32>'}}
  util.global.store.indirect %v, %p : tensor<f32> -> !util.ptr<tensor<i32>>
  return
}

// -----

util.global private @g : tensor<i32>
func.func @store_indirect_immutable(%v: tensor<i32>) {
  %p = util.global.address @g : !util.ptr<tensor<i32>>
  // expected-error @+1 {{cannot store through the address of immutable global @g}}
  util.global.store.indirect %v, %p : tensor<i32> -> !util.ptr<tensor<i32>>
  return
}

// -----

// expected-error @+1 {{body takes no arguments, but has 1}}
util.initializer {
^bb0(%a: index):
  util.return
}

// -----

// expected-error @+1 {{region with 1 blocks}}
util.initializer {
  util.return
^next:
  util.return
}

// -----

func.func @initializer_in_function() {
  // expected-error @+1 {{expects parent op 'builtin.module'}}
  util.initializer {
    util.return
  }
  return
}

// -----

func.func @return_outside_initializer() {
  // expected-error @+1 {{expects parent op 'util.initializer'}}
  util.return
}

// -----

util.initializer {
  // expected-error @+1 {{block with no terminator}}
  %c = arith.constant 0 : index
}
