// Earliest Deadline First, the classic real-time baseline: a free slot takes a pending
// task of the slot's kind from the job with the earliest absolute deadline (A + D). Jobs
// without a deadline come after every job with one, in arrival order; ties by arrival.
// Within the job: a data-local map first, else any; reduces through PickReduceFor.
//
// No admission control (every job is admitted; none is promised its deadline) and no
// preemption: a running task always finishes, so a job that arrives with an earlier
// deadline waits for the next free slot.
//
// Cost: jobs are kept in deadline order (sched/policy/deadline_order.h, updated in Admit and
// OnJobFinished); a decision walks that order and stops at the first job with a pending
// task of the slot's kind: O(log n) when the most urgent job has work, O(n) at worst.
#pragma once

#include "sched/core/policy.h"
#include "sched/policy/deadline_order.h"

namespace mrlocal {

// One instance per Controller: it knows jobs by id, and ids restart with each Controller.
class EdfPolicy final : public Policy {
 public:
  std::string_view name() const override { return "edf"; }
  // Every job it admits becomes active, so it enters the deadline order here.
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  // REQUIRES: every active job of `state` went through Admit.
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
  void OnJobFinished(const JobState& job, const ClusterState& state, Time now) override;

 private:
  DeadlineOrder order_;
};

}  // namespace mrlocal
