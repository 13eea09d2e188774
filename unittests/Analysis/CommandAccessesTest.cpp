//===- CommandAccessesTest.cpp - Tests of the command access model --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilDialect.h"

#include "gtest/gtest.h"

#include <limits>
#include <random>
#include <string>

using namespace mlir;
using namespace streamhal;

namespace {

class CommandAccessesTest : public ::testing::Test {
protected:
  CommandAccessesTest() {
    context
        .loadDialect<arith::ArithDialect, func::FuncDialect, util::UtilDialect,
                     flow::FlowDialect, hal::HALDialect>();
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

/// A command buffer with a dispatch through a descriptor set, a copy and a
/// fill into pack slices of one slab.
constexpr const char *kModule = R"mlir(
hal.executable private @ex {
  hal.interface @io {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @entry attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
}
func.func @f(%arg0: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%dev : !hal.device> : !hal.allocator
  %total, %o:3 = hal.allocator.pack<%allocator : !hal.allocator> slices({[0, 1] = %c64, [1, 2] = %c64, [2, 3] = %c64}) : index
  %slab = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal) usage(Dispatch|Transfer) : !hal.buffer{%total}
  %s0 = hal.buffer.subspan<%slab : !hal.buffer>[%o#0, %c64] : !hal.buffer
  %s1 = hal.buffer.subspan<%slab : !hal.buffer>[%o#1, %c64] : !hal.buffer
  %s2 = hal.buffer.subspan<%slab : !hal.buffer>[%o#2, %c64] : !hal.buffer
  %layout = hal.executable_layout.lookup device(%dev : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", R>, #hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%s0 : !hal.buffer)[%c16, %c16] pattern(%c0_i32 : i32)
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%s0 : !hal.buffer)[%c0, %c64], %c1 = (%s1 : !hal.buffer)[%c0, %c64]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vmvx::@entry) workgroups([%c1, %c1, %c1])
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%s2 : !hal.buffer)[%c0] length(%c64)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  return
}
)mlir";

std::string printAccesses(ArrayRef<BufferAccess> accesses) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const BufferAccess &access : accesses) {
    access.print(os);
    os << "; ";
  }
  return text;
}

TEST_F(CommandAccessesTest, AccessesOfEachCommand) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  CommandAccesses analysis(*module);
  ArrayRef<Operation *> commands = analysis.getCommands();
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(printAccesses(analysis.getAccesses(commands[0])),
            "write of allocation %2 [%packed_offsets#0 + 16, +16) (pack slice "
            "0); ");
  EXPECT_EQ(printAccesses(analysis.getAccesses(commands[1])),
            "read of allocation %2 [%packed_offsets#0, +64) (pack slice 0); "
            "write of allocation %2 [%packed_offsets#1, +64) (pack slice 1); ");
  EXPECT_EQ(printAccesses(analysis.getAccesses(commands[2])),
            "read of argument %arg0 [0, 64); write of allocation %2 "
            "[%packed_offsets#2, +64) (pack slice 2); ");
  // The dispatch reads what the fill wrote.
  EXPECT_TRUE(analysis.findConflict(commands[1], commands[0]));
  // Slices 1 ([1, 2]) and 2 ([2, 3]) are live together: the pack keeps
  // them apart. Slices 0 ([0, 1]) and 2 are not: the copy may overwrite the
  // bytes the dispatch reads.
  const BufferAccess &dispatchRead = analysis.getAccesses(commands[1])[0];
  const BufferAccess &dispatchWrite = analysis.getAccesses(commands[1])[1];
  const BufferAccess &copyWrite = analysis.getAccesses(commands[2])[1];
  EXPECT_FALSE(copyWrite.conflictsWith(dispatchWrite));
  EXPECT_TRUE(copyWrite.conflictsWith(dispatchRead));
  // The argument is read only, and never aliases the slab.
  const BufferAccess &copyRead = analysis.getAccesses(commands[2])[0];
  EXPECT_FALSE(copyRead.conflictsWith(dispatchWrite));
}

/// Ranges of one root that share exactly one byte overlap; ranges that only
/// touch do not. Each side is checked against both orders.
TEST_F(CommandAccessesTest, OneSharedByteOverlaps) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%arg0: !hal.buffer, %out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%out : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c0] length(%c16)
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c15] target(%out : !hal.buffer)[%c16] length(%c1)
  hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c16] target(%out : !hal.buffer)[%c16] length(%c4)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  return
}
)mlir");
  ASSERT_TRUE(module);
  CommandAccesses analysis(*module);
  ArrayRef<Operation *> commands = analysis.getCommands();
  ASSERT_EQ(commands.size(), 3u);
  const BufferAccess &written = analysis.getAccesses(commands[0])[1];
  const BufferAccess &lastByte = analysis.getAccesses(commands[1])[0];
  const BufferAccess &after = analysis.getAccesses(commands[2])[0];
  EXPECT_TRUE(written.mayOverlap(lastByte));
  EXPECT_TRUE(lastByte.mayOverlap(written));
  EXPECT_FALSE(written.mayOverlap(after));
  EXPECT_FALSE(after.mayOverlap(written));
  EXPECT_TRUE(analysis.findConflict(commands[1], commands[0]));
}

/// AccessBatch answers like the pairwise test over random accesses mixing
/// roots of every kind, constant and symbolic ranges, and pack slices.
TEST_F(CommandAccessesTest, BatchAgreesWithPairwiseTest) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @values(%v0: index, %v1: index, %v2: index, %v3: index,
                  %s0: index, %s1: index, %s2: index, %s3: index,
                  %s4: index, %s5: index, %s6: index, %s7: index,
                  %s8: index, %s9: index, %s10: index, %s11: index) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto function = *module->getOps<func::FuncOp>().begin();
  Block &entry = function.getBody().front();
  SmallVector<Value> values(entry.getArguments().begin(),
                            entry.getArguments().end());
  Operation *packs[2] = {function, &entry.front()};
  StringAttr globals[2] = {StringAttr::get(&context, "g0"),
                           StringAttr::get(&context, "g1")};
  std::mt19937 random(1234);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random);
  };
  auto makeAccess = [&]() {
    BufferAccess access;
    switch (pick(5)) {
    case 0:
      access.root = {BufferRootKind::Allocation, values[pick(2)], {}};
      break;
    case 1:
      access.root = {BufferRootKind::Argument, values[pick(2)], {}};
      break;
    case 2:
      access.root = {BufferRootKind::BufferView, values[pick(2)], {}};
      break;
    case 3:
      access.root = {BufferRootKind::Global, {}, globals[pick(2)]};
      break;
    default:
      access.root = {BufferRootKind::Unknown, values[pick(2)], {}};
      break;
    }
    access.reads = pick(2);
    access.writes = !access.reads || pick(2);
    RootByteRange &range = access.range;
    range.offset = pick(8) * 16;
    if (pick(4) != 0)
      range.length = pick(5) * 16;
    if (pick(3) == 0)
      range.base = values[2 + pick(2)];
    range.startKnown = pick(8) != 0;
    if (pick(2)) {
      int pack = pick(2);
      range.pack = packs[pack];
      range.slice = pick(6);
      // As in real IR, a slice's range starts at the pack's offset for it.
      range.base = values[4 + 6 * pack + range.slice];
      range.startKnown = true;
      // Lifetimes derived from the slice so that one slice has one lifetime.
      range.sliceStart = range.slice;
      range.sliceEnd = range.slice + 1 + (range.slice % 3 == 0);
    } else if (pick(3) == 0) {
      // A lane of a materialized pack, with a lower bound on its base.
      range.lanePack = pick(2);
      range.lane = pick(3);
      range.baseFloor = pick(4) * 16;
    }
    return access;
  };
  for (int round = 0; round < 4000; ++round) {
    AccessBatch batch;
    SmallVector<BufferAccess> pending;
    int length = 1 + pick(24);
    for (int step = 0; step < length; ++step) {
      BufferAccess access = makeAccess();
      bool expected = llvm::any_of(pending, [&](const BufferAccess &earlier) {
        return access.conflictsWith(earlier);
      });
      const BufferAccess *found = batch.findConflict(access);
      ASSERT_EQ(found != nullptr, expected) << "round " << round;
      // Braced: EXPECT_TRUE is an if/else, which would make the else dangle.
      if (found) {
        EXPECT_TRUE(access.conflictsWith(*found));
      }
      batch.add(access);
      pending.push_back(access);
    }
  }
}

/// Of the accesses of one root outside pack slices, the batch returns the
/// earliest conflicting read (for a write), else the earliest conflicting
/// write, as the scan it replaced did (the verifier names that access in its
/// race diagnostic). Ranges mix bases, lanes, lower bounds, unknown starts
/// and lengths, negative lengths and ends that overflow.
TEST_F(CommandAccessesTest, BatchFindsTheEarliestConflict) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @values(%slab: index, %b0: index, %b1: index, %b2: index) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto function = *module->getOps<func::FuncOp>().begin();
  Block &entry = function.getBody().front();
  std::mt19937 random(99);
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random);
  };
  // Accesses are told apart by their command (never dereferenced here).
  auto tag = [](int id) {
    return reinterpret_cast<Operation *>(static_cast<uintptr_t>(id + 1) * 16);
  };
  auto makeAccess = [&](int id) {
    BufferAccess access;
    access.command = tag(id);
    access.root = {BufferRootKind::Allocation, entry.getArgument(0), {}};
    access.reads = pick(2);
    access.writes = !access.reads || pick(2);
    RootByteRange &range = access.range;
    range.offset = pick(16) * 8;
    switch (pick(10)) {
    case 0:
      break; // unknown length
    case 1:
      range.length = -8;
      break;
    case 2:
      range.offset = std::numeric_limits<int64_t>::max() - 8;
      range.length = 64;
      break;
    default:
      range.length = (1 + pick(6)) * 8;
    }
    if (pick(3) == 0)
      range.base = entry.getArgument(1 + pick(3));
    range.startKnown = pick(12) != 0;
    if (pick(2)) {
      range.lanePack = pick(2);
      range.lane = pick(3);
      range.baseFloor = pick(6) * 8;
    }
    return access;
  };
  for (int round = 0; round < 4000; ++round) {
    AccessBatch batch;
    SmallVector<BufferAccess> pending;
    int length = 1 + pick(40);
    for (int step = 0; step < length; ++step) {
      BufferAccess access = makeAccess(step);
      const BufferAccess *expected = nullptr;
      for (bool readsFirst : {true, false}) {
        if (readsFirst && !access.writes)
          continue;
        for (const BufferAccess &earlier : pending)
          if ((readsFirst ? earlier.reads : earlier.writes) &&
              access.conflictsWith(earlier) && !expected)
            expected = &earlier;
      }
      const BufferAccess *found = batch.findConflict(access);
      ASSERT_EQ(found != nullptr, expected != nullptr) << "round " << round;
      if (found) {
        EXPECT_EQ(found->command, expected->command) << "round " << round;
      }
      batch.add(access);
      pending.push_back(access);
    }
  }
}

} // namespace
