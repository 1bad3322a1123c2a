// T-MarS, Algorithm 3 of Ling et al. 2016 (section 4.4): the task-level scheduler for
// sum_u W_u C_u (TWTCT), from the LP of eqs. 11-13 (lp_bound.h with
// LpObjective::kTaskCompletion). The time line is cut into doubling intervals
// t_0, t_n = t_0 2^(n-1); block B_n holds the tasks whose LP completion C_u^LP lies in
// (t_{n-1}, t_n] (B_1: C_u^LP <= t_0), and each block is list-scheduled in LP middle-time
// order (ListSchedule: precedence with delay, release, the machine idle earliest).
//
// "Schedule B_n using Graham list-scheduling in the interval (tau_{n-1}, tau_n]" read three
// ways (TMarsDriver); sched/plan/README.md measures them on Fig. 15's instances, and `t-mars`
// is kGraham, the only one near the paper's figures.
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"

namespace mrlocal {

// Algorithm 3's intervals over `lp_completion` (C_u^LP per task, FlattenTasks order).
struct DoublingIntervals {
  double unit = 1;            // t_0
  std::vector<int> block;     // per task, its n >= 1
  std::vector<double> opens;  // per block n (index n - 1, up to the last non-empty), tau_{n-1}
};

// `unit` > 0: t_0 in seconds of work (the paper's 1 in its time unit); 0 (the default
// TMarsPlan uses): the smallest positive C_u^LP, so the first block holds the first tasks
// to complete and the blocks do not depend on the time unit (1 when none is positive).
// REQUIRES: a valid instance, one finite value per task.
DoublingIntervals SplitIntoDoublingIntervals(const PlanInstance& instance,
                                             const std::vector<double>& lp_completion,
                                             double unit = 0);

enum class TMarsDriver {
  // The blocks' order (B_1 first, middle time within a block), Graham's rule as the paper
  // states it: whenever a machine is idle, the first available task of the list starts
  // there (DispatchSchedule); no task waits for its window.
  kGraham,
  // The same order, ListSchedule: each task appended on the machine that ends it first.
  kListNoWait,
  // Algorithm 3 as written (Theorem 5's 7-approximation): ListSchedule, and no task of B_n
  // starts before its window opens at tau_{n-1} = t_0 + sum_{k<n} (t_k + a_k), a_k = B_k's
  // work / the machines' total speed (|M| on identical machines): tau_{n-1} >= t_n >=
  // C_u^LP >= r_u, so a block's tasks are released when it opens, and machines idle
  // between windows.
  kWindows,
};

struct TMarsOptions {
  TMarsDriver driver = TMarsDriver::kGraham;
  double unit = 0;  // t_0, as SplitIntoDoublingIntervals
};

// `lp_completion`: C_u^LP per task (FlattenTasks order), S_u^LP + p_u / fastest; the middle
// times are C_u^LP - p_u / (2 fastest). InvalidArgument for an invalid instance, not one
// finite value per task, or a negative unit.
Result<Schedule> TMarsPlan(const PlanInstance& instance, const std::vector<double>& lp_completion,
                           const TMarsOptions& options = {});

}  // namespace mrlocal
