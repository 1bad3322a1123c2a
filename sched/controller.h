// The control plane: one thread, event driven. Jobs are submitted; the policy admits them
// and picks tasks for free slots; the executor runs tasks and reports back; at the end of a
// job's map phase the partitioner turns its partitions into reduce tasks.
//
// Thread model: every method runs on the EventLoop's thread. Executors deliver reports
// from their own threads through EventLoop::Post.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sched/cluster_state.h"
#include "sched/event_loop.h"
#include "sched/executor.h"
#include "sched/partitioner.h"
#include "sched/policy.h"
#include "sched/scheduler_stats.h"

namespace mrlocal {

// What a job produced, beyond its JobState: for reports.
struct JobOutcome {
  Admission admission;
  std::optional<PartitionPlan> plan;
  std::vector<TopEntry> top;  // best keys over all reduce tasks, best first
  std::vector<std::string> warnings;
  Status failure;  // why the job failed, with the code that decides the exit code
  uint64_t map_output_units = 0;
  uint64_t skipped_records = 0;  // malformed input records skipped (--skip-bad-records)
  Duration sketch_time{0};       // summed over map tasks
  uint64_t output_bytes = 0;
  uint64_t output_records = 0;
};

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
};

struct ControllerOptions {
  std::string partitioner = "dp-sketch";
  Duration observer_tick = std::chrono::milliseconds(250);
};

class Controller {
 public:
  Controller(EventLoop& loop, Executor& executor, Policy& policy, std::vector<SlotInfo> slots,
             int nodes, std::unique_ptr<Partitioner> partitioner, ControllerOptions options = {});

  void AddObserver(ControllerObserver* o) { observers_.push_back(o); }

  // Submits a job now: asks the policy for admission, and queues it if admitted. Returns
  // next_job_id(): executors that need the job's data register it under that id first.
  JobId Submit(JobSpec spec);
  JobId next_job_id() const { return next_job_; }

  // Runs the loop until every submitted job has finished (or failed, or was rejected).
  void RunUntilIdle();

  // Stops every unfinished job (e.g. on Ctrl-C): running attempts are cancelled and the
  // jobs fail with `why`. Thread: loop.
  void AbortAll(const Status& why);

  const ClusterState& state() const { return state_; }
  const JobOutcome& outcome(JobId id) const { return outcomes_.at(id); }
  const SchedulerStats& stats() const { return stats_; }
  const Policy& policy() const { return policy_; }

 private:
  void Dispatch();
  void Launch(SlotState& slot, const TaskRef& t);
  void OnReport(TaskReport report);
  void FinishMapPhase(JobState& job);
  void FailJob(JobState& job, const Status& why);
  void MaybeRetire(JobState& job);
  void Deactivate(JobId id);
  void ScheduleTicks();

  EventLoop& loop_;
  Executor& executor_;
  Policy& policy_;
  std::unique_ptr<Partitioner> partitioner_;
  ControllerOptions options_;
  ClusterState state_;
  std::map<JobId, JobOutcome> outcomes_;
  std::map<JobId, CountMinSketch> sketches_;  // summed map-output sketches, per job
  std::map<JobId, bool> retired_;             // executor told the job ended
  std::vector<ControllerObserver*> observers_;
  SchedulerStats stats_;
  JobId next_job_ = 1;
  uint64_t next_token_ = 1;
  bool running_ = false;
  std::function<void()> idle_check_;  // set while RunUntilIdle runs the loop
};

}  // namespace mrlocal
