// Finds overloaded nodes early (DynamicShare, section III: the local outlier factor over
// the laxities of one job's tasks on different workers). Fed each finished attempt with
// the time its estimate gave it, it keeps per job the newest tasks' slowdowns and marks a
// node overloaded when its newest task is an outlier on the slow side among its job's.
//
//   value      a task's slowdown: its measured time over its estimate on its slot at the
//              slot's nominal speed. The paper compares laxities; at one moment a task's
//              laxity is the job's deadline less now less slowdown x its estimate, so the
//              slowdown orders tasks as their laxities do (higher slowdown, lower laxity),
//              but unlike a laxity it does not fall as time passes or differ with the
//              task's size, so tasks that ended at different times compare.
//   verdict    on each attempt of node n, n's newest value among its job's newest kWindow
//              decides n: overloaded when it is on the slow side, at least kSlowSide times
//              the median of the other nodes' values (LOF is scale-free: on a tight cluster
//              of values, a few percent off is an outlier by density, and no reason to
//              avoid a node), AND its LOF over the window is above the threshold. LOF is
//              computed only for a value on the slow side, so that a healthy task costs a
//              median (~1 us), not a LOF (bench_lof). Needs values from two nodes.
//   recovery   an overloaded node gets no task for a cool-off as long as the task that
//              condemned it took; then one probation task (ProbationDue). Its value,
//              judged as above, clears the node or restarts the cool-off.
//
// Deterministic, single-threaded (a policy's), memory O(jobs x kWindow + nodes).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "sched/core/clock.h"
#include "sched/core/job.h"
#include "sched/core/lof_snapshot.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

struct OverloadOptions {
  // LOF above which a node's task is an outlier. 1.5: LOF is about 1 inside a cluster and
  // up to ~1.3 at the edge of a uniform one (Breunig section 5); the paper's overloaded
  // tasks stand far above. In (1, 100].
  double lof_threshold = 1.5;
  // MinPts (the paper does not give it). 10, the low end of Breunig's recommended 10-20:
  // below it LOF fluctuates, and it must exceed the tasks one overloaded node adds to a
  // job's window before it is marked (its slots' worth), else they form a cluster of
  // their own with LOF ~1. With n < 2 MinPts + 1 values, (n - 1) / 2: a neighbourhood of
  // more than half the values spans both groups however they split, and then nothing
  // stands out (with n - 1, one slow task among equal ones has LOF 1). In [2, 1000].
  int min_pts = 10;
};

class OverloadDetector {
 public:
  static constexpr size_t kWindow = 100;  // values kept per job (the paper's: 84)
  // x the other nodes' median. A CPU hog sharing a slot's core doubles its tasks' times;
  // task-time noise of sigma 0.15 (log-normal) puts a task 1.4x above the median of a few
  // others (seen in simulation with 8 tasks, which 1.25 marked).
  static constexpr double kSlowSide = 1.5;

  explicit OverloadDetector(OverloadOptions options = {}) : options_(options) {}

  // A successful attempt of `task` that ran on `slot` of `node` from start to end, whose
  // estimate there was `estimate_s` seconds (> 0). Re-evaluates the task's job and decides
  // `node`.
  void Observe(const TaskRef& task, SlotId slot, NodeId node, Time start, Time end,
               double estimate_s);
  // The job ended: its values go (a node's status stays).
  void ForgetJob(JobId job);

  bool overloaded(NodeId node) const;
  // An overloaded node's slowdown as last measured (1 for a healthy node).
  double slowdown(NodeId node) const;
  // The node is overloaded, its cool-off is over and no probation task runs on it.
  bool ProbationDue(NodeId node, Time now) const;
  // When an overloaded node's cool-off ends (its probation may start); none for a
  // healthy node. A policy with nothing else to wake it must ask to be woken then.
  std::optional<Time> cool_off_until(NodeId node) const;
  // A probation task was launched on `node`: no other until it ends.
  void StartProbation(NodeId node);
  std::vector<NodeId> overloaded_nodes() const;

  // LOF over the job's window as the last attempt left it, each task with its node's
  // status now (a Fig. 6 snapshot); none when the job has no value (or ended). Computed
  // when asked: O(kWindow log kWindow).
  std::optional<LofEvaluation> LastEvaluation(JobId job) const;
  // The evaluation that first marked a node overloaded in this detector's life (the
  // paper's Fig. 6 snapshot), or none.
  const std::optional<LofEvaluation>& first_marking() const { return first_marking_; }
  const OverloadOptions& options() const { return options_; }

 private:
  struct NodeStatus {
    bool overloaded = false;
    double slowdown = 1;
    Time cool_off_until{0};
    bool probation_running = false;
  };
  struct JobValues {
    std::deque<TaskOutlier> tasks;  // newest last, at most kWindow
    Time at{0};                     // of the newest
  };
  void Judge(const JobValues& job, NodeId node, Time now, Duration took);
  std::vector<double> Lof(const JobValues& job) const;

  OverloadOptions options_;
  std::map<JobId, JobValues> jobs_;
  std::map<NodeId, NodeStatus> nodes_;
  std::optional<LofEvaluation> first_marking_;
};

}  // namespace mrlocal
