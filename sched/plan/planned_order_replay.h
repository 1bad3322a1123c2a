// A plan made on predicted works, run on the true ones (MarS's Fig. 14, "impact of
// prediction error", Ling et al. 2016 section 5.2): each machine keeps the plan's order of
// its tasks, and a task starts when its machine, its precedence (its job's maps ended plus
// the delay) and its release allow, and with PlannedStarts::kWait not before its planned
// start. That is what the planning policies do on the engine (sched/policy/plan_follower.h).
#pragma once

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// Whether a task waits for its planned start once its machine is free and its inputs are
// ready. MARES waits on purpose (no task before its LP time) and SO-MarS holds new jobs to
// their batch boundary: kWait. The other plans' starts follow from their order, so waiting
// for them only idles a machine whose tasks ran shorter than planned: kOrderOnly, as the
// paper's MSJO assigns the next task whenever a machine is idle (section 6.1).
enum class PlannedStarts { kWait, kOrderOnly };

// `plan`: a schedule of an instance with the same jobs and tasks as `actual` (its works may
// differ), feasible for it. Each machine runs its tasks in order of planned start (ties by
// task index). InvalidArgument for an invalid instance or a plan not one machine of
// `actual` and one finite start per task.
Result<Schedule> ReplayInPlannedOrder(const PlanInstance& actual, const Schedule& plan,
                                      PlannedStarts starts);

}  // namespace mrlocal
