// The admission decision as the job commands print it on stderr before any task runs
// (README, "Deadlines"): who decided, the estimated finish and the slack, and for a
// rejected job what would have been admitted.
#pragma once

#include <optional>
#include <string>

#include "sched/core/job.h"
#include "sched/estimate/job_history.h"
#include "sched/core/policy.h"

namespace mrlocal {

struct AdmissionView {
  const JobState* job = nullptr;  // as submitted
  const Admission* admission = nullptr;
  std::string policy;
  std::optional<Duration> deadline;       // as the user gave it, from the command's start
  Duration setup{0};                      // before submission, counted against the deadline
  const AppEstimate* estimate = nullptr;  // what the policy assumed, or null
  double estimate_margin = 1.0;           // by which the policy multiplied its task times
  bool best_effort = false;               // a rejected job runs anyway: no hint to do so
};

// "mrlocal: wordcount (16 maps, 2 reduces) admitted by rtmr: estimated finish 12.3 s after
// submission, slack 17.7 s (worst-case history estimates from 4 jobs)\n"; a rejection has a
// second line: what would be admitted, and --best-effort.
std::string FormatAdmission(const AdmissionView& v);

// A duration as --deadline takes it, rounded up to a whole unit: "350ms", "42s", "12m", "3h".
std::string DeadlineArg(Duration d);

}  // namespace mrlocal
