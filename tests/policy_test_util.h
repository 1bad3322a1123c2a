// What the deadline-policy tests share: exact estimates for synthetic jobs and a
// hand-built cluster.
#pragma once

#include <cstdint>

#include "sched/cluster_state.h"
#include "sched/job_history.h"

namespace mrlocal {

// Exact estimates for "synthetic" jobs, whose task sizes are their times in microseconds
// at speed 1.0: φ_m of a job is its largest map's size, φ_r its max_reduce_units.
inline JobHistory ExactHistory() {
  JobHistory h;
  h.Set("synthetic", AppEstimate{.map_s_per_unit = 1e-6, .reduce_s_per_unit = 1e-6});
  return h;
}

inline uint64_t Micros(double s) { return static_cast<uint64_t>(s * 1e6); }

// One node with `maps` map slots (ids 0..maps-1) and `reduces` reduce slots, speed 1.0.
inline ClusterState MakeCluster(int maps, int reduces) {
  ClusterState s;
  int id = 0;
  for (int i = 0; i < maps; ++i) s.slots.push_back({{id++, SlotKind::kMap, 0, 1.0}, {}, 0, {}});
  for (int i = 0; i < reduces; ++i)
    s.slots.push_back({{id++, SlotKind::kReduce, 0, 1.0}, {}, 0, {}});
  return s;
}

}  // namespace mrlocal
