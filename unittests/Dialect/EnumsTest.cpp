//===- EnumsTest.cpp - Tests of hal bit enums and their spellings ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Multi-bit values print as `A|B` with one spelling everywhere, and parse back
// to the same value whatever order they are written in.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/HALDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace streamhal::hal;

namespace {

TEST(EnumsTest, Values) {
  EXPECT_EQ(static_cast<uint32_t>(MemoryType::HostLocal), 0x6u);
  EXPECT_EQ(static_cast<uint32_t>(MemoryType::DeviceVisible), 0x10u);
  EXPECT_EQ(static_cast<uint32_t>(MemoryType::DeviceLocal), 0x30u);
  EXPECT_EQ(static_cast<uint32_t>(BufferUsage::Dispatch), 0x8u);
  EXPECT_EQ(static_cast<uint32_t>(BufferUsage::All), 0xEu);
  EXPECT_EQ(static_cast<uint32_t>(MemoryAccess::MayAlias), 0x8u);
  EXPECT_EQ(static_cast<uint32_t>(CommandBufferMode::AllowInlineExecution),
            0x10u);
  EXPECT_EQ(static_cast<uint32_t>(CommandCategory::Dispatch), 0x2u);
  EXPECT_EQ(static_cast<uint32_t>(ExecutionStage::CommandRetire), 0x10u);
  EXPECT_EQ(static_cast<uint32_t>(ExecutionStage::Host), 0x20u);
  EXPECT_EQ(static_cast<uint32_t>(ExecutionBarrierFlag::Reserved), 0x1u);
  // Groups are the union of their bits.
  EXPECT_EQ(MemoryType::HostVisible | MemoryType::HostCoherent,
            MemoryType::HostLocal);
  EXPECT_EQ(BufferUsage::Transfer | BufferUsage::Mapping |
                BufferUsage::Dispatch,
            BufferUsage::All);
}

TEST(EnumsTest, StringifyMultiBit) {
  EXPECT_EQ(
      stringifyMemoryType(MemoryType::DeviceLocal | MemoryType::HostVisible),
      "DeviceLocal|HostVisible");
  EXPECT_EQ(
      stringifyMemoryType(MemoryType::HostVisible | MemoryType::HostCoherent),
      "HostLocal");
  EXPECT_EQ(stringifyBufferUsage(BufferUsage::All), "All");
  EXPECT_EQ(stringifyBufferUsage(BufferUsage::Transfer | BufferUsage::Dispatch),
            "Dispatch|Transfer");
  EXPECT_EQ(stringifyCommandBufferMode(CommandBufferMode::OneShot |
                                       CommandBufferMode::AllowInlineExecution),
            "OneShot|AllowInlineExecution");
  EXPECT_EQ(stringifyCommandCategory(CommandCategory::Dispatch |
                                     CommandCategory::Transfer),
            "Transfer|Dispatch");
  EXPECT_EQ(stringifyExecutionStage(ExecutionStage::Dispatch |
                                    ExecutionStage::CommandRetire),
            "CommandRetire|Dispatch");
  EXPECT_EQ(stringifyExecutionStage(ExecutionStage::Dispatch |
                                    ExecutionStage::CommandIssue),
            "CommandIssue|Dispatch");
  EXPECT_EQ(stringifyMemoryAccess(MemoryAccess::Discard | MemoryAccess::Write),
            "Write|Discard");
  EXPECT_EQ(stringifyExecutionBarrierFlag(ExecutionBarrierFlag::None), "None");
  EXPECT_EQ(stringifyMemoryType(MemoryType::None), "None");
  EXPECT_EQ(stringifyDescriptorType(DescriptorType::StorageBuffer),
            "StorageBuffer");
  EXPECT_EQ(stringifyDescriptorType(DescriptorType::UniformBuffer),
            "UniformBuffer");
}

TEST(EnumsTest, SymbolizeAnyOrder) {
  EXPECT_EQ(symbolizeMemoryType("HostVisible|DeviceLocal"),
            MemoryType::DeviceLocal | MemoryType::HostVisible);
  EXPECT_EQ(symbolizeMemoryType("DeviceLocal|HostVisible"),
            MemoryType::DeviceLocal | MemoryType::HostVisible);
  EXPECT_EQ(symbolizeBufferUsage("Transfer|Dispatch"),
            BufferUsage::Transfer | BufferUsage::Dispatch);
  EXPECT_EQ(symbolizeBufferUsage("All"), BufferUsage::All);
  EXPECT_EQ(symbolizeExecutionStage("Dispatch|CommandRetire"),
            ExecutionStage::CommandRetire | ExecutionStage::Dispatch);
  EXPECT_EQ(symbolizeExecutionBarrierFlag("None"), ExecutionBarrierFlag::None);
  EXPECT_EQ(symbolizeDescriptorType("UniformBuffer"),
            DescriptorType::UniformBuffer);
}

TEST(EnumsTest, SymbolizeRejects) {
  EXPECT_EQ(symbolizeMemoryType("Bogus"), std::nullopt);
  EXPECT_EQ(symbolizeMemoryType("DeviceLocal|Bogus"), std::nullopt);
  EXPECT_EQ(symbolizeBufferUsage("R"), std::nullopt);
  EXPECT_EQ(symbolizeDescriptorType("TexelBuffer"), std::nullopt);
}

/// Every value up to `maxValue` for which `representable` holds prints to a
/// spelling that parses back to the same value.
template <typename EnumT, typename StringifyFn, typename SymbolizeFn>
void expectRoundTrip(
    uint32_t maxValue, StringifyFn stringify, SymbolizeFn symbolize,
    llvm::function_ref<bool(uint32_t)> representable = [](uint32_t) {
      return true;
    }) {
  for (uint32_t raw = 0; raw <= maxValue; ++raw) {
    if (!representable(raw))
      continue;
    auto value = static_cast<EnumT>(raw);
    std::string spelling = stringify(value);
    std::optional<EnumT> parsed = symbolize(spelling);
    ASSERT_TRUE(parsed.has_value()) << spelling;
    EXPECT_EQ(*parsed, value) << spelling;
  }
}

TEST(EnumsTest, RoundTripEveryValue) {
  // Bit 0x20 only exists as part of DeviceLocal (0x30): it has no spelling
  // without DeviceVisible (0x10).
  expectRoundTrip<MemoryType>(
      0x3F, stringifyMemoryType,
      [](StringRef s) { return symbolizeMemoryType(s); },
      [](uint32_t raw) { return (raw & 0x30) != 0x20; });
  expectRoundTrip<BufferUsage>(0xF, stringifyBufferUsage, [](StringRef s) {
    return symbolizeBufferUsage(s);
  });
  expectRoundTrip<MemoryAccess>(0xF, stringifyMemoryAccess, [](StringRef s) {
    return symbolizeMemoryAccess(s);
  });
  expectRoundTrip<ExecutionStage>(
      0x3F, stringifyExecutionStage,
      [](StringRef s) { return symbolizeExecutionStage(s); });
  expectRoundTrip<CommandCategory>(
      0x3, stringifyCommandCategory,
      [](StringRef s) { return symbolizeCommandCategory(s); });
}

/// Parses `text` as an attribute and prints it back.
std::string roundTripAttribute(MLIRContext &context, StringRef text) {
  Attribute attr = parseAttribute(text, &context);
  if (!attr)
    return "<parse error>";
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  return printed;
}

TEST(EnumsTest, AttributeSpellings) {
  MLIRContext context;
  context.loadDialect<HALDialect>();
  EXPECT_EQ(
      roundTripAttribute(context, "#hal.memory_type<HostVisible|DeviceLocal>"),
      "#hal.memory_type<DeviceLocal|HostVisible>");
  EXPECT_EQ(roundTripAttribute(context, "#hal.buffer_usage<Mapping|Transfer|"
                                        "Dispatch>"),
            "#hal.buffer_usage<All>");
  // Short access forms of layout bindings.
  EXPECT_EQ(roundTripAttribute(context, "#hal.descriptor_set_layout_binding<"
                                        "0, \"StorageBuffer\", Read>"),
            "#hal.descriptor_set_layout_binding<0, \"StorageBuffer\", R>");
  EXPECT_EQ(roundTripAttribute(context, "#hal.descriptor_set_layout_binding<"
                                        "1, \"StorageBuffer\", Write|Read>"),
            "#hal.descriptor_set_layout_binding<1, \"StorageBuffer\", RW>");
  EXPECT_EQ(roundTripAttribute(context, "#hal.descriptor_set_layout_binding<"
                                        "2, \"UniformBuffer\", Discard|Write>"),
            "#hal.descriptor_set_layout_binding<2, \"UniformBuffer\", DW>");
  EXPECT_EQ(roundTripAttribute(context, "#hal.descriptor_set_layout_binding<"
                                        "3, \"StorageBuffer\", W>"),
            "#hal.descriptor_set_layout_binding<3, \"StorageBuffer\", W>");
  EXPECT_EQ(roundTripAttribute(context, "#hal.descriptor_set_layout_binding<"
                                        "4, \"StorageBuffer\", None>"),
            "#hal.descriptor_set_layout_binding<4, \"StorageBuffer\", None>");
}

} // namespace
