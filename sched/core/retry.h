// Failed attempts, as Hadoop treats them (issue 19): a task whose attempt failed for a
// reason that may not happen again elsewhere runs again, up to max_attempts failures
// (mapreduce.map.maxattempts); a node on which attempts of several jobs failed, far more
// often than on the others, is excluded for a while (Hadoop's node blacklisting), never
// more than a third of the cluster's nodes
// (yarn.app.mapreduce.am.job.node-blacklisting.ignore-threshold-node-percent).
#pragma once

#include <chrono>
#include <cstdint>

#include "engine/status.h"
#include "sched/core/clock.h"

namespace mrlocal {

struct RetryOptions {
  // A task's job fails when this many of its attempts have failed; 1: no retry.
  uint32_t max_attempts = 4;
  static constexpr uint32_t kMaxAttemptsLimit = 100;
  // A node on which attempts of this many different jobs failed is excluded, if so many
  // failures there are this unlikely at the other nodes' failure rate (a bound on the
  // chance: Controller::FailuresStandOut); exclude_after_jobs 0: never.
  uint32_t exclude_after_jobs = 3;
  double exclusion_evidence = 1e-3;
  Duration exclude_for = std::chrono::minutes(1);
  // At most this fraction of the nodes is excluded at once (so with fewer than 3 nodes,
  // none is): past it the failures say more about the jobs than about the nodes.
  double max_excluded_fraction = 1.0 / 3;
};

// Whether an attempt that failed with `why` may succeed on another slot. An I/O error (the
// OS refused, a rank died, an injected fault) or an internal failure may not happen again;
// what the input or the job itself says cannot change by running it again: a malformed
// record (InvalidArgument), a missing file or block (NotFound), data whose every replica
// failed its checksum (Corruption), and a job whose data outgrew the process's memory
// limit (ResourceExhausted: another attempt would hold as much). Those fail the job at
// once. Aborted is a cancellation, not a failure.
inline bool Retriable(const Status& why) {
  return why.code() == Status::Code::kIoError || why.code() == Status::Code::kInternal;
}

}  // namespace mrlocal
