//===- LiveBytes.cpp - Peak of live bytes over a run's accesses -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/LiveBytes.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <utility>

using namespace streamhal::exec;

void LiveByteMeter::track(uint64_t buffer, int64_t length) {
  buffers[buffer].length = length;
}

void LiveByteMeter::splitAt(Buffer &buffer, int64_t offset) {
  auto next = buffer.runs.upper_bound(offset);
  if (next == buffer.runs.begin())
    return;
  auto containing = std::prev(next);
  Run &run = containing->second;
  if (containing->first == offset || run.end <= offset)
    return;
  Run tail = run;
  run.end = offset;
  buffer.runs.emplace(offset, tail);
}

void LiveByteMeter::access(uint64_t buffer, int64_t offset, int64_t length,
                           bool reads, bool writes) {
  auto it = buffers.find(buffer);
  if (it == buffers.end() || length <= 0 || (!reads && !writes))
    return;
  Buffer &state = it->second;
  int64_t end = offset + length;
  splitAt(state, offset);
  splitAt(state, end);
  auto first = state.runs.lower_bound(offset);
  auto last = state.runs.lower_bound(end);
  if (!reads) {
    // A new value replaces whatever the bytes held.
    for (auto run = first; run != last; ++run)
      state.ended.push_back({run->second.end - run->first, run->second.written,
                             run->second.lastRead});
    state.runs.erase(first, last);
    state.runs.emplace(offset, Run{end, now, now});
    return;
  }
  // A read extends the values it finds; an in-place update also starts one
  // in the bytes that held none.
  int64_t covered = offset;
  std::vector<std::pair<int64_t, int64_t>> gaps;
  for (auto run = first; run != last; ++run) {
    run->second.lastRead = now;
    if (run->first > covered)
      gaps.emplace_back(covered, run->first);
    covered = run->second.end;
  }
  if (covered < end)
    gaps.emplace_back(covered, end);
  if (writes)
    for (auto [gapStart, gapEnd] : gaps)
      state.runs.emplace(gapStart, Run{gapEnd, now, now});
}

int64_t
LiveByteMeter::getPeak(llvm::function_ref<bool(uint64_t)> excluded) const {
  // +bytes at the step a value is written, -bytes after its last read.
  std::vector<std::pair<int64_t, int64_t>> changes;
  auto add = [&](int64_t bytes, int64_t written, int64_t lastRead) {
    changes.emplace_back(written, bytes);
    changes.emplace_back(lastRead + 1, -bytes);
  };
  for (const auto &[key, buffer] : buffers) {
    if (excluded(key))
      continue;
    for (const Lifetime &lifetime : buffer.ended)
      add(lifetime.bytes, lifetime.written, lifetime.lastRead);
    for (const auto &[start, run] : buffer.runs)
      add(run.end - start, run.written, run.lastRead);
  }
  // At one step, values that ended before it leave before new ones come.
  llvm::sort(changes);
  int64_t live = 0, peak = 0;
  for (auto [step, bytes] : changes) {
    live += bytes;
    peak = std::max(peak, live);
  }
  return peak;
}

int64_t LiveByteMeter::getTrackedBytes(
    llvm::function_ref<bool(uint64_t)> excluded) const {
  int64_t bytes = 0;
  for (const auto &[key, buffer] : buffers)
    if (!excluded(key))
      bytes += buffer.length;
  return bytes;
}

int64_t
LiveByteMeter::countTracked(llvm::function_ref<bool(uint64_t)> excluded) const {
  return llvm::count_if(
      buffers, [&](const auto &entry) { return !excluded(entry.first); });
}

void LiveByteMeter::clear() {
  buffers.clear();
  now = 0;
}
