#include "sched/policy/dc_policy.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "sched/core/units.h"

namespace mrlocal {
namespace {

// An instant on the loop's clock, for reasons: "t=41.2 s".
std::string At(Time t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "t=%.1f s", Seconds(t));
  return buf;
}

// "1 map slot", "3 map slots".
std::string Slots(int n, std::string_view kind) {
  return std::to_string(n) + " " + std::string(kind) + (n == 1 ? " slot" : " slots");
}

int SlotCount(const ClusterState& state, SlotKind kind) {
  return static_cast<int>(
      std::count_if(state.slots.begin(), state.slots.end(),
                    [kind](const SlotState& s) { return s.info.kind == kind; }));
}

// ceil(a / b) for b > 0.
int64_t CeilDiv(int64_t a, int64_t b) { return a <= 0 ? 0 : (a + b - 1) / b; }

// n_m^min (RTMR section III): the fewest slots that, running the map work as a fluid, end it
// within `window` (> 0); at least 1 and at most M, since a job cannot use more slots than it
// has maps.
uint32_t MinMapSlots(const JobState& job, Duration map_work, Duration window) {
  if (job.M() == 0) return 0;
  const int64_t n = std::max<int64_t>(1, CeilDiv(map_work.count(), window.count()));
  return static_cast<uint32_t>(std::min<int64_t>(n, job.M()));
}

}  // namespace

DcPolicy::DcPolicy(const Estimator* estimator, double margin)
    : estimator_(estimator), margin_(margin) {}

int DcPolicy::MapSlotsAvailable(const ClusterState& state, int map_slots) const {
  int held = 0;
  for (const auto& [id, e] : admitted_) {
    auto it = state.jobs.find(id);
    if (it == state.jobs.end() || it->second.finished()) continue;
    const JobState& j = it->second;
    // Once all its maps are done the job is in its reduce stage and holds no map slot.
    const uint32_t not_done = j.M() - j.maps_done;
    held += static_cast<int>(std::min(e.min_maps, not_done));
  }
  return std::max(0, map_slots - held);
}

int DcPolicy::ReduceSlotsBusyAt(const ClusterState& state, Time t) const {
  int busy = 0;
  for (const auto& [id, e] : admitted_) {
    auto it = state.jobs.find(id);
    if (it == state.jobs.end() || it->second.finished()) continue;
    if (e.max_rs <= t && t <= e.deadline) busy += static_cast<int>(e.reduces);
  }
  return busy;
}

Admission DcPolicy::Admit(const JobState& job, const ClusterState& state, Time) {
  if (!job.spec.deadline) {
    order_.Insert(job);
    return Admission::Yes("no deadline: admitted best effort, after every job with one");
  }
  std::optional<JobEstimate> estimate;
  if (estimator_) estimate = EstimateJob(job, state, *estimator_, margin_);
  if (!estimate) return Admission::No(NoEstimateReason(job));
  const JobEstimate& e = *estimate;
  const Time arrival = job.arrival;
  const Duration deadline = *job.spec.deadline;
  const int map_slots = SlotCount(state, SlotKind::kMap);
  const int reduce_slots = SlotCount(state, SlotKind::kReduce);
  const int reduces = static_cast<int>(job.R());
  const int maps_free = MapSlotsAvailable(state, map_slots);

  // Before the deadline test: no deadline fixes this one. All R reduces must run at once
  // (assumption 2 of RTMR section III).
  if (reduces > reduce_slots)
    return Admission::No("R=" + std::to_string(reduces) + " reduce tasks exceed the cluster's " +
                         Slots(reduce_slots, "reduce"));

  // The latest reduce start; for R = 0, reduce_task is zero and max_rs = A + D.
  const Time max_rs = arrival + deadline - e.reduce_task;
  if (max_rs <= arrival) {
    Admission a = Admission::No("deadline too short: the reduce stage alone needs " +
                                FormatDuration(e.reduce_task));
    // The smallest deadline whose fluid map stage fits in the map slots free now, rounded
    // up to a millisecond; given only when its reduce test passes too, so it is a deadline
    // that would have been admitted.
    std::optional<Duration> window;
    if (job.M() == 0) {
      window = Duration{1};
    } else if (const int usable = std::min(maps_free, static_cast<int>(job.M())); usable > 0) {
      // n_m^min = ceil(work / window) <= usable for any window >= work / usable.
      window = std::max(Duration{CeilDiv(e.map_work.count(), usable)}, Duration{1});
    }
    if (window) {
      const Duration d = std::chrono::ceil<std::chrono::milliseconds>(e.reduce_task + *window);
      if (reduces <= reduce_slots - ReduceSlotsBusyAt(state, arrival + d - e.reduce_task))
        a.estimate.emplace().min_deadline = d;
    }
    return a;
  }

  const uint32_t min_maps = MinMapSlots(job, e.map_work, max_rs - arrival);
  if (static_cast<int>(min_maps) > maps_free)
    return Admission::No("needs " + Slots(static_cast<int>(min_maps), "map") + " now, " +
                         std::to_string(maps_free) + " available");

  // The deficiency RTMR section III names: one point, max_rs, is checked, not the whole
  // window [max_rs, A + D] the reduces run in.
  const int reduces_free = reduce_slots - ReduceSlotsBusyAt(state, max_rs);
  if (reduces > reduces_free)
    return Admission::No("needs " + Slots(reduces, "reduce") + " at its latest reduce start " +
                         At(max_rs) + ", " + std::to_string(std::max(0, reduces_free)) +
                         " free then");

  admitted_[job.id] = Entry{arrival + deadline, max_rs, min_maps, job.R()};
  order_.Insert(job);
  Admission a = Admission::Yes(
      "admitted: " + Slots(static_cast<int>(min_maps), "map") + " from now, " +
      (reduces > 0 ? Slots(reduces, "reduce") + " at " + At(max_rs) : "no reduce stage"));
  a.estimate.emplace().finish = max_rs + e.reduce_task;
  return a;
}

void DcPolicy::OnJobFinished(const JobState& job, const ClusterState&, Time) {
  order_.Erase(job);
  admitted_.erase(job.id);
}

std::optional<TaskRef> DcPolicy::PickTask(const SlotInfo& slot, const ClusterState& state, Time) {
  // A deadline job gets its n_m^min map slots and no more (RTMR section III), even while
  // other slots stay idle; a best-effort job has no cap. Reduces go with no reservation.
  return order_.Pick(slot, state, [this](const JobState& job) {
    auto e = admitted_.find(job.id);
    return e == admitted_.end() || job.maps_running < e->second.min_maps;
  });
}

}  // namespace mrlocal
