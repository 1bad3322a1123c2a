#include "tools/cli/workload_options.h"

#include "datasets/workload_file.h"
#include "datasets/workload_presets.h"
#include "engine/slot_worker.h"
#include "sched/core/units.h"
#include "tools/runtime/calibration_file.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {

void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions& o) {
  std::string presets;
  for (auto& n : PresetNames()) presets += (presets.empty() ? "" : " | ") + n;
  std::string clusters;
  for (auto& n : ClusterPresetNames()) clusters += (clusters.empty() ? "" : " | ") + n;
  cmd->add_option("WORKLOAD", o.source, "A workload spec (.json) or a SWIM trace (.tsv)");
  cmd->add_option("--preset", o.preset, "A generated workload: " + presets);
  cmd->add_flag("--sim", o.sim, "Simulate instead of running the jobs on the local slots");
  cmd->add_option("--cluster", o.cluster,
                  "Cluster spec, e.g. '3000x(1m,1r,1.0)', or a preset: " + clusters +
                      " (default: the workload's; --sim on a SWIM trace: the trace's own; else one "
                      "node per CPU)");
  cmd->add_option("--seed", o.seed, "Seed of the preset's draws and the model's noise")
      ->capture_default_str();
  cmd->add_option("--time-scale", o.time_scale,
                  "Multiply arrival times, deadlines and availability steps by X "
                  "(0.05: a 20-minute workload's arrivals in one minute)")
      ->capture_default_str();
  cmd->add_option("--report", o.report_dir, "Write the report files to DIR");
  cmd->add_option("--block-size", o.block_size,
                  "Traces: input bytes per map task (default 64MiB, as SWIM's replayer)");
  cmd->add_option("--trace-app", o.trace_app, "Traces: the calibrated app that models their jobs")
      ->capture_default_str();
  cmd->add_option("--limit", o.limit, "Traces: only the first N jobs");
  cmd->add_option("--jobs", o.preset_jobs, "Presets with a job count (mars-random): how many");
  cmd->add_option("--calibration", o.calibration,
                  "Task-time model (default: " + DefaultCalibrationPath().string() +
                      " if it exists, else the built-in one)");
  cmd->add_option("--noise", o.noise,
                  "Presets: sigma of the log-normal factor on each task's time (default 0)");
  cmd->add_option("--history", o.history,
                  "rtmr/dc: task-time estimates from this history file (default: in "
                  "simulation the model's worst case, for real the user's history file)");
  cmd->add_option("--feedback-threshold", o.feedback_threshold,
                  "rtmr: feedback threshold epsilon (default: the finished job's median map time)");
  cmd->add_option("--estimate-margin", o.estimate_margin,
                  "rtmr/dc: multiply every estimated task time by X >= 1 (default: 1 in "
                  "simulation, 1.5 for real runs)");
  cmd->add_option("--reduce-slowstart", o.reduce_slowstart,
                  "Fraction F in (0, 1] of a job's maps done before its reduces may take slots "
                  "(Hadoop's reduce slow-start; rtmr opts out; 1: once all are; default: the "
                  "spec's, rtmr-* presets 0.05, else 1)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress lines on stderr");
  cmd->add_flag("--progress", o.progress,
                "--sim: progress lines on stderr even when it is not a terminal");
}

Result<LoadedWorkload> LoadWorkloadFromOptions(const WorkloadOptions& o) {
  LoadedWorkload w;
  if (o.source.empty() == o.preset.empty())
    return Status::InvalidArgument("give either a WORKLOAD file or --preset NAME (not both)");
  if (!(o.time_scale > 0) || o.time_scale > 1e6)
    return Status::InvalidArgument("--time-scale must be a positive number");
  if (!o.preset.empty()) {
    PresetOptions po;
    if (o.preset_jobs < 0) return Status::InvalidArgument("--jobs must be positive");
    if (o.preset_jobs > 0) po.jobs = o.preset_jobs;
    if (o.noise >= 0) po.noise = o.noise;
    auto spec = MakePreset(o.preset, o.seed, po);
    if (!spec.ok()) return spec.status();
    w.spec = std::move(spec).value();
  } else {
    TraceOptions to;
    if (!o.block_size.empty()) {
      auto bs = ParseSize(o.block_size);
      if (!bs.ok()) return Status::InvalidArgument("--block-size: " + bs.status().message());
      if (*bs == 0) return Status::InvalidArgument("--block-size must be positive");
      to.block_size = *bs;
    }
    to.app = o.trace_app;
    to.limit = o.limit;
    auto spec = LoadWorkload(o.source, AppRegistry::BuiltIn().schemas(), to);
    if (!spec.ok()) return spec.status();
    w.spec = std::move(spec).value();
  }

  if (!o.cluster.empty()) {
    auto preset = ClusterPreset(o.cluster);
    if (preset.ok()) {
      w.run.cluster = *preset;
    } else {
      auto c = ClusterSpec::Parse(o.cluster);
      if (!c.ok()) return c.status();
      w.run.cluster = *c;
    }
  } else if (w.spec.cluster) {
    w.run.cluster = *w.spec.cluster;
  } else if (o.sim && IsSwimTracePath(o.source)) {
    std::optional<ClusterSpec> recorded = SwimTraceCluster(o.source);
    if (!recorded)
      return Status::InvalidArgument(
          o.source +
          ": unknown cluster size (only FB-2009 and FB-2010 traces are known, by name: 600 "
          "and 3000 machines); simulate it with --cluster 'Nx(1m,1r,1.0)' for its N machines");
    w.run.cluster = *recorded;
    w.cluster_note = "simulating on " + recorded->ToString() + ", the " +
                     std::to_string(recorded->nodes()) +
                     " machines the trace was recorded on (SWIM; one map and one reduce slot "
                     "each): --cluster to change it";
  } else {
    w.run.cluster = ClusterSpec::Default(static_cast<int>(AllowedCpus().size()));
  }

  if (!o.calibration.empty()) {
    auto c = LoadCalibration(o.calibration);
    if (!c.ok()) return c.status();
    w.run.calibration = std::move(c).value();
  } else {
    auto c = LoadDefaultCalibration();
    if (!c.ok()) return c.status();
    w.run.calibration = std::move(c).value();
  }
  if (o.noise >= 0 && o.preset.empty())
    return Status::InvalidArgument("--noise applies to presets (a spec file sets model.noise)");
  if (!o.history.empty()) {
    auto h = LoadHistory(o.history);
    if (!h.ok()) return h.status().WithContext("--history: ");
    w.run.history = std::move(h).value();
  }
  if (!o.feedback_threshold.empty()) {
    auto d = ParseDuration(o.feedback_threshold);
    if (!d.ok()) return Status::InvalidArgument("--feedback-threshold: " + d.status().message());
    w.run.policy_args.Set(kFeedbackThreshold, *d);
  }
  if (o.estimate_margin != 0) {
    if (!(o.estimate_margin >= 1 && o.estimate_margin <= 100))
      return Status::InvalidArgument("--estimate-margin must be between 1 and 100");
    w.run.policy_args.Set(kEstimateMargin, o.estimate_margin);
  }
  if (o.reduce_slowstart != 0) {
    if (!(o.reduce_slowstart > 0 && o.reduce_slowstart <= 1))
      return Status::InvalidArgument("--reduce-slowstart must be a fraction in (0, 1]");
    w.spec.reduce_slowstart = o.reduce_slowstart;
  }
  w.run.seed = o.seed;
  w.run.time_scale = o.time_scale;
  return w;
}

}  // namespace mrlocal
