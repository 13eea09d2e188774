//===- LiveBytes.h - Peak of live bytes over a run's accesses --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lower bound of a transient plan: how many bytes of the tracked buffers
// hold a value some later access still reads, at the worst moment of a run.
// A byte is live from the access that writes a value into it to the last
// access that reads that value (a value never read is live at its write
// only); an access that reads and writes (an in-place update) continues the
// value it reads. Time advances one step per command, so a command's
// operands and results are live together, as they are on a device.
//
// No plan of the same commands in the same order can hold these values in
// fewer bytes: two values live at one step need disjoint bytes. The meter
// keeps, per buffer, runs of bytes holding one value (an ordered map of
// ranges), so its cost follows the number of values, not of bytes.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_EXEC_LIVEBYTES_H
#define STREAMHAL_EXEC_LIVEBYTES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <map>
#include <vector>

namespace streamhal::exec {

/// Measures the peak of live bytes of tracked buffers (keyed by an id that
/// no other buffer of the run shares) over a sequence of accesses.
class LiveByteMeter {
public:
  /// Starts tracking buffer `buffer` of `length` bytes; accesses of
  /// untracked buffers are ignored.
  void track(uint64_t buffer, int64_t length);
  bool isTracked(uint64_t buffer) const { return buffers.count(buffer); }

  /// One access of `[offset, offset + length)` of `buffer` at the current
  /// step. An access that only writes starts a new value; one that reads
  /// (and maybe writes) extends the value each byte holds to this step.
  void access(uint64_t buffer, int64_t offset, int64_t length, bool reads,
              bool writes);
  /// Ends the current step: later accesses happen after it.
  void step() { ++now; }

  /// The most bytes live at one step in the tracked buffers for which
  /// `excluded` is false.
  int64_t getPeak(llvm::function_ref<bool(uint64_t)> excluded) const;
  /// The bytes of the tracked buffers for which `excluded` is false.
  int64_t getTrackedBytes(llvm::function_ref<bool(uint64_t)> excluded) const;
  /// How many tracked buffers `excluded` is false for.
  int64_t countTracked(llvm::function_ref<bool(uint64_t)> excluded) const;

  /// Forgets every buffer and access.
  void clear();

private:
  /// A run of bytes holding one value: where it ends and the steps of the
  /// value's write and of its last read.
  struct Run {
    int64_t end = 0;
    int64_t written = 0;
    int64_t lastRead = 0;
  };
  /// One value's bytes and lifetime, once its run is overwritten.
  struct Lifetime {
    int64_t bytes = 0;
    int64_t written = 0;
    int64_t lastRead = 0;
  };
  struct Buffer {
    int64_t length = 0;
    /// Runs by start offset; bytes no run covers hold no value.
    std::map<int64_t, Run> runs;
    std::vector<Lifetime> ended;
  };
  /// Splits the run containing `offset` so that a run starts there.
  static void splitAt(Buffer &buffer, int64_t offset);

  llvm::DenseMap<uint64_t, Buffer> buffers;
  int64_t now = 0;
};

} // namespace streamhal::exec

#endif // STREAMHAL_EXEC_LIVEBYTES_H
