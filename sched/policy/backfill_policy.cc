#include "sched/policy/backfill_policy.h"

#include <algorithm>
#include <utility>

#include "sched/policy/fifo_policy.h"

namespace mrlocal {
namespace {

// The free slots of `kind` the round offers (none when no task of that kind is pending).
uint64_t FreeSlots(const DispatchRound& round, SlotKind kind) {
  uint64_t n = 0;
  for (SlotId s = round.NextFree(kind, 0); s >= 0; s = round.NextFree(kind, s + 1)) ++n;
  return n;
}

bool ReducesRunnable(const JobState& job) { return job.reduces_planned || job.reduces_early; }

}  // namespace

BackfillPolicy::BackfillPolicy(std::unique_ptr<Policy> inner) : inner_(std::move(inner)) {
  inner_->Attach(this);
}

Admission BackfillPolicy::Admit(const JobState& job, const ClusterState& state, Time now) {
  Admission a = inner_->Admit(job, state, now);
  if (a.admitted) return a;
  a.admitted = true;
  a.best_effort = true;
  a.reason = "rejected: " + a.reason + "; runs best-effort in spare slots";
  best_effort_.insert(job.id);
  order_.Insert(job);
  return a;
}

BackfillPolicy::Demand BackfillPolicy::AdmittedDemand(const ClusterState& state) const {
  Demand d;
  for (JobId id : state.active) {
    if (best_effort(id)) continue;
    const JobState& job = state.job(id);
    if (job.finished()) continue;
    d.maps += job.maps_pending();
    if (ReducesRunnable(job)) d.ready_reduces += job.reduces_pending();
  }
  return d;
}

void BackfillPolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  if (ReclaimReduceSlots(round, state, now)) return;  // the reports' rounds go on
  if (best_effort_.empty()) {
    inner_->Dispatch(round, state, now);
    return;
  }
  LendSlack(round, state, now);
  inner_->Dispatch(round, state, now);
  if (ReclaimMapSlots(round, state, now)) return;
  Backfill(round, state, now);
}

bool BackfillPolicy::ReclaimReduceSlots(DispatchRound& round, const ClusterState& state,
                                        Time now) {
  if (!in_flight_.empty()) return true;
  if (best_effort_.empty()) return false;
  const Demand d = AdmittedDemand(state);
  if (d.ready_reduces > 0) {
    // A ready reduce waits for the slot it is planned for when that slot is free: free it,
    // unless the inner lends it in place (the reduce then takes another slot, or waits).
    const std::vector<bool> planned = PlannedForAdmitted(state);
    for (const Spare& s : SpareAttempts(SlotKind::kReduce, state))
      if (planned[s.slot]) LendOrPreempt(s, state, now);
    uint64_t free = FreeSlots(round, SlotKind::kReduce);
    for (const TaskRef& t : in_flight_) free += t.kind == TaskKind::kReduce;
    if (d.ready_reduces > free) Reclaim(SlotKind::kReduce, d.ready_reduces - free, state, now);
  }
  return !in_flight_.empty();
}

std::vector<BackfillPolicy::Spare> BackfillPolicy::SpareAttempts(SlotKind kind,
                                                                  const ClusterState& state) const {
  std::vector<Spare> spares;
  for (const SlotState& s : state.slots) {
    if (s.info.kind != kind || !s.task || !best_effort(s.task->job)) continue;
    if (std::find(in_flight_.begin(), in_flight_.end(), *s.task) != in_flight_.end()) continue;
    if (lent(*s.task)) continue;  // the inner planned with it
    const JobState& job = state.job(s.task->job);
    spares.push_back({job.absolute_deadline().value_or(Time::max()),
                      job.task(s.task->kind, s.task->index).start, *s.task, s.info.id});
  }
  std::sort(spares.begin(), spares.end(), [](const Spare& a, const Spare& b) {
    return a.start != b.start ? a.start > b.start : a.deadline > b.deadline;
  });
  return spares;
}

bool BackfillPolicy::LendOrPreempt(const Spare& s, const ClusterState& state, Time now) {
  if (inner_->LendSlot(state.slots[s.slot].info, state.job(s.task.job), s.start, state, now)) {
    StartLoan(s.task, s.slot);
    return false;
  }
  PreemptAttempt(s.task);
  return true;
}

void BackfillPolicy::Reclaim(SlotKind kind, uint64_t need, const ClusterState& state, Time now) {
  for (const Spare& s : SpareAttempts(kind, state)) {
    if (need == 0) return;
    need -= LendOrPreempt(s, state, now);
  }
}

bool BackfillPolicy::ReclaimMapSlots(DispatchRound& round, const ClusterState& state, Time now) {
  const uint64_t waiting = AdmittedDemand(state).maps;
  const uint64_t free = FreeSlots(round, SlotKind::kMap);
  if (waiting > free) Reclaim(SlotKind::kMap, waiting - free, state, now);
  return !in_flight_.empty();
}

void BackfillPolicy::PreemptAttempt(const TaskRef& task) {
  if (std::find(in_flight_.begin(), in_flight_.end(), task) != in_flight_.end()) return;
  if (!host() || !host()->Preempt(task)) return;
  in_flight_.push_back(task);
  ++preemptions_;
}

std::vector<bool> BackfillPolicy::PlannedForAdmitted(const ClusterState& state) const {
  std::vector<bool> planned(state.slots.size());
  for (JobId id : state.reducing) {
    if (best_effort(id)) continue;
    const JobState& job = state.job(id);
    if (job.finished() || job.reduces_pending() == 0) continue;
    for (const TaskState& t : job.reduces)
      if (t.status == TaskStatus::kPending && t.planned_slot >= 0) planned[t.planned_slot] = true;
  }
  return planned;
}

void BackfillPolicy::Backfill(DispatchRound& round, const ClusterState& state, Time now) {
  const Demand d = AdmittedDemand(state);
  // A slot an admitted ready reduce is planned for would be preempted at the next round.
  const std::vector<bool> planned =
      d.ready_reduces > 0 ? PlannedForAdmitted(state) : std::vector<bool>{};
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce}) {
    const bool map = kind == SlotKind::kMap;
    // As many slots as the admitted tasks left pending stay free (else they would be
    // preempted again at the next round); a job whose reduces are not ready yet preempts
    // what it needs when they are.
    const uint64_t keep = map ? d.maps : d.ready_reduces;
    uint64_t free = FreeSlots(round, kind);
    for (SlotId s = round.NextFree(kind, 0); s >= 0 && free > keep;
         s = round.NextFree(kind, s + 1)) {
      if (!map && !planned.empty() && planned[s]) continue;
      const std::optional<TaskRef> task = PickBestEffort(state.slots[s].info, state, now);
      if (!task) break;  // nothing of this kind to run
      round.Assign(s, task);
      // Counted again: a node at its task limit offers none of its other slots.
      free = FreeSlots(round, kind);
    }
  }
}

void BackfillPolicy::LendSlack(DispatchRound& round, const ClusterState& state, Time now) {
  // The admitted maps waiting, and the earliest deadline among their jobs.
  uint64_t waiting = 0;
  Time first = Time::max();
  for (JobId id : state.active) {
    const JobState& job = state.job(id);
    if (best_effort(id) || job.finished() || job.maps_pending() == 0) continue;
    waiting += job.maps_pending();
    first = std::min(first, job.absolute_deadline().value_or(Time::max()));
  }
  // Each loan re-plans the inner's queue: at most one refusal a round.
  for (SlotId s = round.NextFree(SlotKind::kMap, 0); s >= 0 && waiting > 0;
       s = round.NextFree(SlotKind::kMap, s + 1)) {
    const SlotInfo& slot = state.slots[s].info;
    const std::optional<TaskRef> task = PickBestEffort(slot, state, now, first);
    if (!task || !inner_->LendSlot(slot, state.job(task->job), now, state, now)) return;
    if (!round.Assign(s, task)) {
      inner_->ReturnSlot(s);
      return;
    }
    StartLoan(*task, s);
    --waiting;
  }
}

void BackfillPolicy::StartLoan(const TaskRef& task, SlotId slot) {
  loans_.push_back({task, slot});
  ++loans_made_;
}

bool BackfillPolicy::lent(const TaskRef& task) const {
  return std::any_of(loans_.begin(), loans_.end(), [&](const Loan& l) { return l.task == task; });
}

void BackfillPolicy::EndLoan(const TaskRef& task) {
  std::erase_if(loans_, [&](const Loan& l) {
    if (!(l.task == task)) return false;
    inner_->ReturnSlot(l.slot);
    return true;
  });
}

std::optional<TaskRef> BackfillPolicy::PickBestEffort(const SlotInfo& slot,
                                                      const ClusterState& state, Time now,
                                                      std::optional<Time> before) const {
  std::optional<TaskRef> pick;
  auto take = [&](const JobState& job) {
    if (slot.kind == SlotKind::kMap) {
      if (auto i = job.maps_pending() ? job.NextPendingMap(slot.node, false) : std::nullopt)
        pick = TaskRef{job.id, TaskKind::kMap, *i};
    } else if (auto i = PickReduceFor(job, slot, state, [](SlotId) { return true; })) {
      // Any pending reduce: the slot it was planned for may be kept for admitted work.
      pick = TaskRef{job.id, TaskKind::kReduce, *i};
    }
    return pick.has_value();
  };
  // Jobs that can still meet their deadline, then the late ones (a prefix of the order).
  for (bool late : {false, true}) {
    order_.Walk([&](JobId id) {
      const JobState& job = state.job(id);
      const std::optional<Time> deadline = job.absolute_deadline();
      if (job.finished() || (deadline && *deadline <= now) != late) return false;
      if (before && (late || !deadline || *deadline >= *before)) return false;
      return take(job);
    });
    if (pick) return pick;
  }
  return std::nullopt;
}

std::vector<SlotId> BackfillPolicy::PlaceReduces(const JobState& job, const ClusterState& state) {
  return best_effort(job.id) ? Policy::PlaceReduces(job, state) : inner_->PlaceReduces(job, state);
}

void BackfillPolicy::OnTaskFinished(const TaskRecord& record, const ClusterState& state,
                                    Time now) {
  if (!best_effort(record.task.job)) {
    inner_->OnTaskFinished(record, state, now);
    return;
  }
  // Preempted, or done before the preemption reached it: either way it has reported.
  std::erase(in_flight_, record.task);
  EndLoan(record.task);
}

void BackfillPolicy::OnJobFinished(const JobState& job, const ClusterState& state, Time now) {
  if (!best_effort(job.id)) {
    inner_->OnJobFinished(job, state, now);
    return;
  }
  // A failed job's cancelled attempts report to no policy.
  std::erase_if(in_flight_, [&](const TaskRef& t) { return t.job == job.id; });
  for (size_t i = loans_.size(); i-- > 0;)
    if (loans_[i].task.job == job.id) EndLoan(loans_[i].task);
  order_.Erase(job);
  best_effort_.erase(job.id);
}

}  // namespace mrlocal
