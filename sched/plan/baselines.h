// The greedy baselines of Ling et al. 2016 (section 5.1.3) as offline plans over every job
// of an instance. Each is a priority rule (priority_rule.h, for policies to reuse) and a
// driver:
//  - HUWF, HJWF, HTWF: "all tasks are sorted" by the rule, and each iteration takes the
//    best task of the "available task list" (no unscheduled predecessor) and puts it
//    where it "can start as early as possible": ListSchedule over the rule's order. The
//    sort spans every job, so a task of a later, heavier job may be placed first and
//    start at its release, as the paper's Fig. 12 discussion implies.
//  - STF: "when a machine is idle", the shortest of the tasks that "have arrived and
//    their predecessors have been finished": DispatchSchedule.
// MARES and H-MARES need an LP's times: mares.h. Ties under every rule: earlier job first,
// its maps before its reduces.
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// InvalidArgument (ValidateInstance's message) for an invalid instance.
Result<Schedule> HuwfPlan(const PlanInstance& instance);
Result<Schedule> HjwfPlan(const PlanInstance& instance);
// By the instance's task weights W_u, as the paper's task-level experiments draw them;
// without them each task carries its job's weight, and HTWF plans as HJWF.
Result<Schedule> HtwfPlan(const PlanInstance& instance);
Result<Schedule> StfPlan(const PlanInstance& instance);

}  // namespace mrlocal
