#include "sched/plan/baselines.h"

#include "sched/plan/dispatch.h"
#include "sched/plan/list_schedule.h"
#include "sched/plan/priority_rule.h"

namespace mrlocal {
namespace {

Result<Schedule> ListByRule(const PlanInstance& instance, PriorityRule rule,
                            const std::vector<double>& task_weights = {}) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  Result<std::vector<double>> keys = PriorityKeys(rule, instance, task_weights);
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

Result<Schedule> HtwfPlan(const PlanInstance& instance, const std::vector<double>& task_weights) {
  return ListByRule(instance, PriorityRule::kHighTaskWeight, task_weights);
}

Result<Schedule> StfPlan(const PlanInstance& instance) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  Result<std::vector<double>> keys = PriorityKeys(PriorityRule::kShortestTask, instance);
  if (!keys.ok()) return keys.status();
  return DispatchSchedule(instance, *keys, "priority keys");
}

}  // namespace mrlocal
