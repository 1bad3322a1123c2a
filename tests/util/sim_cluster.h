// A simulated one-node cluster under a real Controller: a SimLoop, the SimExecutor, and
// synthetic jobs whose tasks take exactly their declared seconds at speed 1.0 (over the
// slot's speed). Deterministic, no threads.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/job_builder.h"

namespace mrlocal::testing {

// No observer ticks: a simulation needs no progress lines.
inline ControllerOptions Quiet() {
  ControllerOptions o;
  o.observer_tick = Duration::zero();
  return o;
}

struct SimCluster {
  // `slots` all on node 0 (OneNode makes them).
  SimCluster(Policy& policy, const std::vector<SlotInfo>& slots,
             ControllerOptions options = Quiet())
      : exec(loop, slots),
        controller(loop, exec, policy, slots, 1, std::move(MakePartitioner("hash")).value(),
                   std::move(options)) {}

  // A job of `maps` maps of map_s seconds and `reduces` reduces of reduce_s seconds,
  // arriving at `at` with a relative `deadline`. ExactHistory() (policy_test_util.h)
  // estimates it exactly.
  void SubmitAt(Time at, uint32_t maps, double map_s, uint32_t reduces = 1, double reduce_s = 1,
                std::optional<Duration> deadline = std::nullopt) {
    controller.SubmitAt(at, Maker(maps, map_s, reduces, reduce_s, deadline));
  }
  Controller::JobMaker Maker(uint32_t maps, double map_s, uint32_t reduces, double reduce_s,
                             std::optional<Duration> deadline = std::nullopt) {
    return [=, this](JobId id) {
      SimJob model;
      model.map_work_s.assign(maps, map_s);
      model.reduce_work_s.assign(reduces, reduce_s);
      JobSpec spec = JobBuilder()
                         .Deadline(deadline)
                         .MapSeconds(model.map_work_s)
                         .SpreadOver(1)
                         .ReduceSeconds(reduces, reduce_s)
                         .Build();
      exec.AddJob(id, std::move(model));
      return spec;
    };
  }

  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

}  // namespace mrlocal::testing
