#include "sched/plan/planner.h"

#include <algorithm>

#include "sched/plan/baselines.h"
#include "sched/plan/lp_pgc.h"
#include "sched/plan/mares.h"
#include "sched/plan/mars.h"
#include "sched/plan/t_mars.h"

namespace mrlocal {
namespace {

// REQUIRES: NeedsLp(planner).
Result<Schedule> FromLp(Planner planner, const PlanInstance& instance, const LpBound& lp) {
  if (planner == Planner::kMars) return MarsPlan(instance, LpTaskTimes(instance, lp.start, 0.5));
  if (planner == Planner::kMares) return MaresPlan(instance, LpTaskTimes(instance, lp.start, 1));
  if (planner == Planner::kTMars) return TMarsPlan(instance, LpTaskTimes(instance, lp.start, 1));
  return HMaresPlan(instance, LpTaskTimes(instance, lp.start, 1));
}

// REQUIRES: !NeedsLp(planner).
Result<Schedule> Greedy(Planner planner, const PlanInstance& instance) {
  if (planner == Planner::kHuwf) return HuwfPlan(instance);
  if (planner == Planner::kHjwf) return HjwfPlan(instance);
  if (planner == Planner::kHtwf) return HtwfPlan(instance);
  return StfPlan(instance);
}

// Why an LP cannot be planned from, or empty.
std::string LpFailure(const Result<LpBound>& lp) {
  if (!lp.ok()) return "the LP failed (" + lp.status().message() + ")";
  if (lp->stop == LpStop::kTimeBudget)
    return "the LP ran out of its time budget after " + std::to_string(lp->iterations) + " solves";
  return {};
}

}  // namespace

bool NeedsLp(Planner planner) {
  return planner == Planner::kMars || planner == Planner::kMares || planner == Planner::kHMares ||
         planner == Planner::kTMars;
}

LpObjective PlanningObjective(Planner planner) {
  return planner == Planner::kTMars ? LpObjective::kTaskCompletion : LpObjective::kJobCompletion;
}

Result<LpBound> SolvePlanningLp(const PlanInstance& instance, double budget_s,
                                LpObjective objective) {
  LpBoundOptions options;
  options.objective = objective;
  options.epsilon = 0.3;
  options.time_budget_s = budget_s;
  return SolveLpBound(instance, options);
}

Result<Plan> MakePlan(Planner planner, const PlanInstance& instance, const Result<LpBound>* lp) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  Plan plan;
  Result<Schedule> schedule = Status::Internal("no plan");
  if (!NeedsLp(planner)) {
    schedule = Greedy(planner, instance);
  } else {
    Result<LpBound> solved =
        lp ? *lp : SolvePlanningLp(instance, kPlanningLpBudgetS, PlanningObjective(planner));
    if (std::string why = LpFailure(solved); !why.empty()) {
      const bool tasks = PlanningObjective(planner) == LpObjective::kTaskCompletion;
      plan.note = why + (tasks ? ": planned as HTWF" : ": planned as HUWF");
      schedule = tasks ? HtwfPlan(instance) : HuwfPlan(instance);
    } else {
      schedule = FromLp(planner, instance, *solved);
    }
  }
  if (!schedule.ok()) return schedule.status();
  plan.schedule = std::move(schedule).value();
  return plan;
}

}  // namespace mrlocal
