// Running a workload (datasets/workload_spec.h): every job submitted at its arrival time to
// one Controller under one policy, in simulation (SimLoop + SimExecutor, a simulated day
// in seconds) or for real on the local slots. `mrlocal workload` and `mrlocal compare`
// are thin layers over this.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/queue_ledger.h"
#include "sched/core/scheduler_stats.h"
#include "sched/core/speed_profile.h"
#include "sched/dist/transport.h"
#include "sched/estimate/job_history.h"
#include "sched/estimate/task_model.h"
#include "sched/policy/policy_args.h"
#include "sched/report/run_recorder.h"
#include "sched/report/workload_metrics.h"
#include "sched/sim/network_model.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/availability_load.h"
#include "tools/runtime/interrupt.h"
#include "tools/runtime/run_estimator.h"

namespace mrlocal {

// --link's default: a 1 Gbit/s link as a reduce sees it. The model charges each reduce's
// pull at the link's rate alone; measured between two namespaces (100 Mbit/s tbf, where the
// effect is well above the noise), concurrent pulls and request/answer chunks gave each
// reduce a third of it (sched/dist/README.md#the-network-in-simulation).
inline constexpr const char* kDefaultLink = "330mbit,50us";

// Where a simulation stands, for a front end's progress line.
struct SimProgress {
  Time now{0};  // simulated time
  size_t jobs_finished = 0, jobs = 0;
  uint64_t task_events = 0;  // attempt starts + ends so far
};

struct WorkloadRunOptions {
  const AppRegistry* apps = &AppRegistry::BuiltIn();  // what the jobs' apps are
  std::string policy = "fifo";
  ClusterSpec cluster;      // REQUIRES: set (the spec's, --cluster's, or a default)
  std::string partitioner;  // empty: hash in simulation (no keys), dp-sketch for real
  uint64_t seed = 1;        // the simulation's noise draws
  NetworkModel network;     // simulation over several hosts; default: one
  double time_scale = 1.0;  // arrival times, deadlines, goals and availability steps are scaled
  // Real runs: how the spec's availability slows the slots (RuntimeOptions').
  AvailabilityAs availability_as = AvailabilityAs::kThrottle;
  Calibration calibration = Calibration::BuiltIn();
  bool keep_attempts = true;  // tasks.csv, trace.json, gantt.svg need them
  // The policy's settings (feedback-threshold...). estimate-margin not set: 1 in
  // simulation (the model's worst case is exact), kRealEstimateMargin for real runs.
  PolicyArgs policy_args;
  // For a policy that needs an estimator: the task-time estimates. None: in simulation the
  // model's own worst case (ModelHistory); for real, the history file (DefaultHistoryPath()).
  std::optional<JobHistory> history;
  // What the policy asks: the history above, or a kNN estimator that takes it as its
  // cold-start prior and learns from every task of the run, starting from
  // `knn_observations` (--history's; for real runs without it, the user's history file's).
  EstimatorKind estimator = EstimatorKind::kHistory;
  KnnObservations knn_observations;
  ControllerObserver* observer = nullptr;  // e.g. progress lines; may be null
  Duration observer_tick{0};
  // Simulation: called between events every kSimProgressEvents events (the caller paces
  // what it shows by its own clock). Null: never. Nothing in the run depends on it.
  std::function<void(const SimProgress&)> sim_progress;
  // Real runs over MPI ranks (sched/dist): rank 0's end, the cluster's nodes going to the
  // ranks round-robin; every other rank runs ServeWorkloadRank. Null: one process.
  Transport* transport = nullptr;
  // Failed attempts a task may have (RetryOptions::max_attempts).
  uint32_t max_attempts = RetryOptions{}.max_attempts;
  bool speculative = false;  // where the policy does not veto it
  // Real: the process's memory limit in bytes; none: MemoryLimit::DefaultBytes().
  std::optional<uint64_t> memory_limit;
};

struct WorkloadRun {
  std::unique_ptr<RunRecorder> recorder;
  WorkloadMetrics metrics;
  SchedulerStats stats;
  std::vector<SlotInfo> slots;
  uint64_t task_events = 0;  // attempt starts + ends (simulation)
  double wall_s = 0;         // what the run took on this machine
  // AvailabilityAs::kLoad: the CPUs the load ran on, and the CPU time it took there.
  size_t load_cpus = 0;
  double load_cpu_s = 0;
  // Under a policy that runs all of a job's reduces at once (dc): jobs left out because
  // they have more reduces than the cluster has reduce slots (PolicyTraits).
  size_t left_out = 0;
  // Reduce slow-start as applied: the spec's, unless the policy opts out (rtmr).
  std::optional<double> reduce_slowstart;
  std::optional<LofEvaluation> overload;  // Policy::OverloadSnapshot after the run
  std::optional<QueueLedger> ledger;      // Policy::Ledger after the run
  std::string policy_note;                // Policy::note(): a plan's fallback, or empty
  // The capacity forecast the policy was given (the spec's, run_forecast.h), as the run
  // left it: a learned one has seen the whole run.
  std::shared_ptr<const CapacityForecast> forecast;
  // Per node, its availability as the run applied it (at the run's time scale): what the
  // report draws as f(t) (ReportOptions::availability).
  std::map<NodeId, SpeedProfile> availability;
};

// Events between two sim_progress calls: a few a second at the simulator's millions of
// events per second, and nothing to notice in its cost.
inline constexpr uint64_t kSimProgressEvents = 1 << 16;

// Validates the spec against the options (apps modelled, inputs present), then runs it.
Result<WorkloadRun> RunWorkloadSim(const WorkloadSpec& spec, const WorkloadRunOptions& options);

// Runs the jobs for real on the cluster's slots (threads pinned, throttled to the slots'
// speeds). Inputs are read into an in-process block store, or generated, before the clock
// starts; synthetic jobs spin for their declared work.
// Availability profiles change the slots' throttles at their steps, or the load beside
// them (options.availability_as). Output is computed and discarded. A signal `interrupt`
// catches during the run aborts every unfinished job.
Result<WorkloadRun> RunWorkloadReal(const WorkloadSpec& spec, const WorkloadRunOptions& options,
                                    Interrupt* interrupt = nullptr);

// A rank other than 0 of `mpirun -np N mrlocal workload ...` (a real run): builds the jobs
// rank 0 builds, from the same spec and options (every rank parsed the same command line:
// files must be visible to every rank, generated inputs are deterministic), and serves
// this rank's slots until rank 0 is done. A rank that cannot build the jobs refuses each
// with why, so that rank 0 fails them naming it.
Status ServeWorkloadRank(const WorkloadSpec& spec, const WorkloadRunOptions& options,
                         Transport& transport);

// What a planning policy (PolicyTraits::needs_preview) sees of the run before it starts:
// the spec at options.time_scale on options.cluster as an MSJO instance, each task's work
// from its app's model under options.calibration (JobSetPreview), without its LP.
// InvalidArgument naming the job when its app has no model.
Result<PlanPreview> WorkloadPreview(const WorkloadSpec& spec, const WorkloadRunOptions& options);

// The latest time, in seconds from the run's start, that a scaled workload may name. The
// clocks count int64 nanoseconds (292 years); a billion seconds (31 years) leaves the jobs
// room to run after it, and no real or simulated run needs more.
inline constexpr double kMaxWorkloadTimeS = 1e9;

// The spec with arrival times, deadlines, goals, availability and forecast steps, and the
// learned forecast's period and window multiplied by `scale`. InvalidArgument, naming the
// job or profile, when a time lands past kMaxWorkloadTimeS (an absurd arrival, or --load and
// --time-scale stretching the workload that far): it would overflow the clock.
Result<WorkloadSpec> ScaleTime(WorkloadSpec spec, double scale);

}  // namespace mrlocal
