// Jobs in EDF order, as edf and dc walk them for a free slot: by absolute deadline (A + D);
// jobs without a deadline after every job with one; ties, and jobs without a deadline, by
// id (arrival order). A std::set: O(log n) to add or remove a job; a walk stops at the
// first job with work for the slot.
#pragma once

#include <functional>
#include <optional>
#include <set>

#include "sched/core/cluster_state.h"
#include "sched/policy/fifo_policy.h"

namespace mrlocal {

class DeadlineOrder {
 public:
  void Insert(const JobState& job) { order_.insert(KeyOf(job)); }
  void Erase(const JobState& job) { order_.erase(KeyOf(job)); }

  // The task a free `slot` takes: from the first job in order with one, a pending map
  // (data-local first) when `may_map(job)` says the job may run another, or a reduce
  // through PickReduceFor (with `withheld`, if given). A job that has finished but is still
  // in the order (a failed job stays until its last attempt is cancelled) is skipped.
  template <typename MayMap>
  std::optional<TaskRef> Pick(const SlotInfo& slot, const ClusterState& state, MayMap may_map,
                              const std::function<bool(SlotId)>& withheld = {}) const {
    for (const Key& k : order_) {
      auto it = state.jobs.find(k.job);
      if (it == state.jobs.end() || it->second.finished()) continue;
      const JobState& job = it->second;
      if (slot.kind == SlotKind::kMap && (job.maps_pending() == 0 || !may_map(job))) continue;
      if (auto task = TaskFor(job, slot, state, withheld)) return task;
    }
    return std::nullopt;
  }

  // Calls visit(id) for each job in order until it returns true.
  template <typename Visit>
  void Walk(Visit visit) const {
    for (const Key& k : order_)
      if (visit(k.job)) return;
  }

 private:
  struct Key {
    bool best_effort;  // no deadline: after every job with one
    Time deadline;     // absolute; zero for best-effort jobs, which go by id
    JobId job;
    friend auto operator<=>(const Key&, const Key&) = default;
  };
  static Key KeyOf(const JobState& job) {
    std::optional<Time> deadline = job.absolute_deadline();
    return {!deadline, deadline.value_or(Time{0}), job.id};
  }

  std::set<Key> order_;
};

}  // namespace mrlocal
