#include "sched/estimate/estimator.h"

namespace mrlocal {

TaskFeatures FeaturesOnSlot(const JobState& job, const TaskRef& task, const SlotInfo& slot,
                            const ClusterState& state) {
  TaskFeatures f;
  f.kind = task.kind;
  f.units = static_cast<double>(job.task(task.kind, task.index).input_bytes);
  f.slot_speed = slot.speed;
  if (static_cast<size_t>(slot.node) < state.running_on_node.size()) {
    // O(1): the policies ask this for every task of a job they re-estimate.
    const bool busy =
        static_cast<size_t>(slot.id) < state.slots.size() && state.slots[slot.id].task;
    f.node_tasks = state.running_on_node[slot.node] - (busy ? 1 : 0);
    return f;
  }
  for (const SlotState& s : state.slots)
    if (s.info.node == slot.node && s.info.id != slot.id && s.task) ++f.node_tasks;
  return f;
}

}  // namespace mrlocal
