// A scheduling policy: pure decision logic against a clock and a read-only view of the
// cluster. No threads, no sleeps, no locks: the Controller calls it on its one thread,
// and a simulation calls the very same code with a virtual clock.
//
// Extension points (each policy overrides what it needs):
//   Admit          a job arrives: admit it, or reject it with a reason (RTMR, DC).
//   PickTask       a slot is free: which pending task runs there, if any.
//   OnTaskFinished feedback with measured times (estimators, RTMR's SATU, LLF's laxity).
//   OnJobFinished  a job completed or failed.
//   OnTick         periodic (every tick_interval()), may ask to preempt running tasks.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/cluster_state.h"

namespace mrlocal {

struct Admission {
  bool admitted = true;
  std::string reason;  // shown to the user either way
  // Deadline policies (rtmr, dc): when the job is expected to end, at worst.
  std::optional<Time> estimated_finish;
  // Rejected by a deadline policy, what would have been admitted: the smallest relative
  // deadline, and how many more nodes of one map and one reduce slot of speed 1.0 (none:
  // no such change helps, or it was not computed).
  std::optional<Duration> min_deadline;
  std::optional<int> extra_nodes;

  static Admission Yes(std::string why) { return Admission{true, std::move(why), {}, {}, {}}; }
  static Admission No(std::string why) { return Admission{false, std::move(why), {}, {}, {}}; }
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
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;
  // True when Admit can reject: metrics then count only admitted jobs as accepted (RTMR
  // section V); without it every job counts and utilization uses all jobs' slot time.
  virtual bool admission_control() const { return false; }

  // `job` is not yet in state.active. Called once per job.
  virtual Admission Admit(const JobState& job, const ClusterState& state, Time now) = 0;

  // Slot `slot` is free. Returns a pending task of an active job that may run on a slot
  // of that kind (a map for a map slot, a pending reduce for a reduce slot: planned, or
  // released early by reduce slow-start), or nothing.
  virtual std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                          Time now) = 0;

  virtual void OnTaskFinished(const TaskRecord& /*record*/, const ClusterState& /*state*/,
                              Time /*now*/) {}
  virtual void OnJobFinished(const JobState& /*job*/, const ClusterState& /*state*/, Time /*now*/) {
  }

  // Tasks to preempt now (killed and requeued). Called every tick_interval() if non-zero.
  virtual std::vector<TaskRef> OnTick(const ClusterState& /*state*/, Time /*now*/) { return {}; }
  virtual Duration tick_interval() const { return Duration::zero(); }

  // Whether the Controller's reduce slow-start (Hadoop's
  // mapred.reduce.slowstart.completed.maps) applies to this policy's jobs. A policy whose
  // dispatcher starts reduces only once the map stage has ended says no.
  virtual bool uses_reduce_slowstart() const { return true; }
};

}  // namespace mrlocal
