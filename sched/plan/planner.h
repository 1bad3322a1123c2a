// The offline planners a policy can follow (sched/policy/plan_policy.h), by kind: each
// turns an instance into a Schedule. MarS, MARES and H-MARES plan from MarS's LP (COGE,
// epsilon 0.3, the paper's) solved within a time budget; when CLP fails or the budget runs
// out they plan as HUWF instead, and say so in the plan's note, so that a plan never
// waits for an LP without end.
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
};

// Whether the planner needs MarS's LP.
bool NeedsLp(Planner planner);

// Wall-clock seconds the planners give the LP: past them they plan as HUWF.
inline constexpr double kPlanningLpBudgetS = 10;

// MarS's LP as the planners use it: COGE to the epsilon stop (0.3) within `budget_s`
// (SolveLpBound's result; its `stop` says whether the budget ran out first, and its
// `bound` is a lower bound either way).
Result<LpBound> SolvePlanningLp(const PlanInstance& instance, double budget_s = kPlanningLpBudgetS);

struct Plan {
  Schedule schedule;
  // Empty, or why the plan is not the planner's own (the LP failed: HUWF's plan instead).
  std::string note;
};

// `lp`: the instance's SolvePlanningLp, if the caller has it; null: solved here when
// needed. InvalidArgument (ValidateInstance's message) for an invalid instance.
Result<Plan> MakePlan(Planner planner, const PlanInstance& instance,
                      const Result<LpBound>* lp = nullptr);

}  // namespace mrlocal
