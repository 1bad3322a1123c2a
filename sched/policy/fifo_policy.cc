#include "sched/policy/fifo_policy.h"

namespace mrlocal {

Admission FifoPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  return Admission::Yes(job.spec.deadline ? "fifo admits every job; it does not test deadlines"
                                          : "fifo admits every job");
}

std::optional<uint32_t> PickReduceFor(const JobState& job, const SlotInfo& slot,
                                      const ClusterState& state,
                                      const std::function<bool(SlotId)>& withheld) {
  if (job.reduces_pending() == 0) return std::nullopt;
  std::optional<uint32_t> elsewhere, held;
  for (uint32_t i = 0; i < job.R(); ++i) {
    const TaskState& t = job.reduces[i];
    if (t.status != TaskStatus::kPending) continue;
    if (t.planned_slot == slot.id || t.planned_slot < 0) return i;
    // Planned for another slot: take it only if that slot is busy or excluded (or
    // withheld), so that a free planned slot keeps the task the partitioner sized for it.
    if (!elsewhere && state.slots[t.planned_slot].unavailable()) elsewhere = i;
    if (!held && withheld && withheld(t.planned_slot)) held = i;
  }
  return elsewhere ? elsewhere : held;
}

std::optional<TaskRef> TaskFor(const JobState& job, const SlotInfo& slot, const ClusterState& state,
                               const std::function<bool(SlotId)>& withheld) {
  if (slot.kind == SlotKind::kMap) {
    if (auto i = job.NextPendingMap(slot.node, /*local_only=*/false))
      return TaskRef{job.id, TaskKind::kMap, *i};
  } else if (auto i = PickReduceFor(job, slot, state, withheld)) {
    return TaskRef{job.id, TaskKind::kReduce, *i};
  }
  return std::nullopt;
}

std::optional<TaskRef> FifoPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  if (slot.kind == SlotKind::kMap) {
    for (JobId id : state.active) {
      const JobState& job = state.job(id);
      if (job.maps_pending() == 0) continue;
      if (auto i = job.NextPendingMap(slot.node, /*local_only=*/false))
        return TaskRef{id, TaskKind::kMap, *i};
    }
  } else {
    for (JobId id : state.reducing)
      if (auto i = PickReduceFor(state.job(id), slot, state))
        return TaskRef{id, TaskKind::kReduce, *i};
  }
  return std::nullopt;
}

}  // namespace mrlocal
