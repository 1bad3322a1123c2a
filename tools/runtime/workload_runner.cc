#include "tools/runtime/workload_runner.h"

#include <chrono>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/block_store.h"
#include "sched/core/asio_loop.h"
#include "sched/core/controller.h"
#include "sched/core/real_executor.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tools/runtime/real_job.h"
#include "tools/runtime/sim_jobs.h"

namespace mrlocal {

namespace {

// Runs the controller until every job has arrived and ended, then fills in the run's
// wall time, scheduler statistics and metrics.
void RunAndMeasure(Controller& controller, const Policy& policy, bool sim, WorkloadRun& run) {
  auto t0 = std::chrono::steady_clock::now();
  controller.RunUntilIdle();
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.stats = controller.stats();
  MetricsContext mc;
  mc.policy = std::string(policy.name());
  mc.sim = sim;
  mc.total_slots = static_cast<int>(run.slots.size());
  mc.admission_control = policy.admission_control();
  mc.scheduler = &run.stats;
  run.metrics = ComputeMetrics(*run.recorder, mc);
}

}  // namespace

size_t LeaveOutForDc(WorkloadSpec& spec, int reduce_slots) {
  const size_t before = spec.jobs.size();
  std::erase_if(spec.jobs,
                [&](const WorkloadJob& j) { return j.reduces > uint32_t(reduce_slots); });
  return before - spec.jobs.size();
}

WorkloadSpec ScaleTime(WorkloadSpec spec, double scale) {
  if (scale == 1.0) return spec;
  for (WorkloadJob& j : spec.jobs) {
    j.arrival_s *= scale;
    if (j.deadline_s) *j.deadline_s *= scale;
  }
  for (AvailabilityProfile& a : spec.availability)
    for (auto& step : a.steps) step.at_s *= scale;
  return spec;
}

Result<WorkloadRun> RunWorkloadSim(const WorkloadSpec& given, const WorkloadRunOptions& o) {
  WorkloadSpec spec = ScaleTime(given, o.time_scale);
  WorkloadRun run;
  if (o.policy == "dc") run.left_out = LeaveOutForDc(spec, o.cluster.reduce_slots());
  const JobHistory history = o.history ? *o.history : ModelHistory(*o.apps, spec, o.calibration);
  auto policy = MakePolicy(
      o.policy, PolicyOptions{&history, o.feedback_threshold, o.estimate_margin.value_or(1.0)});
  if (!policy.ok()) return policy.status();
  const std::string partitioner_name = o.partitioner.empty() ? "hash" : o.partitioner;
  auto partitioner = MakePartitioner(partitioner_name);
  if (!partitioner.ok()) return partitioner.status();
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

  run.slots = o.cluster.Slots();
  SimExecutorOptions eo;
  eo.seed = o.seed;
  eo.noise = spec.model.noise;
  for (const AvailabilityProfile& a : spec.availability) {
    SpeedProfile p;
    for (auto& step : a.steps) {
      p.at.push_back(FromSeconds(step.at_s));
      p.factor.push_back(step.factor);
    }
    for (int node : a.nodes) {
      if (node < 0 || node >= o.cluster.nodes())
        return Status::InvalidArgument(spec.source + ": availability names node " +
                                       std::to_string(node) + " but the cluster has " +
                                       std::to_string(o.cluster.nodes()) + " nodes");
      eo.availability[node] = p;
    }
  }

  SimLoop loop;
  SimExecutor executor(loop, run.slots, eo);
  ControllerOptions co;
  co.partitioner = partitioner_name;
  co.reduce_slowstart = spec.reduce_slowstart;
  if ((*policy)->uses_reduce_slowstart()) run.reduce_slowstart = spec.reduce_slowstart;
  co.observer_tick = o.observer_tick;
  Controller controller(loop, executor, **policy, run.slots, o.cluster.nodes(),
                        std::move(partitioner).value(), co);
  run.recorder = std::make_unique<RunRecorder>(RunRecorderOptions{o.keep_attempts});
  controller.AddObserver(run.recorder.get());
  if (o.observer) controller.AddObserver(o.observer);

  Status build_error;
  for (const WorkloadJob& j : spec.jobs) {
    controller.SubmitAt(FromSeconds(j.arrival_s), [&, job = &j](JobId id) {
      auto built = BuildSimJob(*o.apps, *job, model);
      if (!built.ok()) {  // checked above; kept for safety
        if (build_error.ok()) build_error = built.status();
        JobSpec empty;
        empty.name = job->name;
        executor.AddJob(id, {});
        return empty;
      }
      executor.AddJob(id, std::move(built->sim));
      return std::move(built->spec);
    });
  }
  RunAndMeasure(controller, **policy, /*sim=*/true, run);
  if (!build_error.ok()) return build_error;
  run.task_events = executor.task_events();
  return run;
}

namespace {

// Stops the run when `interrupt` says so; polled on the controller's ticks.
class InterruptWatch final : public ControllerObserver {
 public:
  InterruptWatch(Controller& c, std::function<bool()> f) : c_(c), f_(std::move(f)) {}
  void OnTick(const ClusterState&, const Executor&, Time) override {
    if (f_ && !fired_ && f_()) {
      fired_ = true;
      c_.AbortAll(Status::Aborted("interrupted"));
    }
  }

 private:
  Controller& c_;
  std::function<bool()> f_;
  bool fired_ = false;
};

// The store path of a job's input, generating it (once per distinct generator setting).
Result<std::vector<std::string>> MaterializeInput(const WorkloadJob& j, BlockStore& store,
                                                  std::map<std::string, bool>& present) {
  const InputSpec& in = j.input;
  std::vector<std::string> paths;
  if (in.kind == InputSpec::Kind::kFiles) {
    for (const std::string& f : in.files) {
      if (!present[f]) {
        Status st = store.Put(f, f);
        if (!st.ok()) return st.WithContext("job '" + j.name + "': ");
        present[f] = true;
      }
      paths.push_back(f);
    }
    return paths;
  }
  if (in.kind != InputSpec::Kind::kGenerated) return paths;
  const std::string name = "generated/" + in.generator + "-" + std::to_string(in.bytes) + "-" +
                           std::to_string(in.graph_nodes) + "-" + std::to_string(in.graph_edges) +
                           "-" + std::to_string(in.seed);
  if (!present[name]) {
    std::string data;
    if (in.generator == "graph") {
      GraphOptions g;
      g.seed = in.seed;
      g.skew = 24;  // facebook_combined's max/mean degree: reachable by small graphs too
      const GraphSize size = in.graph_edges > 0 ? GraphSize{in.graph_nodes, in.graph_edges}
                                                : GraphForBytes(in.bytes, in.graph_nodes);
      if (size.nodes > 0) g.nodes = size.nodes;
      g.edges = size.edges;
      auto text = GenerateGraph(g);
      if (!text.ok())
        return Status::InvalidArgument("job '" + j.name + "': " + text.status().message());
      data = std::move(text).value();
    } else {
      TextOptions t;
      t.bytes = in.bytes;
      t.seed = in.seed;
      data = GenerateText(t);
    }
    Status st = store.PutBuffer(name, std::make_shared<const std::string>(std::move(data)));
    if (!st.ok()) return st;
    present[name] = true;
  }
  paths.push_back(name);
  return paths;
}

}  // namespace

// The estimates of a real run: --history, else the user's history file. Synthetic jobs
// declare their work, which a spinning task follows closely: their estimate is that, plus
// a fixed allowance for starting a task on a loaded machine. Every other app must have
// history; a workload does not probe (it would disturb the clock) nor write history back,
// so that runs under different policies start from the same estimates.
Result<JobHistory> RealRunHistory(const WorkloadSpec& spec, const WorkloadRunOptions& o) {
  JobHistory history;
  if (o.history) {
    history = *o.history;
  } else {
    const auto path = JobHistory::DefaultPath();
    auto loaded = JobHistory::Load(path);
    if (loaded.ok())
      history = std::move(loaded).value();
    else if (loaded.status().code() != Status::Code::kNotFound)
      return loaded.status();
  }
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
  return history;
}

Result<WorkloadRun> RunWorkloadReal(const WorkloadSpec& given, const WorkloadRunOptions& o,
                                    std::function<bool()> interrupt) {
  WorkloadSpec spec = ScaleTime(given, o.time_scale);
  size_t left_out = 0;
  if (o.policy == "dc") left_out = LeaveOutForDc(spec, o.cluster.reduce_slots());
  JobHistory history;
  if (PolicyUsesHistory(o.policy)) {
    auto h = RealRunHistory(spec, o);
    if (!h.ok()) return h.status();
    history = std::move(h).value();
  }
  auto policy =
      MakePolicy(o.policy, PolicyOptions{&history, o.feedback_threshold,
                                         o.estimate_margin.value_or(kRealEstimateMargin)});
  if (!policy.ok()) return policy.status();
  const std::string partitioner_name = o.partitioner.empty() ? "dp-sketch" : o.partitioner;
  auto partitioner = MakePartitioner(partitioner_name);
  if (!partitioner.ok()) return partitioner.status();

  BlockStoreOptions so;
  so.block_size = spec.block_size;
  so.nodes = o.cluster.nodes();
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();

  // Every job is built before the clock starts: inputs read or generated, runtimes made.
  std::vector<JobApp> apps;
  apps.reserve(spec.jobs.size());
  std::vector<RealJobParts> jobs;
  std::map<std::string, bool> present;
  for (const WorkloadJob& j : spec.jobs) {
    auto app = o.apps->Find(j.app);
    if (!app.ok()) return app.status().WithContext("job '" + j.name + "': ");
    apps.push_back((*app)->runtime(j));
    auto paths = MaterializeInput(j, **store, present);
    if (!paths.ok()) return paths.status();
    RealJobRequest q;
    q.app = &apps.back();
    q.store = store->get();
    q.paths = *paths;
    q.name = j.name;
    if (j.deadline_s) q.deadline = FromSeconds(*j.deadline_s);
    q.reduces = j.reduces;
    q.partitions =
        partitioner_name == "hash" ? std::max(1u, j.reduces) : 4 * std::max(1u, j.reduces);
    q.top = 0;
    q.weight = j.weight;
    q.queue = j.queue;
    auto parts = PrepareRealJob(q);
    if (!parts.ok()) return parts.status().WithContext("job '" + j.name + "': ");
    jobs.push_back(std::move(parts).value());
  }

  WorkloadRun run;
  run.left_out = left_out;
  run.slots = o.cluster.Slots();
  AsioLoop loop;
  RealExecutor executor(loop, run.slots, /*pin=*/true);
  ControllerOptions co;
  co.partitioner = partitioner_name;
  co.reduce_slowstart = spec.reduce_slowstart;
  if ((*policy)->uses_reduce_slowstart()) run.reduce_slowstart = spec.reduce_slowstart;
  co.observer_tick =
      o.observer_tick > Duration::zero() ? o.observer_tick : std::chrono::milliseconds(250);
  Controller controller(loop, executor, **policy, run.slots, o.cluster.nodes(),
                        std::move(partitioner).value(), co);
  run.recorder = std::make_unique<RunRecorder>(RunRecorderOptions{o.keep_attempts});
  controller.AddObserver(run.recorder.get());
  InterruptWatch watch(controller, std::move(interrupt));
  controller.AddObserver(&watch);
  if (o.observer) controller.AddObserver(o.observer);
  // Availability profiles: at each step the throttle of the node's slots changes; a task
  // running then slows down or speeds up from its next chunk on.
  for (const AvailabilityProfile& a : spec.availability) {
    for (int node : a.nodes) {
      if (node < 0 || node >= o.cluster.nodes())
        return Status::InvalidArgument(spec.source + ": availability names node " +
                                       std::to_string(node) + " but the cluster has " +
                                       std::to_string(o.cluster.nodes()) + " nodes");
      for (const auto& step : a.steps) {
        loop.At(FromSeconds(step.at_s), [&executor, &run, node, factor = step.factor] {
          for (const SlotInfo& s : run.slots)
            if (s.node == node) executor.SetSpeed(s.id, s.speed * factor);
        });
      }
    }
  }
  for (size_t i = 0; i < spec.jobs.size(); ++i) {
    controller.SubmitAt(FromSeconds(spec.jobs[i].arrival_s), [&, i](JobId id) {
      executor.AddJob(id, std::move(jobs[i].real));
      return std::move(jobs[i].spec);
    });
  }
  RunAndMeasure(controller, **policy, /*sim=*/false, run);
  return run;
}

}  // namespace mrlocal
