// What a policy may know of a task before it runs: an Estimator predicts how long a task
// takes on a slot, and may learn from the tasks that finish. The deadline policies (rtmr,
// dc) admit by its worst case. JobHistory (RTMR section IV.A) is one implementation; the
// k-NN smoothing of DynamicShare (its equations 1 and 2, over task features such as the
// input bytes and the slot's speed) is meant to be another.
//
// Contract for implementers: predictions are pure (const, no side effects), so that a
// policy may ask as often as it likes and a simulation stays deterministic; an estimator
// that knows nothing of a job says so (nullopt) rather than guess, and the deadline
// policies then reject the job (NoEstimateReason, sched/estimate/job_estimate.h). Called
// on the controller's thread only: no locking.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sched/core/cluster_state.h"
#include "sched/core/job.h"
#include "sched/core/policy.h"
#include "sched/estimate/cost_distribution.h"

namespace mrlocal {

// One task as an estimator sees it: its kind, the features a learned estimator regresses
// on, and where it would run.
struct TaskFeatures {
  TaskKind kind = TaskKind::kMap;
  double units = 0;         // its input: map, the split's bytes (pi: samples); reduce, size units
  double slot_speed = 1.0;  // of the slot it would run on (> 0)
  // What else runs on that slot's node: attempts of any job on its other slots. The
  // DynamicShare estimator regresses on it (the paper's cpu and memory of the worker);
  // others ignore it.
  int node_tasks = 0;
};

// The features of `task` of `job` were it to run on `slot` now: its input (a reduce not yet
// planned has 0 units), the slot's speed and the attempts running on the slot's other
// slots of the same node.
TaskFeatures FeaturesOnSlot(const JobState& job, const TaskRef& task, const SlotInfo& slot,
                            const ClusterState& state);

// The reduce input of a job that did not declare it (JobSpec::shuffle_units).
struct ShuffleEstimate {
  double total_units = 0;    // σ_r
  double largest_units = 0;  // the largest reduce task's share
};

class Estimator {
 public:
  virtual ~Estimator() = default;

  // Seconds `task` of `job` takes on a slot of speed task.slot_speed; for the deadline
  // policies, at worst. None when the estimator cannot tell (it never saw the job's app).
  virtual std::optional<double> TaskSeconds(const JobState& job,
                                            const TaskFeatures& task) const = 0;
  // The reduce input of `job` from its map input (job.maps); none when it cannot tell.
  virtual std::optional<ShuffleEstimate> Shuffle(const JobState& job) const = 0;
  // How the times of `job`'s tasks of `kind` spread below TaskSeconds, as actual / worst
  // (sched/estimate/cost_distribution.h): what admission at a confidence below 1 plans
  // with. Null, the default: every task at its worst case, so that any confidence plans
  // as confidence 1 does.
  virtual std::shared_ptr<const CostDistribution> Spread(const JobState& /*job*/,
                                                         TaskKind /*kind*/) const {
    return nullptr;
  }
  // What the estimates of `job` rest on, for messages ("history", "probe", "model"...);
  // empty when there are none.
  virtual std::string Source(const JobState& job) const = 0;

  // A finished attempt (record.ok or not) of a task of a job in `state`, as the
  // controller reports it to Policy::OnTaskFinished; then, once, the end of that job
  // (done, failed or rejected). A learning estimator updates itself; the default ignores
  // both. ObserveJobEnd must be called for every job that Observe saw, so that what an
  // estimator keeps per job is bounded.
  virtual void Observe(const TaskRecord& /*record*/, const ClusterState& /*state*/) {}
  virtual void ObserveJobEnd(const JobState& /*job*/) {}
};

}  // namespace mrlocal
