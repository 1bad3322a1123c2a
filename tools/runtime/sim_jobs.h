// A workload's jobs as the simulation sees them: the JobSpec the Controller schedules and
// the SimJob whose per-task work the SimExecutor plays out, from the calibrated model of
// each job's app (sched/estimate/task_model.h).
#pragma once

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/job.h"
#include "sched/estimate/job_history.h"
#include "sched/sim/sim_executor.h"
#include "sched/estimate/task_model.h"

namespace mrlocal {

struct SimJobParts {
  JobSpec spec;
  SimJob sim;
};

// Validates what the simulation needs (the app has a model; input files exist, for their
// sizes); errors are InvalidArgument/NotFound naming the job.
Result<SimJobParts> BuildSimJob(const WorkloadJob& job, const WorkloadSpec& workload,
                                const Calibration& calibration);

// What the deadline policies (rtmr, dc) know of each app in a simulation: the model's own
// task times at their worst noise draw (SimExecutor::MaxNoiseFactor), as if history had
// seen every kind of task. Source "model".
JobHistory ModelHistory(const WorkloadSpec& workload, const Calibration& calibration);

// The input bytes of each map task of `job` (one per block, a gzip file whole; given
// sizes split evenly over `maps` when the job names a count). Empty for input-less apps.
Result<std::vector<uint64_t>> MapSplitBytes(const WorkloadJob& job, uint64_t block_size);

}  // namespace mrlocal
