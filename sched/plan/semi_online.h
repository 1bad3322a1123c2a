// SO-MarS, MarS's semi-online scheme (Ling et al. 2016, section 5.3): a job is known only
// from its release. "During a batch interval, when a new job arrives ... when the batch
// interval is finished ... run MarS": at each boundary k*B at which jobs were released
// since the last plan, the jobs present (released by then, with a task not yet started)
// are planned again from that instant, and the plan is followed until the next such
// boundary. A boundary without new jobs keeps the plan (nothing new to plan for).
//
// A re-plan keeps what has started (RemainderAt): a started task stays where it runs, a
// machine is free once its running task ends (PlanInstance::machine_free), a reduce whose
// job's maps have started waits for their end plus the delay (task_releases), and nothing
// starts before the boundary. The same step serves the offline scheme (SemiOnlinePlan, the
// instance taken as the truth) and the so-mars policy (sched/policy/so_mars_policy.h, on
// what the cluster shows).
#pragma once

#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"
#include "sched/plan/planner.h"

namespace mrlocal {

// Where a task stands at a re-plan.
struct TaskProgress {
  bool started = false;  // running or done: not planned again
  int machine = -1;      // when started: where (-1: not known, holds up no machine)
  double end = 0;        // when started: its end, expected if it still runs
};

// The part of an instance left to plan at `at`.
struct Remainder {
  double at = 0;
  // The present jobs' tasks not started, each job released at `at` (weights, delays and
  // names kept), on the same machines.
  PlanInstance instance;
  std::vector<int> task;  // per task of `instance` (FlattenTasks order): its task in the whole
  std::vector<int> job;   // per job of `instance`: its job in the whole
};

// REQUIRES: `present` has one entry per job of `whole`, `progress` one per task
// (FlattenTasks order). Reads the jobs that are present only: a job not yet released is
// none of the re-plan's business. A present job whose tasks have all started is left out.
Remainder RemainderAt(const PlanInstance& whole, const std::vector<bool>& present,
                      const std::vector<TaskProgress>& progress, double now);

// What one re-plan did.
struct ReplanRecord {
  double at = 0;               // the boundary
  int jobs = 0, tasks = 0;     // planned
  std::vector<int> planned;    // the jobs planned, by their index in the whole instance
  double lp_seconds = 0;       // wall clock of its LP; 0 when the planner needs none
  bool out_of_budget = false;  // the LP ran out of its budget (planner.h: the better plan)
  bool fell_back = false;      // planned as HUWF: the LP failed, or HUWF beat its last LP
};

struct Replanned {
  Schedule schedule;  // of the remainder's instance
  ReplanRecord record;
};

// Plans `remainder` with `planner` within `lp_budget_s` of wall clock for the LP (when it
// runs out, the better of its last LP's plan and HUWF's, planner.h). The planner sees the remainder
// with its clock starting at `at`: the paper's epsilon stop (epsilon_on_absolute_objective,
// lp_bound.h) compares completion times, and measured from 0 a late boundary would add the same
// constant to every job and stop COGE at its first LP; the default stop does not need this.
Result<Replanned> Replan(Planner planner, const Remainder& remainder, double lp_budget_s);

// The LP budget of a re-plan every `batch_interval_s`: kPlanningLpBudgetS, and at most half
// the interval, so that a plan is ready long before the next boundary.
double SemiOnlineLpBudget(double batch_interval_s);

struct SemiOnlineOptions {
  double batch_interval = 50;  // B, seconds > 0 (the paper's Fig. 17: 10 to 100)
  Planner planner = Planner::kMars;
  double lp_budget_s = kPlanningLpBudgetS;  // per re-plan, >= 0
};

struct SemiOnlineRun {
  Schedule schedule;  // of the whole instance, feasible (CheckSchedule)
  std::vector<ReplanRecord> replans;
};

// The scheme run over `instance` as the truth: what SO-MarS (or the planner in its place)
// would do, every task taking its work. InvalidArgument for an invalid instance or options.
Result<SemiOnlineRun> SemiOnlinePlan(const PlanInstance& instance,
                                     const SemiOnlineOptions& options = {});

}  // namespace mrlocal
