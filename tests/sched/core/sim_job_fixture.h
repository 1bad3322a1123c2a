// Simulated jobs for the Controller's tests: a SimLoop, a SimExecutor on one node, and
// jobs whose tasks take exactly their declared seconds. Deterministic, no threads.
#pragma once

#include <memory>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {

// One node: `maps` map slots (ids 0..maps-1), then `reduces` reduce slots, speed 1.0.
inline std::vector<SlotInfo> NodeSlots(int maps, int reduces) {
  std::vector<SlotInfo> slots;
  for (int i = 0; i < maps + reduces; ++i)
    slots.push_back({i, i < maps ? SlotKind::kMap : SlotKind::kReduce, 0, 1.0});
  return slots;
}

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
      JobSpec spec;
      spec.app = "sim";
      spec.maps.assign(maps, {1, {0}});
      spec.reduces = reduces;
      spec.partition_hashes = MakePartitionHashes(1, std::max(1u, reduces), 1);
      return spec;
    };
  }

  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

}  // namespace mrlocal
