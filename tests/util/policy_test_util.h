// What the deadline-policy tests share: exact estimates for synthetic jobs, such a job as
// the Controller makes it at its arrival, and a simulated run of such jobs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/controller.h"
#include "sched/estimate/job_history.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/arriving_job.h"
#include "tests/util/job_builder.h"

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
  return ArrivingJob(JobBuilder()
                         .Name("j" + std::to_string(id))
                         .Deadline(SecondsOrNone(deadline_s))
                         .MapSeconds(map_s)
                         .ReduceSeconds(reduces, reduce_s)
                         .Build(),
                     id, FromSeconds(arrival_s));
}

// One node's `slots` under `policy`, simulated: tasks take exactly their declared time.
struct SimRun {
  SimRun(const std::vector<SlotInfo>& slots, Policy& policy,
         std::optional<double> reduce_slowstart = std::nullopt)
      : exec(loop, slots),
        controller(loop, exec, policy, slots, 1, std::move(MakePartitioner("hash")).value(),
                   ControllerOptions{.observer_tick = Duration::zero(),
                                     .reduce_slowstart = reduce_slowstart}) {}

  // A synthetic job arriving at `at`: `maps` maps of map_s seconds and `reduces` reduces of
  // reduce_s seconds at speed 1.0, relative deadline deadline_s. ExactHistory() estimates it
  // exactly.
  void Submit(Time at, uint32_t maps, double map_s, uint32_t reduces, double reduce_s,
              double deadline_s) {
    controller.SubmitAt(at, [=, this](JobId id) {
      SimJob model;
      model.map_work_s.assign(maps, map_s);
      model.reduce_work_s.assign(reduces, reduce_s);
      JobSpec spec = JobBuilder()
                         .Deadline(FromSeconds(deadline_s))
                         .MapSeconds(model.map_work_s)
                         .SpreadOver(1)
                         .ReduceSeconds(reduces, reduce_s)
                         .Build();
      exec.AddJob(id, std::move(model));
      return spec;
    });
  }

  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

}  // namespace mrlocal::testing
