// The control plane: one thread, event driven. Jobs are submitted; the policy admits them
// and picks tasks for free slots; the executor runs tasks and reports back; at the end of a
// job's map phase the partitioner turns its partitions into reduce tasks.
//
// Thread model: every method runs on the EventLoop's thread, except those marked
// thread-safe (SubmitAsync, Shutdown). Executors deliver reports from their own threads
// through EventLoop::Post.
//
// Memory: a job's state, outcome and sketch are kept until its outcome is taken
// (TakeOutcome) or, with ControllerOptions::forget_finished_jobs, until its observers have
// seen it finish. A long run that does either holds only its active jobs.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/core/event_loop.h"
#include "sched/core/executor.h"
#include "sched/core/policy.h"
#include "sched/core/retry.h"
#include "sched/core/scheduler_stats.h"
#include "sched/core/slot_set.h"
#include "sched/core/speculation.h"
#include "sched/partition/partitioner.h"

namespace mrlocal {

// What a job produced, beyond its JobState: for reports.
struct JobOutcome {
  Admission admission;
  std::optional<PartitionPlan> plan;
  // The reduce tasks' best keys (each its best N, or all it had), merged in RanksBefore
  // order: the first N are the job's N best. Whoever knows N cuts the list (JobRun).
  std::vector<TopEntry> top;
  std::vector<std::string> warnings;
  Status failure;  // why the job failed, with the code that decides the exit code
  uint64_t map_output_units = 0;
  uint64_t skipped_records = 0;  // malformed input records skipped (--skip-bad-records)
  Duration sketch_time{0};       // summed over map tasks
  uint64_t output_bytes = 0;
  uint64_t output_records = 0;
  uint64_t remote_shuffle_bytes = 0;  // record bytes reduces fetched from other ranks
  // Attempts that failed and ran again (RetryOptions), and why each failed, in order:
  // "map 3 attempt 1 on slot 2 (node 1): why". A job that failed for good lists them all.
  uint32_t retries = 0;
  std::vector<std::string> failed_attempts;  // the first kMaxFailureReasons
  static constexpr size_t kMaxFailureReasons = 100;
};

// What a policy and a learning estimator are told of a finished attempt: its report, with
// what the Controller kept of the task (attempt count, the load at its launch).
inline TaskRecord RecordOf(const TaskReport& r, const TaskState& t) {
  return {r.task, t.attempts,    r.slot,         r.status.ok(), r.start,
          r.end,  r.input_bytes, r.output_bytes, t.node_tasks};
}

// Hooks for reports, traces and progress. All run on the loop thread.
class ControllerObserver {
 public:
  virtual ~ControllerObserver() = default;
  virtual void OnAdmission(const JobState&, const Admission&, Time) {}
  virtual void OnDecision(SlotId, const std::optional<TaskRef>&, Time, Duration /*cost*/) {}
  virtual void OnTaskStart(const TaskLaunch&, Time) {}
  virtual void OnTaskReport(const TaskReport&) {}
  virtual void OnPlan(const JobState&, const PartitionPlan&, Time) {}
  virtual void OnJobFinished(const JobState&, const JobOutcome&, Time) {}
  virtual void OnTick(const ClusterState&, const Executor&, Time) {}
  // The policy asked for something impossible (a task that cannot run on the slot it
  // picked, ...): a bug in the policy. The request was skipped and the run goes on.
  virtual void OnInvalidDecision(std::string_view /*why*/, Time) {}
  // Attempts of several jobs failed on `node`: it runs nothing until `until`.
  virtual void OnNodeExcluded(NodeId /*node*/, Time /*until*/, Time) {}
};

struct ControllerOptions {
  // Period of ControllerObserver::OnTick; zero: no observer ticks (simulations that need
  // no progress lines).
  Duration observer_tick = std::chrono::milliseconds(250);
  // Reduce slow-start, Hadoop's mapred.reduce.slowstart.completed.maps (0.05 by default
  // in Hadoop 0.21): once this fraction of a job's maps is done, its reduces may launch.
  // One launched before the map stage ends holds its slot, idle, until the plan is made
  // (Hadoop's would shuffle meanwhile; ours reads map outputs in memory, after the plan).
  // None: reduces launch once the map stage has ended. Policies may opt out
  // (Policy::uses_reduce_slowstart).
  std::optional<double> reduce_slowstart;
  // Forget a job once the observers' OnJobFinished (a rejected job: OnAdmission) has run:
  // state().jobs and outcome() no longer know it. For long runs whose observers keep what
  // they need.
  bool forget_finished_jobs = false;
  // Per node: at most this many tasks at once over all its slots (ClusterSpec's
  // NodeTaskLimits); 0 or missing: one per slot. A node at its limit offers no free slot.
  std::vector<int> node_task_limits = {};
  RetryOptions retry = {};
  // Speculative execution of stragglers; a policy may veto it (Policy::speculation_veto).
  SpeculationOptions speculation = {};
};

// The Controller is its policy's PolicyHost, and the DispatchRound of each Dispatch.
class Controller final : private PolicyHost, private DispatchRound {
 public:
  Controller(EventLoop& loop, Executor& executor, Policy& policy, std::vector<SlotInfo> slots,
             int nodes, std::unique_ptr<Partitioner> partitioner, ControllerOptions options = {});
  // Cancels its timers on the loop, and detaches the policy.
  ~Controller() override;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  void AddObserver(ControllerObserver* o) { observers_.push_back(o); }

  // Submits a job now: asks the policy for admission, and queues it if admitted. Returns
  // next_job_id(): executors that need the job's data register it under that id first.
  JobId Submit(JobSpec spec);
  // A job arrives at `arrival` (>= Now()): `make` builds its spec then (an executor that
  // needs the job's data registers it there, under the id it is given), and the policy
  // sees it. Ids are given in arrival order. Building at arrival keeps a simulated day's
  // millions of tasks out of memory until their jobs arrive.
  using JobMaker = std::function<JobSpec(JobId)>;
  void SubmitAt(Time arrival, JobMaker make);
  // Thread-safe: the job arrives on the loop thread as soon as the loop gets to it, and
  // `make` is called there with its id, as SubmitAt's is.
  void SubmitAsync(JobMaker make);
  JobId next_job_id() const { return next_job_; }

  // Runs the loop until every submitted job has arrived and finished (or failed, or was
  // rejected), or until Shutdown().
  void RunUntilIdle();
  // Runs the loop, serving submissions, until Shutdown(). Unfinished jobs stay as they
  // are (AbortAll ends them). A SimLoop also returns when it has no event left.
  void RunUntilShutdown();
  // Thread-safe: the running Run* returns after the current event; a Shutdown before the
  // run ends it at once.
  void Shutdown();

  // Ends job `id`: its running attempts are cancelled, and it fails with an Aborted status
  // ("cancelled"). A job that has already ended is left as it is. NotFound: no such job
  // (or it was forgotten).
  Status Cancel(JobId id);
  // Stops every unfinished job (e.g. on Ctrl-C): running attempts are cancelled and the
  // jobs fail with `why`.
  void AbortAll(const Status& why);

  // Loop thread: offers the free slots to the policy again, after a change it could not
  // know of (Runtime::ChangeQueue).
  void Redispatch();

  // Slot `slot` now runs at `speed` (its base speed times the node's availability): the
  // state shows it, the executor is told (Executor::SetSpeed), the policy hears it
  // (OnSlotSpeedChanged). InvalidArgument: no such slot, or a speed not in (0, inf).
  Status SetSlotSpeed(SlotId slot, double speed);

  // The outcome of a job that has ended, no attempt of it running any more; the controller
  // then forgets the job. NotFound: no such job; InvalidArgument: it has not ended yet.
  Result<JobOutcome> TakeOutcome(JobId id);

  const ClusterState& state() const { return state_; }
  const JobOutcome& outcome(JobId id) const { return outcomes_.at(id); }
  const SchedulerStats& stats() const { return stats_; }
  const Policy& policy() const { return policy_; }

  // What the controller holds, in entries: for tests and monitoring that memory stays
  // bounded in a long run.
  struct Footprint {
    size_t jobs = 0, outcomes = 0, sketches = 0, retired = 0, held = 0;
  };
  Footprint footprint() const {
    return {state_.jobs.size(), outcomes_.size(), sketches_.size(), retired_.size(), held_.size()};
  }

 private:
  void Arrive(JobId id, JobSpec spec);
  void Run(bool until_idle);
  void Dispatch();
  // DispatchRound, for the policy's Dispatch.
  SlotId NextFree(SlotKind kind, SlotId from) const override;
  bool Assign(SlotId slot, const std::optional<TaskRef>& task) override;
  // PolicyHost.
  TimerId WakeAt(Time at) override;
  void CancelWake(TimerId id) override;
  bool Preempt(const TaskRef& task) override;
  // The policy's PlaceReduces, checked; today's rule when it is not valid.
  std::vector<SlotId> PlaceReduces(const JobState& job);
  std::string InvalidPlacement(const JobState& job, const std::vector<SlotId>& planned) const;
  // Why `t` cannot be launched on `slot` now; empty when it can.
  const char* CannotLaunch(const SlotState& slot, const TaskRef& t) const;
  void Launch(SlotState& slot, const TaskRef& t);
  // Puts attempt `t` on `slot`: the slot's, node's and counts' bookkeeping of a launch.
  TaskLaunch Occupy(SlotState& slot, const TaskRef& t, TaskState& ts);
  // Speculative execution (speculation.h): copies stragglers onto free slots.
  void Speculate();
  void SpeculateOn(TaskKind kind, size_t cap);
  void LaunchCopy(SlotState& slot, const TaskRef& t);
  void ScheduleSpeculationTick();
  // A finished attempt's pace: its job's and its slot's (speculation.h).
  void NotePace(const TaskReport& r, const SlotState& slot);
  // The report of an attempt that ran beside another attempt of its task (a copy, or
  // one a copy ran beside): true when it is handled.
  bool OnPairedReport(JobState& job, TaskState& ts, TaskReport& r, bool extra, NodeId node);
  void ReportInvalidDecision(const std::string& why);
  void OnReport(TaskReport report);
  // A task finished (its first attempt to): the job's counts and outcome, and what follows.
  void TaskDone(JobState& job, const TaskReport& r);
  void ReleaseReducesEarly(JobState& job);
  // The last map is done: a map-only job ends, another plans its reduces now or after
  // its shuffle delay (PlanReduces).
  void FinishMapPhase(JobState& job);
  void PlanReduces(JobState& job);
  void CancelAttempt(const SlotState& slot);
  void FailJob(JobState& job, const Status& why);
  // A failed attempt of a job that goes on: run the task again, or fail the job.
  // `requeue`: no other attempt of the task runs, so a retry must be queued.
  void AttemptFailed(JobState& job, TaskState& ts, const TaskReport& r, NodeId node,
                     bool requeue = true);
  // An attempt that ended without finishing its task (preempted, or failed and retried):
  // the task is pending again, and the policy hears of the attempt.
  void Requeue(JobState& job, TaskState& ts, const TaskRecord& record);
  // Counts a failure of `job` on `node`; excludes the node when RetryOptions says so.
  void NoteNodeFailure(NodeId node, JobId job);
  bool FailuresStandOut(NodeId node) const;
  bool Excluded(NodeId node) const {
    return static_cast<size_t>(node) < excluded_until_.size() && excluded_until_[node] > Time{0};
  }
  void MaybeRetire(JobState& job);
  void Deactivate(JobId id);
  void Forget(JobId id);
  void ScheduleObserverTick();  // each re-arming itself while a run lasts
  void CheckIdle();
  bool Idle() const;
  SlotSet& free_slots(SlotKind k) { return free_[k == SlotKind::kMap ? 0 : 1]; }
  int TaskLimit(NodeId node) const {
    return static_cast<size_t>(node) < options_.node_task_limits.size()
               ? options_.node_task_limits[node]
               : 0;
  }
  // After a node's running count or exclusion changed: its idle slots are free while it is
  // under its task limit and not excluded, and none is otherwise.
  void UpdateNodeSlots(NodeId node);
  uint64_t& pending(TaskKind k) { return pending_[k == TaskKind::kMap ? 0 : 1]; }

  EventLoop& loop_;
  Executor& executor_;
  Policy& policy_;
  std::unique_ptr<Partitioner> partitioner_;
  ControllerOptions options_;
  ClusterState state_;
  std::map<JobId, JobOutcome> outcomes_;
  std::map<JobId, CountMinSketch> sketches_;  // summed map-output sketches, per job
  std::set<JobId> retired_;                   // executor told the job ended
  // Tokens of the reduce attempts that took their slots before their job's plan (reduce
  // slow-start), until their reports: the plan launches those still held, and each report
  // counts the slot from when it was taken (TaskState::start).
  std::set<uint64_t> held_;
  std::vector<ControllerObserver*> observers_;
  SchedulerStats stats_;
  // What Dispatch needs without scanning: the free slots of each kind, and how many
  // tasks of each kind are pending in active jobs (reduces once planned). A policy can only
  // pick a pending task, so with none pending no slot of that kind is offered.
  SlotSet free_[2];
  std::vector<std::vector<SlotId>> node_slots_;  // per node, its slots
  // Node exclusion (RetryOptions): the jobs whose attempts failed on each node since it was
  // last excluded, and until when each node is excluded (Time{0}: it is not).
  std::vector<std::set<JobId>> node_failed_jobs_;
  // Attempts that ended (failed or not) and failed on each node since its exclusion, and
  // their sums: whether a node's failures stand out (FailuresStandOut).
  std::vector<uint64_t> node_attempts_, node_failures_;
  uint64_t attempts_on_nodes_ = 0, failures_on_nodes_ = 0;
  std::vector<Time> excluded_until_;
  int excluded_nodes_ = 0;
  std::map<NodeId, TimerId> exclusion_timers_;  // each ends its node's exclusion
  uint64_t pending_[2] = {0, 0};
  std::atomic<size_t> arrivals_due_ = 0;  // submitted jobs that have not arrived yet
  size_t running_tasks_ = 0;              // attempts launched and not yet reported
  JobId next_job_ = 1;
  uint64_t next_token_ = 1;
  bool running_ = false;       // inside a Run*
  bool until_idle_ = false;    // the run is RunUntilIdle
  bool loop_running_ = false;  // the run is inside loop_.Run()
  TimerId observer_tick_ = 0;
  // Speculation: whether it is on (the options, and no veto), the slots' paces, each
  // job's finished work per kind, how many copies run, and the periodic look.
  bool speculating_ = false;
  SlotPaces paces_;
  std::unordered_map<JobId, std::array<KindPace, 2>> kind_pace_;
  size_t copies_running_ = 0;
  TimerId speculation_tick_ = 0;
  // The policy's wake-ups not yet due, by the id it was given: the loop's timer.
  std::unordered_map<TimerId, TimerId> wakes_;
  std::map<JobId, TimerId> shuffle_timers_;  // PlanReduces of the jobs in their shuffle delay
  TimerId last_wake_ = 0;
  int64_t decision_mark_ = 0;  // end of the round's previous decision (TickClock)
};

}  // namespace mrlocal
