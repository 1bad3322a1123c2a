#include "sched/edf_policy.h"

#include "sched/fifo_policy.h"

namespace mrlocal {

EdfPolicy::Urgency EdfPolicy::UrgencyOf(const JobState& job) {
  std::optional<Time> deadline = job.absolute_deadline();
  return {!deadline, deadline.value_or(Time{0}), job.id};
}

Admission EdfPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  order_.insert(UrgencyOf(job));
  return Admission::Yes(job.spec.deadline ? "edf admits every job; it does not test deadlines"
                                  : "edf admits every job");
}

void EdfPolicy::OnJobFinished(const JobState& job, const ClusterState&, Time) {
  order_.erase(UrgencyOf(job));
}

std::optional<TaskRef> EdfPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  for (const Urgency& u : order_) {
    auto it = state.jobs.find(u.job);
    // A failed job leaves the order only once its last attempt is cancelled: skip it.
    if (it == state.jobs.end() || it->second.finished()) continue;
    const JobState& job = it->second;
    if (slot.kind == SlotKind::kMap) {
      if (job.maps_pending() == 0) continue;
      if (auto i = job.NextPendingMap(slot.node, /*local_only=*/false))
        return TaskRef{u.job, TaskKind::kMap, *i};
    } else if (auto i = PickReduceFor(job, slot, state)) {
      return TaskRef{u.job, TaskKind::kReduce, *i};
    }
  }
  return std::nullopt;
}

}  // namespace mrlocal
