// Runs a plan (sched/plan) of a preview's jobs on the cluster: machine m of the plan is node
// m, which runs its planned tasks one at a time in the order of their planned starts. A
// node's next planned task starts when
//  - the node runs no task (the plan's machines run one at a time, whatever the slots),
//  - the task is pending: its job has arrived (Arrive) and, for a reduce, its job's maps
//    are done and the shuffle delay has passed (the Controller then plans the reduces), and
//  - with PlannedStarts::kWait (planned_order_replay.h: MARES and SO-MarS), the clock has
//    reached its planned start: the policy is woken then (PolicyHost::WakeAt).
// A noiseless simulation reproduces the plan exactly either way: a list schedule starts a
// task at the later of its machine's previous end and its inputs' readiness, which is when
// the first two hold. When reality drifts, each node keeps its plan's order and starts the
// next task as soon as they hold: the remainder is list-scheduled in plan order. A task that
// ran long delays the ones after it; one that ran short lets them start early, unless they
// wait for their planned starts.
// Follow replaces the plan (a re-plan, SO-MarS); a task not in the plan never starts.
// Jobs that match no preview job run FIFO on a node once it has run all its planned tasks.
//
// The planning policies (plan_policy.h, so_mars_policy.h) share it. Pure decision logic: no
// threads, no locks.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sched/core/policy.h"
#include "sched/plan/instance.h"
#include "sched/plan/planned_order_replay.h"  // PlannedStarts

namespace mrlocal {

// One task of a plan: job j is the preview's job j.
struct PlanStep {
  int machine = 0;
  int job = 0;
  TaskKind kind = TaskKind::kMap;
  uint32_t index = 0;  // among the job's maps (or reduces)
  Time start{0};
};

// The steps of `schedule`, a schedule of `instance` (the preview itself), in FlattenTasks
// order.
std::vector<PlanStep> StepsOf(const PlanInstance& instance, const Schedule& schedule);

class PlanFollower {
 public:
  // `preview`'s machines are the cluster's nodes; its jobs are the ones Arrive matches. No
  // plan yet.
  PlanFollower(const PlanInstance& preview, PlannedStarts starts);

  // Follows `steps` from now on instead of the plan before (their machines among the
  // preview's). Tasks of the plan before that are not in `steps` no longer start.
  void Follow(const std::vector<PlanStep>& steps);

  // A job arrives: the first preview job of its name and task counts not yet taken, or
  // none (the job runs FIFO after the plan).
  std::optional<int> Arrive(const JobState& job);
  // The run's id of preview job j, once it has arrived.
  std::optional<JobId> IdOf(int job) const { return arrived_[job]; }

  // Starts each free node's next planned task when it is due (waking `host`, which may be
  // null, at a planned start the clock has not reached); a node that has run its plan runs
  // the jobs that matched no preview job, FIFO.
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now, PolicyHost* host);
  // The planned nodes' reduce slots of a matched job's reduces; none for another job, or
  // when a reduce is not in the plan (Policy::PlaceReduces then).
  std::optional<std::vector<SlotId>> PlaceReduces(const JobState& job, const ClusterState& state);
  // A wake-up the follower asked for is due (any other timer is not its).
  void OnTimer(Time now);

 private:
  struct Node {
    std::vector<PlanStep> tasks;  // in planned-start order
    size_t next = 0;              // the first not done
    std::vector<SlotId> slots;    // its map slots, then its reduce slots
  };

  void FindSlots(const ClusterState& state);
  bool Busy(const Node& node, const ClusterState& state) const;
  SlotId FreeSlot(const Node& node, SlotKind kind, const ClusterState& state) const;
  // The node's next planned task, once due; else none (waking at its start if it waits
  // only for that). Skips the tasks that are done.
  std::optional<TaskRef> Due(Node& node, const ClusterState& state, Time now, PolicyHost* host);
  // FIFO over the jobs that matched no preview job, on a node that has run its plan.
  void RunUnplanned(const Node& node, DispatchRound& round, const ClusterState& state);

  PlannedStarts starts_;
  std::vector<Node> nodes_;
  bool slots_found_ = false;
  std::vector<std::vector<int>> reduce_nodes_;        // per preview job and reduce; -1: none
  std::map<std::string, std::deque<int>> unmatched_;  // preview jobs by name, not yet arrived
  std::vector<uint32_t> maps_, reduces_;              // task counts per preview job
  std::vector<std::optional<JobId>> arrived_;         // per preview job
  std::map<JobId, int> preview_job_;                  // the matched jobs that arrived
  std::set<Time> wakes_;                              // wake-ups asked and not yet due
};

}  // namespace mrlocal
