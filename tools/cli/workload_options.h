// What `mrlocal workload` and `mrlocal compare` share: where the workload comes from (a
// spec file, a SWIM trace or a preset), the cluster, the model and the time scale.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {

// What the user gave; each option's range is checked while parsing (AddWorkloadOptions).
// An option left empty (std::nullopt, or an empty string) was not given.
struct WorkloadOptions {
  std::string source;  // SPEC.json or TRACE.tsv
  std::string preset;  // --preset NAME
  bool sim = false;
  std::optional<std::string> availability_as;  // throttle (the default) or load; real runs
  std::string cluster;                         // a spec string or a cluster preset name
  uint64_t seed = 1;
  double time_scale = 1.0;
  std::string report_dir;
  std::optional<std::string> goal;  // --goal DUR: the goal of every job that has none
  // Traces only.
  std::optional<std::string> block_size;  // bytes per map (default 64 MiB, SWIM's replayer)
  std::optional<std::string> trace_app;   // default: wordcount
  std::optional<size_t> limit;            // only the first N jobs
  std::string calibration;                // empty: the default file, else the built-in model
  // Presets only.
  std::optional<size_t> preset_jobs;  // presets with a job count (mars-*, dynshare)
  std::optional<double> noise;        // sigma of the task-time noise
  // Simulation over several hosts (sched/sim/network_model.h): --hosts N, --link RATE[,LAT].
  std::optional<int> hosts;
  std::optional<std::string> link;
  std::optional<int> concurrency;   // dynshare's concurrency parameter
  bool task_weights = false;        // mars-random, mars-uniform: W_u per task
  std::vector<std::string> params;  // --param NAME=VALUE, each
  // Other parameters by name (PresetParameters), e.g. the point of `compare --sweep`.
  std::map<std::string, double> preset_parameters;
  // The arrival-rate multiplier, > 0 (a point of `compare --load`): every arrival time is
  // divided by it; the jobs, their relative deadlines and goals and the availability
  // profiles (the machine's, not the workload's) stay as they are. 1: the workload as given.
  double load = 1.0;
  // Policies that read them only.
  std::string history;                       // rtmr/dc estimates from this history file
  std::optional<std::string> estimator;      // history (default) or knn
  std::string feedback_threshold;            // rtmr's epsilon, a duration
  std::string batch_interval;                // so-mars's B, a duration
  std::string preempt;                       // dynprio/capacity: a duration; empty: no preemption
  std::string allocation_interval;           // dynprio/capacity: a duration
  std::optional<double> estimate_margin;     // rtmr/dc; none: the runner's default
  std::optional<double> confidence;          // rtmr; none: 1
  std::optional<int> fault_budget;           // rtmr; none: 0
  std::optional<double> lof_threshold;       // llf; none: its default
  std::optional<int> lof_min_pts;            // llf; none: its default
  std::optional<double> reduce_slowstart;    // none: the spec's (presets: rtmr-* 0.05), else 1
  std::optional<std::string> forecast;       // known, learned, constant; none: the spec's
  std::optional<std::string> reject_policy;  // rtmr/dc: drop, backfill; none: backfill
  bool quiet = false;
  bool progress = false;  // a simulation's progress even when stderr is not a terminal
  // Retries and injected faults (added to the spec's "faults").
  int max_attempts = 4;
  std::vector<std::string> inject;
  bool speculative = false;                 // under the policies that do not veto it
  std::optional<std::string> memory_limit;  // real runs; none: MemoryLimit::DefaultBytes()
};

void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions& o);

struct LoadedWorkload {
  WorkloadSpec spec;
  WorkloadRunOptions run;  // cluster, calibration, seed and time scale filled in
  // Why run.cluster is what it is when neither --cluster nor the spec chose it and it is
  // not this machine (a trace simulated on its own cluster), for one line; else empty.
  std::string cluster_note;
};

// Where the dynshare preset looks for the shared graphs: $MRLOCAL_DATASETS when set, else
// ../shared/datasets (relative to the current directory: the repository's root).
std::string SharedDatasetsDir();

// Reads or generates the workload and resolves the cluster (--cluster, else the spec's,
// else, simulating a trace, the cluster it was recorded on (SwimTraceCluster), else one
// node per CPU) and the calibration. Errors are one line, for exit code 2; a simulated
// trace whose cluster is unknown is one, giving the --cluster to use; so is an option that
// does not apply to this workload (--limit to a preset).
Result<LoadedWorkload> LoadWorkloadFromOptions(const WorkloadOptions& o);

// An error naming the option when --history, --estimator, --estimate-margin,
// --feedback-threshold, --batch-interval, --lof-threshold, --lof-min-pts or --reject-policy
// is given and none of `policies` reads it.
Status CheckPolicyOptions(const WorkloadOptions& o, const std::vector<std::string>& policies);

// An error naming `option` when it is `given` and none of `policies` reads `setting`
// ("--lof-threshold applies to --policy llf only").
Status CheckSettingOption(bool given, std::string_view option, std::string_view setting,
                          const std::vector<std::string>& policies);

// The options of llf's overload detector, on a job or workload command.
void AddLofOptions(CLI::App* cmd, std::optional<double>& threshold, std::optional<int>& min_pts);
// Sets the settings of those given.
void SetLofSettings(std::optional<double> threshold, std::optional<int> min_pts, PolicyArgs& args);
// dynprio and capacity's --allocation-interval and --preempt (durations; empty: not given).
void AddQueueShareOptions(CLI::App* cmd, std::string& allocation_interval, std::string& preempt);
// An error when one is given and none of `policies` reads it.
Status CheckQueueShareOptions(const std::string& allocation_interval, const std::string& preempt,
                              const std::vector<std::string>& policies);
// Sets the settings of those given.
void SetQueueShareSettings(const std::string& allocation_interval, const std::string& preempt,
                           PolicyArgs& args);
// --max-attempts N (1 to 100) and --inject SPEC (repeatable): retries and injected faults.
void AddFaultOptions(CLI::App* cmd, int& max_attempts, std::vector<std::string>& inject);
// --memory-limit SIZE: the process's memory limit (engine/memory_limit.h), from 64 MiB to
// the machine's memory.
void AddMemoryLimitOption(CLI::App* cmd, std::optional<std::string>& limit);
// --fault-budget N, rtmr's failed attempts per job its guarantee covers (the setting).
void AddFaultBudgetOption(CLI::App* cmd, std::optional<int>& budget);
// --confidence C, in (0, 1], for rtmr's admission (the "confidence" setting).
void AddConfidenceOption(CLI::App* cmd, std::optional<double>& confidence);

}  // namespace mrlocal
