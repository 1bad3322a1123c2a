#include "tools/runtime/workload_runner.h"

#include <chrono>
#include <functional>
#include <map>
#include <sstream>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/block_store.h"
#include "engine/gzip_lines.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_loop.h"
#include "tools/runtime/gzip_file.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/job_set_preview.h"
#include "tools/runtime/rank_host.h"
#include "tools/runtime/real_job.h"
#include "tools/runtime/run_forecast.h"
#include "tools/runtime/runtime.h"
#include "tools/runtime/sim_jobs.h"
#include "tools/runtime/spec_job.h"

namespace mrlocal {

namespace {

// hash in simulation (no keys to sketch), dp-sketch for real.
std::string PartitionerFor(const WorkloadRunOptions& o, bool sim) {
  return !o.partitioner.empty() ? o.partitioner : sim ? "hash" : "dp-sketch";
}

// What both kinds of run share: the policy with its estimates and its capacity forecast,
// the partitioner, the controller's options and the spec's availability profiles.
RuntimeOptions BaseOptions(const WorkloadSpec& spec, const WorkloadRunOptions& o,
                           RunEstimator& estimator, bool sim) {
  RuntimeOptions ro;
  ro.cluster = o.cluster;
  ro.policy = o.policy;
  ro.estimator = estimator.estimator();
  ro.learner = estimator.learner();
  ro.policy_args = o.policy_args;
  if (!sim && !ro.policy_args.Has(kEstimateMargin))
    ro.policy_args.Set(kEstimateMargin, kRealEstimateMargin);
  ro.partitioner = PartitionerFor(o, sim);
  if (!sim) ro.transport = o.transport;
  ro.controller.reduce_slowstart = spec.reduce_slowstart;
  ro.controller.observer_tick = o.observer_tick;
  ro.controller.retry.max_attempts = o.max_attempts;
  ro.controller.speculation.enabled = o.speculative;
  // The observers (RunRecorder) keep what the reports need: a finished job's state would
  // only grow the run's memory (FB-2010's 24,442 jobs held 2.6 GB).
  ro.controller.forget_finished_jobs = true;
  if (!sim) ro.memory_limit = o.memory_limit;
  ro.faults = spec.faults;
  ro.fault_seed = o.seed;
  for (const AvailabilityProfile& a : spec.availability) {
    const SpeedProfile p = ToSpeedProfile(a.steps);
    for (int node : a.nodes) ro.availability[node] = p;
  }
  ro.availability_as = o.availability_as;
  // A fresh one for each run (it learns from the run), unless the caller gave one.
  if (!ro.policy_args.forecast()) ro.policy_args.SetForecast(SpecForecast(spec, o.cluster.Slots()));
  if (!ro.policy_args.queues() && !spec.queues.empty())
    ro.policy_args.SetQueues(std::make_shared<QueueSetup>(spec.queues));
  ro.noise = spec.model.noise;
  ro.seed = o.seed;
  ro.network = o.network;
  return ro;
}

Result<std::unique_ptr<Runtime>> MakeRuntime(const WorkloadSpec& spec, RuntimeOptions ro, bool sim,
                                             const WorkloadRunOptions& o, WorkloadRun& run) {
  MRLOCAL_RETURN_IF_ERROR(CheckAvailability(spec, o.cluster));
  run.forecast = ro.policy_args.shared_forecast();
  run.availability = ro.availability;
  auto made = sim ? Runtime::Simulated(std::move(ro)) : Runtime::Real(std::move(ro));
  if (!made.ok()) return made.status();
  Runtime& runtime = **made;
  run.slots = runtime.slots();
  if (runtime.policy().uses_reduce_slowstart()) run.reduce_slowstart = spec.reduce_slowstart;
  run.recorder = std::make_unique<RunRecorder>(
      RunRecorderOptions{.keep_attempts = o.keep_attempts, .counts_records = !sim});
  runtime.AddObserver(run.recorder.get());
  if (o.observer) runtime.AddObserver(o.observer);
  return made;
}

// A plan's machine m is node m, which runs its planned maps and reduces on its own slots
// (plan_policy.h): a node without one kind would hold its planned tasks of that kind
// forever, so such a cluster is refused.
Status CheckPlanCluster(const PolicyDescriptor& policy, const ClusterSpec& cluster) {
  int node = 0;
  for (const NodeGroup& g : cluster.groups()) {
    if (g.map_slots == 0 || g.reduce_slots == 0)
      return Status::InvalidArgument(
          "policy '" + policy.name + "' runs each node's planned maps and reduces on its own " +
          "slots, and node " + std::to_string(node) + " has no " +
          (g.map_slots == 0 ? "map" : "reduce") +
          " slot: give every node both (--cluster, e.g. '4x(1m,1r,1.0,1t)')");
    node += g.count;
  }
  return Status::OK();
}

// A planning policy's preview of `spec` (already at the run's time scale) in `args`,
// unless the caller gave one (compare: one per seed, its LP solved once).
Status GivePreview(const PolicyDescriptor& policy, const WorkloadSpec& spec,
                   const WorkloadRunOptions& o, PolicyArgs& args) {
  if (!policy.traits.needs_preview) return Status::OK();
  MRLOCAL_RETURN_IF_ERROR(CheckPlanCluster(policy, o.cluster));
  if (args.preview()) return Status::OK();
  auto preview = JobSetPreview(spec, o.cluster, *o.apps, o.calibration);
  if (!preview.ok())
    return preview.status().WithContext("policy '" + policy.name +
                                        "' plans over the whole job set before the run: ");
  args.SetPreview(std::make_shared<const PlanPreview>(std::move(preview).value()));
  return Status::OK();
}

// Runs until every job has arrived and ended, then fills in the run's wall time,
// scheduler statistics and metrics.
void RunAndMeasure(Runtime& runtime, WorkloadRun& run) {
  auto t0 = std::chrono::steady_clock::now();
  runtime.Run();
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.stats = runtime.controller().stats();
  run.task_events = runtime.task_events();
  if (const AvailabilityLoad* load = runtime.load()) {
    run.load_cpus = load->burners();
    run.load_cpu_s = load->cpu_s();
  }
  run.overload = runtime.policy().OverloadSnapshot();
  if (const QueueLedger* ledger = runtime.policy().Ledger()) run.ledger = *ledger;
  run.policy_note = runtime.policy().note();
  const ClusterSpec& cluster = runtime.options().cluster;
  if (auto d = FindPolicy(runtime.policy().name());
      d.ok() && (*d)->traits.needs_preview && cluster.TaskCapacity() > cluster.nodes()) {
    // A plan's machine is a node that runs one task at a time (MarS's); more slots idle.
    std::vector<NodeGroup> one_task = cluster.groups();
    for (NodeGroup& g : one_task) g.max_tasks = 1;
    if (!run.policy_note.empty()) run.policy_note += "; ";
    run.policy_note += "the plan runs each node one task at a time, while this cluster's " +
                       std::to_string(cluster.nodes()) + " nodes can run " +
                       std::to_string(cluster.TaskCapacity()) +
                       " at once: slots stayed idle (--cluster '" +
                       ClusterSpec(one_task).ToString() + "' is what the plan assumes)";
  }
  MetricsContext mc;
  mc.policy = std::string(runtime.policy().name());
  mc.sim = runtime.simulated();
  mc.cluster = runtime.options().cluster.ToString();
  mc.partitioner = runtime.options().partitioner;
  mc.total_slots = runtime.options().cluster.TaskCapacity();
  mc.admission_control = runtime.policy().admission_control();
  if (mc.admission_control)
    mc.reject_policy =
        runtime.options().policy_args.Get<std::string>(kRejectPolicy).value_or("drop");
  mc.scheduler = &run.stats;
  run.metrics = ComputeMetrics(*run.recorder, mc);
}

// Hands `report` where the simulation stands every kSimProgressEvents events.
void WatchProgress(Runtime& runtime, const RunRecorder& recorder, size_t jobs,
                   std::function<void(const SimProgress&)> report) {
  auto& loop = static_cast<SimLoop&>(runtime.loop());  // a simulated runtime's (runtime.h)
  loop.SetProgressHook(kSimProgressEvents, [&loop, &runtime, &recorder, jobs, report] {
    report(SimProgress{loop.Now(), recorder.jobs_finished(), jobs, runtime.task_events()});
  });
}

// Leaves out of `spec` the jobs a policy that runs all reduces of a job at once can never
// admit (R > reduce slots), as RTMR section V does for its dc runs; their count.
size_t LeaveOutWideJobs(const PolicyDescriptor& policy, WorkloadSpec& spec, int reduce_slots) {
  if (!policy.traits.all_reduces_at_once) return 0;
  const size_t before = spec.jobs.size();
  std::erase_if(spec.jobs,
                [&](const WorkloadJob& j) { return j.reduces > uint32_t(reduce_slots); });
  return before - spec.jobs.size();
}

// The spec a real run runs: at its time scale, without the jobs the policy can never admit
// (their count in *left_out). Rank 0 and every other rank make the same.
Result<WorkloadSpec> RealRunSpec(const WorkloadSpec& given, const WorkloadRunOptions& o,
                                 size_t* left_out) {
  auto scaled = ScaleTime(given, o.time_scale);
  if (!scaled.ok()) return scaled.status();
  MRLOCAL_RETURN_IF_ERROR(CheckWorkloadTasks(*scaled));
  auto descriptor = FindPolicy(o.policy);
  if (!descriptor.ok()) return descriptor.status();
  *left_out = LeaveOutWideJobs(**descriptor, *scaled, o.cluster.reduce_slots());
  return scaled;
}

}  // namespace

Result<PlanPreview> WorkloadPreview(const WorkloadSpec& spec, const WorkloadRunOptions& o) {
  auto scaled = ScaleTime(spec, o.time_scale);
  if (!scaled.ok()) return scaled.status();
  return JobSetPreview(*scaled, o.cluster, *o.apps, o.calibration);
}

namespace {

bool PastTheEnd(double s) { return !(s <= kMaxWorkloadTimeS); }  // NaN too

Status PastTheEndError(const std::string& what, double s) {
  std::ostringstream out;
  out << what << " at " << s << " s is past the latest time a run reaches (" << kMaxWorkloadTimeS
      << " s, 31 years; --load and --time-scale included)";
  return Status::InvalidArgument(out.str());
}

// Every time the scaled spec names, absolute on the run's clock, within kMaxWorkloadTimeS.
Status CheckTimesInRange(const WorkloadSpec& spec) {
  for (const WorkloadJob& j : spec.jobs) {
    if (PastTheEnd(j.arrival_s))
      return PastTheEndError("job '" + j.name + "': arrival", j.arrival_s);
    if (j.deadline_s && PastTheEnd(j.arrival_s + *j.deadline_s))
      return PastTheEndError("job '" + j.name + "': deadline", j.arrival_s + *j.deadline_s);
    if (j.goal_s && PastTheEnd(j.arrival_s + *j.goal_s))
      return PastTheEndError("job '" + j.name + "': goal", j.arrival_s + *j.goal_s);
  }
  for (const AvailabilityProfile& a : spec.availability) {
    for (const auto& step : a.steps)
      if (PastTheEnd(step.at_s)) return PastTheEndError("an availability step", step.at_s);
    if (a.forecast)
      for (const auto& step : *a.forecast)
        if (PastTheEnd(step.at_s)) return PastTheEndError("a forecast step", step.at_s);
  }
  if (PastTheEnd(spec.forecast.period_s))
    return PastTheEndError("the forecast's period", spec.forecast.period_s);
  if (PastTheEnd(spec.forecast.window_s))
    return PastTheEndError("the forecast's window", spec.forecast.window_s);
  return Status::OK();
}

}  // namespace

Result<WorkloadSpec> ScaleTime(WorkloadSpec spec, double scale) {
  if (scale != 1.0) {
    for (WorkloadJob& j : spec.jobs) {
      j.arrival_s *= scale;
      if (j.deadline_s) *j.deadline_s *= scale;
      if (j.goal_s) *j.goal_s *= scale;
    }
    for (AvailabilityProfile& a : spec.availability) {
      for (auto& step : a.steps) step.at_s *= scale;
      if (a.forecast)
        for (auto& step : *a.forecast) step.at_s *= scale;
    }
    spec.forecast.period_s *= scale;
    spec.forecast.window_s *= scale;
    for (Fault& f : spec.faults) f.from = FromSeconds(Seconds(f.from) * scale);
    // Checked here, in seconds: past the end, the clock's nanoseconds would overflow.
    for (QueueEvent& e : spec.queues.events) {
      const double at_s = Seconds(e.at) * scale;
      if (PastTheEnd(at_s)) return PastTheEndError("a queue event", at_s);
      e.at = FromSeconds(at_s);
    }
  }
  MRLOCAL_RETURN_IF_ERROR(CheckTimesInRange(spec));
  return spec;
}

// Submits a spec's jobs: each at its arrival, or, with `after`, arrival_s after the job it
// follows ends (done, failed or rejected). Kept as an observer until the run is over.
class Arrivals final : public ControllerObserver {
 public:
  using Make = std::function<RuntimeJob(size_t job)>;
  Arrivals(Runtime& runtime, const WorkloadSpec& spec, Make make)
      : runtime_(runtime), spec_(spec), make_(std::move(make)) {
    for (size_t i = 0; i < spec.jobs.size(); ++i) {
      if (spec.jobs[i].after.empty()) {
        Submit(i, Time{0});
      } else {
        followers_.emplace(spec.jobs[i].after, i);
      }
    }
    if (!followers_.empty()) runtime.AddObserver(this);
  }
  void OnAdmission(const JobState& job, const Admission& a, Time now) override {
    if (!a.admitted) Ended(job.spec.name, now);
  }
  void OnJobFinished(const JobState& job, const JobOutcome&, Time now) override {
    Ended(job.spec.name, now);
  }

 private:
  void Submit(size_t i, Time from) {
    runtime_.SubmitAt(from + FromSeconds(spec_.jobs[i].arrival_s),
                      [this, i](JobId) { return make_(i); });
  }
  void Ended(const std::string& name, Time now) {
    auto [first, last] = followers_.equal_range(name);
    for (auto it = first; it != last; ++it) Submit(it->second, now);
  }
  Runtime& runtime_;
  const WorkloadSpec& spec_;
  Make make_;
  std::multimap<std::string, size_t> followers_;  // by the name of the job they follow
};

Result<WorkloadRun> RunWorkloadSim(const WorkloadSpec& given, const WorkloadRunOptions& o) {
  auto scaled = ScaleTime(given, o.time_scale);
  if (!scaled.ok()) return scaled.status();
  WorkloadSpec spec = std::move(scaled).value();
  MRLOCAL_RETURN_IF_ERROR(CheckWorkloadTasks(spec));
  auto descriptor = FindPolicy(o.policy);
  if (!descriptor.ok()) return descriptor.status();
  WorkloadRun run;
  run.left_out = LeaveOutWideJobs(**descriptor, spec, o.cluster.reduce_slots());
  const JobHistory history = o.history ? *o.history : ModelHistory(*o.apps, spec, o.calibration);
  RunEstimator estimator(o.estimator, &history, o.knn_observations);
  RuntimeOptions ro = BaseOptions(spec, o, estimator, /*sim=*/true);
  MRLOCAL_RETURN_IF_ERROR(GivePreview(**descriptor, spec, o, ro.policy_args));
  MRLOCAL_RETURN_IF_ERROR(CheckPolicy(ro.policy, ro.policy_args));
  if (auto part = MakePartitioner(ro.partitioner); !part.ok()) return part.status();
  // Every job is checked before the clock starts: a bad job is an error, not a surprise
  // an hour into a simulated day. A model fails only for an unknown app, a missing input
  // file or an app the calibration lacks; only such jobs are built twice.
  const SimModelContext model{spec, o.calibration};
  for (const WorkloadJob& j : spec.jobs) {
    auto app = o.apps->Find(j.app);
    if (!app.ok() || j.input.kind == InputSpec::Kind::kFiles ||
        !(*app)->model_estimate(o.calibration, 1.0)) {
      auto built = BuildSimJob(*o.apps, j, model);
      if (!built.ok()) return built.status();
    }
  }
  auto runtime = MakeRuntime(spec, std::move(ro), /*sim=*/true, o, run);
  if (!runtime.ok()) return runtime.status();
  if (o.sim_progress) WatchProgress(**runtime, *run.recorder, spec.jobs.size(), o.sim_progress);
  Status build_error;
  Arrivals arrivals(**runtime, spec, [&](size_t i) -> RuntimeJob {
    auto built = BuildSimJob(*o.apps, spec.jobs[i], model);
    if (built.ok()) return {std::move(built->spec), std::move(built->sim)};
    if (build_error.ok()) build_error = built.status();  // checked above; kept for safety
    JobSpec empty;
    empty.name = spec.jobs[i].name;
    return {std::move(empty), SimJob{}};
  });
  RunAndMeasure(**runtime, run);
  if (!build_error.ok()) return build_error;
  return run;
}

// The estimates of a real run: --history, else the user's history file. Synthetic jobs
// declare their work, which a spinning task follows closely: their estimate is that, plus
// a fixed allowance for starting a task on a loaded machine. Every other app must have
// history; a workload does not probe (it would disturb the clock) nor write history back,
// so that runs under different policies start from the same estimates.
Result<HistoryContents> RealRunHistory(const WorkloadSpec& spec, const WorkloadRunOptions& o) {
  HistoryContents contents;
  if (o.history) {
    contents = {*o.history, o.knn_observations};
  } else {
    auto loaded = LoadHistoryFile(DefaultHistoryPath());
    if (loaded.ok())
      contents = std::move(loaded).value();
    else if (loaded.status().code() != Status::Code::kNotFound)
      return loaded.status();
  }
  JobHistory& history = contents.history;
  for (const WorkloadJob& j : spec.jobs) {
    if (history.Find(j.app)) continue;
    auto app = o.apps->Find(j.app);
    if (!app.ok()) return app.status().WithContext("job '" + j.name + "': ");
    if ((*app)->declared_estimate) {
      history.Set(j.app, *(*app)->declared_estimate);
      continue;
    }
    return Status::InvalidArgument(
        "no history for app '" + j.app + "': the " + o.policy +
        " policy needs task-time estimates; run a " + j.app +
        " job with --deadline first (it records one), or give --history FILE");
  }
  return contents;
}

// What another rank rebuilds a workload's job from: its index in the run's spec, and its
// map count as a check that the rank split its input the same way.
std::string WorkloadJobDefinition(size_t index, uint32_t maps) {
  return "workload job " + std::to_string(index) + " maps " + std::to_string(maps);
}

// Every job built before the clock starts: inputs read or generated, runtimes made.
Result<std::vector<RealJobParts>> BuildRealJobs(const WorkloadSpec& spec,
                                                const WorkloadRunOptions& o,
                                                const std::string& partitioner,
                                                std::vector<JobApp>& apps, BlockStore& store) {
  apps.reserve(spec.jobs.size());  // the jobs point at them
  std::vector<RealJobParts> jobs;
  std::map<std::string, bool> present;
  for (const WorkloadJob& j : spec.jobs) {
    auto app = o.apps->Find(j.app);
    if (!app.ok()) return app.status().WithContext("job '" + j.name + "': ");
    apps.push_back((*app)->runtime(j));
    auto parts =
        BuildRealSpecJob(j, apps.back(), store, present, partitioner, spec.model.shuffle_delay_s);
    if (!parts.ok()) return parts.status();
    parts->real.definition = WorkloadJobDefinition(jobs.size(), parts->real.maps);
    jobs.push_back(std::move(parts).value());
  }
  return jobs;
}

Result<WorkloadRun> RunWorkloadReal(const WorkloadSpec& given, const WorkloadRunOptions& o,
                                    Interrupt* interrupt) {
  WorkloadRun run;
  auto real_spec = RealRunSpec(given, o, &run.left_out);
  if (!real_spec.ok()) return real_spec.status();
  WorkloadSpec spec = std::move(real_spec).value();
  auto descriptor = FindPolicy(o.policy);
  if (!descriptor.ok()) return descriptor.status();
  HistoryContents history;
  if ((*descriptor)->traits.needs_estimator) {
    auto h = RealRunHistory(spec, o);
    if (!h.ok()) return h.status();
    history = std::move(h).value();
  }
  RunEstimator estimator(o.estimator, &history.history, history.knn);
  RuntimeOptions ro = BaseOptions(spec, o, estimator, /*sim=*/false);
  if (o.observer_tick <= Duration::zero())
    ro.controller.observer_tick = std::chrono::milliseconds(250);
  MRLOCAL_RETURN_IF_ERROR(GivePreview(**descriptor, spec, o, ro.policy_args));
  MRLOCAL_RETURN_IF_ERROR(CheckPolicy(ro.policy, ro.policy_args));
  if (auto part = MakePartitioner(ro.partitioner); !part.ok()) return part.status();

  BlockStoreOptions so;
  so.block_size = spec.block_size;
  so.nodes = o.cluster.nodes();
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();
  std::vector<JobApp> apps;
  auto jobs = BuildRealJobs(spec, o, ro.partitioner, apps, **store);
  if (!jobs.ok()) return jobs.status();

  // The clock starts with the runtime: arrivals and availability steps count from here.
  auto runtime = MakeRuntime(spec, std::move(ro), /*sim=*/false, o, run);
  if (!runtime.ok()) return runtime.status();
  Arrivals arrivals(**runtime, spec, [&](size_t i) -> RuntimeJob {
    return {std::move((*jobs)[i].spec), std::move((*jobs)[i].real)};
  });
  if (interrupt) interrupt->Watch(runtime->get());
  RunAndMeasure(**runtime, run);
  if (interrupt) interrupt->Watch(nullptr);
  return run;
}

Status ServeWorkloadRank(const WorkloadSpec& given, const WorkloadRunOptions& o,
                         Transport& transport) {
  size_t left_out = 0;
  Result<WorkloadSpec> spec = RealRunSpec(given, o, &left_out);
  Result<std::unique_ptr<BlockStore>> store = Status::Internal("not opened");
  std::vector<JobApp> apps;
  Result<std::vector<RealJobParts>> jobs = spec.status();
  if (spec.ok()) {
    BlockStoreOptions so;
    so.block_size = spec->block_size;
    so.nodes = o.cluster.nodes();
    store = BlockStore::InMemory(so);
    jobs = store.ok() ? BuildRealJobs(*spec, o, PartitionerFor(o, /*sim=*/false), apps, **store)
                      : Result<std::vector<RealJobParts>>(store.status());
  }
  std::map<std::string, RealJob> by_definition;  // each taken once, when rank 0 adds it
  if (jobs.ok())
    for (RealJobParts& job : *jobs) {
      std::string definition = job.real.definition;
      by_definition.emplace(std::move(definition), std::move(job.real));
    }
  auto build = [&](JobId, const std::string& definition) -> Result<RealJob> {
    if (!jobs.ok()) return jobs.status();
    auto it = by_definition.find(definition);
    if (it == by_definition.end())
      return Status::InvalidArgument("rank 0 sent " + definition +
                                     ", which this rank's workload does not have: start every "
                                     "rank with the same command and the same files");
    RealJob job = std::move(it->second);
    by_definition.erase(it);
    return job;
  };
  SlotHostOptions host;
  host.memory_limit = o.memory_limit.value_or(MemoryLimit::DefaultBytes());
  return ServeSlots(transport, o.cluster, build, host);
}

}  // namespace mrlocal
