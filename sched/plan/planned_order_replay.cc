#include "sched/plan/planned_order_replay.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace mrlocal {

Result<Schedule> ReplayInPlannedOrder(const PlanInstance& actual, const Schedule& plan,
                                      PlannedStarts starts) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(actual));
  const std::vector<PlanTask> tasks = FlattenTasks(actual);
  const std::vector<double>& speeds = actual.machine_speeds;
  if (plan.machine.size() != tasks.size() || plan.start.size() != tasks.size())
    return Status::InvalidArgument("plan: not one machine and start per task (" +
                                   std::to_string(tasks.size()) + " tasks)");
  for (size_t u = 0; u < tasks.size(); ++u)
    if (plan.machine[u] < 0 || static_cast<size_t>(plan.machine[u]) >= speeds.size() ||
        !std::isfinite(plan.start[u]))
      return Status::InvalidArgument("plan: task " + std::to_string(u) +
                                     " has no machine or no finite start");

  // In planned-start order, a task's machine predecessors and its job's maps (which a
  // feasible plan starts earlier) are placed before it.
  std::vector<int> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return plan.start[a] < plan.start[b]; });
  std::vector<double> idle = actual.machine_free;
  idle.resize(speeds.size(), 0);
  std::vector<double> maps_end(actual.jobs.size(), -1);  // -1: no map ended yet
  Schedule s{plan.machine, std::vector<double>(tasks.size())};
  for (int u : order) {
    const PlanTask& t = tasks[u];
    const int m = plan.machine[u];
    double start = std::max(idle[m], t.release);
    if (starts == PlannedStarts::kWait) start = std::max(start, plan.start[u]);
    if (t.reduce && maps_end[t.job] >= 0)
      start = std::max(start, maps_end[t.job] + actual.jobs[t.job].delay);
    s.start[u] = start;
    idle[m] = start + t.work / speeds[m];
    if (!t.reduce) maps_end[t.job] = std::max(maps_end[t.job], idle[m]);
  }
  return s;
}

}  // namespace mrlocal
