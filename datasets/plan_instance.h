// A workload as an MSJO instance (sched/plan/instance.h), for MarS's LP bound and plans:
// one machine per node (MarS's machines run one task at a time) at the node's speed, and
// each job's release, weight, map->reduce delay and per-task work.
#pragma once

#include "datasets/workload_spec.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// Task works come from synthetic jobs' "map_s" and "reduce_s" (a single entry: every task;
// seconds at speed 1.0); a job of another app has no work known without a task-time model:
// InvalidArgument naming it. The delay is the job's shuffle_delay_s plus the spec model's.
Result<PlanInstance> PlanInstanceOf(const WorkloadSpec& spec, const ClusterSpec& cluster);

}  // namespace mrlocal
