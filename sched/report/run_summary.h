// The closing figures of one job run: what `mrlocal` prints at the end and writes to
// metrics.json. Built from the controller's state, so real and simulated runs agree.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/core/controller.h"

namespace mrlocal {

struct RunSummary {
  std::string app;
  std::string status;  // succeeded | failed | rejected
  std::string failure;
  std::string admission;  // the admission's reason
  std::string policy;     // the policy the job ran under
  std::string partitioner;
  std::string cluster;
  uint64_t input_bytes = 0;
  uint32_t maps = 0, reduces = 0, partitions = 0;
  std::optional<double> deadline_s;  // from the command's start: setup_s counts against it
  double setup_s = 0;                // before submission (inputs, a first-run probe)
  double elapsed_s = 0, map_phase_s = 0, reduce_phase_s = 0;
  std::optional<bool> met_deadline;
  std::optional<double> slack_s;  // deadline minus elapsed (negative: missed by)
  double throughput_mb_s = 0;     // input MB (10^6 bytes) per second of elapsed time
  // Admission control (deadline policies). `admitted` is false for a job run anyway with
  // --best-effort after `admission_policy` rejected it (under `policy`, fifo).
  std::string admission_policy;
  bool admitted = true;
  bool best_effort = false;
  std::optional<double> estimated_finish_s;  // worst case, seconds after submission
  std::string estimate_source;               // history | probe; empty: no estimate
  uint64_t estimate_jobs = 0;                // jobs the estimate covers
  // Shuffle plan.
  double skewness = 0, balance = 0, plan_cost_us = 0;
  double sketch_us = 0;  // map tasks filling their sketches, summed
  int plan_row = 0;
  std::vector<uint64_t> reduce_load;
  uint64_t map_output_units = 0;
  uint64_t skipped_records = 0;  // malformed input records skipped (--skip-bad-records)
  // Scheduler overhead.
  uint64_t decisions = 0, launches = 0, preemptions = 0;
  double decision_p50_us = 0, decision_p99_us = 0;
  double dispatch_p50_us = 0, dispatch_p99_us = 0;
  // Output.
  uint64_t output_records = 0, output_bytes = 0;
  std::vector<std::string> warnings;
  std::vector<TopEntry> top;
};

// `setup`: the time before submission, counted against the deadline (the job was submitted
// with the deadline less that), so deadline_s is the deadline as the user gave it.
RunSummary Summarize(const JobState& job, const JobOutcome& outcome, const SchedulerStats& stats,
                     std::string_view policy, std::string_view partitioner,
                     std::string_view cluster, Duration setup = Duration::zero());

// Writes metrics.json atomically (a temporary file, then rename).
Status WriteMetricsJson(const std::filesystem::path& file, const RunSummary& s);

}  // namespace mrlocal
