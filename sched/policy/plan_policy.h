// Follows an offline plan (sched/plan/planner.h) of the whole job set, as PlanFollower
// (plan_follower.h) runs a plan: machine m of the plan is node m, which runs its planned
// tasks one at a time in planned-start order (MARES's none before its planned start), so a
// noiseless simulation reproduces the plan exactly, MARES's deliberate waits included.
// When reality drifts, the remainder is list-scheduled in plan order, never re-planned. Reduces are
// placed on their planned node's reduce slot. Jobs the plan does not know (no plan job of that name
// and task counts) run FIFO on a node once it has run all its planned tasks.
//
// REQUIRES: the plan is of the run's job set on the run's cluster (a map and a reduce slot
// per node), the jobs named as in PlanJob::name; a planned job that never arrives holds up
// its nodes. Pure decision logic: no threads, no locks.
#pragma once

#include <string>
#include <vector>

#include "sched/core/policy.h"
#include "sched/plan/instance.h"
#include "sched/policy/plan_follower.h"

namespace mrlocal {

class PlanPolicy final : public Policy {
 public:
  // `name`: the registered name it runs under; `note`: what to tell the user of the plan
  // (a fallback), empty when nothing. REQUIRES: `schedule` is a schedule of `instance`.
  PlanPolicy(std::string name, const PlanInstance& instance, Schedule schedule,
             PlannedStarts starts, std::string note = {});

  std::string_view name() const override { return name_; }
  std::string note() const override { return note_; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override;
  // Reduces start where and when the plan says, never early.
  bool uses_reduce_slowstart() const override { return false; }
  std::string_view speculation_veto() const override {
    return "a planning policy runs each task where and when its plan says";
  }

 private:
  std::string name_, note_;
  PlanFollower follower_;
};

}  // namespace mrlocal
