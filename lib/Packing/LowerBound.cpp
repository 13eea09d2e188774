//===- LowerBound.cpp - Peak live bytes -----------------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"

#include <algorithm>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

int64_t streamhal::packing::computeLowerBound(const PackingProblem &problem) {
  NormalizedProblem normalized = normalize(problem);
  // One event per lifetime end point. At equal times ends sort before starts,
  // so buffers that merely touch ([a, t) and [t, b)) are never counted
  // together. Zero-length lifetimes hold no bytes at any instant.
  struct Event {
    int64_t time;
    int64_t delta;
  };
  std::vector<Event> events;
  events.reserve(2 * normalized.buffers.size());
  for (const NormalizedBuffer &buffer : normalized.buffers) {
    if (buffer.start >= buffer.end || buffer.size == 0)
      continue;
    events.push_back({buffer.start, buffer.size});
    events.push_back({buffer.end, -buffer.size});
  }
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    if (a.time != b.time)
      return a.time < b.time;
    return a.delta < b.delta;
  });
  int64_t live = 0, peak = 0;
  for (const Event &event : events) {
    live += event.delta;
    peak = std::max(peak, live);
  }
  return peak;
}
