// Follows an offline plan (sched/plan/planner.h) of the whole job set: machine m of the
// plan is node m of the cluster, which runs its planned tasks one at a time in the order of
// their planned starts. A node's next planned task starts when
//  - the node runs no task (the plan's machines run one at a time, whatever the slots),
//  - the task is pending: its job has arrived and, for a reduce, its job's maps are done
//    and the shuffle delay has passed (the Controller then plans the reduces), and
//  - the clock has reached its planned start: the policy wakes itself then
//    (PolicyHost::WakeAt). So a noiseless simulation reproduces the plan exactly, MARES's
//    deliberate waits included.
// When reality drifts (a task runs long), each node keeps its plan's order and starts
// the next task as soon as the three hold: the remainder is list-scheduled in plan order,
// never re-planned. Reduces are placed on their planned node's reduce slot.
// Jobs the plan does not know (no plan job of that name and task counts) run FIFO on a
// node once it has run all its planned tasks.
//
// REQUIRES: the plan is of the run's job set on the run's cluster (a map and a reduce slot
// per node), the jobs named as in PlanJob::name; a planned job that never arrives holds up
// its nodes. Pure decision logic: no threads, no locks.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sched/core/policy.h"
#include "sched/plan/instance.h"

namespace mrlocal {

class PlanPolicy final : public Policy {
 public:
  // `name`: the registered name it runs under; `note`: what to tell the user of the plan
  // (a fallback), empty when nothing. REQUIRES: `schedule` is a schedule of `instance`.
  PlanPolicy(std::string name, const PlanInstance& instance, Schedule schedule,
             std::string note = {});

  std::string_view name() const override { return name_; }
  std::string note() const override { return note_; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override;
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override;
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override;
  void OnTimer(TimerId id, const ClusterState& state, Time now) override;
  // Reduces start where and when the plan says, never early.
  bool uses_reduce_slowstart() const override { return false; }

 private:
  struct PlannedTask {
    int job = 0;  // plan job
    TaskKind kind = TaskKind::kMap;
    uint32_t index = 0;
    Time start{0};
  };
  struct Node {
    std::vector<PlannedTask> tasks;  // in planned-start order
    size_t next = 0;                 // the first not done
    std::vector<SlotId> slots;       // its map slots, then its reduce slots
  };

  void FindSlots(const ClusterState& state);
  bool Busy(const Node& node, const ClusterState& state) const;
  SlotId FreeSlot(const Node& node, SlotKind kind, const ClusterState& state) const;
  // The node's next planned task, once due; else none (waking at its start if it waits
  // only for that). Skips the tasks that are done.
  std::optional<TaskRef> Due(Node& node, const ClusterState& state, Time now);
  // FIFO over the jobs the plan does not know, on a node that has run its plan.
  void RunUnplanned(const Node& node, DispatchRound& round, const ClusterState& state);
  void WakeAt(Time at);

  std::string name_, note_;
  std::vector<std::vector<uint32_t>> reduce_nodes_;  // per plan job, each reduce's node
  std::vector<Node> nodes_;
  bool slots_found_ = false;
  std::map<std::string, std::deque<int>> unmatched_;  // plan jobs by name, not yet arrived
  std::vector<uint32_t> plan_maps_, plan_reduces_;    // task counts per plan job
  std::vector<std::optional<JobId>> arrived_;         // per plan job
  std::map<JobId, int> plan_job_;                     // the planned jobs that arrived
  std::set<Time> wakes_;                              // wake-ups asked and not yet due
};

}  // namespace mrlocal
