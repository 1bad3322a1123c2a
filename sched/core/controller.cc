#include "sched/core/controller.h"

#include <algorithm>
#include <cmath>

namespace mrlocal {
namespace {

int64_t SteadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Keeps the best `n` entries: higher score first, then key ascending.
void MergeTop(std::vector<TopEntry>& into, const std::vector<TopEntry>& more, size_t n) {
  into.insert(into.end(), more.begin(), more.end());
  std::sort(into.begin(), into.end(), [](const TopEntry& a, const TopEntry& b) {
    return a.score != b.score ? a.score > b.score : a.key < b.key;
  });
  if (into.size() > n) into.resize(n);
}

}  // namespace

Controller::Controller(EventLoop& loop, Executor& executor, Policy& policy,
                       std::vector<SlotInfo> slots, int nodes,
                       std::unique_ptr<Partitioner> partitioner, ControllerOptions options)
    : loop_(loop),
      executor_(executor),
      policy_(policy),
      partitioner_(std::move(partitioner)),
      options_(std::move(options)) {
  for (auto& s : slots) {
    state_.slots.push_back({s, std::nullopt, 0, Time{0}});
    free_slots(s.kind).Insert(s.id);
  }
  state_.nodes = nodes;
  if (executor_.reports_on_loop_thread()) {
    executor_.SetReportFn([this](TaskReport r) { OnReport(std::move(r)); });
  } else {
    executor_.SetReportFn([this](TaskReport r) {
      loop_.Post([this, r = std::move(r)]() mutable { OnReport(std::move(r)); });
    });
  }
}

JobId Controller::Submit(JobSpec spec) {
  const JobId id = next_job_++;
  Arrive(id, std::move(spec));
  return id;
}

void Controller::SubmitAt(Time arrival, JobMaker make) {
  ++arrivals_due_;
  loop_.At(arrival, [this, make = std::move(make)] {
    --arrivals_due_;
    const JobId id = next_job_++;
    Arrive(id, make(id));
    CheckIdle();
  });
}

void Controller::SubmitAsync(JobMaker make) {
  ++arrivals_due_;  // before the post: a RunUntilIdle does not end while it is on its way
  loop_.Post([this, make = std::move(make)] {
    --arrivals_due_;
    const JobId id = next_job_++;
    Arrive(id, make(id));
    CheckIdle();
  });
}

void Controller::Arrive(JobId id, JobSpec spec) {
  const Time now = loop_.Now();
  JobState job;
  job.id = id;
  job.arrival = now;
  job.maps.reserve(spec.maps.size());
  for (auto& split : spec.maps) {
    TaskState t;
    t.input_bytes = split.bytes;
    t.local_nodes = std::move(split.nodes);  // the task state keeps them from here on
    t.ready_since = now;
    job.maps.push_back(std::move(t));
  }
  job.reduces.resize(spec.reduces);
  job.spec = std::move(spec);
  // The task states hold the splits from here on; a simulated day's 16 M splits would
  // otherwise be kept twice.
  job.spec.maps = {};
  job.BuildMapIndex(state_.nodes);

  int64_t t0 = SteadyNs();
  Admission admission = policy_.Admit(job, state_, now);
  int64_t cost = SteadyNs() - t0;
  ++stats_.decisions;
  stats_.decision_ns.Add(cost);

  JobState& stored = state_.jobs.emplace(id, std::move(job)).first->second;
  outcomes_[id].admission = admission;
  for (auto* o : observers_) o->OnAdmission(stored, admission, now);
  if (!admission.admitted) {
    stored.phase = JobPhase::kRejected;
    stored.finish = now;
    retired_.insert(id);
    if (options_.forget_finished_jobs) Forget(id);
    return;
  }
  sketches_.emplace(id, CountMinSketch(stored.spec.partition_hashes));
  state_.active.push_back(id);
  pending(TaskKind::kMap) += stored.M();
  if (stored.M() == 0) FinishMapPhase(stored);
  if (running_) Dispatch();
}

void Controller::RunUntilIdle() { Run(/*until_idle=*/true); }
void Controller::RunUntilShutdown() { Run(/*until_idle=*/false); }

void Controller::Shutdown() {
  loop_.Post([this] {
    if (loop_running_) loop_.Stop();
  });
}

void Controller::Run(bool until_idle) {
  running_ = true;
  until_idle_ = until_idle;
  ScheduleObserverTick();
  SchedulePolicyTick();
  Dispatch();
  if (!until_idle || !Idle()) {
    loop_running_ = true;
    loop_.Run();
    loop_running_ = false;
  }
  // The tick chains end with the run.
  loop_.Cancel(observer_tick_);
  loop_.Cancel(policy_tick_);
  running_ = false;
}

bool Controller::Idle() const {
  return state_.active.empty() && arrivals_due_ == 0 && running_tasks_ == 0;
}

void Controller::CheckIdle() {
  if (loop_running_ && until_idle_ && Idle()) loop_.Stop();
}

void Controller::ScheduleObserverTick() {
  if (options_.observer_tick > Duration::zero()) {
    observer_tick_ = loop_.After(options_.observer_tick, [this] {
      for (auto* o : observers_) o->OnTick(state_, executor_, loop_.Now());
      ScheduleObserverTick();
    });
  }
}

void Controller::SchedulePolicyTick() {
  if (policy_.tick_interval() > Duration::zero()) {
    policy_tick_ = loop_.After(policy_.tick_interval(), [this] {
      SchedulePolicyTick();
      const Time now = loop_.Now();
      int64_t t0 = SteadyNs();
      std::vector<TaskRef> preempt = policy_.OnTick(state_, now);
      ++stats_.decisions;
      stats_.decision_ns.Add(SteadyNs() - t0);
      for (const TaskRef& t : preempt) {
        for (auto& s : state_.slots) {
          if (s.task && *s.task == t) {
            CancelAttempt(s);
            ++stats_.preemptions;
          }
        }
      }
      Dispatch();
    });
  }
}

void Controller::Dispatch() {
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce}) {
    const TaskKind task_kind = kind == SlotKind::kMap ? TaskKind::kMap : TaskKind::kReduce;
    const SlotSet& free = free_slots(kind);
    for (SlotId id = free.First(); id >= 0; id = free.NextFrom(id + 1)) {
      if (state_.active.empty() || pending(task_kind) == 0) break;
      SlotState& slot = state_.slots[id];
      const Time now = loop_.Now();
      int64_t t0 = SteadyNs();
      std::optional<TaskRef> pick = policy_.PickTask(slot.info, state_, now);
      int64_t cost = SteadyNs() - t0;
      ++stats_.decisions;
      stats_.decision_ns.Add(cost);
      for (auto* o : observers_) o->OnDecision(slot.info.id, pick, now, Duration(cost));
      if (!pick) continue;
      if (std::string why = CannotLaunch(slot, *pick); !why.empty()) {
        ReportInvalidDecision(why);
        continue;
      }
      Launch(slot, *pick);
    }
  }
}

std::string Controller::CannotLaunch(const SlotState& slot, const TaskRef& t) const {
  const std::string what =
      "policy '" + std::string(policy_.name()) + "' picked " + std::string(ToString(t.kind)) + " " +
      std::to_string(t.index) + " of job " + std::to_string(t.job) + " for " +
      std::string(ToString(slot.info.kind)) + " slot " + std::to_string(slot.info.id) + ", ";
  auto it = state_.jobs.find(t.job);
  if (it == state_.jobs.end() || it->second.finished()) return what + "but the job is not active";
  const JobState& job = it->second;
  if ((t.kind == TaskKind::kMap) != (slot.info.kind == SlotKind::kMap))
    return what + "a slot of the other kind";
  if (slot.task) return what + "but the slot is busy";
  if (t.index >= (t.kind == TaskKind::kMap ? job.M() : job.R()))
    return what + "but the job has no such task";
  if (job.task(t.kind, t.index).status != TaskStatus::kPending)
    return what + "but the task is not pending";
  if (t.kind == TaskKind::kReduce && !job.reduces_planned && !job.reduces_early)
    return what + "but the job's reduces may not start yet";
  return {};
}

void Controller::ReportInvalidDecision(const std::string& why) {
  ++stats_.invalid_decisions;
  for (auto* o : observers_) o->OnInvalidDecision(why, loop_.Now());
}

void Controller::Launch(SlotState& slot, const TaskRef& t) {
  JobState& job = state_.job(t.job);
  TaskState& ts = job.task(t.kind, t.index);
  ts.status = TaskStatus::kRunning;
  ts.slot = slot.info.id;
  ++ts.attempts;
  ++(t.kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
  slot.task = t;
  slot.token = next_token_++;
  free_slots(slot.info.kind).Erase(slot.info.id);
  --pending(t.kind);
  ++running_tasks_;
  TaskLaunch launch{t, slot.token, slot.info.id, std::max(slot.free_since, ts.ready_since),
                    ts.attempts};
  ts.start = loop_.Now();
  ++stats_.launches;
  for (auto* o : observers_) o->OnTaskStart(launch, ts.start);
  if (t.kind == TaskKind::kReduce && !job.reduces_planned) {
    held_.insert(slot.token);  // launched by FinishMapPhase, with the plan
    return;
  }
  executor_.Launch(launch);
}

void Controller::CancelAttempt(const SlotState& slot) {
  if (!state_.job(slot.task->job).reduces_planned && held_.erase(slot.token)) {
    // A reduce holding its slot before the plan: no attempt runs, so report it cancelled
    // ourselves, from an event of its own as an executor would. Out of held_, the plan
    // will not launch it.
    TaskReport r;
    r.task = *slot.task;
    r.token = slot.token;
    r.slot = slot.info.id;
    r.status = Status::Aborted("cancelled before its job's map stage ended");
    r.start = state_.job(r.task.job).task(r.task.kind, r.task.index).start;
    r.end = loop_.Now();
    loop_.Post([this, r = std::move(r)]() mutable { OnReport(std::move(r)); });
    return;
  }
  executor_.Cancel(slot.info.id, slot.token);
}

void Controller::OnReport(TaskReport r) {
  const Time now = loop_.Now();
  SlotState& slot = state_.slots.at(r.slot);
  slot.task.reset();
  slot.token = 0;
  slot.free_since = r.end;
  free_slots(slot.info.kind).Insert(slot.info.id);
  --running_tasks_;
  stats_.dispatch_ns.Add(r.dispatch_latency.count());

  JobState& job = state_.job(r.task.job);
  TaskState& ts = job.task(r.task.kind, r.task.index);
  // Held before its plan: the slot was taken at ts.start, and the attempt's slot time
  // counts from then.
  if (held_.erase(r.token)) r.start = ts.start;
  --(r.task.kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
  ts.start = r.start;
  ts.end = r.end;
  for (auto* o : observers_) o->OnTaskReport(r);
  JobOutcome& outcome = outcomes_[job.id];
  for (auto& w : r.warnings) outcome.warnings.push_back(w);

  TaskRecord record{r.task,  ts.attempts, r.slot,        r.status.ok(),
                    r.start, r.end,       r.input_bytes, r.output_bytes};
  if (job.finished()) {
    ts.status = TaskStatus::kPending;  // a cancelled straggler of a failed job
    MaybeRetire(job);
  } else if (r.status.ok()) {
    ts.status = TaskStatus::kDone;
    policy_.OnTaskFinished(record, state_, now);
    if (r.task.kind == TaskKind::kMap) {
      ++job.maps_done;
      outcome.map_output_units += r.output_bytes;
      outcome.skipped_records += r.skipped_records;
      outcome.sketch_time += r.sketch_time;
      if (r.sketch) sketches_.at(job.id).Merge(*r.sketch);
      if (job.maps_done == job.M()) {
        FinishMapPhase(job);
      } else if (options_.reduce_slowstart && policy_.uses_reduce_slowstart() &&
                 !job.reduces_early && job.R() > 0 &&
                 job.maps_done >= std::ceil(*options_.reduce_slowstart * job.M())) {
        ReleaseReducesEarly(job);  // Hadoop's test: ceil(slowstart × M) maps done
      }
    } else {
      ++job.reduces_done;
      outcome.output_bytes += r.output_bytes;
      outcome.output_records += r.output_records;
      MergeTop(outcome.top, r.top, std::max(outcome.top.size(), r.top.size()));
      if (job.reduces_done == job.R()) {
        job.phase = JobPhase::kDone;
        job.finish = now;
        Deactivate(job.id);
        MaybeRetire(job);
      }
    }
  } else if (r.status.code() == Status::Code::kAborted) {
    // Preempted: back to pending, to run again from the start.
    ts.status = TaskStatus::kPending;
    ts.ready_since = now;
    ++pending(r.task.kind);
    if (r.task.kind == TaskKind::kMap) job.IndexPendingMap(r.task.index);
    policy_.OnTaskFinished(record, state_, now);
  } else {
    FailJob(job, r.status);
  }
  Dispatch();
  CheckIdle();
}

void Controller::ReleaseReducesEarly(JobState& job) {
  job.reduces_early = true;
  for (TaskState& t : job.reduces) t.ready_since = loop_.Now();
  pending(TaskKind::kReduce) += job.R();
  state_.reducing.push_back(job.id);
}

void Controller::FinishMapPhase(JobState& job) {
  const Time now = loop_.Now();
  job.phase = JobPhase::kShuffle;
  job.map_phase_end = now;
  if (job.R() == 0) {  // a map-only job is done when its maps are
    job.phase = JobPhase::kDone;
    job.finish = now;
    Deactivate(job.id);
    MaybeRetire(job);
    return;
  }
  // Reduce task r is planned for the r-th fastest reduce slot (cyclically when R exceeds
  // the reduce slots), and the partitioner sizes it for that slot's speed.
  std::vector<const SlotState*> lanes;
  for (auto& s : state_.slots)
    if (s.info.kind == SlotKind::kReduce) lanes.push_back(&s);
  if (lanes.empty()) {
    FailJob(job, Status::InvalidArgument("the job has " + std::to_string(job.R()) +
                                         " reduce tasks but the cluster has no reduce slot"));
    return;
  }
  std::stable_sort(lanes.begin(), lanes.end(), [](const SlotState* a, const SlotState* b) {
    return a->info.speed > b->info.speed;
  });
  // A reduce already holding a slot (reduce slow-start) is planned for that slot.
  std::vector<SlotId> planned(job.R());
  std::vector<double> speeds(job.R());
  for (uint32_t r = 0; r < job.R(); ++r) {
    const TaskState& t = job.reduces[r];
    planned[r] = t.status == TaskStatus::kRunning ? t.slot : lanes[r % lanes.size()]->info.id;
    speeds[r] = state_.slots[planned[r]].info.speed;
  }

  Result<PartitionPlan> plan = partitioner_->Plan(sketches_.at(job.id), speeds);
  if (!plan.ok()) {
    FailJob(job, plan.status());
    return;
  }
  executor_.SetPlan(job.id, plan->plan);
  for (uint32_t r = 0; r < job.R(); ++r) {
    TaskState& t = job.reduces[r];
    t.planned_slot = planned[r];
    t.input_bytes = plan->reduce_load[r];
    t.ready_since = now;
  }
  job.reduces_planned = true;
  if (!job.reduces_early) {
    pending(TaskKind::kReduce) += job.R();
    state_.reducing.push_back(job.id);
  }
  job.phase = JobPhase::kReduce;
  for (auto* o : observers_) o->OnPlan(job, *plan, now);
  outcomes_[job.id].plan = std::move(plan).value();
  // The reduces that held their slots waiting for this plan start now.
  for (uint32_t r = 0; r < job.R(); ++r) {
    const TaskState& t = job.reduces[r];
    if (t.status != TaskStatus::kRunning || !held_.count(state_.slots[t.slot].token)) continue;
    executor_.Launch(TaskLaunch{TaskRef{job.id, TaskKind::kReduce, r}, state_.slots[t.slot].token,
                                t.slot, now, t.attempts});
  }
}

void Controller::FailJob(JobState& job, const Status& why) {
  if (job.finished()) return;
  // Its pending tasks leave the pending counts (a task whose attempt just failed is not
  // pending: it was counted out at launch).
  for (const TaskState& t : job.maps) pending(TaskKind::kMap) -= t.status == TaskStatus::kPending;
  if (job.reduces_planned || job.reduces_early)
    for (const TaskState& t : job.reduces)
      pending(TaskKind::kReduce) -= t.status == TaskStatus::kPending;
  job.phase = JobPhase::kFailed;
  job.failure = why.message();
  outcomes_[job.id].failure = why;
  job.finish = loop_.Now();
  Deactivate(job.id);
  for (auto& s : state_.slots)
    if (s.task && s.task->job == job.id) CancelAttempt(s);
  MaybeRetire(job);
}

Status Controller::Cancel(JobId id) {
  auto it = state_.jobs.find(id);
  if (it == state_.jobs.end()) return Status::NotFound("no job " + std::to_string(id));
  FailJob(it->second, Status::Aborted("cancelled"));
  CheckIdle();
  return Status::OK();
}

Result<JobOutcome> Controller::TakeOutcome(JobId id) {
  auto it = outcomes_.find(id);
  if (it == outcomes_.end()) return Status::NotFound("no job " + std::to_string(id));
  if (!retired_.contains(id))
    return Status::InvalidArgument("job " + std::to_string(id) + " has not ended yet");
  JobOutcome outcome = std::move(it->second);
  Forget(id);
  return outcome;
}

void Controller::Forget(JobId id) {
  state_.jobs.erase(id);
  outcomes_.erase(id);
  sketches_.erase(id);
  retired_.erase(id);
}

void Controller::AbortAll(const Status& why) {
  std::vector<JobId> active = state_.active;
  for (JobId id : active) FailJob(state_.job(id), why);
  CheckIdle();
}

// Once no attempt of a finished job runs any more, the executor may commit or discard its
// output and free its memory.
void Controller::MaybeRetire(JobState& job) {
  if (job.maps_running + job.reduces_running > 0 || !retired_.insert(job.id).second) return;
  const Time now = loop_.Now();
  Status s = executor_.FinishJob(job.id, job.phase == JobPhase::kDone);
  if (!s.ok() && job.phase == JobPhase::kDone) {
    job.phase = JobPhase::kFailed;
    job.failure = s.message();
    outcomes_[job.id].failure = s;
  }
  sketches_.erase(job.id);
  policy_.OnJobFinished(job, state_, now);
  for (auto* o : observers_) o->OnJobFinished(job, outcomes_[job.id], now);
  if (options_.forget_finished_jobs) Forget(job.id);
}

void Controller::Deactivate(JobId id) {
  for (auto* list : {&state_.active, &state_.reducing})
    list->erase(std::remove(list->begin(), list->end(), id), list->end());
}

}  // namespace mrlocal
