//===- FlowBase.td - flow dialect base definitions ---------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_IR_FLOWBASE_TD
#define STREAMHAL_DIALECT_FLOW_IR_FLOWBASE_TD

include "mlir/IR/OpBase.td"

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::streamhal::flow";
  let summary = "Tensor-level stream fragments and dispatches.";
  let description = [{
    The input of the lowering: tensors, dispatches of executable entry points
    and `flow.ex.stream.fragment` regions that group device work. Every flow
    tensor is an immutable value; `--convert-flow-to-hal` gives each one
    storage in a `!hal.buffer` and records each fragment into one command
    buffer (docs/lowering.md).

    Two conventions hold for every op of the dialect:

    - A tensor operand or result with dynamic dimensions is followed by its
      dims, one `index` per `?`, in order: `tensor<?x4x?xf32>{%d0, %d2}`.
      Static tensors carry no braces. The ops implement
      `ShapeAwareOpInterface`.
    - A result may be *tied* to an operand (it reuses the operand's storage):
      `-> %a` when it has the operand's type and dims, `-> %a as type{dims}`
      otherwise, stored in the `tied_operands` array (`-1`: not tied). A tied
      result is a tensor with the operand's element type and, when both are
      static, its byte size. The ops implement `TiedOpInterface`.

    `flow.wave` (an integer) on an op of a fragment body is its wave, set by
    `--flow-schedule-fragments`.
  }];
  // Loading flow loads what its lowering creates, so patterns from
  // populateFlowToHALPatterns work on any parsed flow module.
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::streamhal::hal::HALDialect",
    "::streamhal::util::UtilDialect"
  ];
  // `flow.wave` on an op of a fragment body: its wave, set by
  // --flow-schedule-fragments (flow::getWave reads it).
  let discardableAttrs = (ins "::mlir::IntegerAttr":$wave);
}

class Flow_Op<string mnemonic, list<Trait> traits = []> :
    Op<Flow_Dialect, mnemonic, traits>;

/// An index operand list: offsets, lengths, workloads, dims.
defvar Flow_IndexList = Variadic<Index>;

#endif // STREAMHAL_DIALECT_FLOW_IR_FLOWBASE_TD
