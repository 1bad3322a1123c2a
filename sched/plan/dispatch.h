// Non-delay dispatching (the paper's STF, Ling et al. 2016 section 5.1.3): whenever a
// machine falls idle, it takes the best task among those available then, i.e. released
// and with every predecessor finished (a reduce: its job's maps ended plus the delay). No
// machine idles while a task is available, unlike ListSchedule, which may place a task of
// a later release ahead of available work.
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// `key`: per task (FlattenTasks order), smaller goes first; equal keys keep task order.
// At time t (the earliest a machine is idle and a task available) the best available task
// goes to the machine that finishes it earliest (EarliestFinishMachine, ready at t): on
// identical machines, one idle at t. InvalidArgument for an invalid instance or `key` not
// one non-NaN value per task; `what` names the key.
Result<Schedule> DispatchSchedule(const PlanInstance& instance, const std::vector<double>& key,
                                  const char* what);

}  // namespace mrlocal
