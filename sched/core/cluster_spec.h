// The cluster as the user describes it: groups of N x (map slots, reduce slots, speed),
// e.g. "2x(4m,1r,1.0)+1x(2m,1r,0.5)": two nodes with 4 map and 1 reduce slot at full
// speed, and one node with 2 map and 1 reduce slot at half speed. An optional fourth
// field caps the tasks a node runs at once: "50x(1m,1r,1.0,1t)" is 50 machines that each
// run a map or a reduce, not both (MarS's).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

struct NodeGroup {
  int count = 1;         // nodes in the group, >= 1
  int map_slots = 1;     // per node, >= 0
  int reduce_slots = 1;  // per node, >= 0
  double speed = 1.0;    // in (0, 1]
  // At most this many tasks at once on a node, over all its slots; 0: one per slot. MarS's
  // machines run one task at a time, map or reduce: (1m,1r,1.0,1t).
  int max_tasks = 0;

  friend bool operator==(const NodeGroup&, const NodeGroup&) = default;
};

class ClusterSpec {
 public:
  // Limits that keep every count in an int and a typo from asking for a billion threads.
  static constexpr int kMaxNodes = 100'000;
  static constexpr int kMaxSlotsPerNode = 1'024;  // of each kind
  static constexpr int kMaxSlots = 1'000'000;

  ClusterSpec() = default;
  // REQUIRES: groups satisfy the limits above (Parse checks them for user input).
  explicit ClusterSpec(std::vector<NodeGroup> groups) : groups_(std::move(groups)) {}

  // Whitespace is allowed between tokens and 'x', 'm', 'r' in either case. Errors are
  // InvalidArgument with one line that names the spec and the 1-based position at fault.
  static Result<ClusterSpec> Parse(std::string_view text);
  // One node per CPU the process may use (at least 1), each (1m,1r,1.0).
  static ClusterSpec Default(int cpus);

  // Canonical form, e.g. "2x(4m,1r,1.0)+1x(2m,1r,0.5)"; Parse(ToString()) == *this.
  std::string ToString() const;
  const std::vector<NodeGroup>& groups() const { return groups_; }
  int nodes() const;
  int map_slots() const;
  int reduce_slots() const;

  // Every slot, ids 0..n-1: all map slots in node order, then all reduce slots in node
  // order. Nodes are numbered 0.. across the groups in the order written.
  std::vector<SlotInfo> Slots() const;
  // Per node, its group's max_tasks (0: one task per slot).
  std::vector<int> NodeTaskLimits() const;
  // How many tasks can run at once: each node's slots, or its task limit when lower.
  int TaskCapacity() const;

  friend bool operator==(const ClusterSpec&, const ClusterSpec&) = default;

 private:
  std::vector<NodeGroup> groups_;
};

}  // namespace mrlocal
