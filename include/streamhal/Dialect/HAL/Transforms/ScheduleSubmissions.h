//===- ScheduleSubmissions.h - queue submissions ordered by fences -*- C++ -*-//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites blocking submissions (`hal.ex.submit_and_wait`) into queue
// submissions ordered by fences, with host waits only where the host touches
// bytes pending work may write (docs/async.md). The `hal-schedule-submissions`
// pass calls it; the `submission=` options of the `convert-flow-to-hal` and
// `streamhal-lower-to-hal` pipelines add that pass.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_SCHEDULESUBMISSIONS_H
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_SCHEDULESUBMISSIONS_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/CommandLine.h"

namespace streamhal {

/// How recorded command buffers reach the device.
enum class SubmissionPolicy {
  /// `hal.ex.submit_and_wait`: the host blocks after every fragment.
  Blocking,
  /// `hal.device.queue.execute` ordered by fences; the host awaits only
  /// before it touches pending results and before returning.
  Async,
};

/// `blocking` and `async`, shared by every option that takes a policy.
inline llvm::cl::ValuesClass getSubmissionPolicyValues() {
  return llvm::cl::values(
      clEnumValN(SubmissionPolicy::Blocking, "blocking",
                 "hal.ex.submit_and_wait: the host waits for every fragment"),
      clEnumValN(SubmissionPolicy::Async, "async",
                 "queue submissions ordered by fences; the host waits only "
                 "where it reads results and before returning"));
}

/// What scheduleSubmissions did, for statistics and reports.
struct SubmissionCounts {
  /// Blocking submissions rewritten into queue submissions.
  unsigned submissions = 0;
  /// Fences in the wait lists of the new submissions.
  unsigned waits = 0;
  /// `hal.fence.await` ops inserted (host blocking points).
  unsigned awaits = 0;
};

/// Rewrites every `hal.ex.submit_and_wait` under `scope` (functions and
/// initializers) into `hal.fence.create` + `hal.device.queue.execute` that
/// waits on the fences of the earlier pending submissions whose accesses
/// conflict with its own (the access model of docs/concurrency.md, applied
/// across command buffers), and inserts `hal.fence.await` before each host
/// access to bytes pending work may write (or, for a host write, read),
/// before calls and region-holding ops that may touch buffers, and before
/// every terminator.
SubmissionCounts scheduleSubmissions(mlir::Operation *scope);

} // namespace streamhal

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_SCHEDULESUBMISSIONS_H
