// Policies by their stable name: the name `--policy` takes and the reports print.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/estimate/job_history.h"
#include "sched/core/policy.h"

namespace mrlocal {

// What some policies need beyond the cluster view.
struct PolicyOptions {
  // rtmr, rtmr-nofb, dc: task-time estimates per app. Must outlive the policy; null: none
  // (every job with a deadline is then rejected for want of an estimate).
  const JobHistory* history = nullptr;
  // rtmr: ε of the feedback controller; none: the finished job's median map time.
  std::optional<Duration> feedback_threshold;
  // rtmr, dc: every estimated task time is multiplied by this (>= 1). 1 in simulation,
  // where the model's worst case is exact; more for real runs on a shared machine.
  double estimate_margin = 1.0;
};

// The margin of real runs: they share the machine with everything else on it, so a task
// can be slower than the slowest the history has seen.
inline constexpr double kRealEstimateMargin = 1.5;

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name,
                                           const PolicyOptions& options = {});
std::vector<std::string> PolicyNames();
// True for the policies that admit by deadline and need PolicyOptions::history.
bool PolicyUsesHistory(std::string_view name);

}  // namespace mrlocal
