// List scheduling of an MSJO instance (Ling et al. 2016, Algorithm 2's inner loop): tasks
// taken in a priority order, each appended to a machine at the earliest time its job's
// release and its precedence allow. MarS (LP middle-time order), HUWF, HJWF, HTWF and
// MARES / H-MARES (machines fixed in advance) are this loop with different orders.
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

struct ListOptions {
  // Per task (FlattenTasks order), the machine it must run on (MARES's pre-assignment);
  // empty: the loop chooses (see ListSchedule).
  std::vector<int> machine;
  // Per task, a time before which it may not start (MARES waits for a task's LP time);
  // empty: none.
  std::vector<double> not_before;
};

// Schedules the tasks of `order` (a permutation of the FlattenTasks indices, highest
// priority first). Each step takes the first task of `order` whose predecessors are all
// placed (a reduce waits for every map of its job; an order in which maps precede their
// reduces, as an LP's middle times give, is followed exactly). It starts at
//   max(S_earliest, e_m): S_earliest = the task's release, and for a reduce the end of the
//   job's last map plus the delay (Algorithm 2, lines 7-10); e_m = the end of the last
//   task already on machine m.
// Tasks are appended, never put into an idle gap left earlier on a machine: Algorithm 2
// keeps one e_m per machine. The machine m* is the one that finishes the task earliest
// (work / speed), ties to the smaller e_m, then the lower index: on identical machines
// this is the paper's m* = argmin e_m (line 11), since every machine with e_m <=
// S_earliest starts the task at S_earliest.
// InvalidArgument (the instance's first invalid value, or what is wrong with `order` or
// `options`) instead of a schedule.
Result<Schedule> ListSchedule(const PlanInstance& instance, const std::vector<int>& order,
                              const ListOptions& options = {});

// The machine m* of ListSchedule for a task of `work` ready at `ready`, given each
// machine's end e_m in `idle`.
int EarliestFinishMachine(const std::vector<double>& speeds, const std::vector<double>& idle,
                          double ready, double work);

// The FlattenTasks indices sorted by `key`, smallest first; equal keys keep task order
// (earlier job first, its maps before its reduces). InvalidArgument when `key` has not
// one value per task or a NaN; `what` names the key in that message.
Result<std::vector<int>> OrderByKey(const PlanInstance& instance, const std::vector<double>& key,
                                    const char* what);

}  // namespace mrlocal
