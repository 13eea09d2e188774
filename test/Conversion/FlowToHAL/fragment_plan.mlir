// RUN: hal-opt %s -split-input-file --test-fragment-plan -o /dev/null | FileCheck %s
// RUN: hal-opt %s -split-input-file --test-fragment-plan=copies=always -o /dev/null | FileCheck %s --check-prefix=ALWAYS

// The plan the fragment check makes, as the lowering reads it: one storage
// kind and interval per alias class (in/out: live in/out), the views, one
// plan per box and one resolution per kind of dispatch (dispatches alike in
// callee, bindings and types share one).

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
  hal.executable.variant @llvm, target = #hal.executable.target<"llvm", "embedded-elf-x86_64"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK-LABEL: plan in @boxes:
// CHECK-NEXT: class 0: input [in, 4]
// CHECK-NEXT: class 1: transient [4, 5]
// CHECK-NEXT: class 2: view [5, 6]
// CHECK-NEXT: class 3: transient [6, 7]
// CHECK-NEXT: class 4: transient [7, 8]
// CHECK-NEXT: class 5: output [8, out]
// CHECK-NEXT: class 2 = view of class 1 (root 1) by flow.tensor.slice at index 5
// CHECK-NEXT: flow.tensor.slice at {{.*}}: contiguous
// CHECK-NEXT: flow.tensor.slice at {{.*}}: 2 runs of 2 elements
// CHECK-NEXT: dispatch at {{.*}}: resolution 0, 2 variant(s)
// CHECK-NEXT: dispatch at {{.*}}: resolution 1, 2 variant(s)
// CHECK-NEXT: dispatch at {{.*}}: resolution 1, 2 variant(s)
// ALWAYS-LABEL: plan in @boxes:
// ALWAYS-NEXT: class 0: input [in, 4]
// ALWAYS-NEXT: class 1: transient [4, 5]
// ALWAYS-NEXT: class 2: transient [5, 6]
// ALWAYS-NOT: view
// ALWAYS: flow.tensor.slice at {{.*}}: contiguous
func.func @boxes(%a: tensor<8x4xf32>) -> tensor<2x2xf32> {
  %r = flow.ex.stream.fragment(%a) : (tensor<8x4xf32>) -> tensor<2x2xf32> =
      (%ia: tensor<8x4xf32>) -> tensor<2x2xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %q = flow.tensor.slice %p[%c2, %c0 for %c2, %c4] : tensor<8x4xf32> -> tensor<2x4xf32>
    %k = flow.tensor.slice %q[%c0, %c1 for %c2, %c2] : tensor<2x4xf32> -> tensor<2x2xf32>
    %x = flow.dispatch @ex::@entry[%c1](%k) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %y = flow.dispatch @ex::@entry[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    flow.return %y : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}

// -----

// A constant read in place keeps the pool's bytes; one that is returned
// gets its own storage (the caller may write it).
util.global private @pool : !hal.buffer
// CHECK-LABEL: plan in @constants:
// CHECK-NEXT: class 0: constant [0, 1]
// CHECK-NEXT: class 1: output [1, out]
// CHECK-NEXT: class 2: output [2, out]
func.func @constants() -> (tensor<4xi32>, tensor<4xi32>) {
  %r:2 = flow.ex.stream.fragment() : () -> (tensor<4xi32>, tensor<4xi32>) =
      () -> (tensor<4xi32>, tensor<4xi32>) {
    %read = hal.constant.subspan @pool[#util.byte_range<0, 16>] : tensor<4xi32>
    %copy = flow.tensor.clone %read : tensor<4xi32>
    %returned = hal.constant.subspan @pool[#util.byte_range<16, 16>] : tensor<4xi32>
    flow.return %copy, %returned : tensor<4xi32>, tensor<4xi32>
  }
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// A slice whose source its last reader writes in place stays a copy: as a
// view, the dispatch would read bytes it is overwriting.
// CHECK-LABEL: plan in @view_source_written_by_last_reader:
// CHECK-NEXT: class 0: output [4, out]
// CHECK-NEXT: class 1: transient [5, 6]
// CHECK-NEXT: flow.tensor.slice at {{.+}}: contiguous
// CHECK-NEXT: dispatch at
hal.executable private @ex2 {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @rw, set=0, binding=1, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @view_source_written_by_last_reader() -> tensor<8xf32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<8xf32> = () -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 1.0 : f32
    %s = flow.tensor.splat %cst : tensor<8xf32>
    %v = flow.tensor.slice %s[%c0 for %c4] : tensor<8xf32> -> tensor<4xf32>
    %w = flow.dispatch @ex2::@entry[%c1](%v, %s) {hal.bindings = [#hal.ex.operand_buffer<"in", 0 : index>, #hal.ex.operand_buffer<"rw", 1 : index>]} : (tensor<4xf32>, tensor<8xf32>) -> %s
    flow.return %w : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
