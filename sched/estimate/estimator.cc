#include "sched/estimate/estimator.h"

namespace mrlocal {

TaskFeatures FeaturesOnSlot(const JobState& job, const TaskRef& task, const SlotInfo& slot,
                            const ClusterState& state) {
  TaskFeatures f;
  f.kind = task.kind;
  f.units = static_cast<double>(job.task(task.kind, task.index).input_bytes);
  f.slot_speed = slot.speed;
  for (const SlotState& s : state.slots)
    if (s.info.node == slot.node && s.info.id != slot.id && s.task) ++f.node_tasks;
  return f;
}

}  // namespace mrlocal
