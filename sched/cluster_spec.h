// The cluster as the user describes it: groups of N x (map slots, reduce slots, speed),
// e.g. "2x(4m,1r,1.0)+1x(2m,1r,0.5)": two nodes with 4 map and 1 reduce slot at full
// speed, and one node with 2 map and 1 reduce slot at half speed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/slot_info.h"

namespace mrlocal {

struct NodeGroup {
  int count = 1;
  int map_slots = 1;
  int reduce_slots = 1;
  double speed = 1.0;
};

class ClusterSpec {
 public:
  ClusterSpec() = default;
  explicit ClusterSpec(std::vector<NodeGroup> groups) : groups_(std::move(groups)) {}

  static Result<ClusterSpec> Parse(std::string_view text);
  // One node per CPU the process may use, each (1m,1r,1.0).
  static ClusterSpec Default(int cpus);

  std::string ToString() const;  // canonical; parses back to the same spec
  const std::vector<NodeGroup>& groups() const { return groups_; }
  int nodes() const;
  int map_slots() const;
  int reduce_slots() const;

  // Every slot, ids 0..n-1: all map slots in node order, then all reduce slots.
  std::vector<SlotInfo> Slots() const;

 private:
  std::vector<NodeGroup> groups_;
};

}  // namespace mrlocal
