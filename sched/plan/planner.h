// The offline planners a policy can follow (sched/policy/plan_policy.h), by kind: each
// turns an instance into a Schedule. MarS, MARES and H-MARES plan from MarS's LP (COGE,
// epsilon 0.3, the paper's), T-MarS from the task-level LP (sum_u W_u C_u, section 4.4),
// each solved within a time budget, so that a plan never waits for an LP without end. When
// CLP fails they plan as HUWF instead (T-MarS as HTWF, the better greedy on TWTCT:
// sched/plan/README.md); when the budget runs out, as the better of the last LP solved and
// that greedy rule (the last LP may hold few PGCs). The plan's note says which.
#pragma once

#include <string>

#include "engine/status.h"
#include "sched/plan/instance.h"
#include "sched/plan/lp_bound.h"

namespace mrlocal {

enum class Planner {
  kMars,    // Algorithm 2: LP middle times, list scheduling (mars.h)
  kMares,   // MARES: LP completion times on balanced machines, none before C_u^LP (mares.h)
  kHMares,  // H-MARES: the same without MARES's wait (mares.h)
  kHuwf,    // highest unit weight first (baselines.h)
  kHjwf,    // highest job weight first
  kHtwf,    // highest task weight first: the instance's tasks carry their job's weight
  kStf,     // shortest task first, the dispatch rule's plan (DispatchSchedule)
  kTMars,   // Algorithm 3: the task-level LP's completions in doubling intervals (t_mars.h)
};

// Whether the planner needs an LP, and which objective it minimises: the task-level
// sum_u W_u C_u for T-MarS, sum_j w_j C_j for the others.
bool NeedsLp(Planner planner);
LpObjective PlanningObjective(Planner planner);

// Wall-clock seconds the planners give the LP: past them they plan from the last LP solved
// or as HUWF (or HTWF), whichever plan is better.
inline constexpr double kPlanningLpBudgetS = 10;

// The LP as the planners use it: COGE to the epsilon stop (0.3) within `budget_s`
// (SolveLpBound's result; its `stop` says whether the budget ran out first, and its
// `bound` is a lower bound either way), of `objective`: a bound on TWJCT or on TWTCT.
Result<LpBound> SolvePlanningLp(const PlanInstance& instance, double budget_s = kPlanningLpBudgetS,
                                LpObjective objective = LpObjective::kJobCompletion);

struct Plan {
  Schedule schedule;
  // Empty, or why the plan is not the planner's own: the LP failed (the greedy rule's plan
  // instead), or ran out of its budget (the better of its last LP's plan and the greedy
  // rule's).
  std::string note;
  bool fell_back = false;  // the greedy rule's plan (HUWF; HTWF for T-MarS)
};

// `lp`: the instance's SolvePlanningLp, if the caller has it: a planner plans from the LP
// it is given (of PlanningObjective(planner) as the policies pass it; H-MARES from the
// task-level LP in the paper's Figs. 15-16); null: PlanningObjective's LP, solved here
// when needed. InvalidArgument (ValidateInstance's message) for an invalid instance.
Result<Plan> MakePlan(Planner planner, const PlanInstance& instance,
                      const Result<LpBound>* lp = nullptr);

}  // namespace mrlocal
