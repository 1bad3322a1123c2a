// An app as one job runs it on the real engine: its runtime, its built-in input, its
// tasks' sizes, and how its result is printed (tools/runtime/job_apps.h makes them; the
// app registry, tools/runtime/app_registry.h, holds the rest of what is the app's own).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "engine/job_runtime.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {

// What a job subcommand supplies: its app, and its input when the user gives none.
struct JobApp {
  std::string name;  // "wordcount"
  std::function<std::shared_ptr<const JobRuntime>(JobRuntimeOptions)> make_runtime;
  // The built-in input used when no FILE is given (e.g. WordCount's default corpus).
  std::string default_input_name;
  std::function<std::shared_ptr<const std::string>()> make_default_input;
  // Jobs without input files (Pi): this many map tasks, each given only its index.
  // 0: the job reads files, one map task per split.
  uint32_t index_maps = 0;
  // What an input-less job's tasks weigh for the deadline policies' estimates (rtmr, dc):
  // the size units of each index map (one entry: every map; pi: its samples, synthetic:
  // microseconds of work), and the reduce input the job declares (JobSpec).
  std::vector<uint64_t> index_map_units;
  uint64_t shuffle_units = 0;
  uint64_t max_reduce_units = 0;
  // Prints the job's result on stdout before the closing report, when it succeeded (`run`:
  // the run's figures, its cluster). Default: the top N keys.
  std::function<void(std::ostream&, const WorkloadMetrics& run, const JobMetrics& job)>
      print_result;
};

}  // namespace mrlocal
