#include "tools/cli/workload_options.h"

#include <algorithm>
#include <cstdlib>

#include "datasets/workload_file.h"
#include "datasets/workload_presets.h"
#include "engine/slot_worker.h"
#include "sched/core/retry.h"
#include "sched/core/units.h"
#include "sched/policy/policy_registry.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/policy_list.h"
#include "tools/cli/preset_sweep.h"
#include "tools/runtime/calibration_file.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/solo_time.h"

namespace mrlocal {

namespace {

// What to run and where: the workload, the cluster, the clock, the report.
void AddRunOptions(CLI::App* cmd, WorkloadOptions& o) {
  cmd->add_option("WORKLOAD", o.source, "A workload spec (.json) or a SWIM trace (.tsv)")
      ->check(NotEmpty());
  Within(cmd->add_option("--preset", o.preset, "A generated workload"), OneOf(PresetNames()));
  cmd->add_flag("--sim", o.sim, "Simulate instead of running the jobs on the local slots");
  Within(cmd->add_option("--availability-as", o.availability_as,
                         "Real runs: the spec's availability slows the slots' throttles "
                         "(throttle, the default), or a CPU load beside the slots takes what "
                         "they would not use at that speed while they keep their base speeds "
                         "(load; nodes whose slots share a CPU must have the same profile)"),
         OneOf({"throttle", "load"}));
  Within(cmd->add_option(
             "--cluster", o.cluster,
             "Cluster (default: the workload's; --sim on a SWIM trace: the trace's own; else one "
             "node per CPU)"),
         ClusterSpecOrPreset(ClusterPresetNames()));
  Within(cmd->add_option("--seed", o.seed, "Seed of the preset's draws and the model's noise"),
         IntegerIn<uint64_t>(0, UINT64_MAX))
      ->capture_default_str();
  Within(cmd->add_option("--time-scale", o.time_scale,
                         "Multiply arrival times, deadlines, goals and availability steps by X "
                         "(0.05: a 20-minute workload's arrivals in one minute)"),
         NumberIn(0, 1e6, LowEnd::kOpen))
      ->capture_default_str();
  cmd->add_option("--report", o.report_dir, "Write the report files to DIR")->check(NotEmpty());
  Within(cmd->add_option("--goal", o.goal,
                         "Soft completion-time goal, after arrival, of every job that has none "
                         "(a spec's goal_s stays; scaled by --time-scale as they are)"),
         PositiveDuration());
}

// Options of one kind of workload only (traces, presets); CheckWorkloadKind refuses them
// for the others.
void AddSourceOptions(CLI::App* cmd, WorkloadOptions& o) {
  Within(cmd->add_option("--block-size", o.block_size,
                         "Traces: input bytes per map task (default 64MiB, as SWIM's replayer)"),
         SizeAtLeast(1));
  cmd->add_option("--trace-app", o.trace_app,
                  "Traces: the calibrated app that models their jobs (default: wordcount)")
      ->check(NotEmpty());
  Within(cmd->add_option("--limit", o.limit, "Traces: only the first N jobs"),
         IntegerIn<size_t>(1, SIZE_MAX));
  Within(
      cmd->add_option("--jobs", o.preset_jobs,
                      "Presets with a job count: how many (default: mars-random, mars-uniform "
                      "50, dynshare 320, ra-* 60; mars-wordcount the N smallest of 27; the rtmr-* "
                      "presets fix theirs)"),
      IntegerIn<size_t>(1, 1'000'000));
  Within(cmd->add_option("--concurrency", o.concurrency,
                         "dynshare: about C jobs in the system (offered load C / (C + 1) of the "
                         "cluster's throughput; default 4)"),
         IntegerIn(1, 100));
  cmd->add_option("--param", o.params,
                  "Presets: one of the preset's parameters, NAME=VALUE, repeatable (e.g. "
                  "--param load=1.2 --param goal-factor=4; README \"Workload presets\" lists "
                  "each preset's parameters and ranges; an unknown name lists the preset's)")
      ->check(NotEmpty());
  cmd->add_flag("--task-weights", o.task_weights,
                "mars-random, mars-uniform: each task its own weight W_u ~ N(30, 10) (MarS "
                "section 4.4: t-mars, htwf and TWTCT read them), the jobs otherwise the same");
}

// The task-time model and the policies' settings.
void AddModelAndPolicyOptions(CLI::App* cmd, WorkloadOptions& o) {
  cmd->add_option("--calibration", o.calibration,
                  "Task-time model (default: " + DefaultCalibrationPath().string() +
                      " if it exists, else the built-in one)")
      ->check(NotEmpty());
  Within(cmd->add_option("--hosts", o.hosts,
                         "Simulation: the cluster's nodes on N hosts, round-robin as MPI ranks "
                         "take them; a reduce first pulls what maps on other hosts made, over "
                         "--link (1 to 100000; default 1: no network)"),
         IntegerIn(1, 100000));
  cmd->add_option("--link", o.link,
                  "Simulation with --hosts: a link's rate and the latency per message, e.g. "
                  "1gbit,50us (rate in kbit/mbit/gbit or KB/MB/GB per second, > 0; latency "
                  "0 to 10s; default 330mbit,50us: a 1 Gbit/s link as a reduce sees it)")
      ->check([](const std::string& text) {
        Result<NetworkModel> link = NetworkModel::ParseLink(text, 2);
        return link.ok() ? std::string() : link.status().message();
      });
  Within(cmd->add_option("--noise", o.noise,
                         "Presets: sigma of the log-normal factor on each task's time (default 0)"),
         NumberIn(0, 10));
  cmd->add_option("--history", o.history,
                  "rtmr/dc/llf: task-time estimates from this history file (default: in "
                  "simulation the model's worst case, for real the user's history file)")
      ->check(NotEmpty());
  Within(cmd->add_option("--estimator", o.estimator,
                         "rtmr/dc: task-time estimates from the history (or, in simulation, the "
                         "model), or kNN learning from the run's tasks with that as its "
                         "cold-start prior (default: history)"),
         OneOf(EstimatorNames()));
  Within(cmd->add_option("--feedback-threshold", o.feedback_threshold,
                         "rtmr: feedback threshold epsilon (default: the finished job's median "
                         "map time)"),
         SettingValue(kFeedbackThresholdSetting));
  Within(cmd->add_option("--batch-interval", o.batch_interval,
                         "so-mars: the batch interval B, a positive duration; jobs that arrived "
                         "are planned at the next multiple of B (default: 5 x the first job's "
                         "mean task time, ~50s on mars-random as the paper's)"),
         SettingValue(kBatchIntervalSetting));
  AddQueueShareOptions(cmd, o.allocation_interval, o.preempt);
  Within(cmd->add_option("--estimate-margin", o.estimate_margin,
                         "rtmr/dc: multiply every estimated task time by X (default: 1 in "
                         "simulation, 1.5 for real runs)"),
         SettingValue(kEstimateMarginSetting));
  AddConfidenceOption(cmd, o.confidence);
  AddFaultBudgetOption(cmd, o.fault_budget);
  AddLofOptions(cmd, o.lof_threshold, o.lof_min_pts);
  AddFaultOptions(cmd, o.max_attempts, o.inject);
  AddMemoryLimitOption(cmd, o.memory_limit);
  cmd->add_flag("--speculative", o.speculative,
                "Copy stragglers onto free slots, LATE's rule, under the policies that do not "
                "veto it (rtmr, dc, dynprio, capacity and the planning policies do); off by "
                "default, so that runs reproduce the papers' models");
  Within(cmd->add_option("--reject-policy", o.reject_policy,
                         "rtmr/dc: a job the admission test rejects is dropped (drop), or runs "
                         "best-effort in the slots admitted jobs leave, and under rtmr in their "
                         "slack where a re-plan shows every admitted deadline still holds, "
                         "preempted when they need a slot not lent, and counts as met if it "
                         "ends by its deadline (backfill, the default); admitted jobs keep "
                         "their guarantee either way"),
         SettingValue(kRejectPolicySetting));
  Within(cmd->add_option("--reduce-slowstart", o.reduce_slowstart,
                         "Fraction F of a job's maps done before its reduces may take slots "
                         "(Hadoop's reduce slow-start; rtmr opts out; 1: once all are; default: "
                         "the spec's, rtmr-* presets 0.05, else 1)"),
         NumberIn(0, 1, LowEnd::kOpen));
  Within(cmd->add_option("--forecast", o.forecast,
                         "What the policies are told of the capacity ahead: known (the spec's "
                         "availability, or its forecast profiles), learned (from what the "
                         "cluster shows), constant (today's held); default: the spec's, else "
                         "known"),
         OneOf({"known", "learned", "constant"}));
}

}  // namespace

void AddWorkloadOptions(CLI::App* cmd, WorkloadOptions& o) {
  AddRunOptions(cmd, o);
  AddSourceOptions(cmd, o);
  AddModelAndPolicyOptions(cmd, o);
  cmd->add_flag("-q,--quiet", o.quiet, "No progress lines on stderr");
  cmd->add_flag("--progress", o.progress,
                "--sim: progress lines on stderr even when it is not a terminal");
}

namespace {

// The options that apply to one kind of workload only: an error naming the first one given
// for another kind.
Status CheckWorkloadKind(const WorkloadOptions& o) {
  const bool trace = !o.source.empty() && IsSwimTracePath(o.source);
  const std::string what = o.preset.empty() ? "'" + o.source + "'" : "--preset " + o.preset;
  auto only = [&](bool given, const char* option, const char* applies_to) {
    return given ? Status::InvalidArgument(std::string(option) + " applies to " + applies_to +
                                           ", not to " + what)
                 : Status::OK();
  };
  if (!trace) {
    const char* traces = "SWIM traces (.tsv)";
    MRLOCAL_RETURN_IF_ERROR(only(o.block_size.has_value(), "--block-size", traces));
    MRLOCAL_RETURN_IF_ERROR(only(o.trace_app.has_value(), "--trace-app", traces));
    MRLOCAL_RETURN_IF_ERROR(only(o.limit.has_value(), "--limit", traces));
  }
  if (o.preset.empty()) {
    MRLOCAL_RETURN_IF_ERROR(only(o.preset_jobs.has_value(), "--jobs", "presets"));
    MRLOCAL_RETURN_IF_ERROR(only(o.concurrency.has_value(), "--concurrency", "--preset dynshare"));
    MRLOCAL_RETURN_IF_ERROR(only(!o.params.empty(), "--param", "presets"));
    MRLOCAL_RETURN_IF_ERROR(only(o.task_weights, "--task-weights",
                                 "--preset mars-random and mars-uniform (a spec "
                                 "gives a job's task_weights)"));
    MRLOCAL_RETURN_IF_ERROR(
        only(o.noise.has_value(), "--noise", "presets (a spec file sets model.noise)"));
  }
  return Status::OK();
}

// --cluster: a cluster preset's name or a spec.
Result<ClusterSpec> ResolveCluster(const std::string& text) {
  auto preset = ClusterPreset(text);
  return preset.ok() ? preset : ClusterSpec::Parse(text);
}

// --calibration's file, else the default one, else the built-in model.
Result<Calibration> LoadCalibrationOption(const WorkloadOptions& o) {
  return o.calibration.empty() ? LoadDefaultCalibration() : LoadCalibration(o.calibration);
}

}  // namespace

void AddLofOptions(CLI::App* cmd, std::optional<double>& threshold, std::optional<int>& min_pts) {
  Within(cmd->add_option("--lof-threshold", threshold,
                         "llf: a node whose task's local outlier factor exceeds X (and runs "
                         "slow) is overloaded (default 1.5)"),
         SettingValue(kLofThresholdSetting));
  Within(cmd->add_option("--lof-min-pts", min_pts,
                         "llf: MinPts, the neighbours the local outlier factor compares "
                         "(default 10)"),
         SettingValue(kLofMinPtsSetting));
}

void AddFaultOptions(CLI::App* cmd, int& max_attempts, std::vector<std::string>& inject) {
  Within(cmd->add_option("--max-attempts", max_attempts,
                         "A task's job fails when this many of its attempts have failed; a "
                         "failed attempt whose reason may pass (an I/O error) runs again, "
                         "elsewhere when it can (1: no retry; Hadoop's mapreduce.map.maxattempts)"),
         IntegerIn(1, static_cast<int>(RetryOptions::kMaxAttemptsLimit)))
      ->capture_default_str();
  Within(cmd->add_option("--inject", inject,
                         "Inject a fault, for tests and research (repeatable; T: a duration "
                         "from the run's start)")
             ->allow_extra_args(false),
         FaultSpec());
}

void AddMemoryLimitOption(CLI::App* cmd, std::optional<std::string>& limit) {
  const uint64_t total = MemoryLimit::TotalBytes();
  Within(cmd->add_option("--memory-limit", limit,
                         "Real runs: a job whose tasks see mrlocal's resident memory above "
                         "SIZE fails with one line instead of meeting the kernel's OOM killer "
                         "(map outputs stay in memory until their job ends; default: what "
                         "mrlocal holds at start and 80% of the memory available then)"),
         SizeIn(MemoryLimit::kMinBytes, total > MemoryLimit::kMinBytes ? total : UINT64_MAX));
}

void AddFaultBudgetOption(CLI::App* cmd, std::optional<int>& budget) {
  Within(cmd->add_option("--fault-budget", budget,
                         "rtmr: failed attempts per job its guarantee covers; the admission "
                         "plans this many extra worst-case tasks of each kind per job "
                         "(default 0: the paper's fault-free guarantee)"),
         SettingValue(kFaultBudgetSetting));
}

void AddConfidenceOption(CLI::App* cmd, std::optional<double>& confidence) {
  Within(cmd->add_option("--confidence", confidence,
                         "rtmr: admit a job when it meets its deadline with probability C, in "
                         "(0, 1], planned from how task times spread below their worst case "
                         "(default 1: every task at its worst case, the hard guarantee)"),
         SettingValue(kConfidenceSetting));
}

void AddQueueShareOptions(CLI::App* cmd, std::string& allocation_interval, std::string& preempt) {
  Within(cmd->add_option("--allocation-interval", allocation_interval,
                         "dynprio/capacity: how often shares are re-set from the bids and queues "
                         "pay for the slots they used, a positive duration (default 20s)"),
         SettingValue(kAllocationIntervalSetting));
  Within(cmd->add_option("--preempt", preempt,
                         "dynprio/capacity: kill and requeue attempts of queues over their share "
                         "once a queue below its share has waited this long for a slot, a "
                         "positive duration (default: never preempt)"),
         SettingValue(kPreemptSetting));
}

Status CheckQueueShareOptions(const std::string& allocation_interval, const std::string& preempt,
                              const std::vector<std::string>& policies) {
  MRLOCAL_RETURN_IF_ERROR(CheckSettingOption(!preempt.empty(), "--preempt", kPreempt, policies));
  return CheckSettingOption(!allocation_interval.empty(), "--allocation-interval",
                            kAllocationInterval, policies);
}

void SetQueueShareSettings(const std::string& allocation_interval, const std::string& preempt,
                           PolicyArgs& args) {
  if (!preempt.empty()) args.Set(kPreempt, ParseDuration(preempt).value());
  if (!allocation_interval.empty())
    args.Set(kAllocationInterval, ParseDuration(allocation_interval).value());
}

void SetLofSettings(std::optional<double> threshold, std::optional<int> min_pts, PolicyArgs& args) {
  if (threshold) args.Set(kLofThreshold, *threshold);
  if (min_pts) args.Set(kLofMinPts, static_cast<double>(*min_pts));
}

namespace {

// An error when none of `policies` is one of those `reads` says read the option.
template <typename Reads>
Status Applies(bool given, std::string_view option, const std::vector<std::string>& policies,
               Reads reads) {
  if (!given) return Status::OK();
  std::vector<std::string> readers;
  for (const std::string& name : PolicyNames())
    if (reads(*FindPolicy(name).value())) readers.push_back(name);
  for (const std::string& p : policies)
    if (std::find(readers.begin(), readers.end(), p) != readers.end()) return Status::OK();
  return Status::InvalidArgument(std::string(option) + " applies to --policy " +
                                 JoinNames(readers) + " only");
}

}  // namespace

Status CheckSettingOption(bool given, std::string_view option, std::string_view setting,
                          const std::vector<std::string>& policies) {
  return Applies(given, option, policies, [setting](const PolicyDescriptor& p) {
    return std::any_of(p.settings.begin(), p.settings.end(),
                       [&](const PolicySetting& s) { return s.name == setting; });
  });
}

std::string SharedDatasetsDir() {
  if (const char* p = std::getenv("MRLOCAL_DATASETS"); p && *p) return p;
  return "../shared/datasets";
}

Status CheckPolicyOptions(const WorkloadOptions& o, const std::vector<std::string>& policies) {
  auto estimates = [](const PolicyDescriptor& p) { return p.traits.needs_estimator; };
  MRLOCAL_RETURN_IF_ERROR(Applies(!o.history.empty(), "--history", policies, estimates));
  MRLOCAL_RETURN_IF_ERROR(Applies(o.estimator.has_value(), "--estimator", policies, estimates));
  MRLOCAL_RETURN_IF_ERROR(CheckSettingOption(o.estimate_margin.has_value(), "--estimate-margin",
                                             kEstimateMargin, policies));
  MRLOCAL_RETURN_IF_ERROR(CheckSettingOption(!o.feedback_threshold.empty(), "--feedback-threshold",
                                             kFeedbackThreshold, policies));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(!o.batch_interval.empty(), "--batch-interval", kBatchInterval, policies));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.confidence.has_value(), "--confidence", kConfidence, policies));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.fault_budget.has_value(), "--fault-budget", kFaultBudget, policies));
  MRLOCAL_RETURN_IF_ERROR(CheckQueueShareOptions(o.allocation_interval, o.preempt, policies));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.lof_threshold.has_value(), "--lof-threshold", kLofThreshold, policies));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.reject_policy.has_value(), "--reject-policy", kRejectPolicy, policies));
  return CheckSettingOption(o.lof_min_pts.has_value(), "--lof-min-pts", kLofMinPts, policies);
}

namespace {

// The preset --preset names, with its parameters and its solo-time measure.
Result<WorkloadSpec> PresetFromOptions(const WorkloadOptions& o) {
  PresetOptions po;
  if (o.preset_jobs) po.jobs = *o.preset_jobs;
  if (o.noise) po.noise = *o.noise;
  for (const std::string& text : o.params) {
    auto param = ParsePresetParam(text, o.preset);
    if (!param.ok()) return param.status();
    po.parameters[param->first] = param->second;
  }
  for (const auto& [name, value] : o.preset_parameters) po.parameters[name] = value;
  if (o.concurrency) {
    MRLOCAL_RETURN_IF_ERROR(CheckPresetParameter(o.preset, "concurrency", *o.concurrency)
                                .WithContext("--concurrency: "));
    po.parameters["concurrency"] = *o.concurrency;
  }
  if (o.task_weights) {
    MRLOCAL_RETURN_IF_ERROR(
        CheckPresetParameter(o.preset, "task-weights", 1).WithContext("--task-weights: "));
    po.parameters["task-weights"] = 1;
  }
  if (!o.cluster.empty()) {
    auto cluster = ResolveCluster(o.cluster);
    if (!cluster.ok()) return cluster.status();
    po.cluster = *cluster;
  }
  po.datasets_dir = SharedDatasetsDir();
  po.solo_time = [&o](const WorkloadSpec& one_job) -> Result<double> {
    // On the cluster the workload will run on: --cluster, else the preset's own.
    auto cluster = o.cluster.empty() ? *one_job.cluster : ResolveCluster(o.cluster);
    if (!cluster.ok()) return cluster.status();
    auto calibration = LoadCalibrationOption(o);
    if (!calibration.ok()) return calibration.status();
    return MakeSoloTime(o.sim, *cluster, *calibration)(one_job);
  };
  return MakePreset(o.preset, o.seed, po);
}

// The cluster the workload runs on: --cluster, the spec's, a simulated SWIM trace's own,
// or this machine's CPUs.
Status ChooseCluster(const WorkloadOptions& o, LoadedWorkload& w) {
  if (!o.cluster.empty()) {
    auto c = ResolveCluster(o.cluster);
    if (!c.ok()) return c.status();
    w.run.cluster = *c;
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

  return Status::OK();
}

}  // namespace

Result<LoadedWorkload> LoadWorkloadFromOptions(const WorkloadOptions& o) {
  LoadedWorkload w;
  if (o.source.empty() && o.preset.empty())
    return Status::InvalidArgument(
        "no workload: give a WORKLOAD file (a .json spec or a .tsv SWIM trace) or --preset NAME");
  if (!o.source.empty() && !o.preset.empty())
    return Status::InvalidArgument("give either a WORKLOAD file or --preset NAME, not both");
  MRLOCAL_RETURN_IF_ERROR(CheckWorkloadKind(o));
  if (o.availability_as && o.sim)
    return Status::InvalidArgument(
        "--availability-as applies to real runs: in simulation the availability profiles are "
        "the load already");
  if (o.memory_limit && o.sim)
    return Status::InvalidArgument(
        "--memory-limit applies to real runs: a simulation holds no job's data");
  if ((o.hosts || o.link) && !o.sim)
    return Status::InvalidArgument(
        "--hosts and --link model a network in simulation (--sim); a real run over several "
        "hosts is `mpirun -np N mrlocal wordcount|friendcount|pi ...`");
  if (o.link && o.hosts.value_or(1) < 2)
    return Status::InvalidArgument("--link needs --hosts 2 or more: one host has no network");
  if (!o.preset.empty()) {
    auto spec = PresetFromOptions(o);
    if (!spec.ok()) return spec.status();
    w.spec = std::move(spec).value();
  } else {
    TraceOptions to;
    if (o.block_size) to.block_size = ParseSize(*o.block_size).value();
    if (o.trace_app) to.app = *o.trace_app;
    if (o.limit) to.limit = *o.limit;
    auto spec = LoadWorkload(o.source, AppRegistry::BuiltIn().schemas(), to);
    if (!spec.ok()) return spec.status();
    w.spec = std::move(spec).value();
  }

  if (o.load != 1.0)
    for (WorkloadJob& j : w.spec.jobs) j.arrival_s /= o.load;  // stays sorted: load > 0
  MRLOCAL_RETURN_IF_ERROR(ChooseCluster(o, w));
  auto calibration = LoadCalibrationOption(o);
  if (!calibration.ok()) return calibration.status();
  w.run.calibration = std::move(calibration).value();
  if (!o.history.empty()) {
    auto h = LoadHistoryFile(o.history);
    if (!h.ok()) return h.status().WithContext("--history: ");
    w.run.history = std::move(h->history);
    w.run.knn_observations = std::move(h->knn);
  }
  w.run.estimator = ParseEstimatorKind(o.estimator.value_or("history")).value();
  if (!o.feedback_threshold.empty())
    w.run.policy_args.Set(kFeedbackThreshold, ParseDuration(o.feedback_threshold).value());
  if (!o.batch_interval.empty())
    w.run.policy_args.Set(kBatchInterval, ParseDuration(o.batch_interval).value());
  SetQueueShareSettings(o.allocation_interval, o.preempt, w.run.policy_args);
  if (o.estimate_margin) w.run.policy_args.Set(kEstimateMargin, *o.estimate_margin);
  if (o.confidence) w.run.policy_args.Set(kConfidence, *o.confidence);
  if (o.fault_budget) w.run.policy_args.Set(kFaultBudget, double(*o.fault_budget));
  SetLofSettings(o.lof_threshold, o.lof_min_pts, w.run.policy_args);
  // Workloads backfill by default; the single-job commands drop (and keep --best-effort).
  w.run.policy_args.Set(kRejectPolicy, o.reject_policy.value_or("backfill"));
  if (o.reduce_slowstart) w.spec.reduce_slowstart = *o.reduce_slowstart;
  if (o.forecast) w.spec.forecast.kind = ForecastKindNamed(*o.forecast).value();
  if (o.goal) {
    const double goal_s = Seconds(ParseDuration(*o.goal).value());
    for (WorkloadJob& j : w.spec.jobs)
      if (!j.goal_s) j.goal_s = goal_s;
  }
  w.run.seed = o.seed;
  w.run.max_attempts = static_cast<uint32_t>(o.max_attempts);
  w.run.speculative = o.speculative;
  if (o.memory_limit) w.run.memory_limit = ParseSize(*o.memory_limit).value();
  for (const std::string& text : o.inject) w.spec.faults.push_back(ParseFault(text).value());
  if (o.hosts && *o.hosts > 1)
    w.run.network = NetworkModel::ParseLink(o.link.value_or(kDefaultLink), *o.hosts).value();
  w.run.time_scale = o.time_scale;
  if (o.availability_as == "load") w.run.availability_as = AvailabilityAs::kLoad;
  return w;
}

}  // namespace mrlocal
