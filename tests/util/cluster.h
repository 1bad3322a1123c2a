// Clusters for tests, built by ClusterSpec as the CLI builds them from --cluster: slot ids
// are all map slots in node order, then all reduce slots in node order.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/core/cluster_state.h"

namespace mrlocal::testing {

// The slots of a cluster written as for --cluster, e.g. "1x(2m,1r,1.0)+1x(1m,0r,0.5)".
inline std::vector<SlotInfo> ClusterSlots(std::string_view spec) {
  Result<ClusterSpec> cluster = ClusterSpec::Parse(spec);
  EXPECT_TRUE(cluster.ok()) << cluster.status().message();
  return cluster.ok() ? cluster->Slots() : std::vector<SlotInfo>{};
}

// `nodes` nodes of `maps` map and `reduces` reduce slots each, all at speed 1.0. Either
// count may be 0 (a cluster the CLI would refuse, for policies' corner cases).
inline std::vector<SlotInfo> Nodes(int nodes, int maps, int reduces) {
  return ClusterSpec({NodeGroup{nodes, maps, reduces, 1.0}}).Slots();
}

// One node: map slots 0..maps-1, then the reduce slots.
inline std::vector<SlotInfo> OneNode(int maps, int reduces) { return Nodes(1, maps, reduces); }

inline int NodeCount(const std::vector<SlotInfo>& slots) {
  int nodes = 1;
  for (const SlotInfo& s : slots) nodes = std::max(nodes, s.node + 1);
  return nodes;
}

// The view a policy has of `slots` before anything runs: every slot free, no job.
inline ClusterState MakeCluster(const std::vector<SlotInfo>& slots) {
  ClusterState s;
  s.nodes = NodeCount(slots);
  for (const SlotInfo& info : slots) s.slots.push_back({info, {}, 0, {}});
  return s;
}

}  // namespace mrlocal::testing
