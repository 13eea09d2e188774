// RUN: hal-opt %s -split-input-file --test-stream-liveness | FileCheck %s

// Intervals are `[start, end]` over body op indices (0, 1, 2, ... in body
// order, every op counted); `in` / `out` are the live-in / live-out
// sentinels. Classes are numbered in IR order of their first member.

// A fragment result tied to its operand, and a chain of op-level ties
// (dispatch tie -> tensor.update target -> tensor.reshape source) from the
// block argument to the returned value: one class, live in and out. The
// splat is an independent transient.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK-LABEL: func.func @tie_chain
func.func @tie_chain(%a: tensor<4x4xf32>) -> tensor<16xf32> {
  // CHECK: flow.ex.stream.fragment
  // CHECK-SAME: attributes {test.arg_liveness = ["[in, out] class 0"]}
  %r = flow.ex.stream.fragment(%a) : (tensor<4x4xf32>) -> %a as tensor<16xf32> =
      (%ia: tensor<4x4xf32>) -> tensor<16xf32> {
    // CHECK: arith.constant 1 : index{{$}}
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[in, out] class 0"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4x4xf32>) -> %ia
    %f = arith.constant 0.0 : f32
    // CHECK: flow.tensor.splat {{.*}} {test.liveness = ["[3, 5] class 1"]}
    %s = flow.tensor.splat %f : tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    // CHECK: flow.tensor.update {{.*}} {test.liveness = ["[in, out] class 0"]}
    %u = flow.tensor.update %s, %d[%c0, %c0] : tensor<1x4xf32> -> %d as tensor<4x4xf32>
    // CHECK: flow.tensor.reshape {{.*}} {test.liveness = ["[in, out] class 0"]}
    %rs = flow.tensor.reshape %u : tensor<4x4xf32> -> tensor<16xf32>
    flow.return %rs : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// The fragment-level tie alone: the dispatches are untied, but the returned
// value is tied to the operand, so it shares the block argument's class.

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
// CHECK-LABEL: func.func @fragment_tie_only
func.func @fragment_tie_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: test.arg_liveness = ["[in, out] class 0"]
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> %a as tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, 2] class 1"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[in, out] class 0"]
    %e = flow.dispatch @ex::@entry[%c1](%d) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// One value returned twice: live out, one class (untied results).

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
// CHECK-LABEL: func.func @returned_twice
func.func @returned_twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: test.arg_liveness = ["[in, 1] class 0"]
  %r:2 = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) =
      (%ia: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, out] class 1"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d, %d : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// One value returned twice at positions tied to two different operands: both
// block arguments join the value's class.

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
// CHECK-LABEL: func.func @returned_twice_tied
func.func @returned_twice_tied(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: test.arg_liveness = ["[in, out] class 0", "[in, out] class 0"]
  %r:2 = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (%a as tensor<4xf32>, %b as tensor<4xf32>) =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[in, out] class 0"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d, %d : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Block arguments returned directly: live in and out. %b is also updated in
// place by a tied dispatch whose result is returned at %b's tied position.

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK-LABEL: func.func @returned_argument
func.func @returned_argument(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: test.arg_liveness = ["[in, out] class 0", "[in, out] class 1"]
  %r:2 = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, %b as tensor<4xf32>) =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[in, out] class 1"]
    %x = flow.dispatch @ex::@entry[%c1](%ib) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %ib
    flow.return %ia, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A block argument that nothing uses: [in, in] (start, as it has no user).

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
// CHECK-LABEL: func.func @unused_argument
func.func @unused_argument(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: test.arg_liveness = ["[in, 1] class 0", "[in, in] class 1"]
  %r = flow.ex.stream.fragment(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>, %ib: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, out] class 2"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A dispatch result that no op uses and that is not returned: [i, i].

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
// CHECK-LABEL: func.func @dead_result
func.func @dead_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: test.arg_liveness = ["[in, 2] class 0"]
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, 1] class 1"]
    %dead = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[2, out] class 2"]
    %d = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Non-tensor values (index operands and dims, the constant, the loaded f32)
// get nothing; flow.tensor.store ties its result to its target.

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 1 : index} {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK-LABEL: func.func @non_tensor
func.func @non_tensor(%a: tensor<?x4xf32>, %n: index, %dim: index) -> tensor<?x4xf32> {
  // CHECK: test.arg_liveness = ["[in, 1] class 0"]
  %r = flow.ex.stream.fragment(%a, %n, %dim) : (tensor<?x4xf32>{%dim}, index, index) -> tensor<?x4xf32>{%dim} =
      (%ia: tensor<?x4xf32>, %in: index, %id: index) -> tensor<?x4xf32> {
    // CHECK: arith.constant 0 : index{{$}}
    %c0 = arith.constant 0 : index
    // CHECK: flow.tensor.load {{.*}}}{{$}}
    %e = flow.tensor.load %ia[%c0, %c0] : tensor<?x4xf32>{%id}
    // CHECK: flow.tensor.splat {{.*}} {test.liveness = ["[2, out] class 1"]}
    %s = flow.tensor.splat %e : tensor<?x4xf32>{%id}
    // CHECK: flow.tensor.store {{.*}} {test.liveness = ["[2, out] class 1"]}
    %st = flow.tensor.store %e, %s[%c0, %c0] : tensor<?x4xf32>{%id}
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[2, out] class 1"]
    %d = flow.dispatch @ex::@entry[%in](%st, %in) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.push_constant<0 : index, 1 : index>]} : (tensor<?x4xf32>{%id}, index) -> %st
    flow.return %d : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// Two independent alias classes whose intervals interleave:
// {%x0, %x1} = [1, 5] and {%y0, %y1} = [2, 6].

hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @arg0, set=0, binding=0, type="StorageBuffer", access="Read|Write"
    hal.interface.binding @arg1, set=0, binding=1, type="StorageBuffer", access="Read"
    hal.interface.binding @ret0, set=0, binding=2, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
// CHECK-LABEL: func.func @interleaved
func.func @interleaved(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: test.arg_liveness = ["[in, 2] class 0"]
  %r = flow.ex.stream.fragment(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%ia: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, 5] class 1"]
    %x0 = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg1", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[2, 6] class 2"]
    %y0 = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg1", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, 5] class 1"]
    %x1 = flow.dispatch @ex::@entry[%c1](%x0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %x0
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[2, 6] class 2"]
    %y1 = flow.dispatch @ex::@entry[%c1](%y0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>]} : (tensor<4xf32>) -> %y0
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[5, 6] class 3"]
    %z = flow.dispatch @ex::@entry[%c1](%x1) {hal.bindings = [#hal.ex.operand_buffer<"arg1", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[6, out] class 4"]
    %w = flow.dispatch @ex::@entry[%c1](%y1, %z) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.operand_buffer<"arg1", 1 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    flow.return %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A use nested in a region of a body op counts as that body op (index 2).

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
// CHECK-LABEL: func.func @nested_user
func.func @nested_user(%a: tensor<4xf32>, %dev: !hal.device) -> tensor<4xf32> {
  // CHECK: test.arg_liveness = ["[in, 3] class 0"]
  %r = flow.ex.stream.fragment(%a, %dev) : (tensor<4xf32>, !hal.device) -> tensor<4xf32> =
      (%ia: tensor<4xf32>, %idev: !hal.device) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[1, 2] class 1"]
    %x = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    hal.device.switch<%idev : !hal.device>
      #hal.device.match.executable.format<"vmvx-bytecode-fb"> {
        %c0 = arith.constant 0 : index
        %e = flow.tensor.load %x[%c0] : tensor<4xf32>
        hal.return
      }
    // CHECK: flow.dispatch {{.*}}test.liveness = ["[3, out] class 2"]
    %y = flow.dispatch @ex::@entry[%c1](%ia) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<4xf32>) -> tensor<4xf32>
    flow.return %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
