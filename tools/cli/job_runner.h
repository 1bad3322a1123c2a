// Running one MapReduce job from the command line: the options every job subcommand takes,
// and the glue that builds the block store, the slots, the controller and the reports.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "engine/job_runtime.h"
#include "tools/cli/command.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

struct JobOptions {
  std::vector<std::string> inputs;
  std::string output;    // -o DIR; empty: the output is computed, then discarded
  std::string deadline;  // e.g. "30s"; not given: best effort
  // Not given: rtmr with a deadline, fifo without.
  std::string policy = "fifo";
  // Task-time estimates per app, read by the deadline policies and updated after each
  // successful job (sched/estimate/job_history.h). Empty: DefaultHistoryPath().
  std::string history;
  bool best_effort = false;  // run a job the admission rejected anyway, under fifo
  std::string cluster;       // empty: one node per allowed CPU, (1m,1r,1.0) each
  int reduces = 0;           // 0: one per reduce slot
  int partitions = 0;        // 0: R for hash, 4R otherwise
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
  // Set by AddJobOptions; used to tell "--reduces 0" from "not given".
  CLI::Option* reduces_opt = nullptr;
  CLI::Option* partitions_opt = nullptr;
  CLI::Option* deadline_opt = nullptr;
  CLI::Option* policy_opt = nullptr;
  CLI::Option* history_opt = nullptr;
};

// Registers the common job options on `cmd`. Jobs without input files (Pi) take only
// the options that make sense for them: no input, block store, shuffle or top-N options.
enum class JobInput { kFiles, kNone };
void AddJobOptions(CLI::App* cmd, JobOptions& o, JobInput input = JobInput::kFiles);

// Runs the job and prints its progress, top keys and closing report; returns the exit code.
int RunJob(const JobOptions& o, const JobApp& app);

}  // namespace mrlocal
