#include "sched/plan/mares.h"

#include <cmath>

#include "sched/plan/list_schedule.h"

namespace mrlocal {
namespace {

Result<Schedule> PreAssigned(const PlanInstance& instance, const std::vector<double>& lp_completion,
                             bool wait_for_lp) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  Result<std::vector<int>> order = OrderByKey(instance, lp_completion, "LP completion times");
  if (!order.ok()) return order.status();
  if (wait_for_lp)
    for (double c : lp_completion)
      if (!(std::isfinite(c) && c >= 0))
        return Status::InvalidArgument("LP completion times: a value is not a time >= 0");
  ListOptions options;
  options.machine = BalancedAssignment(instance, *order);
  if (wait_for_lp) options.not_before = lp_completion;
  return ListSchedule(instance, *order, options);
}

}  // namespace

std::vector<int> BalancedAssignment(const PlanInstance& instance, const std::vector<int>& order) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const std::vector<double>& speeds = instance.machine_speeds;
  std::vector<double> load(speeds.size(), 0);
  std::vector<int> machine(tasks.size());
  for (int u : order) {
    size_t best = 0;
    for (size_t m = 1; m < speeds.size(); ++m)
      if (load[m] + tasks[u].work / speeds[m] < load[best] + tasks[u].work / speeds[best]) best = m;
    machine[u] = static_cast<int>(best);
    load[best] += tasks[u].work / speeds[best];
  }
  return machine;
}

Result<Schedule> MaresPlan(const PlanInstance& instance, const std::vector<double>& lp_completion) {
  return PreAssigned(instance, lp_completion, /*wait_for_lp=*/true);
}

Result<Schedule> HMaresPlan(const PlanInstance& instance,
                            const std::vector<double>& lp_completion) {
  return PreAssigned(instance, lp_completion, /*wait_for_lp=*/false);
}

}  // namespace mrlocal
