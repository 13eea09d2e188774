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
    and `flow.ex.stream.fragment` regions that group device work.
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
