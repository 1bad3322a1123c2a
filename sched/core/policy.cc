#include "sched/core/policy.h"

#include <algorithm>

namespace mrlocal {

void Policy::Dispatch(DispatchRound& round, const ClusterState& state, Time now) {
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce})
    for (SlotId s = round.NextFree(kind, 0); s >= 0; s = round.NextFree(kind, s + 1))
      round.Assign(s, PickTask(state.slots[s].info, state, now));
}

std::vector<SlotId> Policy::PlaceReduces(const JobState& job, const ClusterState& state) {
  std::vector<const SlotInfo*> lanes;
  for (const SlotState& s : state.slots)
    if (s.info.kind == SlotKind::kReduce) lanes.push_back(&s.info);
  return PlaceReducesOnFastest(job, std::move(lanes));
}

std::vector<SlotId> PlaceReducesOnFastest(const JobState& job, std::vector<const SlotInfo*> lanes) {
  // Reduce r goes to the r-th fastest reduce slot (cyclically when R exceeds the reduce
  // slots), and the partitioner sizes it for that slot's speed.
  if (lanes.empty()) return {};
  std::stable_sort(lanes.begin(), lanes.end(),
                   [](const SlotInfo* a, const SlotInfo* b) { return a->speed > b->speed; });
  std::vector<SlotId> planned(job.R());
  for (uint32_t r = 0; r < job.R(); ++r) {
    const TaskState& t = job.reduces[r];
    planned[r] = t.status == TaskStatus::kRunning ? t.slot : lanes[r % lanes.size()]->id;
  }
  return planned;
}

}  // namespace mrlocal
