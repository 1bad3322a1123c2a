// The admission decision as the job commands print it on stderr before any task runs
// (README, "Deadlines"): who decided, the estimated finish and the slack, and for a
// rejected job what would have been admitted.
#pragma once

#include <optional>
#include <string>

#include "sched/core/job.h"
#include "sched/core/policy.h"
#include "sched/estimate/job_history.h"

namespace mrlocal {

struct AdmissionView {
  const JobState* job = nullptr;  // as submitted
  const Admission* admission = nullptr;
  std::string policy;
  std::optional<Duration> deadline;       // as the user gave it, from the command's start
  Duration setup{0};                      // before submission, counted against the deadline
  const AppEstimate* estimate = nullptr;  // what the policy assumed, or null
  double estimate_margin = 1.0;           // by which the policy multiplied its task times
  double confidence = 1.0;                // rtmr's --confidence
  bool best_effort = false;               // a rejected job runs anyway: no hint to do so
};

// "mrlocal: wordcount (16 maps, 2 reduces) admitted by rtmr: estimated finish 12.3 s after
// submission, slack 17.7 s (worst-case history estimates from 4 jobs)\n"; a rejection has a
// second line: what would be admitted, and --best-effort.
std::string FormatAdmission(const AdmissionView& v);
// A rejection's way out, one line ("feasible with --deadline 420ms; --best-effort runs it
// anyway..."), or "" when there is none to give.
std::string AdmissionHint(const AdmissionView& v);

// A duration as --deadline takes it, rounded up to a whole unit: "350ms", "42s", "12m", "3h".
std::string DeadlineArg(Duration d);

// The --deadline a rejection suggests, from the policy's smallest deadline after submission
// and this run's set-up: that set-up, half of it again and kSetUpJitter more. The estimate
// is the same on the next run (a rejected job records no history); the set-up is not: the
// inputs are read and the slot threads started again, on a machine doing other things.
// Measured on the reference machine (README, "Deadlines"), the set-up of a 4.2 MiB
// WordCount varied from 5.3 to 11.1 ms over 12 runs, and a hint with one set-up in it was
// rejected again up to 3 times in 4; the constant covers small set-ups, whose jitter is
// large relative to them, the half covers big ones (generating or reading gigabytes).
Duration SuggestedDeadline(Duration min_deadline, Duration setup);
inline constexpr Duration kSetUpJitter = std::chrono::milliseconds(20);

}  // namespace mrlocal
