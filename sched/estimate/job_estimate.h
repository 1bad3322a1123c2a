// What a deadline policy assumes of one job before it runs: the worst-case time of one map
// task and one reduce task on the slowest slot of each kind (RTMR Algorithms II and III,
// φ_m and φ_r), from an Estimator (sched/estimate/estimator.h).
//   φ_m = the estimate of the largest split's map on the slowest map slot
//   φ_r = the estimate of the largest reduce on the slowest reduce slot
// The largest reduce input is what the submitter declared (JobSpec::max_reduce_units), or
// the estimator's guess from the map input (JobHistory: α·σ/R × the app's skew).
#pragma once

#include <optional>
#include <string>

#include "sched/core/cluster_state.h"
#include "sched/core/job.h"
#include "sched/estimate/estimator.h"

namespace mrlocal {

struct JobEstimate {
  Duration map_task{0};      // φ_m
  Duration reduce_task{0};   // φ_r
  Duration map_work{0};      // Σ_i of each map's worst case: DC's fluid map stage, σ·c_m
  double shuffle_units = 0;  // σ_r as estimated
  // actual / worst of a task (Estimator::Spread); null: always its worst
  std::shared_ptr<const CostDistribution> map_spread, reduce_spread;
  std::string source;        // Estimator::Source, for messages
};

// Why a deadline policy rejects a job whose app has no estimate.
std::string NoEstimateReason(const JobState& job);

// The slowest speed of a slot of `kind` (1.0 when there is none).
double SlowestSpeed(const ClusterState& state, SlotKind kind);

// The reduce input of `job`: what the submitter declared (JobSpec::shuffle_units,
// max_reduce_units), else the estimator's guess; none when neither tells. REQUIRES: R > 0.
std::optional<ShuffleEstimate> ReduceInput(const JobState& job, const Estimator& estimator);

// The job's estimate on `state`'s slowest slots; none when `estimator` cannot estimate its
// tasks. `margin` (>= 1) multiplies every time, as if the slowest slots were that much
// slower: history is the worst case seen so far, and on a shared machine the next task
// can be slower still (the policies' "estimate-margin").
std::optional<JobEstimate> EstimateJob(const JobState& job, const ClusterState& state,
                                       const Estimator& estimator, double margin = 1.0);

}  // namespace mrlocal
