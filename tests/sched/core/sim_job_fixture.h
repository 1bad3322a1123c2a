// Simulated jobs for the Controller's tests: a SimLoop, a SimExecutor on one node, and
// jobs whose tasks take exactly their declared seconds. Deterministic, no threads.
#pragma once

#include <memory>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {

// No observer ticks: a simulation needs no progress lines.
inline ControllerOptions Quiet() {
  ControllerOptions o;
  o.observer_tick = Duration::zero();
  return o;
}

struct SimCluster {
  SimCluster(Policy& policy, std::vector<SlotInfo> slots, ControllerOptions options = {})
      : exec(loop, slots),
        controller(loop, exec, policy, slots, 1, std::move(MakePartitioner("hash")).value(),
                   options) {}

  // A job of `maps` maps of map_s seconds and `reduces` reduces of reduce_s seconds,
  // arriving at `at`.
  void SubmitAt(Time at, uint32_t maps, double map_s, uint32_t reduces = 1, double reduce_s = 1) {
    controller.SubmitAt(at, Maker(maps, map_s, reduces, reduce_s));
  }
  Controller::JobMaker Maker(uint32_t maps, double map_s, uint32_t reduces, double reduce_s) {
    return [=, this](JobId id) {
      SimJob model;
      model.map_work_s.assign(maps, map_s);
      model.reduce_work_s.assign(reduces, reduce_s);
      exec.AddJob(id, std::move(model));
      return testing::JobBuilder("sim").Maps(maps, 1, {0}).Reduces(reduces).Build();
    };
  }

  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

}  // namespace mrlocal
