// One run of the control plane, wired once for every front end (the job commands, workload
// runs, the first-run probe, calibration, the benchmarks; later a server or an MPI rank):
// the event loop, the executor, the policy, the partitioner and the Controller.
//   Real:      an AsioLoop and a RealExecutor whose slot threads are pinned to CPUs and
//              throttled to the slots' speeds; app code runs.
//   Simulated: a SimLoop and a SimExecutor that plays each task's modelled work in
//              virtual time.
//
// Thread model: everything runs on the thread that calls Run (the loop thread), before or
// during the run (an observer's callbacks are on it), except Shutdown, which any thread
// may call on a real runtime.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/memory_limit.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/core/event_loop.h"
#include "sched/core/real_executor.h"
#include "sched/dist/mpi_executor.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "tools/runtime/availability_load.h"
#include "tools/runtime/estimator_feed.h"

namespace mrlocal {

// The real engine runs a thread per slot: a process takes at most this many (a cluster
// spec allows 100,000 nodes of up to 1,024 map slots each, for simulation).
inline constexpr size_t kMaxRealSlots = 4096;

struct RuntimeOptions {
  ClusterSpec cluster;
  std::string policy = BestEffortPolicy().name;
  // For a policy that needs one (PolicyTraits::needs_estimator); must outlive the runtime.
  const Estimator* estimator = nullptr;
  // Told of every finished attempt and job end (EstimatorFeed): a learning estimator,
  // usually `estimator` itself; null: none learns during the run. Must outlive the runtime.
  Estimator* learner = nullptr;
  // Its forecast, if given, is told every availability step and reads the run's clock;
  // none: the availability below known in advance, or a constant one without any.
  PolicyArgs policy_args;
  std::string partitioner = "dp-sketch";
  ControllerOptions controller;
  // Per node: a step function of time multiplying its slots' speeds (1.0 before the first
  // step). At each step the controller's view and a real executor's throttles change; a
  // simulated executor integrates the profile itself.
  std::map<NodeId, SpeedProfile> availability;
  // Real: how the availability slows the slots: their throttles, or a CPU load beside them
  // (AvailabilityLoad). The controller and the policy hear the same steps either way.
  AvailabilityAs availability_as = AvailabilityAs::kThrottle;
  bool pin = true;  // real: pin the slot threads to CPUs
  // Real: the ranks of an MPI run (sched/dist), rank 0's end; the cluster's nodes go to
  // them round-robin (RanksOfSlots) and jobs need a RealJob::definition. Null, or one
  // rank: every slot is this process's. Must outlive the runtime.
  Transport* transport = nullptr;
  // Simulated: the log-normal noise on task times, and the seed of its draws.
  double noise = 0;
  uint64_t seed = 1;
  NetworkModel network;  // simulated: the hosts and links; default one host
  // Injected faults (sched/core/fault_injection.h) and the seed of their draws. Replica
  // faults are the job's block store's (JobRun): a runtime refuses them, as it does any
  // fault over MPI ranks (their slots run in other processes).
  std::vector<Fault> faults;
  uint64_t fault_seed = 1;
  // Real: the process's memory limit in bytes (engine/memory_limit.h), for the ranks of an
  // MPI run each rank's; none: MemoryLimit::DefaultBytes().
  std::optional<uint64_t> memory_limit;
};

// A job for the runtime: what the Controller schedules, and the work the executor runs (a
// RealJob on a real runtime, a SimJob on a simulated one).
struct RuntimeJob {
  JobSpec spec;
  std::variant<RealJob, SimJob> work;
};

class Runtime final : private ControllerObserver {
 public:
  // InvalidArgument for an unknown policy or partitioner, availability of a node the
  // cluster does not have, or availability as a load that cannot be (simulated, or CPUs
  // shared by nodes of different profiles: AvailabilityLoad::Make).
  static Result<std::unique_ptr<Runtime>> Real(RuntimeOptions options);
  static Result<std::unique_ptr<Runtime>> Simulated(RuntimeOptions options);
  ~Runtime();

  // Submits `job` now: the policy has decided its admission when Submit returns
  // (controller().outcome(id).admission). REQUIRES: its work is of this runtime's kind.
  JobId Submit(RuntimeJob job);
  // The job arrives at `arrival` (>= now); `make` builds it then, given its id.
  void SubmitAt(Time arrival, std::function<RuntimeJob(JobId)> make);
  // Ends job `id`: its running attempts are cancelled, its output discarded, and it fails
  // ("cancelled"). A job that has ended already stays as it is. NotFound: no such job.
  Status Cancel(JobId id);
  // Runs until every submitted job has arrived and ended, or until a Shutdown.
  void Run();
  // Runs until a Shutdown, taking jobs submitted meanwhile from other threads through
  // loop().Post (a service: idle is not the end).
  void Serve();
  // Loop thread: a change to the policy's paying queues (Policy::ChangeQueue), in force at
  // once; free slots are re-dealt. InvalidArgument from a policy without queues.
  Status ChangeQueue(const QueueEvent& event);
  // Ends the run: every unfinished job fails with `why` (its running attempts cancelled,
  // its output discarded), jobs that arrive from then on are cancelled, and Run returns
  // once no attempt runs any more. Thread-safe on a real runtime; a simulated one runs on
  // one thread only.
  void Shutdown(Status why);

  void AddObserver(ControllerObserver* observer) { controller_->AddObserver(observer); }
  Controller& controller() { return *controller_; }
  const Controller& controller() const { return *controller_; }
  const Policy& policy() const { return *policy_; }
  // Loop thread: Policy::ForgetLedgerIntervals.
  void ForgetLedgerIntervals(size_t count) { policy_->ForgetLedgerIntervals(count); }
  EventLoop& loop() { return *loop_; }
  const std::vector<SlotInfo>& slots() const { return slots_; }
  const RuntimeOptions& options() const { return options_; }
  bool simulated() const { return sim_executor_ != nullptr; }
  // The CPU load that follows the availability (AvailabilityAs::kLoad); null: none.
  const AvailabilityLoad* load() const { return load_.get(); }
  // Simulated: task attempts started and ended so far.
  uint64_t task_events() const;

 private:
  Runtime() = default;
  static Result<std::unique_ptr<Runtime>> Make(RuntimeOptions options, bool simulated);
  void AddWork(JobId id, const std::string& app, std::variant<RealJob, SimJob> work);
  void ScheduleAvailability(const std::map<NodeId, SpeedProfile>& availability);
  // node-slow on a real executor: its throttles step along the profiles, unknown to the
  // controller.
  void ScheduleHiddenSlowdowns();
  Status MakeRealExecutor(const RuntimeOptions& o, bool load, const FaultInjector* faults);
  // Once shut down: Run returns when no job is active and no attempt runs.
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;
  void OnAdmission(const JobState& job, const Admission& a, Time now) override;
  void StopIfDrained();

  RuntimeOptions options_;
  std::vector<SlotInfo> slots_;
  std::unique_ptr<EventLoop> loop_;
  // Before executor_, whose slot threads read them until it is gone.
  std::unique_ptr<FaultInjector> faults_;
  std::unique_ptr<MemoryLimit> memory_limit_;  // real
  std::unique_ptr<Executor> executor_;
  RealExecutor* real_executor_ = nullptr;  // executor_, by kind
  MpiExecutor* mpi_executor_ = nullptr;
  SimExecutor* sim_executor_ = nullptr;
  std::unique_ptr<Policy> policy_;
  CapacityForecast* forecast_ = nullptr;  // options_.policy_args'
  std::unique_ptr<Controller> controller_;
  std::unique_ptr<EstimatorFeed> feed_;  // with options_.learner
  std::unique_ptr<AvailabilityLoad> load_;
  bool shut_down_ = false;  // loop thread
};

}  // namespace mrlocal
