// What the deadline-policy tests share: exact estimates for synthetic jobs, a hand-built
// cluster, and a simulated run of synthetic jobs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/cluster_state.h"
#include "sched/core/controller.h"
#include "sched/estimate/job_history.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {

// Exact estimates for "synthetic" jobs, whose task sizes are their times in microseconds
// at speed 1.0: φ_m of a job is its largest map's size, φ_r its max_reduce_units.
inline JobHistory ExactHistory() {
  JobHistory h;
  h.Set("synthetic", {.model = {.map_s_per_unit = 1e-6, .reduce_s_per_unit = 1e-6}});
  return h;
}

inline uint64_t Micros(double s) { return static_cast<uint64_t>(s * 1e6); }

// A synthetic job as the Controller builds it at arrival: map i takes map_s[i] seconds,
// each of its `reduces` reduces reduce_s seconds (speed 1.0).
inline JobState MakeSyntheticJob(JobId id, double arrival_s, std::optional<double> deadline_s,
                                 const std::vector<double>& map_s, uint32_t reduces,
                                 double reduce_s) {
  JobState j;
  j.id = id;
  j.arrival = FromSeconds(arrival_s);
  j.spec.name = "j" + std::to_string(id);
  j.spec.app = "synthetic";
  if (deadline_s) j.spec.deadline = FromSeconds(*deadline_s);
  j.spec.reduces = reduces;
  j.spec.shuffle_units = reduces * Micros(reduce_s);
  j.spec.max_reduce_units = Micros(reduce_s);
  for (double s : map_s) {
    TaskState t;
    t.input_bytes = Micros(s);
    j.maps.push_back(t);
  }
  j.reduces.resize(reduces);
  j.BuildMapIndex(1);
  return j;
}

// One node with `maps` map slots (ids 0..maps-1) and `reduces` reduce slots, speed 1.0.
inline std::vector<SlotInfo> OneNode(int maps, int reduces) {
  std::vector<SlotInfo> slots;
  for (int i = 0; i < maps + reduces; ++i)
    slots.push_back({i, i < maps ? SlotKind::kMap : SlotKind::kReduce, 0, 1.0});
  return slots;
}

// The same as the cluster view a policy sees, every slot free.
inline ClusterState MakeCluster(int maps, int reduces) {
  ClusterState s;
  for (const SlotInfo& info : OneNode(maps, reduces)) s.slots.push_back({info, {}, 0, {}});
  return s;
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
      exec.AddJob(id, std::move(model));
      JobSpec spec;
      spec.app = "synthetic";
      spec.deadline = FromSeconds(deadline_s);
      spec.maps.assign(maps, {Micros(map_s), {0}});
      spec.reduces = reduces;
      if (reduces > 0) {
        spec.partition_hashes = MakePartitionHashes(1, reduces, 1);
        spec.shuffle_units = reduces * Micros(reduce_s);
        spec.max_reduce_units = Micros(reduce_s);
      }
      return spec;
    });
  }

  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

}  // namespace mrlocal
