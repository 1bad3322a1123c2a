#include "sched/core/job.h"

namespace mrlocal {

std::string_view ToString(JobPhase p) {
  switch (p) {
    case JobPhase::kMap:
      return "map";
    case JobPhase::kShuffle:
      return "shuffle";
    case JobPhase::kReduce:
      return "reduce";
    case JobPhase::kDone:
      return "done";
    case JobPhase::kFailed:
      return "failed";
    case JobPhase::kRejected:
      return "rejected";
  }
  return "?";
}

void JobState::BuildMapIndex(int nodes) {
  // Per-node stacks only when some split has replicas: a simulated trace job on 3,000
  // nodes has none, and 24,000 jobs x 3,000 empty stacks would cost gigabytes.
  bool placed = false;
  for (const TaskState& t : maps) placed = placed || !t.local_nodes.empty();
  pending_by_node_.clear();
  if (placed) pending_by_node_.resize(std::max(nodes, 1));
  pending_any_.clear();
  for (uint32_t i = M(); i-- > 0;) IndexPendingMap(i);
}

void JobState::IndexPendingMap(uint32_t index) {
  for (NodeId n : maps[index].local_nodes)
    if (n >= 0 && n < static_cast<NodeId>(pending_by_node_.size()))
      pending_by_node_[n].push_back(index);
  pending_any_.push_back(index);
}

std::optional<uint32_t> JobState::NextPendingMap(NodeId node, bool local_only) const {
  auto pop_pending = [this](std::vector<uint32_t>& stack) -> std::optional<uint32_t> {
    while (!stack.empty()) {
      uint32_t i = stack.back();
      if (maps[i].status == TaskStatus::kPending) return i;
      stack.pop_back();
    }
    return std::nullopt;
  };
  if (node >= 0 && node < static_cast<NodeId>(pending_by_node_.size()))
    if (auto i = pop_pending(pending_by_node_[node])) return i;
  if (local_only) return std::nullopt;
  return pop_pending(pending_any_);
}

}  // namespace mrlocal
