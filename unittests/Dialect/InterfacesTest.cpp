//===- InterfacesTest.cpp - Tests of the tied and shape-aware interfaces --===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses small flow programs and checks what TiedOpInterface,
// ShapeAwareOpInterface and flow::findDynamicDims report for them.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace streamhal;

namespace {

class InterfacesTest : public ::testing::Test {
protected:
  InterfacesTest() {
    context
        .loadDialect<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                     flow::FlowDialect, hal::HALDialect>();
  }

  /// Parses `source`, failing the test when it does not parse and verify.
  OwningOpRef<ModuleOp> parse(StringRef source) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "failed to parse:\n" << source.str();
    return module;
  }

  /// Returns the first op of type OpT in `module`.
  template <typename OpT> OpT first(ModuleOp module) {
    OpT found;
    module.walk([&](OpT op) {
      if (!found)
        found = op;
    });
    return found;
  }

  /// Returns the function argument `index` of the first function.
  Value argument(ModuleOp module, unsigned index) {
    return first<func::FuncOp>(module).getArgument(index);
  }

  MLIRContext context;
};

constexpr StringLiteral kExecutable = R"mlir(
hal.executable private @ex {
  hal.interface @io {
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
  }
}
)mlir";

TEST_F(InterfacesTest, DispatchTiesAndDims) {
  std::string source = kExecutable.str() + R"mlir(
func.func @f(%a: tensor<?x4xf32>, %n: index, %b: tensor<8xf32>, %m: index) {
  %c1 = arith.constant 1 : index
  %r:3 = flow.dispatch @ex::@entry[%c1](%n, %a, %b)
      : (index, tensor<?x4xf32>{%n}, tensor<8xf32>)
      -> (tensor<?x?xf32>{%n, %m}, %a, %b as tensor<2x4xf32>)
  return
}
)mlir";
  OwningOpRef<ModuleOp> module = parse(source);
  ASSERT_TRUE(module);
  auto dispatch = first<flow::DispatchOp>(*module);
  ASSERT_TRUE(dispatch);
  Value a = argument(*module, 0), n = argument(*module, 1),
        b = argument(*module, 2), m = argument(*module, 3);

  // Tied indices are into the full operand list (workload first).
  auto tied = cast<util::TiedOpInterface>(dispatch.getOperation());
  EXPECT_EQ(tied.getTiedResultOperandIndex(0), std::nullopt);
  ASSERT_TRUE(tied.getTiedResultOperandIndex(1).has_value());
  EXPECT_EQ(dispatch->getOperand(*tied.getTiedResultOperandIndex(1)), a);
  ASSERT_TRUE(tied.getTiedResultOperandIndex(2).has_value());
  EXPECT_EQ(dispatch->getOperand(*tied.getTiedResultOperandIndex(2)), b);
  EXPECT_EQ(tied.getTiedResultOperand(dispatch.getResult(1)), a);
  EXPECT_EQ(tied.getTiedResultOperand(dispatch.getResult(0)), Value());
  // A value that is not a result of the op has no tie.
  EXPECT_EQ(tied.getTiedResultOperand(a), Value());

  auto shaped = cast<util::ShapeAwareOpInterface>(dispatch.getOperation());
  unsigned aIndex = dispatch.getArguments().getBeginOperandIndex() + 1;
  ValueRange aDims = shaped.getOperandDynamicDims(aIndex);
  ASSERT_EQ(aDims.size(), 1u);
  EXPECT_EQ(aDims[0], n);
  EXPECT_TRUE(shaped.getOperandDynamicDims(aIndex + 1).empty());
  // The workload operand is not a tensor.
  EXPECT_TRUE(shaped.getOperandDynamicDims(0).empty());
  ValueRange r0Dims = shaped.getResultDynamicDims(0);
  ASSERT_EQ(r0Dims.size(), 2u);
  EXPECT_EQ(r0Dims[0], n);
  EXPECT_EQ(r0Dims[1], m);
  // A bare tied result takes the operand's dims.
  ValueRange r1Dims = shaped.getResultDynamicDims(1);
  ASSERT_EQ(r1Dims.size(), 1u);
  EXPECT_EQ(r1Dims[0], n);
  EXPECT_TRUE(shaped.getResultDynamicDims(2).empty());

  FailureOr<SmallVector<Value>> found =
      flow::findDynamicDims(dispatch.getResult(0));
  ASSERT_TRUE(succeeded(found));
  EXPECT_EQ((*found)[0], n);
  EXPECT_EQ((*found)[1], m);
}

TEST_F(InterfacesTest, TensorOpsAreTiedByDefinition) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%t: tensor<?x4xf32>, %n: index, %u: tensor<1x4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %r = flow.tensor.reshape %t : tensor<?x4xf32>{%n} -> tensor<?xf32>{%n}
  %w = flow.tensor.update %u, %t[%c0, %c0] : tensor<1x4xf32> -> %t as tensor<?x4xf32>{%n}
  %s = flow.tensor.store %x, %t[%c0, %c0] : tensor<?x4xf32>{%n}
  %c = flow.tensor.clone %t : tensor<?x4xf32>{%n}
  return
}
)mlir");
  ASSERT_TRUE(module);
  Value t = argument(*module, 0), n = argument(*module, 1);

  auto reshape = first<flow::TensorReshapeOp>(*module);
  auto update = first<flow::TensorUpdateOp>(*module);
  auto store = first<flow::TensorStoreOp>(*module);
  auto clone = first<flow::TensorCloneOp>(*module);
  for (Operation *op :
       {reshape.getOperation(), update.getOperation(), store.getOperation()}) {
    auto tied = dyn_cast<util::TiedOpInterface>(op);
    ASSERT_TRUE(tied) << op->getName().getStringRef().str();
    EXPECT_EQ(tied.getTiedResultOperand(op->getResult(0)), t)
        << op->getName().getStringRef().str();
  }
  // A clone has its own storage.
  EXPECT_FALSE(isa<util::TiedOpInterface>(clone.getOperation()));

  for (Operation *op : {reshape.getOperation(), update.getOperation(),
                        store.getOperation(), clone.getOperation()}) {
    FailureOr<SmallVector<Value>> dims =
        flow::findDynamicDims(op->getResult(0));
    ASSERT_TRUE(succeeded(dims)) << op->getName().getStringRef().str();
    ASSERT_EQ(dims->size(), 1u);
    EXPECT_EQ((*dims)[0], n);
  }
  auto shaped = cast<util::ShapeAwareOpInterface>(update.getOperation());
  EXPECT_TRUE(
      shaped.getOperandDynamicDims(update.getUpdateMutable().getOperandNumber())
          .empty());
  ASSERT_EQ(
      shaped.getOperandDynamicDims(update.getTargetMutable().getOperandNumber())
          .size(),
      1u);
}

TEST_F(InterfacesTest, FragmentBlockArgumentDims) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%a: tensor<?x4xf32>, %s: tensor<4xf32>, %d: index) {
  %r:2 = flow.ex.stream.fragment(%s, %a, %d)
      : (tensor<4xf32>, tensor<?x4xf32>{%d}, index) -> (%a, tensor<4xf32>) =
      (%is: tensor<4xf32>, %ia: tensor<?x4xf32>, %id: index) -> (tensor<?x4xf32>, tensor<4xf32>) {
    flow.return %ia, %is : tensor<?x4xf32>, tensor<4xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(module);
  Value a = argument(*module, 0), d = argument(*module, 2);
  auto fragment = first<flow::ExStreamFragmentOp>(*module);
  ASSERT_TRUE(fragment);

  // Block argument 1 takes the dims of fragment operand 1.
  BlockArgument ia = fragment.getBody().getArgument(1);
  FailureOr<SmallVector<Value>> dims = flow::findDynamicDims(ia);
  ASSERT_TRUE(succeeded(dims));
  ASSERT_EQ(dims->size(), 1u);
  EXPECT_EQ((*dims)[0], d);
  // Static tensors have no dims; that is not a failure.
  dims = flow::findDynamicDims(fragment.getBody().getArgument(0));
  ASSERT_TRUE(succeeded(dims));
  EXPECT_TRUE(dims->empty());

  auto tied = cast<util::TiedOpInterface>(fragment.getOperation());
  EXPECT_EQ(tied.getTiedResultOperand(fragment.getResult(0)), a);
  EXPECT_EQ(tied.getTiedResultOperandIndex(1), std::nullopt);
  dims = flow::findDynamicDims(fragment.getResult(0));
  ASSERT_TRUE(succeeded(dims));
  EXPECT_EQ((*dims)[0], d);
}

TEST_F(InterfacesTest, DimsOfValuesWithoutShapeAwareOps) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%a: tensor<?x4xf32>, %s: tensor<4xf32>) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  // A dynamic function argument has no op to carry its dims.
  EXPECT_TRUE(failed(flow::findDynamicDims(argument(*module, 0))));
  FailureOr<SmallVector<Value>> dims =
      flow::findDynamicDims(argument(*module, 1));
  ASSERT_TRUE(succeeded(dims));
  EXPECT_TRUE(dims->empty());
}

TEST_F(InterfacesTest, HALShapeAwareOps) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
util.global private @pool : !hal.buffer
func.func @f(%bv: !hal.buffer_view, %n: index) {
  %t = hal.tensor.cast %bv : !hal.buffer_view -> tensor<?xf32>{%n}
  %c = hal.constant.subspan @pool[#util.byte_range<0, 64>] : tensor<?x4xf32>{%n}
  return
}
)mlir");
  ASSERT_TRUE(module);
  Value n = argument(*module, 1);
  auto cast = first<hal::TensorCastOp>(*module);
  auto subspan = first<hal::ConstantSubspanOp>(*module);
  for (Operation *op : {cast.getOperation(), subspan.getOperation()}) {
    FailureOr<SmallVector<Value>> dims =
        flow::findDynamicDims(op->getResult(0));
    ASSERT_TRUE(succeeded(dims)) << op->getName().getStringRef().str();
    ASSERT_EQ(dims->size(), 1u);
    EXPECT_EQ((*dims)[0], n);
  }
}

TEST_F(InterfacesTest, VerifyTiedTypesHelper) {
  OwningOpRef<ModuleOp> module = parse("");
  ASSERT_TRUE(module);
  Builder builder(&context);
  Type f32 = builder.getF32Type();
  // Diagnostics of the helper go to the module op; silence them.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  Operation *op = module->getOperation();
  EXPECT_TRUE(
      succeeded(util::verifyTiedTypes(op, RankedTensorType::get({2, 4}, f32),
                                      RankedTensorType::get({8}, f32))));
  EXPECT_TRUE(succeeded(util::verifyTiedTypes(
      op, RankedTensorType::get({ShapedType::kDynamic, 4}, f32),
      RankedTensorType::get({3}, f32))));
  EXPECT_TRUE(failed(util::verifyTiedTypes(op, RankedTensorType::get({4}, f32),
                                           RankedTensorType::get({8}, f32))));
  EXPECT_TRUE(failed(
      util::verifyTiedTypes(op, RankedTensorType::get({4}, f32),
                            RankedTensorType::get({4}, builder.getI32Type()))));
  EXPECT_TRUE(failed(util::verifyTiedTypes(op, builder.getIndexType(),
                                           builder.getIndexType())));
}

} // namespace
