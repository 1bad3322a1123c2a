#include "sched/policy/edf_policy.h"

namespace mrlocal {

Admission EdfPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  order_.Insert(job);
  return Admission::Yes(job.spec.deadline ? "edf admits every job; it does not test deadlines"
                                          : "edf admits every job");
}

void EdfPolicy::OnJobFinished(const JobState& job, const ClusterState&, Time) { order_.Erase(job); }

std::optional<TaskRef> EdfPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  return order_.Pick(slot, state, [](const JobState&) { return true; });
}

}  // namespace mrlocal
