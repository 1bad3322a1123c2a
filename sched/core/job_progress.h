// How far a job has come: its map and reduce progress in [0, 1], each finished task 1 and
// each running attempt its own progress (Executor::Progress), as Hadoop reports it. What
// a local run's progress lines and `mrlocal serve`'s job status both show.
#pragma once

#include <utility>

#include "sched/core/cluster_state.h"
#include "sched/core/executor.h"

namespace mrlocal {

std::pair<double, double> JobProgress(const JobState& job, const ClusterState& state,
                                      const Executor& exec);

}  // namespace mrlocal
