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

// The planner's objective of `schedule`: sum_j w_j C_j, or sum_u W_u C_u for T-MarS.
double Objective(Planner planner, const PlanInstance& instance, const Schedule& schedule) {
  return PlanningObjective(planner) == LpObjective::kTaskCompletion
             ? WeightedTaskCompletion(instance, schedule)
             : WeightedCompletion(instance, schedule);
}

// When the LP ran out of its budget, its last solution is short of the epsilon stop (after
// one solve it has no PGC at all): plan from it and by the greedy rule, keep the better.
Result<Plan> BetterOfLastLpAndGreedy(Planner planner, const PlanInstance& instance,
                                     const LpBound& lp) {
  const bool tasks = PlanningObjective(planner) == LpObjective::kTaskCompletion;
  const char* greedy_name = tasks ? "HTWF" : "HUWF";
  Result<Schedule> from_lp = FromLp(planner, instance, lp);
  Result<Schedule> greedy = tasks ? HtwfPlan(instance) : HuwfPlan(instance);
  if (!from_lp.ok()) return from_lp.status();
  if (!greedy.ok()) return greedy.status();
  Plan plan;
  const std::string why =
      "the LP ran out of its time budget after " + std::to_string(lp.iterations) + " solves";
  if (Objective(planner, instance, *greedy) < Objective(planner, instance, *from_lp)) {
    plan.schedule = std::move(greedy).value();
    plan.fell_back = true;
    plan.note = why + ": planned as " + greedy_name + " (better than its last LP's plan)";
  } else {
    plan.schedule = std::move(from_lp).value();
    plan.note = why + ": planned from its last LP (better than " + greedy_name + "'s plan)";
  }
  return plan;
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
    if (!solved.ok()) {
      const bool tasks = PlanningObjective(planner) == LpObjective::kTaskCompletion;
      plan.note = "the LP failed (" + solved.status().message() +
                  (tasks ? "): planned as HTWF" : "): planned as HUWF");
      plan.fell_back = true;
      schedule = tasks ? HtwfPlan(instance) : HuwfPlan(instance);
    } else if (solved->stop == LpStop::kTimeBudget) {
      return BetterOfLastLpAndGreedy(planner, instance, *solved);
    } else {
      schedule = FromLp(planner, instance, *solved);
    }
  }
  if (!schedule.ok()) return schedule.status();
  plan.schedule = std::move(schedule).value();
  return plan;
}

}  // namespace mrlocal
