// A workload as an MSJO instance (sched/plan/instance.h), for MarS's LP bound and plans:
// one machine per node (MarS's machines run one task at a time) at the node's speed, and
// each job's release, weight, map->reduce delay and per-task work.
#pragma once

#include <functional>
#include <vector>

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// A job's per-task work, seconds at speed 1.0: one per map, one per reduce.
struct JobWork {
  std::vector<double> maps, reduces;
};
// Where a job's task works come from; an error names the job.
using JobWorkFn = std::function<Result<JobWork>(const WorkloadJob& job)>;

// What a synthetic job declares, "map_s" and "reduce_s" (a single entry: every task); a job
// of another app has no work known without a task-time model: InvalidArgument naming it.
Result<JobWork> DeclaredWork(const WorkloadJob& job);

// The works come from `work` (front ends that know the apps' models pass theirs). The
// delay is the job's shuffle_delay_s plus the spec model's.
Result<PlanInstance> PlanInstanceOf(const WorkloadSpec& spec, const ClusterSpec& cluster,
                                    const JobWorkFn& work = DeclaredWork);

}  // namespace mrlocal
