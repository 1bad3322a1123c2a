// MarS, Algorithm 2 of Ling et al. 2016 (section 4.3): the tasks in non-descending order of
// their LP middle time M_u = S_u + p_u / 2, list-scheduled (ListSchedule) on the machine
// idle earliest. With an LP solution satisfying the PGCs it is a 3-approximation (Theorem
// 3, identical machines).
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// `middle_times`: M_u per task (FlattenTasks order), from the LP; equal times keep task
// order. InvalidArgument for an invalid instance or not one value per task.
Result<Schedule> MarsPlan(const PlanInstance& instance, const std::vector<double>& middle_times);

}  // namespace mrlocal
