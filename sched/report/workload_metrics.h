// The figures of a run, computed from a RunRecorder: a workload's (many jobs arriving over
// time) with the definitions of RTMR's evaluation (section V) and MarS's TWJCT, and each
// job's. A single job (`mrlocal wordcount`) is a workload of one job: the same figures.
//
// Definitions (times in seconds of the run's clock; a job is "accepted" when the policy
// admitted it, except without admission control, below):
//   accept_ratio   AcceptR = accepted jobs / all jobs.
//   success_ratio  SuccessR = successful jobs / accepted jobs, where a successful job is
//                  an accepted job that completed by its absolute deadline (arrival + D);
//                  a job without a deadline succeeds when it completes; a failed job never.
//   utilization    Util = slot time used by successful jobs / available slot time, where
//                  slot time = sum of (end - start) over every attempt of those jobs,
//                  preempted and failed attempts included, and available slot time =
//                  total slots (a node with a task limit: the limit) x turnaround; turnaround =
//                  from the first job's arrival to the last accepted job's finish. Without
//                  admission control (the paper's Hadoop FIFO) every job counts as accepted and
//                  Util counts the slot time of ALL jobs instead. utilization_successful and
//                  utilization_all give both numerators always.
//   met_all_ratio  met_all / jobs: every job that met its deadline, admitted or not (a
//                  rejected job that never ran has not), over all jobs, the figure a user
//                  who submitted them cares about; a job without a deadline counts as met
//                  when it completes, as in SuccessR. With admission alone it equals
//                  AcceptR x SuccessR; a rejected job that still ran (--best-effort) and
//                  finished in time counts too.
//   miss_ratio     accepted jobs with a deadline that did not succeed (late, failed or
//                  unfinished) / accepted jobs with a deadline; 0 when there are none.
//   twjct          total weighted job completion time, sum of w_j C_j over completed jobs.
//                  MarS's C_j is the completion time measured from time 0 with all jobs
//                  released at 0; our jobs arrive over time (all arrivals >= 0), so C_j is
//                  the response time finish - arrival. twjct_abs = sum of w_j x finish
//                  (MarS's literal C_j, from the run's start) is reported as well.
//   twtct          total weighted task completion time (MarS's section 4.4): sum over the
//                  tasks of completed jobs of W_u x C_u, C_u the end of the task's
//                  successful attempt on the run's clock (absolute, as twjct_abs) and W_u
//                  the task's weight (JobSpec::task_weights), else its job's.
//   latency_s      response time (finish - arrival) of completed jobs; percentiles by
//                  nearest rank: the ceil(q n)-th smallest of n values.
//   makespan_s     last finish - first arrival (over every job that finished).
//   goal_jobs      jobs with a soft completion-time goal, admitted or not; goal_missed:
//                  those that did not complete by it (late, failed, rejected or
//                  unfinished); goal_miss_ratio = goal_missed / goal_jobs.
//   mean_utility   mean over goal_jobs of the job's utility (sched/core/goal_utility.h:
//                  1 - c/g by the goal, g/c - 1 after it, -1 when it never completed).
// Every ratio with an empty denominator is 0, never NaN.
//
// Per job (JobMetrics; times in seconds): arrival_s, start_s (first attempt), finish_s
// and deadline_at_s are on the run's clock; deadline_s is the deadline as the user gave
// it, counted from the arrival plus the run's set-up (a single job's inputs and probe
// count against its deadline); elapsed_s = finish - arrival of a job that ran to an end,
// failed or not; slack_s = deadline - finish (negative: missed by). goal_s and goal_at_s
// as deadline_s and deadline_at_s; met_goal and utility are set for every job with a goal
// (a rejected one too: missed, utility -1), response and goal counted from the arrival
// plus the set-up as the deadline is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/scheduler_stats.h"
#include "sched/report/run_recorder.h"

namespace mrlocal {

struct MetricsContext {
  std::string policy;
  // The policy that decided admission, when the jobs ran under another one (a job that
  // `mrlocal --best-effort` ran under fifo after rtmr rejected it); empty: `policy`.
  std::string admission_policy;
  bool best_effort = false;
  bool sim = false;
  std::string cluster, partitioner;
  int total_slots = 0;
  bool admission_control = true;  // false: RTMR's FIFO rule (all jobs accepted, all slot time)
  // Under admission control, what became of a rejected job: "drop" or "backfill"
  // (Admission::best_effort); empty: not said (a single job, no admission control), and
  // metrics.json says "".
  std::string reject_policy;
  Duration setup{0};  // before the first submission, counted against the deadlines
  const SchedulerStats* scheduler = nullptr;  // nullptr: scheduler figures stay 0
};

struct LatencySummary {
  double p50 = 0, p95 = 0, p99 = 0, mean = 0, max = 0;
};

struct WorkloadMetrics {
  std::string policy, admission_policy;
  bool best_effort = false;
  bool sim = false;
  std::string cluster, partitioner;
  int slots = 0;
  bool admission_control = true;
  std::string reject_policy;  // MetricsContext's
  double setup_s = 0;

  // Counts. accepted includes every job without admission control.
  // rejected: by the admission test, best_effort_jobs included (they ran with no guarantee,
  // in spare slots: --reject-policy backfill).
  uint64_t jobs = 0, accepted = 0, rejected = 0, best_effort_jobs = 0;
  uint64_t completed = 0, failed = 0, unfinished = 0;  // of the accepted jobs
  uint64_t successful = 0;                             // accepted and met the deadline
  uint64_t met_all = 0;                                // met the deadline, admitted or not
  uint64_t deadline_jobs = 0, missed = 0;              // accepted jobs with a deadline
  uint64_t goal_jobs = 0, goal_missed = 0;             // every job with a goal
  double goal_miss_ratio = 0;
  double mean_utility = 0;

  double accept_ratio = 0, success_ratio = 0, met_all_ratio = 0, miss_ratio = 0;
  double utilization = 0;  // = utilization_successful, or _all without admission control
  double utilization_successful = 0, utilization_all = 0;
  double twjct = 0, twjct_abs = 0;
  // A lower bound on twjct_abs under any policy: the LP bound of the workload's MSJO
  // instance (MarS), when the front end solved it; ComputeMetrics leaves it unset.
  std::optional<double> lp_bound;
  // lp_bound is the LP of a calibrated model's task times, not of this run's: a real run's
  // measured times differ, so it bounds twjct_abs only as far as the model holds.
  bool lp_bound_of_model = false;
  double twtct = 0;
  // A lower bound on twtct: the task-level LP bound (sum_u W_u C_u), when the front end
  // solved it; ComputeMetrics leaves it unset.
  std::optional<double> task_lp_bound;
  LatencySummary latency_s;
  double makespan_s = 0, turnaround_s = 0;
  double slot_time_s = 0, slot_time_successful_s = 0;

  // Task attempts, kept or not by the recorder.
  uint64_t attempts = 0, preempted_attempts = 0, failed_attempts = 0;
  // Faults and stragglers: failed attempts run again, speculative copies launched and
  // those that finished first, attempts superseded (another attempt of their task
  // finished first) and their slot time, and the nodes excluded after failures.
  uint64_t retries = 0, speculative_attempts = 0, speculative_won = 0, superseded_attempts = 0;
  double superseded_slot_s = 0;
  struct Exclusion {
    NodeId node = -1;
    double at_s = 0, until_s = 0;
  };
  std::vector<Exclusion> excluded_nodes;

  struct Scheduler {
    uint64_t decisions = 0, launches = 0, preemptions = 0;
    LatencySummary decision_latency_us;  // p50 and p99 set (SchedulerStats' percentiles)
    LatencySummary dispatch_latency_us;  // p50 and p99 set
  } scheduler;
};

WorkloadMetrics ComputeMetrics(const RunRecorder& recorder, const MetricsContext& context);

// One job's figures: metrics.json's per_job entries and jobs.csv's rows.
struct JobMetrics {
  JobId id = 0;
  std::string name, app, queue;
  double weight = 1.0;
  std::string status;                        // succeeded | failed | rejected | unfinished
  std::string failure;                       // empty unless failed
  bool admitted = false;                     // with its deadline promised
  bool best_effort = false;                  // rejected by the test, run in spare slots
  std::string admission;                     // the admission's reason
  std::optional<double> estimated_finish_s;  // the admission's worst case, after arrival
  std::string estimate_source;               // where that estimate came from (history | probe); the
  uint64_t estimate_jobs = 0;                // caller fills both in: the recorder does not know
  double arrival_s = 0;
  std::optional<double> deadline_s, deadline_at_s;
  std::optional<double> start_s, finish_s;  // finish_s: jobs that ran to an end
  double elapsed_s = 0, map_phase_s = 0, reduce_phase_s = 0;
  std::optional<bool> met_deadline;  // jobs with a deadline that ran (best effort included)
  std::optional<double> goal_s, goal_at_s;
  std::optional<bool> met_goal;   // jobs with a goal
  std::optional<double> utility;  // jobs with a goal
  bool successful = false;        // RTMR's: accepted, completed, by its deadline if it has one
  std::optional<double> slack_s;
  uint64_t input_bytes = 0;
  double throughput_mb_s = 0;  // input MB (10^6 bytes) per second of elapsed time
  uint32_t maps = 0, reduces = 0, partitions = 0;
  uint32_t attempts = 0, preempted_attempts = 0, failed_attempts = 0;
  uint32_t retries = 0, speculative_attempts = 0, speculative_won = 0;
  double superseded_slot_s = 0;
  // Why attempts failed ("map 3 attempt 1 on slot 2 (node 1): why"), the first
  // kMaxFailureReasons of them (failed_attempts counts all).
  std::vector<std::string> failure_reasons;
  double slot_time_s = 0;
  // Shuffle plan (zeros when none was made).
  double skewness = 0, balance = 0;
  int plan_row = 0;
  double plan_cost_us = 0, sketch_fill_us = 0;
  std::vector<uint64_t> reduce_load;
  uint64_t map_output_units = 0, skipped_records = 0;
  std::optional<uint64_t> output_records;  // none when the run did not count records (sim)
  uint64_t output_bytes = 0;
  uint64_t remote_shuffle_bytes = 0;  // map-output bytes reduces fetched from other MPI ranks
  std::vector<std::string> warnings;
  std::vector<TopEntry> top;
};

// Every recorded job's figures, in admission order. `setup` as in MetricsContext.
std::vector<JobMetrics> ComputeJobMetrics(const RunRecorder& recorder,
                                          Duration setup = Duration::zero());
// One job's (RunRecorder::counts_records as `counts_records`).
JobMetrics MeasureJob(const JobRecord& job, Duration setup, bool counts_records);

// The ceil(q n)-th smallest value (q in [0, 1]; q = 0 gives the smallest); 0 when empty.
// Reorders `values`.
double NearestRankPercentile(std::vector<double>& values, double q);

}  // namespace mrlocal
