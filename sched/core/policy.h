// A scheduling policy: pure decision logic against a clock and a read-only view of the
// cluster. No threads, no sleeps, no locks: the Controller calls every hook on its one
// thread, and a simulation calls the very same code with a virtual clock.
//
// Each hook below says when the Controller calls it. From any hook a policy may use its
// PolicyHost (host()) to set and cancel wake-ups and to preempt running tasks. A request
// the Controller cannot carry out (a task that cannot run on the slot it was given, a
// reduce placed on a map slot) is a bug in the policy: it is skipped, counted
// (SchedulerStats::invalid_decisions) and reported to observers, and the run goes on.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/clock.h"
#include "sched/core/cluster_state.h"
#include "sched/core/event_loop.h"
#include "sched/core/lof_snapshot.h"
#include "sched/core/queue_ledger.h"

namespace mrlocal {

struct Admission {
  bool admitted = true;
  // Admitted to run with no guarantee: the admission test rejected it, and it runs in the
  // slots admitted jobs leave, preemptible (--reject-policy backfill). Reports count it
  // rejected; it counts as met of all jobs if it finishes by its deadline.
  bool best_effort = false;
  std::string reason;  // shown to the user either way
  // What a deadline policy (rtmr, dc) worked out; none from other policies.
  struct DeadlineEstimate {
    std::optional<Time> finish;  // when the job is expected to end, at worst
    // Rejected, what would have been admitted: the smallest relative deadline, and how
    // many more nodes of one map and one reduce slot of speed 1.0 (none: no such change
    // helps, or it was not computed).
    std::optional<Duration> min_deadline;
    std::optional<int> extra_nodes;
  };
  std::optional<DeadlineEstimate> estimate;
  std::optional<Time> estimated_finish() const {
    return estimate ? estimate->finish : std::nullopt;
  }

  // Admitted with its guarantee (not best effort).
  bool guaranteed() const { return admitted && !best_effort; }

  static Admission Yes(std::string why) { return Admission{true, false, std::move(why), {}}; }
  static Admission No(std::string why) { return Admission{false, false, std::move(why), {}}; }
};

// A finished task attempt, as measured.
struct TaskRecord {
  TaskRef task;
  uint32_t attempt = 0;
  SlotId slot = -1;
  bool ok = true;  // false: failed or preempted
  Time start{0};
  Time end{0};
  uint64_t input_bytes = 0;
  uint64_t output_bytes = 0;
  int node_tasks = 0;  // at its launch (TaskState::node_tasks)
};

// What the Controller does for a policy beyond showing it the state. Given once
// (Policy::Attach) before any other call; usable from every hook.
class PolicyHost {
 public:
  virtual ~PolicyHost() = default;
  // OnTimer(id) once Now() >= at, unless CancelWake(id) comes first.
  virtual TimerId WakeAt(Time at) = 0;
  // A wake-up that has fired, or an unknown id, is not an error: nothing happens.
  virtual void CancelWake(TimerId id) = 0;
  // Kills the running attempt of `task` and requeues the task: OnTaskFinished (ok = false)
  // follows, and its slot is offered again. False: the task is not running.
  virtual bool Preempt(const TaskRef& task) = 0;
};

// One dispatch round: the free slots, and the way to fill them. Valid only during
// Policy::Dispatch.
class DispatchRound {
 public:
  // The first free slot of `kind` with id >= from, or -1 (none, or no task of that kind
  // is pending).
  virtual SlotId NextFree(SlotKind kind, SlotId from) const = 0;
  // One decision for `slot`: launch `task` there now (later NextFree calls and the state
  // see it running), or with none leave the slot free. False: the task cannot run there
  // (a bug in the policy, reported), and the slot stays free.
  virtual bool Assign(SlotId slot, const std::optional<TaskRef>& task) = 0;
};

// Policy::PlaceReduces's plan over `lanes` (reduce slots): reduce r to the r-th fastest,
// cyclically; a reduce already running keeps its slot. Empty when `lanes` is.
std::vector<SlotId> PlaceReducesOnFastest(const JobState& job, std::vector<const SlotInfo*> lanes);

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;
  // True when Admit can reject: metrics then count only admitted jobs as accepted (RTMR
  // section V); without it every job counts and utilization uses all jobs' slot time.
  virtual bool admission_control() const { return false; }

  // The Controller attaches itself before any other call (null: detached).
  void Attach(PolicyHost* host) { host_ = host; }

  // A job arrives: admit it, or reject it with a reason (RTMR, DC). `job` is not yet in
  // state.active. Called once per job.
  virtual Admission Admit(const JobState& job, const ClusterState& state, Time now) = 0;

  // A dispatch round, after every event that may free a slot or make a task runnable:
  // fill free slots through `round`. Override it to assign many slots from one decision
  // (an LP's solution); the default calls PickTask for each free slot, in slot order.
  virtual void Dispatch(DispatchRound& round, const ClusterState& state, Time now);
  // Slot `slot` is free (asked by the default Dispatch). Returns a pending task of an active job
  // that may run on a slot of that kind (a map for a map slot, a pending reduce for a reduce slot:
  // planned, or released early by reduce slow-start), or nothing.
  virtual std::optional<TaskRef> PickTask(const SlotInfo& /*slot*/, const ClusterState& /*state*/,
                                          Time /*now*/) {
    return std::nullopt;
  }

  // A job's map stage ended: the reduce slot each reduce r is planned for (and the
  // partitioner sizes it for that slot's speed); a reduce already holding a slot (reduce
  // slow-start) keeps it. The default: the r-th fastest reduce slot, cyclically.
  virtual std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state);

  // An attempt ended (done, failed or preempted), with measured times: feedback for
  // estimators, RTMR's SATU, LLF's laxity.
  virtual void OnTaskFinished(const TaskRecord& /*record*/, const ClusterState& /*state*/,
                              Time /*now*/) {}
  // A job completed or failed and none of its attempts runs any more.
  virtual void OnJobFinished(const JobState& /*job*/, const ClusterState& /*state*/, Time /*now*/) {
  }
  // A wake-up set with host()->WakeAt is due.
  virtual void OnTimer(TimerId /*id*/, const ClusterState& /*state*/, Time /*now*/) {}
  // A slot's speed changed (availability); the state already shows the new one. A
  // dispatch round follows.
  virtual void OnSlotSpeedChanged(const SlotInfo& /*slot*/, double /*old_speed*/,
                                  const ClusterState& /*state*/, Time /*now*/) {}

  // Whether the Controller's reduce slow-start (Hadoop's
  // mapred.reduce.slowstart.completed.maps) applies to this policy's jobs. A policy whose
  // dispatcher starts reduces only once the map stage has ended says no.
  virtual bool uses_reduce_slowstart() const { return true; }

  // Why the Controller must not copy this policy's running tasks onto free slots
  // (speculative execution, speculation.h), or empty when it may: a policy that promises
  // slots to admitted jobs, preempts, or follows a plan of which task runs where says why.
  virtual std::string_view speculation_veto() const { return {}; }

  // What a front end should tell the user of how the policy was set up (a plan made by a
  // fallback planner); empty: nothing.
  virtual std::string note() const { return {}; }

  // Slack stealing (BackfillPolicy): whether every job this policy admitted still keeps
  // its guarantee if slot `slot` is kept from admitted work until a task of best-effort job
  // `job` that starts there at `start` (now, or earlier for one already running) ends at
  // its worst case: a map on a map slot, a reduce on a reduce slot. True commits to it: later plans
  // count the slot busy until then, or until ReturnSlot. The default lends nothing.
  virtual bool LendSlot(const SlotInfo& /*slot*/, const JobState& /*job*/, Time /*start*/,
                        const ClusterState& /*state*/, Time /*now*/) {
    return false;
  }
  // The task a slot was lent to has ended (done, failed or cancelled).
  virtual void ReturnSlot(SlotId /*slot*/) {}
  // A policy that detects overloaded nodes: the evaluation that first marked one
  // (DynamicShare Fig. 6), for the report; none otherwise.
  virtual std::optional<LofEvaluation> OverloadSnapshot() const { return std::nullopt; }
  // A policy that shares slots among paying queues (dynprio, capacity): what each queue
  // paid and got, complete once the run is idle; null otherwise.
  virtual const QueueLedger* Ledger() const { return nullptr; }
  // The first `count` of Ledger()'s intervals are recorded elsewhere (a service's store):
  // the policy may drop them, so that a ledger stays small over a long run. Its accounts'
  // totals are kept.
  virtual void ForgetLedgerIntervals(size_t /*count*/) {}
  // A change to the paying queues made while the run goes on (a service's API call), in
  // force as QueueSetup's timed events are. InvalidArgument from a policy without queues.
  virtual Status ChangeQueue(const QueueEvent& /*event*/, const ClusterState& /*state*/,
                             Time /*now*/) {
    return Status::InvalidArgument(std::string(name()) +
                                   " has no paying queues: rates and budgets apply under dynprio "
                                   "or capacity");
  }

 protected:
  // Null until attached (a policy driven directly by a unit test).
  PolicyHost* host() const { return host_; }

 private:
  PolicyHost* host_ = nullptr;
};

}  // namespace mrlocal
