// hal-exec --report-memory: the allocations of a HAL run, the bytes of its
// transients and their lower bound (the most transient bytes holding a
// value a later command reads, at one command).
// RUN: hal-exec %s --report-memory '--check-lowering=streamhal-lower-to-hal{transients=function}' | FileCheck %s --check-prefix=FUNCTION
// RUN: hal-exec %s --report-memory '--check-lowering=streamhal-lower-to-hal{transients=fragment}' | FileCheck %s --check-prefix=FRAGMENT
// RUN: hal-exec %s --report-memory '--check-lowering=streamhal-lower-to-hal{external-transients=true}' | FileCheck %s --check-prefix=EXTERNAL
// RUN: hal-exec %s --check-lowering | FileCheck %s --check-prefix=QUIET
// Three fragments in a row, each a chain of four 4 KiB dispatches: at most
// 8 KiB of transients are live at once. One slab holds exactly that; a
// slab per fragment and an allocation per value between fragments hold
// 32 KiB in 5 allocations. The caller's buffer counts as transient bytes,
// not as an allocation of the run.
// FUNCTION-LABEL: @three_chains: the HAL level matches
// FUNCTION: @three_chains: memory allocations=2 (results 1, transients 1) allocated=12288 transient=8192 live-peak=8192
// FRAGMENT-LABEL: @three_chains: the HAL level matches
// FRAGMENT: @three_chains: memory allocations=6 (results 1, transients 5) allocated=36864 transient=32768 live-peak=8192
// EXTERNAL-LABEL: @three_chains: the HAL level matches
// EXTERNAL: @three_chains: memory allocations=1 (results 1, transients 0) allocated=4096 transient=8192 live-peak=8192
// QUIET-LABEL: @three_chains: the HAL level matches
// QUIET-NOT: memory
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

func.func @three_chains(%arg0: tensor<1024xf32>) -> tensor<1024xf32> {
  %f0 = flow.ex.stream.fragment(%arg0) : (tensor<1024xf32>) -> tensor<1024xf32> =
      (%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %c1 = arith.constant 1 : index
    %d0 = flow.dispatch @ex::@entry[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d1 = flow.dispatch @ex::@entry[%c1](%d0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d2 = flow.dispatch @ex::@entry[%c1](%d1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d3 = flow.dispatch @ex::@entry[%c1](%d2) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %d3 : tensor<1024xf32>
  }
  %f1 = flow.ex.stream.fragment(%f0) : (tensor<1024xf32>) -> tensor<1024xf32> =
      (%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %c1 = arith.constant 1 : index
    %d0 = flow.dispatch @ex::@entry[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d1 = flow.dispatch @ex::@entry[%c1](%d0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d2 = flow.dispatch @ex::@entry[%c1](%d1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d3 = flow.dispatch @ex::@entry[%c1](%d2) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %d3 : tensor<1024xf32>
  }
  %f2 = flow.ex.stream.fragment(%f1) : (tensor<1024xf32>) -> tensor<1024xf32> =
      (%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %c1 = arith.constant 1 : index
    %d0 = flow.dispatch @ex::@entry[%c1](%x) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d1 = flow.dispatch @ex::@entry[%c1](%d0) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d2 = flow.dispatch @ex::@entry[%c1](%d1) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    %d3 = flow.dispatch @ex::@entry[%c1](%d2) {hal.bindings = [#hal.ex.operand_buffer<"arg0", 0 : index>, #hal.ex.result_buffer<"ret0", 0 : index>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    flow.return %d3 : tensor<1024xf32>
  }
  return %f2 : tensor<1024xf32>
}
