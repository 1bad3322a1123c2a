// A plan made on predicted works, run on the true ones (MarS's Fig. 14, "impact of
// prediction error", Ling et al. 2016 section 5.2): each machine keeps the plan's order of
// its tasks, and a task starts when its machine, its precedence (its job's maps ended plus
// the delay) and its release allow, never before its planned start. That is what
// PlanPolicy does on the engine: a slot waits for its next planned task.
#pragma once

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// `plan`: a schedule of an instance with the same jobs and tasks as `actual` (its works may
// differ), feasible for it. Each machine runs its tasks in order of planned start (ties by
// task index). InvalidArgument for an invalid instance or a plan not one machine of
// `actual` and one finite start per task.
Result<Schedule> ReplayInPlannedOrder(const PlanInstance& actual, const Schedule& plan);

}  // namespace mrlocal
