// Hadoop 1's default scheduler (JobQueueTaskScheduler): jobs in arrival order; for a free
// map slot, the first job with a pending map gives a data-local one if it has it, else
// any; reduces likewise in job order, preferring the slot the partitioner planned.
// Admits every job: it makes no deadline promise.
#pragma once

#include <functional>

#include "sched/core/policy.h"

namespace mrlocal {

class FifoPolicy final : public Policy {
 public:
  std::string_view name() const override { return "fifo"; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override;
};

// Shared by policies that fall back to FIFO order within a job: a pending reduce of `job`
// for `slot`, preferring one planned for this slot, then one whose planned slot is busy,
// then one whose planned slot the policy withholds (`withheld`, if given: llf gives an
// overloaded node's slots no task for a while, and a reduce planned there must not wait).
std::optional<uint32_t> PickReduceFor(const JobState& job, const SlotInfo& slot,
                                      const ClusterState& state,
                                      const std::function<bool(SlotId)>& withheld = {});

// A pending task of `job` that may run on `slot`, or none: a map, data-local first, or a
// reduce by PickReduceFor (with `withheld`). Hadoop's rule within a job, for every policy
// that orders jobs its own way.
std::optional<TaskRef> TaskFor(const JobState& job, const SlotInfo& slot,
                               const ClusterState& state,
                               const std::function<bool(SlotId)>& withheld = {});

}  // namespace mrlocal
