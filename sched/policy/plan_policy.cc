#include "sched/policy/plan_policy.h"

#include <algorithm>

#include "sched/policy/fifo_policy.h"

namespace mrlocal {

PlanPolicy::PlanPolicy(std::string name, const PlanInstance& instance, Schedule schedule,
                       std::string note)
    : name_(std::move(name)), note_(std::move(note)) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const int machines = static_cast<int>(instance.machine_speeds.size());
  nodes_.resize(machines);
  reduce_nodes_.resize(instance.jobs.size());
  for (size_t j = 0; j < instance.jobs.size(); ++j) {
    const PlanJob& job = instance.jobs[j];
    unmatched_[job.name].push_back(static_cast<int>(j));
    plan_maps_.push_back(static_cast<uint32_t>(job.maps.size()));
    plan_reduces_.push_back(static_cast<uint32_t>(job.reduces.size()));
    reduce_nodes_[j].resize(job.reduces.size());
  }
  arrived_.resize(instance.jobs.size());
  for (size_t u = 0; u < tasks.size(); ++u) {
    const PlanTask& t = tasks[u];
    const int m = schedule.machine[u];
    nodes_[m].tasks.push_back({t.job, t.reduce ? TaskKind::kReduce : TaskKind::kMap,
                               static_cast<uint32_t>(t.index), FromSeconds(schedule.start[u])});
    if (t.reduce) reduce_nodes_[t.job][t.index] = static_cast<uint32_t>(m);
  }
  // Planned-start order; equal starts keep task order (stable).
  for (Node& n : nodes_)
    std::stable_sort(n.tasks.begin(), n.tasks.end(),
                     [](const PlannedTask& a, const PlannedTask& b) { return a.start < b.start; });
}

Admission PlanPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  auto it = unmatched_.find(job.spec.name);
  if (it != unmatched_.end() && !it->second.empty()) {
    const int j = it->second.front();
    if (plan_maps_[j] == job.M() && plan_reduces_[j] == job.R()) {
      it->second.pop_front();
      arrived_[j] = job.id;
      plan_job_[job.id] = j;
      return Admission::Yes(name_ + " admits every job; this one runs as planned");
    }
  }
  return Admission::Yes(name_ + " admits every job; this one is not in the plan: FIFO after it");
}

void PlanPolicy::FindSlots(const ClusterState& state) {
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce})
    for (const SlotState& s : state.slots)
      if (s.info.kind == kind && static_cast<size_t>(s.info.node) < nodes_.size())
        nodes_[s.info.node].slots.push_back(s.info.id);
  slots_found_ = true;
}

bool PlanPolicy::Busy(const Node& node, const ClusterState& state) const {
  return std::any_of(node.slots.begin(), node.slots.end(),
                     [&](SlotId s) { return state.slots[s].task.has_value(); });
}

SlotId PlanPolicy::FreeSlot(const Node& node, SlotKind kind, const ClusterState& state) const {
  for (SlotId s : node.slots)
    if (state.slots[s].info.kind == kind && !state.slots[s].task) return s;
  return -1;
}

std::optional<TaskRef> PlanPolicy::Due(Node& node, const ClusterState& state, Time now) {
  for (; node.next < node.tasks.size(); ++node.next) {
    const PlannedTask& p = node.tasks[node.next];
    if (!arrived_[p.job]) return std::nullopt;  // its arrival starts a dispatch round
    auto it = state.jobs.find(*arrived_[p.job]);
    if (it == state.jobs.end() || it->second.finished()) continue;  // failed, forgotten
    const JobState& job = it->second;
    const TaskState& t = job.task(p.kind, p.index);
    if (t.status == TaskStatus::kDone) continue;
    if (t.status == TaskStatus::kRunning) return std::nullopt;
    if (p.kind == TaskKind::kReduce && !job.reduces_planned) return std::nullopt;
    if (now < p.start) {
      WakeAt(p.start);
      return std::nullopt;
    }
    return TaskRef{job.id, p.kind, p.index};
  }
  return std::nullopt;
}

void PlanPolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  if (!slots_found_) FindSlots(state);
  for (Node& node : nodes_) {
    if (Busy(node, state)) continue;  // a task's end starts the next round
    if (std::optional<TaskRef> task = Due(node, state, now)) {
      const SlotKind kind = task->kind == TaskKind::kMap ? SlotKind::kMap : SlotKind::kReduce;
      if (SlotId s = FreeSlot(node, kind, state); s >= 0) round.Assign(s, task);
    } else if (node.next == node.tasks.size()) {
      RunUnplanned(node, round, state);
    }
  }
}

void PlanPolicy::RunUnplanned(const Node& node, DispatchRound& round, const ClusterState& state) {
  for (JobId id : state.active) {
    if (plan_job_.count(id)) continue;
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

std::vector<SlotId> PlanPolicy::PlaceReduces(const JobState& job, const ClusterState& state) {
  auto it = plan_job_.find(job.id);
  if (it == plan_job_.end()) return Policy::PlaceReduces(job, state);
  if (!slots_found_) FindSlots(state);
  std::vector<SlotId> placed;
  for (uint32_t node : reduce_nodes_[it->second]) {
    const SlotId s = [&] {
      for (SlotId id : nodes_[node].slots)
        if (state.slots[id].info.kind == SlotKind::kReduce) return id;
      return SlotId{-1};
    }();
    if (s < 0) return Policy::PlaceReduces(job, state);  // no reduce slot there: REQUIRES
    placed.push_back(s);
  }
  return placed;
}

void PlanPolicy::OnTimer(TimerId, const ClusterState&, Time now) {
  wakes_.erase(wakes_.begin(), wakes_.upper_bound(now));
}

void PlanPolicy::WakeAt(Time at) {
  if (host() && wakes_.insert(at).second) host()->WakeAt(at);
}

}  // namespace mrlocal
