#include "sched/report/run_recorder.h"

#include <algorithm>
#include <limits>

namespace mrlocal {
namespace {

// A reduce's input is what the plan routed to it, in size units, whatever the executor:
// a real one counts the records it read, a simulated one nothing. None before the plan
// (a reduce that slow-start let in early) and for maps.
std::optional<uint64_t> ReduceInput(const JobRecord* j, const TaskRef& t) {
  if (t.kind != TaskKind::kReduce || !j || !j->plan || t.index >= j->plan->reduce_load.size())
    return std::nullopt;
  return j->plan->reduce_load[t.index];
}

}  // namespace

const JobRecord* RunRecorder::job(JobId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &jobs_[it->second];
}

JobRecord* RunRecorder::mutable_job(JobId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &jobs_[it->second];
}

void RunRecorder::OnAdmission(const JobState& job, const Admission& a, Time now) {
  JobRecord r;
  r.id = job.id;
  r.name = job.spec.name;
  r.app = job.spec.app;
  r.queue = job.spec.queue;
  r.weight = job.spec.weight;
  r.task_weights = job.spec.task_weights;
  r.arrival = job.arrival;
  r.deadline = job.absolute_deadline();
  r.goal = job.absolute_goal();
  r.admitted = a.admitted;
  r.best_effort = a.best_effort;
  r.admission_reason = a.reason;
  r.estimated_finish = a.estimated_finish();
  r.input_bytes = job.spec.input_bytes;
  r.maps = job.M();
  r.reduces = job.R();
  r.partitions = job.spec.partition_hashes.empty() ? 0 : job.spec.partition_hashes[0].partitions;
  r.phase = job.phase;
  if (!a.admitted) {
    // The Controller marks the job rejected after this hook and never reports it again.
    r.phase = JobPhase::kRejected;
    r.finished = true;
    r.finish = now;
    ++jobs_finished_;
  } else {
    counts_[job.id] = {std::vector<uint16_t>(job.M()), std::vector<uint16_t>(job.R())};
  }
  index_[r.id] = jobs_.size();
  jobs_.push_back(std::move(r));
}

void RunRecorder::OnDecision(SlotId slot, const std::optional<TaskRef>& pick, Time now,
                             Duration cost) {
  // Idle slots asking for work would flood the trace.
  if (!pick || !options_.keep_attempts || decisions_.size() >= options_.max_decisions) return;
  decisions_.push_back({now, cost, *pick, slot});
}

uint16_t RunRecorder::NextAttempt(const TaskRef& t) {
  TaskCounts& c = counts_[t.job];
  std::vector<uint16_t>& v = t.kind == TaskKind::kMap ? c.maps : c.reduces;
  if (t.index >= v.size()) v.resize(t.index + 1);  // a job admitted before we observed
  uint16_t& n = v[t.index];
  if (n < std::numeric_limits<uint16_t>::max()) ++n;
  return n;
}

void RunRecorder::OnTaskStart(const TaskLaunch& launch, Time) {
  if (!launch.speculative) return;
  if (JobRecord* j = mutable_job(launch.task.job)) ++j->speculative;
}

void RunRecorder::OnNodeExcluded(NodeId node, Time until, Time now) {
  exclusions_.push_back({node, now, until});
}

void RunRecorder::ForgetJob(JobId id) {
  auto it = index_.find(id);
  if (it == index_.end()) return;
  const size_t at = it->second;
  index_.erase(it);
  jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(at));
  for (auto& entry : index_)
    if (entry.second > at) --entry.second;
  counts_.erase(id);
}

void RunRecorder::OnTaskReport(const TaskReport& r) {
  // A superseded attempt (its task finished elsewhere first) was cancelled, or finished
  // too late: either way neither a preemption nor a failure, and its work is discarded.
  const bool ok = r.status.ok() && !r.superseded;
  const bool preempted = r.status.code() == Status::Code::kAborted && !r.superseded;
  const bool failed = !r.status.ok() && !preempted && !r.superseded;
  ++attempts_seen_;
  if (preempted) ++preempted_seen_;
  if (failed) ++failed_seen_;
  if (r.superseded) ++superseded_seen_;
  const uint16_t attempt = NextAttempt(r.task);
  JobRecord* j = mutable_job(r.task.job);
  if (j) {
    j->slot_time += r.end - r.start;
    j->first_start = j->first_start ? std::min(*j->first_start, r.start) : r.start;
    ++j->attempts;
    if (ok) j->weighted_task_ends_s += j->TaskWeight(r.task) * Seconds(r.end);
    if (preempted) ++j->preempted;
    if (failed) ++j->failed_attempts;
    if (r.superseded) j->superseded_time += r.end - r.start;
    if (ok && r.speculative) ++j->speculative_won;
  }
  if (!options_.keep_attempts) return;
  if (failed) failures_.push_back({attempts_.size(), r.status.message()});
  AttemptRecord a;
  a.start = r.start;
  a.end = r.end;
  a.input_bytes = ReduceInput(j, r.task).value_or(r.input_bytes);
  a.output_bytes = r.output_bytes;
  a.job = r.task.job;
  a.index = r.task.index;
  a.slot = r.slot;
  a.kind = r.task.kind;
  a.flags = static_cast<uint8_t>((ok ? AttemptRecord::kOk : 0) |
                                 (preempted ? AttemptRecord::kPreempted : 0) |
                                 (r.speculative ? AttemptRecord::kSpeculative : 0) |
                                 (r.superseded ? AttemptRecord::kSuperseded : 0));
  a.attempt = attempt;
  attempts_.push_back(a);
}

void RunRecorder::OnPlan(const JobState& job, const PartitionPlan& plan, Time now) {
  if (JobRecord* j = mutable_job(job.id))
    j->plan =
        PlanRecord{now, plan.row, plan.skewness, plan.balance, plan.cost_us, plan.reduce_load};
}

void RunRecorder::OnJobFinished(const JobState& job, const JobOutcome& outcome, Time) {
  counts_.erase(job.id);
  JobRecord* j = mutable_job(job.id);
  if (!j) return;
  if (!j->finished) ++jobs_finished_;
  j->phase = job.phase;  // may have turned kFailed when the output commit failed
  j->finished = true;
  j->finish = job.finish;
  if (job.maps_done == job.M()) j->map_phase_end = job.map_phase_end;
  j->failure = job.failure;
  j->map_output_units = outcome.map_output_units;
  j->skipped_records = outcome.skipped_records;
  j->output_records = outcome.output_records;
  j->output_bytes = outcome.output_bytes;
  j->remote_shuffle_bytes = outcome.remote_shuffle_bytes;
  j->sketch_time = outcome.sketch_time;
  j->warnings = outcome.warnings;
  j->top = outcome.top;
  j->retries = outcome.retries;
  j->failure_reasons = outcome.failed_attempts;
}

}  // namespace mrlocal
