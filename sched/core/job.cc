#include "sched/core/job.h"

#include <algorithm>

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
  nodes_ = std::max(nodes, 1);
  pending_by_node_.clear();
  if (placed) pending_by_node_.resize(std::max(nodes, 1));
  pending_any_.clear();
  for (uint32_t i = M(); i-- > 0;) IndexPendingMap(i);
}

void JobState::IndexPendingMap(uint32_t index) {
  for (NodeId n : maps[index].local_nodes)
    if (n >= 0 && n < static_cast<NodeId>(pending_by_node_.size()) && MayRunOn(index, n))
      pending_by_node_[n].push_back(index);
  pending_any_.push_back(index);
  if (!maps[index].failed_nodes.empty()) retries_.push_back(index);
}

bool JobState::MayRunOn(uint32_t i, NodeId node) const {
  const std::vector<NodeId>& failed = maps[i].failed_nodes;
  return failed.empty() || static_cast<int>(failed.size()) >= nodes_ ||
         std::find(failed.begin(), failed.end(), node) == failed.end();
}

std::optional<uint32_t> JobState::NextPendingMap(NodeId node, bool local_only) const {
  // The stack's first pending task that may run on `node`. Below the top only while a
  // retry that may not run here waits there: rare.
  auto pop_pending = [this, node](std::vector<uint32_t>& stack) -> std::optional<uint32_t> {
    while (!stack.empty() && maps[stack.back()].status != TaskStatus::kPending) stack.pop_back();
    for (size_t k = stack.size(); k-- > 0;) {
      const uint32_t i = stack[k];
      if (maps[i].status == TaskStatus::kPending && MayRunOn(i, node)) return i;
    }
    return std::nullopt;
  };
  if (!local_only && !retries_.empty()) {
    std::erase_if(retries_, [this](uint32_t i) { return maps[i].status != TaskStatus::kPending; });
    for (uint32_t i : retries_)
      if (MayRunOn(i, node)) return i;
  }
  if (node >= 0 && node < static_cast<NodeId>(pending_by_node_.size()))
    if (auto i = pop_pending(pending_by_node_[node])) return i;
  if (local_only) return std::nullopt;
  return pop_pending(pending_any_);
}

}  // namespace mrlocal
