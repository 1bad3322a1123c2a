// Running one MapReduce job from the command line: the options every job subcommand takes,
// their validation, and what is printed around the run (tools/runtime/job_run.h runs it).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/cli/command.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

// What the user gave; an option not given is empty (std::nullopt) where that differs from
// any value it may be given ("--reduces 0" is an error, no --reduces is the default).
struct JobOptions {
  std::vector<std::string> inputs;
  std::string output;                   // -o DIR; empty: the output is computed, then discarded
  std::optional<std::string> deadline;  // e.g. "30s"; none: best effort
  std::optional<std::string> goal;      // a soft completion-time goal, e.g. "30s"; none: none
  // None: rtmr with a deadline, fifo without.
  std::optional<std::string> policy;
  // Task-time estimates per app, read by the deadline policies and updated after each
  // successful job (sched/estimate/job_history.h). None: DefaultHistoryPath(), and only
  // for a policy that needs an estimator.
  std::optional<std::string> history;
  // What a deadline policy estimates with: "history" (the default) or "knn" (the kNN
  // estimator over the history file's observations, tools/runtime/run_estimator.h).
  std::optional<std::string> estimator;
  bool best_effort = false;       // run a job the admission rejected anyway, under fifo
  std::string cluster;            // empty: one node per allowed CPU, (1m,1r,1.0) each
  std::optional<int> reduces;     // none: one per reduce slot
  std::optional<int> partitions;  // none: R for hash, 4R otherwise
  std::string partitioner = "dp-sketch";
  int sketch_rows = 4;
  std::string block_size = "32MiB";
  std::string store;  // --store DIR: read inputs from a persistent block store
  std::string report_dir;
  int top = 10;
  bool overwrite = false;
  bool skip_bad_records = false;
  bool no_pin = false;
  bool quiet = false;
  // llf's overload detector (--lof-threshold, --lof-min-pts); none: its defaults.
  std::optional<double> confidence;  // rtmr; none: 1
  std::optional<int> fault_budget;   // rtmr; none: 0
  std::optional<double> lof_threshold;
  std::optional<int> lof_min_pts;
  // dynprio, capacity: the job's paying queue, the queues file it is defined in and
  // charged to (tools/runtime/queues_file.h), and the policies' settings (empty: not given).
  std::optional<std::string> queue;
  std::optional<std::string> queues_file;
  std::string allocation_interval;
  std::string preempt;
  // Faults: attempts a task may fail (Hadoop's mapreduce.map.maxattempts), and faults to
  // inject (sched/core/fault_injection.h).
  int max_attempts = 4;
  std::vector<std::string> inject;
  // Speculative execution (sched/core/speculation.h); none: on unless the policy vetoes it.
  std::optional<bool> speculative;
  std::optional<std::string> memory_limit;  // none: MemoryLimit::DefaultBytes()
};

// Registers the common job options on `cmd`. Jobs without input files (Pi) take only
// the options that make sense for them: no input, block store, shuffle or top-N options.
enum class JobInput { kFiles, kNone };
void AddJobOptions(CLI::App* cmd, JobOptions& o, JobInput input = JobInput::kFiles);

// Runs the job and prints its progress, top keys and closing report; returns the exit code.
int RunJob(const JobOptions& o, const JobApp& app);

}  // namespace mrlocal
