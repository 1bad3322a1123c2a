// What the deadline-policy tests share: exact estimates for synthetic jobs, such a job as
// the Controller makes it at its arrival, and a simulated run of such jobs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/estimate/job_history.h"
#include "tests/util/arriving_job.h"
#include "tests/util/job_builder.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal::testing {

// Exact estimates for "synthetic" jobs, whose task sizes are their times in microseconds
// at speed 1.0: φ_m of a job is its largest map's size, φ_r its max_reduce_units.
inline JobHistory ExactHistory() {
  JobHistory h;
  h.Set("synthetic", {.model = {.map_s_per_unit = 1e-6, .reduce_s_per_unit = 1e-6}});
  return h;
}

inline std::optional<Duration> SecondsOrNone(std::optional<double> s) {
  return s ? std::optional<Duration>(FromSeconds(*s)) : std::nullopt;
}

// Synthetic job `id` ("j<id>") as it arrives at arrival_s: map i takes map_s[i] seconds,
// each of its `reduces` reduces reduce_s seconds (speed 1.0).
inline JobState MakeSyntheticJob(JobId id, double arrival_s, std::optional<double> deadline_s,
                                 const std::vector<double>& map_s, uint32_t reduces,
                                 double reduce_s) {
  // std::string("j"): GCC 12 warns (-Wrestrict, wrongly) on "j" + std::string here.
  return ArrivingJob(JobBuilder()
                         .Name(std::string("j") + std::to_string(id))
                         .Deadline(SecondsOrNone(deadline_s))
                         .MapSeconds(map_s)
                         .ReduceSeconds(reduces, reduce_s)
                         .Build(),
                     id, FromSeconds(arrival_s));
}

// One node's `slots` under `policy`, simulated: tasks take exactly their declared time.
struct SimRun : SimCluster {
  SimRun(const std::vector<SlotInfo>& slots, Policy& policy,
         std::optional<double> reduce_slowstart = std::nullopt)
      : SimCluster(policy, slots,
                   {.observer_tick = Duration::zero(), .reduce_slowstart = reduce_slowstart}) {}

  // A synthetic job arriving at `at`: `maps` maps of map_s seconds and `reduces` reduces of
  // reduce_s seconds at speed 1.0, relative deadline deadline_s.
  void Submit(Time at, uint32_t maps, double map_s, uint32_t reduces, double reduce_s,
              double deadline_s) {
    SubmitAt(at, maps, map_s, reduces, reduce_s, FromSeconds(deadline_s));
  }
};

}  // namespace mrlocal::testing
