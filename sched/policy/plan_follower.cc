#include "sched/policy/plan_follower.h"

#include <algorithm>

#include "sched/policy/fifo_policy.h"

namespace mrlocal {

std::vector<PlanStep> StepsOf(const PlanInstance& instance, const Schedule& schedule) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  std::vector<PlanStep> steps;
  steps.reserve(tasks.size());
  for (size_t u = 0; u < tasks.size(); ++u)
    steps.push_back({schedule.machine[u], tasks[u].job,
                     tasks[u].reduce ? TaskKind::kReduce : TaskKind::kMap,
                     static_cast<uint32_t>(tasks[u].index), FromSeconds(schedule.start[u])});
  return steps;
}

PlanFollower::PlanFollower(const PlanInstance& preview, PlannedStarts starts)
    : starts_(starts),
      nodes_(preview.machine_speeds.size()),
      reduce_nodes_(preview.jobs.size()),
      arrived_(preview.jobs.size()) {
  for (size_t j = 0; j < preview.jobs.size(); ++j) {
    const PlanJob& job = preview.jobs[j];
    unmatched_[job.name].push_back(static_cast<int>(j));
    maps_.push_back(static_cast<uint32_t>(job.maps.size()));
    reduces_.push_back(static_cast<uint32_t>(job.reduces.size()));
    reduce_nodes_[j].assign(job.reduces.size(), -1);
  }
}

void PlanFollower::Follow(const std::vector<PlanStep>& steps) {
  for (Node& n : nodes_) {
    n.tasks.clear();
    n.next = 0;
  }
  for (const PlanStep& s : steps) {
    nodes_[s.machine].tasks.push_back(s);
    if (s.kind == TaskKind::kReduce) reduce_nodes_[s.job][s.index] = s.machine;
  }
  // Planned-start order; equal starts keep the steps' order (stable).
  for (Node& n : nodes_)
    std::stable_sort(n.tasks.begin(), n.tasks.end(),
                     [](const PlanStep& a, const PlanStep& b) { return a.start < b.start; });
}

std::optional<int> PlanFollower::Arrive(const JobState& job) {
  auto it = unmatched_.find(job.spec.name);
  if (it == unmatched_.end() || it->second.empty()) return std::nullopt;
  const int j = it->second.front();
  if (maps_[j] != job.M() || reduces_[j] != job.R()) return std::nullopt;
  it->second.pop_front();
  arrived_[j] = job.id;
  preview_job_[job.id] = j;
  return j;
}

void PlanFollower::FindSlots(const ClusterState& state) {
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce})
    for (const SlotState& s : state.slots)
      if (s.info.kind == kind && static_cast<size_t>(s.info.node) < nodes_.size())
        nodes_[s.info.node].slots.push_back(s.info.id);
  slots_found_ = true;
}

bool PlanFollower::Busy(const Node& node, const ClusterState& state) const {
  return std::any_of(node.slots.begin(), node.slots.end(),
                     [&](SlotId s) { return state.slots[s].task.has_value(); });
}

SlotId PlanFollower::FreeSlot(const Node& node, SlotKind kind, const ClusterState& state) const {
  for (SlotId s : node.slots)
    if (state.slots[s].info.kind == kind && !state.slots[s].task) return s;
  return -1;
}

std::optional<TaskRef> PlanFollower::Due(Node& node, const ClusterState& state, Time now,
                                         PolicyHost* host) {
  for (; node.next < node.tasks.size(); ++node.next) {
    const PlanStep& p = node.tasks[node.next];
    if (!arrived_[p.job]) return std::nullopt;  // its arrival starts a dispatch round
    auto it = state.jobs.find(*arrived_[p.job]);
    if (it == state.jobs.end() || it->second.finished()) continue;  // failed, forgotten
    const JobState& job = it->second;
    const TaskState& t = job.task(p.kind, p.index);
    if (t.status == TaskStatus::kDone) continue;
    if (t.status == TaskStatus::kRunning) return std::nullopt;
    if (p.kind == TaskKind::kReduce && !job.reduces_planned) return std::nullopt;
    if (starts_ == PlannedStarts::kWait && now < p.start) {
      if (host && wakes_.insert(p.start).second) host->WakeAt(p.start);
      return std::nullopt;
    }
    return TaskRef{job.id, p.kind, p.index};
  }
  return std::nullopt;
}

void PlanFollower::Dispatch(DispatchRound& round, const ClusterState& state, Time now,
                            PolicyHost* host) {
  if (!slots_found_) FindSlots(state);
  for (Node& node : nodes_) {
    if (Busy(node, state)) continue;  // a task's end starts the next round
    if (std::optional<TaskRef> task = Due(node, state, now, host)) {
      const SlotKind kind = task->kind == TaskKind::kMap ? SlotKind::kMap : SlotKind::kReduce;
      if (SlotId s = FreeSlot(node, kind, state); s >= 0) round.Assign(s, task);
    } else if (node.next == node.tasks.size()) {
      RunUnplanned(node, round, state);
    }
  }
}

void PlanFollower::RunUnplanned(const Node& node, DispatchRound& round, const ClusterState& state) {
  for (JobId id : state.active) {
    if (preview_job_.count(id)) continue;
    const JobState& job = state.job(id);
    if (SlotId s = FreeSlot(node, SlotKind::kMap, state); s >= 0 && job.maps_pending() > 0) {
      if (auto i = job.NextPendingMap(state.slots[s].info.node, /*local_only=*/false)) {
        round.Assign(s, TaskRef{id, TaskKind::kMap, *i});
        return;
      }
    }
    if (SlotId s = FreeSlot(node, SlotKind::kReduce, state); s >= 0) {
      if (auto i = PickReduceFor(job, state.slots[s].info, state)) {
        round.Assign(s, TaskRef{id, TaskKind::kReduce, *i});
        return;
      }
    }
  }
}

std::optional<std::vector<SlotId>> PlanFollower::PlaceReduces(const JobState& job,
                                                              const ClusterState& state) {
  auto it = preview_job_.find(job.id);
  if (it == preview_job_.end()) return std::nullopt;
  if (!slots_found_) FindSlots(state);
  std::vector<SlotId> placed;
  for (int node : reduce_nodes_[it->second]) {
    if (node < 0) return std::nullopt;
    const SlotId s = [&] {
      for (SlotId id : nodes_[node].slots)
        if (state.slots[id].info.kind == SlotKind::kReduce) return id;
      return SlotId{-1};
    }();
    if (s < 0) return std::nullopt;  // no reduce slot there: the plan's REQUIRES
    placed.push_back(s);
  }
  return placed;
}

void PlanFollower::OnTimer(Time now) { wakes_.erase(wakes_.begin(), wakes_.upper_bound(now)); }

}  // namespace mrlocal
