// Picking a task for a free slot from candidate jobs taken in a policy's order (fair's
// queues then jobs, dynprio's and capacity's queues below their share first): within a
// job, Hadoop's rule: a data-local map first, else any; a reduce by PickReduceFor.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/policy/fifo_policy.h"

namespace mrlocal {

// A pending task of `job` that may run on `slot`, or none.
inline std::optional<TaskRef> TaskFor(const JobState& job, const SlotInfo& slot,
                                      const ClusterState& state) {
  if (slot.kind == SlotKind::kMap) {
    if (auto i = job.NextPendingMap(slot.node, /*local_only=*/false))
      return TaskRef{job.id, TaskKind::kMap, *i};
  } else if (auto i = PickReduceFor(job, slot, state)) {
    return TaskRef{job.id, TaskKind::kReduce, *i};
  }
  return std::nullopt;
}

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
