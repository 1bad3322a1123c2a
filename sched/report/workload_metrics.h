// The figures of a workload run (many jobs arriving over time), computed from a
// RunRecorder, with the definitions of RTMR's evaluation (section V) and MarS's TWJCT.
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
//                  total slots x turnaround; turnaround = from the first job's arrival to
//                  the last accepted job's finish.
//                  Without admission control (the paper's Hadoop FIFO) every job counts
//                  as accepted and Util counts the slot time of ALL jobs instead.
//                  utilization_successful and utilization_all give both numerators always.
//   miss_ratio     accepted jobs with a deadline that did not succeed (late, failed or
//                  unfinished) / accepted jobs with a deadline; 0 when there are none.
//   twjct          total weighted job completion time, sum of w_j C_j over completed jobs.
//                  MarS's C_j is the completion time measured from time 0 with all jobs
//                  released at 0; our jobs arrive over time (all arrivals >= 0), so C_j is
//                  the response time finish - arrival. twjct_abs = sum of w_j x finish
//                  (MarS's literal C_j, from the run's start) is reported as well.
//   latency_s      response time (finish - arrival) of completed jobs; percentiles by
//                  nearest rank: the ceil(q n)-th smallest of n values.
//   makespan_s     last finish - first arrival (over every job that finished).
// Every ratio with an empty denominator is 0, never NaN.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sched/report/run_recorder.h"
#include "sched/core/scheduler_stats.h"

namespace mrlocal {

struct MetricsContext {
  std::string policy;
  bool sim = false;
  int total_slots = 0;
  bool admission_control = true;  // false: RTMR's FIFO rule (all jobs accepted, all slot time)
  const SchedulerStats* scheduler = nullptr;  // nullptr: scheduler figures stay 0
};

struct LatencySummary {
  double p50 = 0, p95 = 0, p99 = 0, mean = 0, max = 0;
};

struct WorkloadMetrics {
  std::string policy;
  bool sim = false;
  int slots = 0;
  bool admission_control = true;

  // Counts. accepted includes every job without admission control.
  uint64_t jobs = 0, accepted = 0, rejected = 0;
  uint64_t completed = 0, failed = 0, unfinished = 0;  // of the accepted jobs
  uint64_t successful = 0;                              // accepted and met the deadline
  uint64_t deadline_jobs = 0, missed = 0;               // accepted jobs with a deadline

  double accept_ratio = 0, success_ratio = 0, miss_ratio = 0;
  double utilization = 0;  // = utilization_successful, or _all without admission control
  double utilization_successful = 0, utilization_all = 0;
  double twjct = 0, twjct_abs = 0;
  LatencySummary latency_s;
  double makespan_s = 0, turnaround_s = 0;
  double slot_time_s = 0, slot_time_successful_s = 0;

  // Task attempts, kept or not by the recorder.
  uint64_t attempts = 0, preempted_attempts = 0, failed_attempts = 0;

  struct Scheduler {
    uint64_t decisions = 0, launches = 0, preemptions = 0;
    LatencySummary decision_latency_us;  // p50 and p99 set (SchedulerStats' percentiles)
    LatencySummary dispatch_latency_us;  // p50 and p99 set
  } scheduler;
};

WorkloadMetrics ComputeMetrics(const RunRecorder& recorder, const MetricsContext& context);

// The ceil(q n)-th smallest value (q in [0, 1]; q = 0 gives the smallest); 0 when empty.
// Reorders `values`.
double NearestRankPercentile(std::vector<double>& values, double q);

}  // namespace mrlocal
