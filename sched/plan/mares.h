// MARES (Chen, Kodialam, Lakshman, INFOCOM 2012) and H-MARES as Ling et al. 2016 run them
// for comparison (section 5.1.3). MARES takes the machine of every task as given; for a
// fair comparison the paper assigns tasks "evenly ... to balance total processing time of
// tasks on every processor" (BalancedAssignment), then list-schedules each machine's tasks
// in the order of the LP's task completion times. H-MARES is "MARES ... without waiting
// for [a task] to become available. The only reason for a task to wait is if some of its
// predecessors have not been completed"; we read the MARES wait as Chen et al.'s rule
// that a task becomes available at its LP completion time, so MARES starts no task before
// it. Neither solves an LP here: the times come from the LP's caller (for the job-level
// comparison of Fig. 7, MarS's LP gives C_u = S_u + p_u; for the task-level one of Figs.
// 14-16, T-MarS's LP gives C_u directly).
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// Per task (FlattenTasks order), a machine: the tasks taken in `order`, each to the machine
// whose load (processing time, work / speed) is least once it takes the task, ties to the
// lower index; on identical machines, the least loaded one.
// Walking the LP order spreads early tasks over the machines; it balances the loads within
// one task's time (greedy list balancing). REQUIRES: a valid instance, `order` a
// permutation of its tasks.
std::vector<int> BalancedAssignment(const PlanInstance& instance, const std::vector<int>& order);

// `lp_completion`: C_u per task from an LP. Tasks in that order on their balanced
// machines; MARES starts none before its C_u, H-MARES only waits for precedence and
// release. InvalidArgument for an invalid instance, or not one value per task (MARES: each
// a time >= 0).
Result<Schedule> MaresPlan(const PlanInstance& instance, const std::vector<double>& lp_completion);
Result<Schedule> HMaresPlan(const PlanInstance& instance, const std::vector<double>& lp_completion);

}  // namespace mrlocal
