#include "sched/plan/mars.h"

#include "sched/plan/list_schedule.h"

namespace mrlocal {

Result<Schedule> MarsPlan(const PlanInstance& instance, const std::vector<double>& middle_times) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  Result<std::vector<int>> order = OrderByKey(instance, middle_times, "middle times");
  if (!order.ok()) return order.status();
  return ListSchedule(instance, *order);
}

}  // namespace mrlocal
