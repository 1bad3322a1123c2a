#include "sched/policy/plan_policy.h"

namespace mrlocal {

PlanPolicy::PlanPolicy(std::string name, const PlanInstance& instance, Schedule schedule,
                       PlannedStarts starts, std::string note)
    : name_(std::move(name)), note_(std::move(note)), follower_(instance, starts) {
  follower_.Follow(StepsOf(instance, schedule));
}

Admission PlanPolicy::Admit(const JobState& job, const ClusterState&, Time) {
  if (follower_.Arrive(job))
    return Admission::Yes(name_ + " admits every job; this one runs as planned");
  return Admission::Yes(name_ + " admits every job; this one is not in the plan: FIFO after it");
}

void PlanPolicy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  follower_.Dispatch(round, state, now, host());
}

std::vector<SlotId> PlanPolicy::PlaceReduces(const JobState& job, const ClusterState& state) {
  if (auto placed = follower_.PlaceReduces(job, state)) return *placed;
  return Policy::PlaceReduces(job, state);
}

void PlanPolicy::OnTimer(TimerId, const ClusterState&, Time now) { follower_.OnTimer(now); }

}  // namespace mrlocal
