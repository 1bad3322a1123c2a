#include "sched/core/policy.h"

#include <algorithm>
#include <functional>

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
  if (lanes.empty() || job.R() == 0) return {};
  auto faster = [](const SlotInfo* a, const SlotInfo* b) { return a->speed > b->speed; };
  if (job.R() < lanes.size()) {
    // Only the R fastest are used: find them in O(lanes) and sort just those, as the whole
    // stable sort would have placed them. A 3,000-slot cluster sorted all its slots for
    // every job: 12 % of a simulation's instructions (issue 23). Commonly the fastest
    // speed alone has R lanes: its first R, in order. Else the speed of the R-th fastest
    // (nth_element), then those above it and the first ones at it, in order.
    double top = lanes[0]->speed;
    size_t at_top = 0;
    for (const SlotInfo* s : lanes) {
      if (s->speed > top) top = s->speed, at_top = 0;
      at_top += s->speed == top;
    }
    double cut = top;
    size_t above = 0;  // lanes faster than the cut
    if (at_top < job.R()) {
      std::vector<double> speeds(lanes.size());
      for (size_t i = 0; i < lanes.size(); ++i) speeds[i] = lanes[i]->speed;
      std::nth_element(speeds.begin(), speeds.begin() + (job.R() - 1), speeds.end(),
                       std::greater<>());
      cut = speeds[job.R() - 1];
      for (const SlotInfo* s : lanes) above += s->speed > cut;
    }
    std::vector<const SlotInfo*> fastest;
    fastest.reserve(job.R());
    size_t at_cut = job.R() - above;
    for (const SlotInfo* s : lanes) {
      if (fastest.size() == job.R()) break;
      if (s->speed > cut || (s->speed == cut && at_cut > 0 && at_cut--)) fastest.push_back(s);
    }
    lanes = std::move(fastest);
  }
  std::stable_sort(lanes.begin(), lanes.end(), faster);
  std::vector<SlotId> planned(job.R());
  for (uint32_t r = 0; r < job.R(); ++r) {
    const TaskState& t = job.reduces[r];
    planned[r] = t.status == TaskStatus::kRunning ? t.slot : lanes[r % lanes.size()]->id;
  }
  return planned;
}

}  // namespace mrlocal
