// RUN: hal-opt %s -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file | hal-opt -split-input-file | FileCheck %s
// RUN: hal-opt %s -split-input-file --mlir-print-op-generic | hal-opt -split-input-file | FileCheck %s

// Round trip of every flow op of the dialect spec (dialects.md).

// CHECK-LABEL: func.func @fragment_tied_and_dims
// CHECK-SAME: (%[[A:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[D:[^:]+]]: index)
func.func @fragment_tied_and_dims(%a: tensor<?x4xf32>, %n: index, %d: index)
    -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  // The tied result has the operand's type and dims, so it prints as `%a`.
  // CHECK: %[[R:.+]]:2 = flow.ex.stream.fragment(%[[A]], %[[N]], %[[D]]) : (tensor<?x4xf32>{%[[D]]}, index, index) -> (tensor<?x4xf32>{%[[D]]}, %[[A]]) = (%[[IA:[^:]+]]: tensor<?x4xf32>, %[[IN:[^:]+]]: index, %[[ID:[^:]+]]: index) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %r0, %r1 = flow.ex.stream.fragment(%a, %n, %d)
      : (tensor<?x4xf32>{%d}, index, index) -> (tensor<?x4xf32>{%d}, %a as tensor<?x4xf32>{%d}) =
      (%ia: tensor<?x4xf32>, %in: index, %id: index) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
    // CHECK-NEXT: %[[C:.+]] = flow.tensor.clone %[[IA]] : tensor<?x4xf32>{%[[ID]]}
    %c = flow.tensor.clone %ia : tensor<?x4xf32>{%id}
    // CHECK-NEXT: flow.return %[[C]], %[[IA]] : tensor<?x4xf32>, tensor<?x4xf32>
    flow.return %c, %ia : tensor<?x4xf32>, tensor<?x4xf32>
  // CHECK-NEXT: }
  }
  // CHECK-NEXT: return %[[R]]#0, %[[R]]#1
  return %r0, %r1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @fragment_single_results
// CHECK-SAME: (%[[A:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[D:[^:]+]]: index, %[[S:[^:]+]]: tensor<4xf32>)
func.func @fragment_single_results(%a: tensor<?x4xf32>, %n: index, %d: index, %s: tensor<4xf32>) {
  // A single result is printed without parentheses on both signatures.
  // CHECK: flow.ex.stream.fragment(%[[S]]) : (tensor<4xf32>) -> tensor<4xf32> = (%[[IS:[^:]+]]: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: flow.return %[[IS]] : tensor<4xf32>
  %r0 = flow.ex.stream.fragment(%s) : (tensor<4xf32>) -> tensor<4xf32> =
      (%is: tensor<4xf32>) -> tensor<4xf32> {
    flow.return %is : tensor<4xf32>
  }
  // A single tied result without parentheses.
  // CHECK: flow.ex.stream.fragment(%[[S]]) : (tensor<4xf32>) -> %[[S]] = (%[[IS:[^:]+]]: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: flow.return %[[IS]] : tensor<4xf32>
  %r1 = flow.ex.stream.fragment(%s) : (tensor<4xf32>) -> %s =
      (%is: tensor<4xf32>) -> tensor<4xf32> {
    flow.return %is : tensor<4xf32>
  }
  // A tied result with other dims keeps `as type{dims}`.
  // CHECK: flow.ex.stream.fragment(%[[A]], %[[D]], %[[N]]) : (tensor<?x4xf32>{%[[D]]}, index, index) -> %[[A]] as tensor<?x4xf32>{%[[N]]} = (%[[IA:[^:]+]]: tensor<?x4xf32>, %{{.+}}: index, %{{.+}}: index) -> tensor<?x4xf32> {
  // CHECK-NEXT: flow.return %[[IA]] : tensor<?x4xf32>
  %r2 = flow.ex.stream.fragment(%a, %d, %n)
      : (tensor<?x4xf32>{%d}, index, index) -> %a as tensor<?x4xf32>{%n} =
      (%ia: tensor<?x4xf32>, %id: index, %in: index) -> tensor<?x4xf32> {
    flow.return %ia : tensor<?x4xf32>
  }
  // Parenthesized single results are accepted and printed without them.
  // CHECK: flow.ex.stream.fragment(%[[S]]) : (tensor<4xf32>) -> index attributes {foo} = (%{{.+}}: tensor<4xf32>) -> index {
  // CHECK-NEXT: %[[C3:.+]] = arith.constant 3 : index
  // CHECK-NEXT: flow.return %[[C3]] : index
  %r3 = flow.ex.stream.fragment(%s) : (tensor<4xf32>) -> (index) attributes {foo} =
      (%is: tensor<4xf32>) -> (index) {
    %c3 = arith.constant 3 : index
    flow.return %c3 : index
  }
  // No operands and no results.
  // CHECK: flow.ex.stream.fragment() : () -> () = () -> () {
  // CHECK-NEXT: flow.return{{$}}
  flow.ex.stream.fragment() : () -> () = () -> () {
    flow.return
  }
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
    hal.executable.entry_point @entry1 attributes {interface = @io, ordinal = 1 : index} {
    ^bb0(%x: index):
      %c1 = arith.constant 1 : index
      hal.return %x, %c1, %c1 : index, index, index
    }
  }
}
util.global private @storage : !hal.buffer

// CHECK-LABEL: func.func @dispatch
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<2x4xf32>, %[[D:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[M:[^:]+]]: index, %[[I:[^:]+]]: i32)
func.func @dispatch(%a: tensor<4xf32>, %b: tensor<2x4xf32>, %d: tensor<?x4xf32>, %n: index, %m: index, %i: i32) {
  // CHECK: %[[C1:.+]] = arith.constant 1 : index
  %c1 = arith.constant 1 : index
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%a) : (tensor<4xf32>) -> tensor<4xf32>
  // A one-value workload and every kind of binding.
  // CHECK-NEXT: flow.dispatch @ex::@entry1[%[[N]]](%[[A]], %[[N]]) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>, #hal.ex.constant_storage<"cst0", "storage", 0 : index, 64 : index>]} : (tensor<4xf32>, index) -> tensor<4xf32>
  %1 = flow.dispatch @ex::@entry1[%n](%a, %n) {hal.bindings = [
    #hal.ex.operand_buffer<"arg0", 0 : index>,
    #hal.ex.result_buffer<"ret0", 0 : index>,
    #hal.ex.push_constant<0 : index, 1 : index>,
    #hal.ex.constant_storage<"cst0", "storage", 0 : index, 64 : index>
  ]} : (tensor<4xf32>, index) -> tensor<4xf32>
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[A]]) : (tensor<4xf32>) -> %[[A]]{{$}}
  %2 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%a) : (tensor<4xf32>) -> %a
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[A]], %[[I]]) : (tensor<4xf32>, i32) -> (%[[A]], tensor<4xf32>)
  %3:2 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%a, %i) : (tensor<4xf32>, i32) -> (%a, tensor<4xf32>)
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[B]]) : (tensor<2x4xf32>) -> %[[B]] as tensor<8xf32>
  %4 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%b) : (tensor<2x4xf32>) -> %b as tensor<8xf32>
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[D]], %[[A]]) : (tensor<?x4xf32>{%[[N]]}, tensor<4xf32>) -> (tensor<?x4xf32>{%[[N]]}, tensor<?x?xf32>{%[[N]], %[[M]]})
  %5:2 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%d, %a) : (tensor<?x4xf32>{%n}, tensor<4xf32>) -> (tensor<?x4xf32>{%n}, tensor<?x?xf32>{%n, %m})
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[D]]) : (tensor<?x4xf32>{%[[N]]}) -> %[[D]]{{$}}
  %6 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%d) : (tensor<?x4xf32>{%n}) -> %d
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[D]]) : (tensor<?x4xf32>{%[[N]]}) -> %[[D]] as tensor<?x4xf32>{%[[M]]}
  %7 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%d) : (tensor<?x4xf32>{%n}) -> %d as tensor<?x4xf32>{%m}
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]](%[[D]]) : (tensor<?x4xf32>{%[[N]]}) -> %[[D]] as tensor<?xf32>{%[[M]]}
  %8 = flow.dispatch @ex::@entry[%c1, %c1, %c1](%d) : (tensor<?x4xf32>{%n}) -> %d as tensor<?xf32>{%m}
  // CHECK-NEXT: flow.dispatch @ex::@entry[%[[C1]], %[[C1]], %[[C1]]]() : () -> (){{$}}
  flow.dispatch @ex::@entry[%c1, %c1, %c1]() : () -> ()
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

// A tied result and its operand are one storage: both name one binding.
// CHECK-LABEL: func.func @dispatch_tied_one_binding
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>)
func.func @dispatch_tied_one_binding(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  // CHECK: flow.dispatch @ex::@entry[%{{.+}}](%[[A]]) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.result_buffer<"io0", 0 : index>]} : (tensor<4xf32>) -> %[[A]]{{$}}
  %0 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.operand_buffer<"io0", 0 : index>, #hal.ex.result_buffer<"io0", 0 : index>]} : (tensor<4xf32>) -> %a
  // The result entry may come first.
  // CHECK: flow.dispatch @ex::@entry[%{{.+}}](%[[A]]) {hal.bindings = [#hal.ex.result_buffer<"io0", 0 : index>, #hal.ex.operand_buffer<"io0", 0 : index>]} : (tensor<4xf32>) -> %[[A]]{{$}}
  %1 = flow.dispatch @ex::@entry[%c1](%a) {hal.bindings = [#hal.ex.result_buffer<"io0", 0 : index>, #hal.ex.operand_buffer<"io0", 0 : index>]} : (tensor<4xf32>) -> %a
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @splat_clone
// CHECK-SAME: (%[[V:[^:]+]]: f32, %[[S:[^:]+]]: tensor<8x4xf32>, %[[D:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[X:[^:]+]]: i32)
func.func @splat_clone(%v: f32, %s: tensor<8x4xf32>, %d: tensor<?x4xf32>, %n: index, %x: i32) {
  // CHECK-NEXT: flow.tensor.splat %[[V]] : tensor<8x4xf32>{{$}}
  %0 = flow.tensor.splat %v : tensor<8x4xf32>
  // CHECK-NEXT: flow.tensor.splat %[[V]] : tensor<?x4xf32>{%[[N]]}
  %1 = flow.tensor.splat %v : tensor<?x4xf32>{%n}
  // CHECK-NEXT: flow.tensor.splat %[[X]] : tensor<i32>{{$}}
  %2 = flow.tensor.splat %x : tensor<i32>
  // CHECK-NEXT: flow.tensor.clone %[[S]] : tensor<8x4xf32>{{$}}
  %3 = flow.tensor.clone %s : tensor<8x4xf32>
  // CHECK-NEXT: flow.tensor.clone %[[D]] : tensor<?x4xf32>{%[[N]]}
  %4 = flow.tensor.clone %d : tensor<?x4xf32>{%n}
  return
}

// -----

// CHECK-LABEL: func.func @slice_update_reshape
// CHECK-SAME: (%[[S:[^:]+]]: tensor<8x4xf32>, %[[D:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[M:[^:]+]]: index)
func.func @slice_update_reshape(%s: tensor<8x4xf32>, %d: tensor<?x4xf32>, %n: index, %m: index) {
  // CHECK: %[[C0:.+]] = arith.constant 0 : index
  // CHECK: %[[C1:.+]] = arith.constant 1 : index
  // CHECK: %[[C2:.+]] = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // CHECK-NEXT: %[[SL0:.+]] = flow.tensor.slice %[[S]][%[[C2]], %[[C0]] for %[[C2]], %[[C2]]] : tensor<8x4xf32> -> tensor<2x2xf32>{{$}}
  %0 = flow.tensor.slice %s[%c2, %c0 for %c2, %c2] : tensor<8x4xf32> -> tensor<2x2xf32>
  // CHECK-NEXT: %[[SL1:.+]] = flow.tensor.slice %[[S]][%[[C2]], %[[C0]] for %[[C2]], %[[N]]] : tensor<8x4xf32> -> tensor<2x?xf32>{%[[N]]}
  %1 = flow.tensor.slice %s[%c2, %c0 for %c2, %n] : tensor<8x4xf32> -> tensor<2x?xf32>{%n}
  // CHECK-NEXT: flow.tensor.slice %[[D]][%[[C0]], %[[C0]] for %[[M]], %[[C2]]] : tensor<?x4xf32>{%[[N]]} -> tensor<?x2xf32>{%[[M]]}
  %2 = flow.tensor.slice %d[%c0, %c0 for %m, %c2] : tensor<?x4xf32>{%n} -> tensor<?x2xf32>{%m}
  // CHECK-NEXT: flow.tensor.update %[[SL0]], %[[S]][%[[C0]], %[[C2]]] : tensor<2x2xf32> -> %[[S]] as tensor<8x4xf32>{{$}}
  %3 = flow.tensor.update %0, %s[%c0, %c2] : tensor<2x2xf32> -> %s as tensor<8x4xf32>
  // CHECK-NEXT: flow.tensor.update %[[SL1]], %[[S]][%[[C0]], %[[C1]]] : tensor<2x?xf32>{%[[N]]} -> %[[S]] as tensor<8x4xf32>{{$}}
  %4 = flow.tensor.update %1, %s[%c0, %c1] : tensor<2x?xf32>{%n} -> %s as tensor<8x4xf32>
  // CHECK-NEXT: flow.tensor.update %[[S]], %[[D]][%[[C0]], %[[C0]]] : tensor<8x4xf32> -> %[[D]] as tensor<?x4xf32>{%[[N]]}
  %5 = flow.tensor.update %s, %d[%c0, %c0] : tensor<8x4xf32> -> %d as tensor<?x4xf32>{%n}
  // CHECK-NEXT: flow.tensor.reshape %[[S]] : tensor<8x4xf32> -> tensor<32xf32>{{$}}
  %6 = flow.tensor.reshape %s : tensor<8x4xf32> -> tensor<32xf32>
  // CHECK-NEXT: flow.tensor.reshape %[[D]] : tensor<?x4xf32>{%[[N]]} -> tensor<?x2x2xf32>{%[[M]]}
  %7 = flow.tensor.reshape %d : tensor<?x4xf32>{%n} -> tensor<?x2x2xf32>{%m}
  // CHECK-NEXT: flow.tensor.reshape %[[D]] : tensor<?x4xf32>{%[[N]]} -> tensor<4x?xf32>{%[[N]]}
  %8 = flow.tensor.reshape %d : tensor<?x4xf32>{%n} -> tensor<4x?xf32>{%n}
  return
}

// -----

// CHECK-LABEL: func.func @load_store
// CHECK-SAME: (%[[T:[^:]+]]: tensor<2x3xi32>, %[[D:[^:]+]]: tensor<?x4xf32>, %[[N:[^:]+]]: index, %[[X:[^:]+]]: i32, %[[V:[^:]+]]: f32, %[[Z:[^:]+]]: tensor<i32>)
func.func @load_store(%t: tensor<2x3xi32>, %d: tensor<?x4xf32>, %n: index, %x: i32, %v: f32, %z: tensor<i32>) {
  // CHECK: %[[C1:.+]] = arith.constant 1 : index
  // CHECK: %[[C2:.+]] = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // CHECK-NEXT: flow.tensor.load %[[T]][%[[C1]], %[[C2]]] : tensor<2x3xi32>{{$}}
  %0 = flow.tensor.load %t[%c1, %c2] : tensor<2x3xi32>
  // CHECK-NEXT: flow.tensor.load %[[D]][%[[N]], %[[C1]]] : tensor<?x4xf32>{%[[N]]}
  %1 = flow.tensor.load %d[%n, %c1] : tensor<?x4xf32>{%n}
  // CHECK-NEXT: flow.tensor.load %[[Z]][] : tensor<i32>{{$}}
  %2 = flow.tensor.load %z[] : tensor<i32>
  // CHECK-NEXT: flow.tensor.store %[[X]], %[[T]][%[[C1]], %[[C2]]] : tensor<2x3xi32>{{$}}
  %3 = flow.tensor.store %x, %t[%c1, %c2] : tensor<2x3xi32>
  // CHECK-NEXT: flow.tensor.store %[[V]], %[[D]][%[[N]], %[[C1]]] : tensor<?x4xf32>{%[[N]]}
  %4 = flow.tensor.store %v, %d[%n, %c1] : tensor<?x4xf32>{%n}
  return
}

// -----

// Discardable attributes follow the `attributes` keyword: a bare `{` after a
// type is its dims, so `tensor<4xf32> {a}` would not parse back.
// CHECK-LABEL: func.func @attributes
func.func @attributes(%t: tensor<4xf32>, %d: tensor<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // CHECK: flow.tensor.splat %{{.+}} : tensor<4xf32> attributes {test.a}
  %0 = flow.tensor.splat %v : tensor<4xf32> attributes {test.a}
  // CHECK: flow.tensor.clone %{{.+}} : tensor<4xf32> attributes {test.a}
  %1 = flow.tensor.clone %t : tensor<4xf32> attributes {test.a}
  // CHECK: flow.tensor.slice %{{.+}} : tensor<4xf32> -> tensor<2xf32> attributes {test.a}
  %2 = flow.tensor.slice %t[%c0 for %c2] : tensor<4xf32> -> tensor<2xf32> attributes {test.a}
  // CHECK: flow.tensor.update %{{.+}} : tensor<2xf32> -> %{{.+}} as tensor<4xf32> attributes {test.a}
  %3 = flow.tensor.update %2, %t[%c0] : tensor<2xf32> -> %t as tensor<4xf32> attributes {test.a}
  // CHECK: flow.tensor.reshape %{{.+}} : tensor<4xf32> -> tensor<2x2xf32> attributes {test.a}
  %4 = flow.tensor.reshape %t : tensor<4xf32> -> tensor<2x2xf32> attributes {test.a}
  // CHECK: flow.tensor.load %{{.+}} : tensor<?xf32>{%{{.+}}} attributes {test.a}
  %5 = flow.tensor.load %d[%c0] : tensor<?xf32>{%n} attributes {test.a}
  // CHECK: flow.tensor.store %{{.+}} : tensor<4xf32> attributes {test.a}
  %6 = flow.tensor.store %v, %t[%c0] : tensor<4xf32> attributes {test.a}
  return
}
