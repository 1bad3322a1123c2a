#include "sched/core/controller.h"

#include <algorithm>
#include <cmath>

#include "sched/core/tick_clock.h"

namespace mrlocal {
namespace {

// Merges a reduce task's best keys into the job's, both in RanksBefore order. Nothing is
// dropped: the controller does not know N, and a task that reported fewer than N keys had
// no more, so the first N of the merge are the job's N best (JobOutcome::top).
void MergeTop(std::vector<TopEntry>& into, const std::vector<TopEntry>& more) {
  const auto middle = static_cast<std::ptrdiff_t>(into.size());
  into.insert(into.end(), more.begin(), more.end());
  std::inplace_merge(into.begin(), into.begin() + middle, into.end(), RanksBefore);
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
  state_.running_on_node.resize(static_cast<size_t>(std::max(nodes, 0)));
  for (auto& s : slots) {
    state_.slots.push_back({s, std::nullopt, 0, Time{0}});
    free_slots(s.kind).Insert(s.id);
    if (static_cast<size_t>(s.node) >= state_.running_on_node.size())
      state_.running_on_node.resize(s.node + 1);
    if (static_cast<size_t>(s.node) >= node_slots_.size()) node_slots_.resize(s.node + 1);
    node_slots_[s.node].push_back(s.id);
  }
  state_.nodes = nodes;
  paces_ = SlotPaces(state_.slots.size());
  speculating_ = options_.speculation.enabled && policy_.speculation_veto().empty();
  node_failed_jobs_.resize(state_.running_on_node.size());
  node_failures_.resize(state_.running_on_node.size());
  node_attempts_.resize(state_.running_on_node.size());
  excluded_until_.resize(state_.running_on_node.size(), Time{0});
  if (executor_.reports_on_loop_thread()) {
    executor_.SetReportFn([this](TaskReport&& r) { OnReport(std::move(r)); });
  } else {
    executor_.SetReportFn([this](TaskReport&& r) {
      loop_.Post([this, r = std::move(r)]() mutable { OnReport(std::move(r)); });
    });
  }
  policy_.Attach(this);
}

Controller::~Controller() {
  policy_.Attach(nullptr);
  for (const auto& [wake, timer] : wakes_) loop_.Cancel(timer);
  for (const auto& [job, timer] : shuffle_timers_) loop_.Cancel(timer);
  for (const auto& [node, timer] : exclusion_timers_) loop_.Cancel(timer);
  loop_.Cancel(observer_tick_);
  loop_.Cancel(speculation_tick_);
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

  const int64_t t0 = TickClock::Now();
  Admission admission = policy_.Admit(job, state_, now);
  const int64_t cost = TickClock::Ns(t0, TickClock::Now());
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

void Controller::Redispatch() {
  if (running_) Dispatch();
}

void Controller::Shutdown() {
  loop_.Post([this] {
    if (loop_running_) loop_.Stop();
  });
}

void Controller::Run(bool until_idle) {
  running_ = true;
  until_idle_ = until_idle;
  ScheduleObserverTick();
  if (speculating_) ScheduleSpeculationTick();
  Dispatch();
  if (!until_idle || !Idle()) {
    loop_running_ = true;
    loop_.Run();
    loop_running_ = false;
  }
  // The tick chains end with the run.
  loop_.Cancel(observer_tick_);
  loop_.Cancel(speculation_tick_);
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

TimerId Controller::WakeAt(Time at) {
  const TimerId wake = ++last_wake_;
  wakes_[wake] = loop_.At(at, [this, wake] {
    wakes_.erase(wake);
    const int64_t t0 = TickClock::Now();
    policy_.OnTimer(wake, state_, loop_.Now());
    ++stats_.decisions;
    stats_.decision_ns.Add(TickClock::Ns(t0, TickClock::Now()));
    if (running_) Dispatch();
  });
  return wake;
}

void Controller::CancelWake(TimerId wake) {
  auto it = wakes_.find(wake);
  if (it == wakes_.end()) return;
  loop_.Cancel(it->second);
  wakes_.erase(it);
}

bool Controller::Preempt(const TaskRef& t) {
  auto it = state_.jobs.find(t.job);
  if (it == state_.jobs.end() ||
      t.index >= (t.kind == TaskKind::kMap ? it->second.M() : it->second.R()))
    return false;
  const TaskState& ts = it->second.task(t.kind, t.index);
  if (ts.status != TaskStatus::kRunning) return false;
  CancelAttempt(state_.slots[ts.slot]);
  ++stats_.preemptions;
  return true;
}

Status Controller::SetSlotSpeed(SlotId id, double speed) {
  if (id < 0 || static_cast<size_t>(id) >= state_.slots.size())
    return Status::InvalidArgument("no slot " + std::to_string(id));
  if (!(speed > 0) || !std::isfinite(speed))
    return Status::InvalidArgument("slot speed " + std::to_string(speed) + " is not positive");
  SlotInfo& info = state_.slots[id].info;
  const double old = info.speed;
  if (old == speed) return Status::OK();
  info.speed = speed;
  executor_.SetSpeed(id, speed);
  policy_.OnSlotSpeedChanged(info, old, state_, loop_.Now());
  if (running_) Dispatch();
  return Status::OK();
}

// A round's decisions are timed one after the other: each costs the policy's time since
// the previous one ended (for the default Dispatch, one PickTask call).
void Controller::Dispatch() {
  if (state_.active.empty()) return;
  decision_mark_ = TickClock::Now();
  policy_.Dispatch(*this, state_, loop_.Now());
}

SlotId Controller::NextFree(SlotKind kind, SlotId from) const {
  const TaskKind task_kind = kind == SlotKind::kMap ? TaskKind::kMap : TaskKind::kReduce;
  if (state_.active.empty() || pending_[task_kind == TaskKind::kMap ? 0 : 1] == 0) return -1;
  return free_[kind == SlotKind::kMap ? 0 : 1].NextFrom(std::max(from, 0));
}

bool Controller::Assign(SlotId id, const std::optional<TaskRef>& task) {
  const int64_t cost = TickClock::Ns(decision_mark_, TickClock::Now());
  ++stats_.decisions;
  stats_.decision_ns.Add(cost);
  bool ok = false;
  if (id < 0 || static_cast<size_t>(id) >= state_.slots.size()) {
    ReportInvalidDecision("policy '" + std::string(policy_.name()) + "' assigned slot " +
                          std::to_string(id) + ", which does not exist");
  } else {
    SlotState& slot = state_.slots[id];
    for (auto* o : observers_) o->OnDecision(id, task, loop_.Now(), Duration(cost));
    if (!task) {
      ok = true;
    } else if (const char* why = CannotLaunch(slot, *task)) {
      const TaskRef& t = *task;
      ReportInvalidDecision("policy '" + std::string(policy_.name()) + "' picked " +
                            std::string(ToString(t.kind)) + " " + std::to_string(t.index) +
                            " of job " + std::to_string(t.job) + " for " +
                            std::string(ToString(slot.info.kind)) + " slot " +
                            std::to_string(slot.info.id) + ", " + why);
    } else {
      Launch(slot, *task);
      ok = true;
    }
  }
  decision_mark_ = TickClock::Now();
  return ok;
}

// Why `t` cannot launch on `slot`, or null when it can. A literal, so that the common case
// (a valid pick, on every launch) costs a few comparisons and no allocation.
const char* Controller::CannotLaunch(const SlotState& slot, const TaskRef& t) const {
  auto it = state_.jobs.find(t.job);
  if (it == state_.jobs.end() || it->second.finished()) return "but the job is not active";
  const JobState& job = it->second;
  if ((t.kind == TaskKind::kMap) != (slot.info.kind == SlotKind::kMap))
    return "a slot of the other kind";
  if (slot.task) return "but the slot is busy";
  if (const int limit = TaskLimit(slot.info.node);
      limit > 0 && state_.running_on_node[slot.info.node] >= limit)
    return "but its node runs as many tasks as it may";
  if (Excluded(slot.info.node)) return "but its node is excluded after failed attempts";
  if (t.index >= (t.kind == TaskKind::kMap ? job.M() : job.R()))
    return "but the job has no such task";
  if (job.task(t.kind, t.index).status != TaskStatus::kPending)
    return "but the task is not pending";
  if (t.kind == TaskKind::kReduce && !job.reduces_planned && !job.reduces_early)
    return "but the job's reduces may not start yet";
  return nullptr;
}

void Controller::ReportInvalidDecision(const std::string& why) {
  ++stats_.invalid_decisions;
  for (auto* o : observers_) o->OnInvalidDecision(why, loop_.Now());
}

TaskLaunch Controller::Occupy(SlotState& slot, const TaskRef& t, TaskState& ts) {
  ++ts.attempts;
  slot.task = t;
  slot.token = next_token_++;
  slot.best_effort = outcomes_[t.job].admission.best_effort;
  const int on_node = state_.running_on_node[slot.info.node]++;
  free_slots(slot.info.kind).Erase(slot.info.id);
  UpdateNodeSlots(slot.info.node);
  ++running_tasks_;
  ++stats_.launches;
  TaskLaunch launch{t, slot.token, slot.info.id, std::max(slot.free_since, ts.ready_since),
                    ts.attempts};
  if (!slot.speculative) ts.node_tasks = on_node;
  return launch;
}

void Controller::Launch(SlotState& slot, const TaskRef& t) {
  JobState& job = state_.job(t.job);
  TaskState& ts = job.task(t.kind, t.index);
  ts.status = TaskStatus::kRunning;
  ts.slot = slot.info.id;
  ++(t.kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
  --pending(t.kind);
  const TaskLaunch launch = Occupy(slot, t, ts);
  ts.start = loop_.Now();
  for (auto* o : observers_) o->OnTaskStart(launch, ts.start);
  if (t.kind == TaskKind::kReduce && !job.reduces_planned) {
    held_.insert(slot.token);  // launched by FinishMapPhase, with the plan
    return;
  }
  executor_.Launch(launch);
}

void Controller::ScheduleSpeculationTick() {
  speculation_tick_ = loop_.After(options_.speculation.check_every, [this] {
    Speculate();
    ScheduleSpeculationTick();
  });
}

void Controller::Speculate() {
  if (state_.active.empty()) return;
  const size_t cap = std::max<size_t>(
      1, static_cast<size_t>(options_.speculation.cap * static_cast<double>(state_.slots.size())));
  for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce})
    if (copies_running_ < cap && pending(kind) == 0) SpeculateOn(kind, cap);
}

// LATE's rule for one kind of slot: while the cap allows, each free slot that is not slow
// takes a copy of the straggler estimated to finish last.
void Controller::SpeculateOn(TaskKind kind, size_t cap) {
  const SlotKind slot_kind = kind == TaskKind::kMap ? SlotKind::kMap : SlotKind::kReduce;
  if (free_slots(slot_kind).NextFrom(0) < 0) return;
  std::vector<RunningAttempt> running;
  for (const SlotState& s : state_.slots) {
    if (!s.task || s.task->kind != kind || s.extra || held_.count(s.token)) continue;
    const TaskState& ts = state_.job(s.task->job).task(kind, s.task->index);
    running.push_back(
        {*s.task, ts.start, s.info.node, executor_.Progress(s.info.id), ts.copy_slot >= 0});
  }
  if (running.empty()) return;
  const double slow_below = paces_.SlowBelow(options_.speculation.slow_slot);
  const auto pace_of = [this](const TaskRef& t) {
    auto it = kind_pace_.find(t.job);
    return it == kind_pace_.end() ? KindPace{} : it->second[t.kind == TaskKind::kMap ? 0 : 1];
  };
  const Time now = loop_.Now();
  for (SlotId id = free_slots(slot_kind).NextFrom(0); id >= 0 && copies_running_ < cap;
       id = free_slots(slot_kind).NextFrom(id + 1)) {
    SlotState& slot = state_.slots[id];
    if (paces_.pace(id) < slow_below) continue;
    const std::optional<TaskRef> pick = PickSpeculation(running, slot.info.node, slot.info.speed,
                                                        now, options_.speculation, pace_of);
    if (!pick) continue;
    for (RunningAttempt& a : running) a.has_copy |= a.task == *pick;
    LaunchCopy(slot, *pick);
  }
}

void Controller::LaunchCopy(SlotState& slot, const TaskRef& t) {
  JobState& job = state_.job(t.job);
  TaskState& ts = job.task(t.kind, t.index);
  slot.speculative = slot.extra = true;
  ts.copy_slot = slot.info.id;
  ++job.extra_running;
  ++copies_running_;
  ++stats_.speculations;
  TaskLaunch launch = Occupy(slot, t, ts);
  launch.speculative = true;
  for (auto* o : observers_) o->OnTaskStart(launch, loop_.Now());
  executor_.Launch(launch);
}

void Controller::NotePace(const TaskReport& r, const SlotState& slot) {
  if (!speculating_) return;
  const double work_s = Seconds(r.end - r.start) * slot.info.speed;
  KindPace& p = kind_pace_[r.task.job][r.task.kind == TaskKind::kMap ? 0 : 1];
  p.mean_work_s += (work_s - p.mean_work_s) / ++p.finished;
  if (work_s > 0) paces_.Observe(slot.info.id, p.mean_work_s / work_s);
}

void Controller::UpdateNodeSlots(NodeId node) {
  const int limit = TaskLimit(node);
  const bool excluded = Excluded(node);
  if (limit == 0 && !excluded && excluded_nodes_ == 0) return;  // the common case: all open
  const bool open = !excluded && (limit == 0 || state_.running_on_node[node] < limit);
  for (SlotId id : node_slots_[node]) {
    const SlotState& s = state_.slots[id];
    if (open && !s.task)
      free_slots(s.info.kind).Insert(id);
    else
      free_slots(s.info.kind).Erase(id);
  }
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
  const bool extra = slot.extra;
  r.speculative = slot.speculative;
  if (r.speculative) --copies_running_;
  slot.task.reset();
  slot.token = 0;
  slot.best_effort = slot.speculative = slot.extra = false;
  slot.free_since = r.end;
  free_slots(slot.info.kind).Insert(slot.info.id);
  --running_tasks_;
  --state_.running_on_node[slot.info.node];
  UpdateNodeSlots(slot.info.node);
  stats_.dispatch_ns.Add(r.dispatch_latency.count());

  JobState& job = state_.job(r.task.job);
  TaskState& ts = job.task(r.task.kind, r.task.index);
  // Held before its plan: the slot was taken at ts.start, and the attempt's slot time
  // counts from then.
  if (held_.erase(r.token)) r.start = ts.start;
  --(extra                           ? job.extra_running
     : r.task.kind == TaskKind::kMap ? job.maps_running
                                     : job.reduces_running);
  if (r.speculative) ts.copy_slot = -1;
  // Another attempt of the task finished first: this one's work is discarded.
  r.superseded = extra && ts.status == TaskStatus::kDone;
  if (!r.superseded) {
    ts.start = r.start;
    ts.end = r.end;
  }
  for (auto* o : observers_) o->OnTaskReport(r);
  JobOutcome& outcome = outcomes_[job.id];
  if (!r.superseded)
    for (auto& w : r.warnings) outcome.warnings.push_back(w);

  if (!r.superseded && r.status.code() != Status::Code::kAborted) {
    ++node_attempts_[slot.info.node];  // what its failures are weighed against
    ++attempts_on_nodes_;
  }
  const TaskRecord record = RecordOf(r, ts);
  if (r.superseded || (!job.finished() && OnPairedReport(job, ts, r, extra, slot.info.node))) {
    if (job.finished()) MaybeRetire(job);
  } else if (job.finished()) {
    ts.status = TaskStatus::kPending;  // a cancelled straggler of a failed job
    MaybeRetire(job);
  } else if (r.status.ok()) {
    ts.status = TaskStatus::kDone;
    NotePace(r, slot);
    policy_.OnTaskFinished(record, state_, now);
    TaskDone(job, r);
  } else if (r.status.code() == Status::Code::kAborted) {
    Requeue(job, ts, record);  // preempted: to run again from the start
  } else {
    AttemptFailed(job, ts, r, slot.info.node);
  }
  Dispatch();
  CheckIdle();
}

void Controller::TaskDone(JobState& job, const TaskReport& r) {
  JobOutcome& outcome = outcomes_[job.id];
  if (r.task.kind == TaskKind::kMap) {
    ++job.maps_done;
    outcome.map_output_units += r.output_bytes;
    outcome.skipped_records += r.skipped_records;
    outcome.sketch_time += r.sketch_time;
    if (r.sketch) sketches_.at(job.id).Merge(*r.sketch);
    if (job.maps_done == job.M()) {
      FinishMapPhase(job);
    } else if (options_.reduce_slowstart && policy_.uses_reduce_slowstart() && !job.reduces_early &&
               job.R() > 0 && job.maps_done >= std::ceil(*options_.reduce_slowstart * job.M())) {
      ReleaseReducesEarly(job);  // Hadoop's test: ceil(slowstart × M) maps done
    }
    return;
  }
  ++job.reduces_done;
  outcome.output_bytes += r.output_bytes;
  outcome.output_records += r.output_records;
  outcome.remote_shuffle_bytes += r.remote_input_bytes;
  MergeTop(outcome.top, r.top);
  if (job.reduces_done == job.R()) {
    job.phase = JobPhase::kDone;
    job.finish = loop_.Now();
    Deactivate(job.id);
    MaybeRetire(job);
  }
}

// A copy, or an attempt its copy ran beside, reported. The first to finish wins: the
// other is cancelled, and its report, when it comes, is superseded. One that ends without
// finishing leaves the other to run on as the task's attempt.
bool Controller::OnPairedReport(JobState& job, TaskState& ts, TaskReport& r, bool extra,
                                NodeId node) {
  const SlotId other = extra ? ts.slot : ts.copy_slot;
  if (other < 0 || (extra && !r.speculative)) return false;
  SlotState& beside = state_.slots[other];
  if (r.status.ok()) {
    if (extra) {  // the copy won: the original becomes the extra attempt
      beside.extra = true;
      ++job.extra_running;
      --(r.task.kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
      ts.slot = r.slot;
    }
    CancelAttempt(beside);
    return false;  // a success like any other from here on
  }
  if (!extra) {  // the original ended unfinished: its copy is the task's attempt now
    beside.extra = false;
    --job.extra_running;
    ++(r.task.kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
    ts.slot = other;
    ts.copy_slot = -1;
  }
  if (r.status.code() != Status::Code::kAborted) AttemptFailed(job, ts, r, node, false);
  return true;
}

void Controller::AttemptFailed(JobState& job, TaskState& ts, const TaskReport& r, NodeId node,
                               bool requeue) {
  JobOutcome& outcome = outcomes_[job.id];
  ++ts.failures;
  std::string what = std::string(ToString(r.task.kind)) + " " + std::to_string(r.task.index);
  if (outcome.failed_attempts.size() < JobOutcome::kMaxFailureReasons)
    outcome.failed_attempts.push_back(what + " attempt " + std::to_string(ts.attempts) +
                                      " on slot " + std::to_string(r.slot) + " (node " +
                                      std::to_string(node) + "): " + r.status.message());
  const bool retriable = Retriable(r.status);
  if (retriable) NoteNodeFailure(node, job.id);
  if (!retriable || ts.failures >= options_.retry.max_attempts) {
    const std::string tried =
        ts.failures > 1 ? " (" + std::to_string(ts.failures) + " attempts failed; the last: " : "";
    FailJob(job,
            Status::Of(r.status.code(), tried.empty() ? r.status.message()
                                                      : what + tried + r.status.message() + ")"));
    return;
  }
  if (std::find(ts.failed_nodes.begin(), ts.failed_nodes.end(), node) == ts.failed_nodes.end())
    ts.failed_nodes.push_back(node);
  if (!requeue) return;  // another attempt of it runs on
  // As a preempted attempt, but away from the node where it failed while there is another.
  ++outcome.retries;
  ++stats_.retries;
  Requeue(job, ts, RecordOf(r, ts));
}

void Controller::Requeue(JobState& job, TaskState& ts, const TaskRecord& record) {
  const Time now = loop_.Now();
  ts.status = TaskStatus::kPending;
  ts.ready_since = now;
  ++pending(record.task.kind);
  if (record.task.kind == TaskKind::kMap) job.IndexPendingMap(record.task.index);
  policy_.OnTaskFinished(record, state_, now);
}

// As Hadoop 1's JobTracker, which excludes a node only when its failures stand out from
// the cluster's (mapred.cluster.average.blacklist.threshold.conversion), so that failures
// spread evenly (random faults, a flaky job) exclude nothing: the chance that so many of
// its attempts fail at the other nodes' failure rate r, bounded by Chernoff's
// exp(-n KL(f/n || r)), is below RetryOptions::exclusion_evidence.
bool Controller::FailuresStandOut(NodeId node) const {
  const double n = static_cast<double>(node_attempts_[node]);
  const double f = static_cast<double>(node_failures_[node]);
  const double r = (static_cast<double>(failures_on_nodes_) - f + 1) /
                   (static_cast<double>(attempts_on_nodes_) - n + 2);  // Laplace's rule
  const double q = n > 0 ? f / n : 0;
  if (q <= r) return false;
  double kl = q * std::log(q / r);
  if (q < 1) kl += (1 - q) * std::log((1 - q) / (1 - r));
  return n * kl > -std::log(options_.retry.exclusion_evidence);
}

void Controller::NoteNodeFailure(NodeId node, JobId job) {
  const RetryOptions& o = options_.retry;
  if (o.exclude_after_jobs == 0 || static_cast<size_t>(node) >= node_failed_jobs_.size() ||
      Excluded(node))
    return;
  std::set<JobId>& jobs = node_failed_jobs_[node];
  jobs.insert(job);
  ++node_failures_[node];
  ++failures_on_nodes_;
  if (jobs.size() < o.exclude_after_jobs || !FailuresStandOut(node) ||
      excluded_nodes_ + 1 > o.max_excluded_fraction * static_cast<double>(state_.nodes))
    return;
  jobs.clear();
  failures_on_nodes_ -= node_failures_[node];
  attempts_on_nodes_ -= node_attempts_[node];
  node_failures_[node] = node_attempts_[node] = 0;
  ++excluded_nodes_;
  ++stats_.node_exclusions;
  excluded_until_[node] = loop_.Now() + o.exclude_for;
  for (SlotId id : node_slots_[node]) state_.slots[id].excluded = true;
  UpdateNodeSlots(node);
  for (auto* ob : observers_) ob->OnNodeExcluded(node, excluded_until_[node], loop_.Now());
  exclusion_timers_[node] = loop_.At(excluded_until_[node], [this, node] {
    exclusion_timers_.erase(node);
    excluded_until_[node] = Time{0};
    for (SlotId id : node_slots_[node]) state_.slots[id].excluded = false;
    UpdateNodeSlots(node);  // before the count drops: its slots are free again
    --excluded_nodes_;
    if (running_) Dispatch();
    CheckIdle();
  });
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
  if (std::none_of(state_.slots.begin(), state_.slots.end(),
                   [](const SlotState& s) { return s.info.kind == SlotKind::kReduce; })) {
    FailJob(job, Status::InvalidArgument("the job has " + std::to_string(job.R()) +
                                         " reduce tasks but the cluster has no reduce slot"));
    return;
  }
  if (job.spec.shuffle_delay <= Duration::zero()) {
    PlanReduces(job);
    return;
  }
  const JobId id = job.id;
  shuffle_timers_[id] = loop_.After(job.spec.shuffle_delay, [this, id] {
    shuffle_timers_.erase(id);
    auto it = state_.jobs.find(id);
    if (it == state_.jobs.end() || it->second.phase != JobPhase::kShuffle) return;  // failed
    PlanReduces(it->second);
    Dispatch();
  });
}

void Controller::PlanReduces(JobState& job) {
  const Time now = loop_.Now();
  // Each reduce is sized for the speed of the slot it is planned for.
  const std::vector<SlotId> planned = PlaceReduces(job);
  std::vector<double> speeds(job.R());
  for (uint32_t r = 0; r < job.R(); ++r) speeds[r] = state_.slots[planned[r]].info.speed;

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

std::vector<SlotId> Controller::PlaceReduces(const JobState& job) {
  std::vector<SlotId> planned = policy_.PlaceReduces(job, state_);
  if (std::string why = InvalidPlacement(job, planned); !why.empty()) {
    ReportInvalidDecision(why);
    planned = policy_.Policy::PlaceReduces(job, state_);
  }
  return planned;
}

std::string Controller::InvalidPlacement(const JobState& job,
                                         const std::vector<SlotId>& planned) const {
  const std::string what = "policy '" + std::string(policy_.name()) +
                           "' placed the reduces of job " + std::to_string(job.id);
  if (planned.size() != job.R())
    return what + " on " + std::to_string(planned.size()) + " slots for " +
           std::to_string(job.R()) + " reduces";
  for (uint32_t r = 0; r < job.R(); ++r) {
    const SlotId s = planned[r];
    if (s < 0 || static_cast<size_t>(s) >= state_.slots.size() ||
        state_.slots[s].info.kind != SlotKind::kReduce)
      return what + ", reduce " + std::to_string(r) + " on slot " + std::to_string(s) +
             ", which is not a reduce slot";
    const TaskState& t = job.reduces[r];
    if (t.status == TaskStatus::kRunning && t.slot != s)
      return what + ", reduce " + std::to_string(r) + " away from slot " + std::to_string(t.slot) +
             ", which it holds";
  }
  return {};
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
  if (job.maps_running + job.reduces_running + job.extra_running > 0 ||
      !retired_.insert(job.id).second)
    return;
  kind_pace_.erase(job.id);
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
