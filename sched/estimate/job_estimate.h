// What a deadline policy assumes of one job before it runs: the worst-case time of one map
// task and one reduce task on the slowest slot of each kind (RTMR Algorithms II and III,
// φ_m and φ_r), from the app's history (sched/estimate/job_history.h).
//   φ_m = (a_m + c_m · max_i σ_i^m) / s_min^map
//   φ_r = (a_r + c_r · max reduce input) / s_min^reduce
// The largest reduce input is what the submitter declared (JobSpec::max_reduce_units), or
// α·σ/R × the app's skew when it declared nothing.
#pragma once

#include <string>

#include "sched/core/cluster_state.h"
#include "sched/core/job.h"
#include "sched/estimate/job_history.h"

namespace mrlocal {

struct JobEstimate {
  Duration map_task{0};      // φ_m
  Duration reduce_task{0};   // φ_r
  Duration map_work{0};      // Σ_i of each map's worst case: DC's fluid map stage, σ·c_m
  double shuffle_units = 0;  // σ_r as estimated
};

// Why a deadline policy rejects a job whose app has no estimate.
std::string NoEstimateReason(const JobState& job);

// The slowest speed of a slot of `kind` (1.0 when there is none).
double SlowestSpeed(const ClusterState& state, SlotKind kind);

// `margin` (>= 1) multiplies every time: history is the worst case seen so far, and on a
// shared machine the next task can be slower still (PolicyOptions::estimate_margin).
JobEstimate EstimateJob(const JobState& job, const AppEstimate& app, double slowest_map_speed,
                        double slowest_reduce_speed, double margin = 1.0);

}  // namespace mrlocal
