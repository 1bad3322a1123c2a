// Records a run (one job or a workload, real or simulated: the same Controller hooks) for
// every report made of it: the figures (workload_metrics.h), the files (workload_report.h),
// the trace (trace_json.h) and the Gantt chart (gantt_svg.h). One record per job with its
// outcome and plan, and, optionally, one per task attempt and per launch decision.
//
// Memory: a simulated day may run 16 M attempts, so an attempt record is 48 bytes with no
// strings (names live in the job records), and keep_attempts = false keeps none at all.
// Everything the metrics need is also summed per job as reports arrive, so metrics are
// the same either way; only tasks.csv, trace.json and gantt.svg need the attempts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sched/core/controller.h"

namespace mrlocal {

// What the reports show of a job's partition plan (sched/partition/partitioner.h).
struct PlanRecord {
  Time at{0};  // when the plan was made: the end of the map stage
  int row = 0;
  double skewness = 0, balance = 0;
  double cost_us = 0;  // wall time spent planning: measured, so it differs run to run
  std::vector<uint64_t> reduce_load;
};

// One job as the run saw it. Times are the loop's clock (virtual time in simulation).
struct JobRecord {
  JobId id = 0;
  std::string name, app, queue;
  double weight = 1.0;
  Time arrival{0};
  std::optional<Time> deadline;  // absolute: arrival + relative deadline
  std::optional<Time> goal;      // absolute: arrival + relative goal (goal_utility.h)
  bool admitted = false;
  bool best_effort = false;  // admitted with no guarantee (Admission::best_effort)
  std::string admission_reason;
  std::optional<Time> estimated_finish;  // the admission's worst case, absolute
  uint64_t input_bytes = 0;
  uint32_t maps = 0, reduces = 0, partitions = 0;
  JobPhase phase = JobPhase::kMap;    // final phase once `finished`
  bool finished = false;              // OnJobFinished seen, or rejected at admission
  Time finish{0};                     // meaningful when finished (rejected: the arrival)
  std::optional<Time> map_phase_end;  // set when every map task finished
  std::string failure;
  std::optional<PlanRecord> plan;
  // The outcome, from OnJobFinished.
  uint64_t map_output_units = 0, skipped_records = 0;
  uint64_t output_records = 0, output_bytes = 0;
  uint64_t remote_shuffle_bytes = 0;  // fetched by reduces from other MPI ranks
  Duration sketch_time{0};            // map tasks filling their sketches, summed
  std::vector<std::string> warnings;
  std::vector<TopEntry> top;
  // Running sums over the job's attempts (kept even when attempts are not).
  Duration slot_time{0};            // sum of end - start over every attempt
  std::optional<Time> first_start;  // earliest attempt start
  uint32_t attempts = 0, preempted = 0, failed_attempts = 0;
  // Faults and stragglers: attempts run again after a failure, why each failed attempt
  // failed (JobOutcome::failed_attempts), speculative copies launched and those that
  // finished first, and the slot time of attempts whose work was discarded because
  // another attempt of the task finished first.
  uint32_t retries = 0, speculative = 0, speculative_won = 0;
  std::vector<std::string> failure_reasons;
  Duration superseded_time{0};
  // W_u of each task, maps then reduces (JobSpec::task_weights); empty: each weighs `weight`.
  std::vector<double> task_weights;
  // Sum over its successful attempts (one a task) of W_u x the attempt's end, seconds on the
  // run's clock: the job's share of TWTCT.
  double weighted_task_ends_s = 0;

  // W_u of `task`: its entry of task_weights, else the job's weight.
  double TaskWeight(const TaskRef& task) const {
    const size_t u = task.kind == TaskKind::kMap ? task.index : size_t{maps} + task.index;
    return u < task_weights.size() ? task_weights[u] : weight;
  }
  bool completed() const { return finished && phase == JobPhase::kDone; }
  // Admitted with its deadline promised: what RTMR's AcceptR and SuccessR count.
  bool guaranteed() const { return admitted && !best_effort; }
  // RTMR's successful job: completed, by its deadline if it has one.
  bool met_deadline() const { return completed() && (!deadline || finish <= *deadline); }
  // Completed by its goal; false without one.
  bool met_goal() const { return goal && completed() && finish <= *goal; }
  // finish - arrival, for completed jobs.
  std::optional<Duration> response() const {
    if (!completed()) return std::nullopt;
    return finish - arrival;
  }
};

// One task attempt. 48 bytes: a simulated day's 16 M attempts fit in under 1 GB.
struct AttemptRecord {
  Time start{0};
  Time end{0};
  uint64_t input_bytes = 0;   // map: bytes of its split; reduce: size units the plan gave it
  uint64_t output_bytes = 0;  // map: size units of its output; reduce: bytes written
  JobId job = 0;
  uint32_t index = 0;
  SlotId slot = -1;
  TaskKind kind = TaskKind::kMap;
  uint8_t flags = 0;
  uint16_t attempt = 0;  // 1 for the first attempt of a task; saturates at 65535

  static constexpr uint8_t kOk = 1, kPreempted = 2, kSpeculative = 4, kSuperseded = 8;
  bool ok() const { return flags & kOk; }
  bool preempted() const { return flags & kPreempted; }  // status Aborted, not superseded
  bool speculative() const { return flags & kSpeculative; }
  bool superseded() const { return flags & kSuperseded; }  // another attempt finished first
  Duration duration() const { return end - start; }
};
static_assert(sizeof(AttemptRecord) <= 48, "an attempt record must stay small");

// Why an attempt failed (not preempted): rare, so kept beside the attempts.
struct AttemptFailure {
  size_t attempt = 0;  // position in RunRecorder::attempts()
  std::string message;
};

// A node excluded after attempts of several jobs failed on it (RetryOptions).
struct ExclusionRecord {
  NodeId node = -1;
  Time at{0}, until{0};
};

// A policy's pick of a task for a free slot (idle answers are not kept).
struct DecisionRecord {
  Time at{0};
  Duration cost{0};  // the policy's wall time: measured, so it differs run to run
  TaskRef task;
  SlotId slot = -1;
};

struct RunRecorderOptions {
  bool keep_attempts = true;  // false: only per-job sums (for very large simulations)
  // false: the executor does not count records (a simulation models bytes only), so the
  // reports leave the jobs' output_records out rather than say 0.
  bool counts_records = true;
  // Decisions kept (with the attempts) for trace.json, which shows this many at most.
  size_t max_decisions = 1000000;
};

class RunRecorder final : public ControllerObserver {
 public:
  explicit RunRecorder(RunRecorderOptions options = {}) : options_(options) {}

  void OnAdmission(const JobState& job, const Admission& a, Time now) override;
  void OnDecision(SlotId slot, const std::optional<TaskRef>& pick, Time now,
                  Duration cost) override;
  void OnTaskReport(const TaskReport& r) override;
  void OnPlan(const JobState& job, const PartitionPlan& plan, Time now) override;
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;
  void OnTaskStart(const TaskLaunch& launch, Time now) override;
  void OnNodeExcluded(NodeId node, Time until, Time now) override;

  // Jobs in admission order (= id order for one Controller).
  const std::vector<JobRecord>& jobs() const { return jobs_; }
  // How many of them have finished (rejected ones included), without counting them.
  size_t jobs_finished() const { return jobs_finished_; }
  const JobRecord* job(JobId id) const;
  // Drops a finished job's record, once its figures are taken (MeasureJob): over a
  // service's long run the recorder then holds the jobs in the system only. jobs_finished
  // still counts it.
  void ForgetJob(JobId id);
  // Attempts in report order; empty when !keeps_attempts().
  const std::vector<AttemptRecord>& attempts() const { return attempts_; }
  const std::vector<AttemptFailure>& attempt_failures() const { return failures_; }
  bool keeps_attempts() const { return options_.keep_attempts; }
  bool counts_records() const { return options_.counts_records; }
  // Decisions in order, the first max_decisions; empty when !keeps_attempts().
  const std::vector<DecisionRecord>& decisions() const { return decisions_; }
  const std::vector<ExclusionRecord>& exclusions() const { return exclusions_; }

  // Totals over every attempt reported, kept or not.
  uint64_t attempts_seen() const { return attempts_seen_; }
  uint64_t preempted_seen() const { return preempted_seen_; }
  uint64_t failed_seen() const { return failed_seen_; }
  uint64_t superseded_seen() const { return superseded_seen_; }

 private:
  JobRecord* mutable_job(JobId id);
  uint16_t NextAttempt(const TaskRef& t);

  RunRecorderOptions options_;
  std::vector<JobRecord> jobs_;
  std::unordered_map<JobId, size_t> index_;  // job id -> position in jobs_
  std::vector<AttemptRecord> attempts_;
  std::vector<AttemptFailure> failures_;
  std::vector<DecisionRecord> decisions_;
  std::vector<ExclusionRecord> exclusions_;
  // Attempts reported so far per task of each unfinished job; a task's attempts run one
  // after another, so report order is attempt order. Dropped when the job finishes.
  struct TaskCounts {
    std::vector<uint16_t> maps, reduces;
  };
  std::unordered_map<JobId, TaskCounts> counts_;
  uint64_t attempts_seen_ = 0, preempted_seen_ = 0, failed_seen_ = 0, superseded_seen_ = 0;
  size_t jobs_finished_ = 0;
};

}  // namespace mrlocal
