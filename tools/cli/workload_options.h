// What `mrlocal workload` and `mrlocal compare` share: where the workload comes from (a
// spec file, a SWIM trace or a preset), the cluster, the model and the time scale.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {

struct WorkloadOptions {
  std::string source;  // SPEC.json or TRACE.tsv
  std::string preset;  // --preset NAME
  bool sim = false;
  std::string cluster;  // a spec string or a cluster preset name
  uint64_t seed = 1;
  double time_scale = 1.0;
  std::string report_dir;
  std::string block_size;  // traces: bytes per map (default 64 MiB, SWIM's replayer)
  std::string trace_app = "wordcount";
  size_t limit = 0;
  std::string calibration;         // empty: the default file, else the built-in model
  int preset_jobs = 0;             // presets with a job count (mars-random); 0: the preset's own
  double noise = -1;               // presets: sigma of the task-time noise; < 0: the preset's
  std::string history;             // rtmr/dc estimates from this history file
  std::string feedback_threshold;  // rtmr's ε, a duration
  double estimate_margin = 0;      // rtmr/dc; 0: the runner's default
  double reduce_slowstart = 0;     // (0, 1]; 0: the spec's (presets: rtmr-* 0.05), else none
  bool quiet = false;
  bool progress = false;  // a simulation's progress even when stderr is not a terminal
};

void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions& o);

struct LoadedWorkload {
  WorkloadSpec spec;
  WorkloadRunOptions run;  // cluster, calibration, seed and time scale filled in
  // Why run.cluster is what it is when neither --cluster nor the spec chose it and it is
  // not this machine (a trace simulated on its own cluster), for one line; else empty.
  std::string cluster_note;
};

// Reads or generates the workload and resolves the cluster (--cluster, else the spec's,
// else, simulating a trace, the cluster it was recorded on (SwimTraceCluster), else one
// node per CPU) and the calibration. Errors are one line, for exit code 2; a simulated
// trace whose cluster is unknown is one, giving the --cluster to use.
Result<LoadedWorkload> LoadWorkloadFromOptions(const WorkloadOptions& o);

}  // namespace mrlocal
