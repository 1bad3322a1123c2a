// How long a job takes alone on its cluster: what a preset whose deadlines and arrival
// rate follow its jobs' solo times asks for (SoloTime, datasets/workload_presets.h).
#pragma once

#include "datasets/workload_presets.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/task_model.h"

namespace mrlocal {

// Simulated: the model's time of the jobs (one alone, or a batch arriving at 0: the last
// one's response; fifo, no noise: the model's mean), on `cluster`. Real: the median of
// kRealSoloRuns real runs of them (fifo), measured once per job, count and cluster in
// this process, so that a compare's seeds and sweep points
// share one measure. Either ignores the spec's availability profiles (a solo time is the
// job's on the cluster as it is, not while a node is overloaded).
SoloTime MakeSoloTime(bool sim, const ClusterSpec& cluster, const Calibration& calibration);

inline constexpr int kRealSoloRuns = 3;

}  // namespace mrlocal
