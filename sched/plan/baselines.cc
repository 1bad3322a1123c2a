#include "sched/plan/baselines.h"

#include "sched/plan/dispatch.h"
#include "sched/plan/list_schedule.h"
#include "sched/plan/priority_rule.h"

namespace mrlocal {
namespace {

Result<Schedule> ListByRule(const PlanInstance& instance, PriorityRule rule) {
  Result<std::vector<double>> keys = PriorityKeys(rule, instance);
  if (!keys.ok()) return keys.status();
  Result<std::vector<int>> order = OrderByKey(instance, *keys, "priority keys");
  if (!order.ok()) return order.status();
  return ListSchedule(instance, *order);
}

}  // namespace

Result<Schedule> HuwfPlan(const PlanInstance& instance) {
  return ListByRule(instance, PriorityRule::kHighUnitWeight);
}

Result<Schedule> HjwfPlan(const PlanInstance& instance) {
  return ListByRule(instance, PriorityRule::kHighJobWeight);
}

Result<Schedule> HtwfPlan(const PlanInstance& instance) {
  return ListByRule(instance, PriorityRule::kHighTaskWeight);
}

Result<Schedule> StfPlan(const PlanInstance& instance) {
  Result<std::vector<double>> keys = PriorityKeys(PriorityRule::kShortestTask, instance);
  if (!keys.ok()) return keys.status();
  return DispatchSchedule(instance, *keys, "priority keys");
}

}  // namespace mrlocal
