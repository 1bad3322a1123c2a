#include "sched/policy/goal_adaptive_policy.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "sched/estimate/job_estimate.h"
#include "sched/policy/fifo_policy.h"
#include "sched/policy/goal_walk.h"
#include "sched/policy/utility_share.h"

namespace mrlocal {
namespace {

size_t Index(SlotKind kind) { return kind == SlotKind::kMap ? 0 : 1; }
size_t Index(TaskKind kind) { return kind == TaskKind::kMap ? 0 : 1; }
constexpr SlotKind kKinds[] = {SlotKind::kMap, SlotKind::kReduce};

std::optional<double> MeanOf(const std::vector<double>& works) {
  if (works.empty()) return std::nullopt;
  return std::accumulate(works.begin(), works.end(), 0.0) / static_cast<double>(works.size());
}

// The estimator's work of one of `job`'s tasks of `kind` at speed 1.0: maps at the mean
// split, reduces at the estimated shuffle over R. None when it cannot tell.
std::optional<double> EstimatedWork(const JobState& job, TaskKind kind, const Estimator& e) {
  TaskFeatures f{.kind = kind, .units = 0, .slot_speed = 1.0, .node_tasks = 0};
  if (kind == TaskKind::kMap) {
    if (job.M() == 0) return std::nullopt;
    double bytes = 0;
    for (const TaskState& t : job.maps) bytes += static_cast<double>(t.input_bytes);
    f.units = bytes / job.M();
  } else {
    if (job.R() == 0) return std::nullopt;
    std::optional<ShuffleEstimate> shuffle = ReduceInput(job, e);
    if (!shuffle) return std::nullopt;
    f.units = shuffle->total_units / job.R();
  }
  return e.TaskSeconds(job, f);
}

}  // namespace

struct GoalAdaptivePolicy::Candidate {
  JobId job = 0;
  int deficit = 0;  // target - running
  std::optional<Time> goal;
  int pending = 0;
  // Served first: the largest deficit, then the earliest goal (none last), then arrival.
  bool Before(const Candidate& o) const {
    if (deficit != o.deficit) return deficit > o.deficit;
    if (goal.has_value() != o.goal.has_value()) return goal.has_value();
    if (goal && *goal != *o.goal) return *goal < *o.goal;
    return job < o.job;
  }
};

GoalAdaptivePolicy::GoalAdaptivePolicy(std::string name, std::shared_ptr<CapacityForecast> forecast,
                                       const Estimator* estimator, const PlanPreview* preview)
    : name_(std::move(name)), forecast_(std::move(forecast)), estimator_(estimator) {
  if (!preview) return;
  for (const PlanJob& j : preview->instance.jobs)
    preview_means_[j.name] = {MeanOf(j.maps), MeanOf(j.reduces)};
}

// The slots as first seen start their work clocks.
void GoalAdaptivePolicy::NoteSlots(const ClusterState& state, Time now) {
  if (clocks_.size() == state.slots.size()) return;
  clocks_.clear();
  slots_of_kind_ = {};
  for (const SlotState& s : state.slots) {
    clocks_.push_back({.work = 0, .since = now, .speed = s.info.speed, .task_start = 0});
    ++slots_of_kind_[Index(s.info.kind)];
  }
}

double GoalAdaptivePolicy::Capacity(SlotKind kind, Time t0, Time t1) const {
  if (forecast_) return forecast_->Work(kind, t0, t1);
  return t1 <= t0 ? 0 : held_rate_[Index(kind)] * Seconds(t1 - t0);
}

Admission GoalAdaptivePolicy::Admit(const JobState& job, const ClusterState& state, Time now) {
  NoteSlots(state, now);
  JobTrack& track = jobs_[job.id];
  track.app = job.spec.app;
  for (TaskKind kind : {TaskKind::kMap, TaskKind::kReduce}) {
    std::optional<double>& prior = track.prior[Index(kind)];
    if (estimator_) prior = EstimatedWork(job, kind, *estimator_);
    if (auto it = preview_means_.find(job.spec.name); !prior && it != preview_means_.end())
      prior = it->second[Index(kind)];
  }
  return Admission::Yes(name_ + " admits every job; a goal is soft (no admission control)");
}

double GoalAdaptivePolicy::MeanWork(JobId job, SlotKind kind) const {
  const size_t k = Index(kind);
  if (auto it = jobs_.find(job); it != jobs_.end()) {
    if (auto own = it->second.done[k].value()) return *own;
    if (it->second.prior[k]) return *it->second.prior[k];
    if (auto app = app_done_.find(it->second.app); app != app_done_.end())
      if (auto of_app = app->second[k].value()) return *of_app;
  }
  return all_done_[k].value().value_or(kUnknownTaskWork);
}

std::map<JobId, GoalAdaptivePolicy::JobLoad> GoalAdaptivePolicy::Loads(const ClusterState& state,
                                                                       Time now) const {
  std::map<JobId, JobLoad> loads;
  for (JobId id : state.active) {
    const JobState& job = state.job(id);
    JobLoad& load = loads[id];
    load.pending = {static_cast<int>(job.maps_pending()),
                    static_cast<int>(job.R() - job.reduces_done - job.reduces_running)};
    for (SlotKind kind : kKinds)
      load.work[Index(kind)] = load.pending[Index(kind)] * MeanWork(id, kind);
  }
  for (const SlotState& s : state.slots) {
    if (!s.task) continue;
    auto it = loads.find(s.task->job);
    if (it == loads.end()) continue;
    const size_t k = Index(s.info.kind);
    const double mean = MeanWork(s.task->job, s.info.kind);
    const double done = clocks_[s.info.id].At(now) - clocks_[s.info.id].task_start;
    it->second.work[k] += std::max(mean - done, kMinRemainder * mean);
    ++it->second.running[k];
  }
  return loads;
}

// How long before `end` a phase of `work` per lane on `lanes` of the `kind` slots must
// start, at the forecast's mean rate per slot over the phase: first over [now, end), then
// over [end - d, end), where it will run (a trough before the end lengthens it). One step
// of the fixed point: two integrals.
Duration GoalAdaptivePolicy::PhaseBefore(SlotKind kind, double work_per_lane, Time end,
                                         Time now) const {
  const int slots = slots_of_kind_[Index(kind)];
  if (end <= now || work_per_lane <= 0 || slots == 0) return Duration(0);
  auto phase = [&](Time from) {
    const double rate = Capacity(kind, from, end) / (slots * Seconds(end - from));
    return rate > 0 ? FromSeconds(work_per_lane / rate) : end - now;
  };
  const Duration d = phase(now);
  return phase(std::max(now, end - std::max(d, Duration(1))));
}

std::optional<Time> GoalAdaptivePolicy::KindGoal(const JobState& job, const JobLoad& load,
                                                 SlotKind kind, Time now) const {
  const std::optional<Time> goal = job.absolute_goal();
  if (!goal || *goal <= now) return goal;
  // The last wave: a list schedule ends at most one task after the fluid one the walk
  // plans, so the walk plans each kind's tasks to end a mean task earlier.
  Time end = *goal - PhaseBefore(kind, MeanWork(job.id, kind), *goal, now);
  const size_t r = Index(SlotKind::kReduce);
  if (kind == SlotKind::kMap && load.work[r] > 0) {
    // The maps must leave the reduces their phase: their work over min(reduces left,
    // reduce slots) lanes.
    const int lanes = std::min(load.pending[r] + load.running[r], slots_of_kind_[r]);
    if (lanes > 0) end -= PhaseBefore(SlotKind::kReduce, load.work[r] / lanes, *goal, now);
  }
  return end;
}

std::vector<GoalAdaptivePolicy::Candidate> GoalAdaptivePolicy::Replan(
    SlotKind kind, const ClusterState& state, const std::map<JobId, JobLoad>& loads, Time now) {
  const size_t k = Index(kind);
  std::vector<GoalJob> walk_jobs;
  for (const auto& [id, load] : loads)
    if (load.work[k] > 0)
      walk_jobs.push_back({id, KindGoal(state.job(id), load, kind, now), load.work[k],
                           load.pending[k] + load.running[k]});
  const GoalWalk walk = WalkBack(walk_jobs, now, slots_of_kind_[k],
                                 [&](Time t0, Time t1) { return Capacity(kind, t0, t1); });

  // The share: the jobs that can take a slot of the kind now, on the slots not held by
  // the others.
  std::map<JobId, GoalAllocation>& last = last_[k];
  last.clear();
  std::vector<Candidate> candidates;
  std::vector<SlotDemand> demands;
  int slots = slots_of_kind_[k];
  for (size_t i = 0; i < walk_jobs.size(); ++i) {
    const JobState& job = state.job(walk_jobs[i].id);
    const JobLoad& load = loads.at(job.id);
    const int pending =
        static_cast<int>(kind == SlotKind::kMap ? job.maps_pending() : job.reduces_pending());
    const int running = load.running[k];
    last[job.id] = {walk.jobs[i].s_fit, running};
    if (pending == 0 || job.finished()) {
      slots -= running;
      continue;
    }
    const int s_pend = pending + running;
    candidates.push_back({job.id, -running, job.absolute_goal(), pending});
    demands.push_back({std::min(walk.jobs[i].s_fit, s_pend), s_pend});
  }
  const std::vector<int> targets = EqualUtilityShare(demands, std::max(slots, 0));
  for (size_t c = 0; c < candidates.size(); ++c) {
    candidates[c].deficit += targets[c];
    last[candidates[c].job].target = targets[c];
  }
  return candidates;
}

void GoalAdaptivePolicy::Fill(SlotKind kind, std::vector<Candidate> candidates,
                              DispatchRound& round, const ClusterState& state, Time now) {
  auto before = [](const Candidate& a, const Candidate& b) { return a.Before(b); };
  // Sorted once: a launch only lowers one job's deficit, which moves it later (a rotate),
  // so a round that fills many slots costs O(slots x jobs) moves, not a sort a slot.
  std::sort(candidates.begin(), candidates.end(), before);
  for (SlotId s = round.NextFree(kind, 0); s >= 0 && !candidates.empty();
       s = round.NextFree(kind, s + 1)) {
    // The first job with a task this slot can take (a reduce may be planned for another).
    for (auto c = candidates.begin(); c != candidates.end(); ++c) {
      std::optional<TaskRef> task = TaskFor(state.job(c->job), state.slots[s].info, state);
      if (!task) continue;
      if (!round.Assign(s, task)) {  // a bug, reported by the Controller: not again
        candidates.erase(c);
        break;
      }
      clocks_[s].task_start = clocks_[s].At(now);
      --c->deficit;
      if (--c->pending == 0) {
        candidates.erase(c);
      } else {
        std::rotate(c, c + 1, std::upper_bound(c + 1, candidates.end(), *c, before));
      }
      break;
    }
  }
}

void GoalAdaptivePolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  NoteSlots(state, now);
  if (!forecast_) {
    held_rate_ = {};
    for (const SlotState& s : state.slots) held_rate_[Index(s.info.kind)] += s.info.speed;
  }
  std::optional<std::map<JobId, JobLoad>> loads;
  for (SlotKind kind : kKinds) {
    if (round.NextFree(kind, 0) < 0) continue;
    if (!loads) loads = Loads(state, now);
    Fill(kind, Replan(kind, state, *loads, now), round, state, now);
  }
}

void GoalAdaptivePolicy::OnTaskFinished(const TaskRecord& record, const ClusterState&, Time) {
  if (!record.ok || record.slot < 0 || static_cast<size_t>(record.slot) >= clocks_.size()) return;
  auto it = jobs_.find(record.task.job);
  if (it == jobs_.end()) return;
  const SlotClock& clock = clocks_[record.slot];
  // A report that comes after a speed change: the clock at the change.
  const double work = clock.At(std::max(record.end, clock.since)) - clock.task_start;
  const size_t k = Index(record.task.kind);
  it->second.done[k].Add(work);
  app_done_[it->second.app][k].Add(work);
  all_done_[k].Add(work);
}

void GoalAdaptivePolicy::OnJobFinished(const JobState& job, const ClusterState&, Time) {
  jobs_.erase(job.id);
  for (auto& last : last_) last.erase(job.id);
}

void GoalAdaptivePolicy::OnSlotSpeedChanged(const SlotInfo& slot, double, const ClusterState& state,
                                            Time now) {
  NoteSlots(state, now);
  SlotClock& clock = clocks_[slot.id];
  clock.work = clock.At(now);
  clock.since = now;
  clock.speed = slot.speed;
  if (forecast_) forecast_->Observe(slot, now);
}

std::optional<GoalAllocation> GoalAdaptivePolicy::LastAllocation(JobId job, SlotKind kind) const {
  const auto& last = last_[Index(kind)];
  auto it = last.find(job);
  if (it == last.end()) return std::nullopt;
  return it->second;
}

}  // namespace mrlocal
