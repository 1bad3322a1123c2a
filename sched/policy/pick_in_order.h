// Picking a task for a free slot from candidate jobs taken in a policy's order (fair's
// queues then jobs, dynprio's and capacity's queues below their share first): within a
// job, Hadoop's rule (TaskFor, sched/policy/fifo_policy.h).
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/policy/fifo_policy.h"

namespace mrlocal {

// The task of the first candidate in `before` order that has one for `slot`. One pass for
// the first candidate; only when it has none (a reduce held for its free planned slot)
// are the rest sorted and tried in order. `Candidate::state` points at its JobState.
template <class Candidate, class Before>
std::optional<TaskRef> PickInOrder(std::vector<Candidate>& candidates, Before before,
                                   const SlotInfo& slot, const ClusterState& state) {
  if (candidates.empty()) return std::nullopt;
  const Candidate& first = *std::min_element(candidates.begin(), candidates.end(), before);
  if (auto pick = TaskFor(*first.state, slot, state)) return pick;
  std::sort(candidates.begin(), candidates.end(), before);
  for (const Candidate& c : candidates)
    if (auto pick = TaskFor(*c.state, slot, state)) return pick;
  return std::nullopt;
}

}  // namespace mrlocal
