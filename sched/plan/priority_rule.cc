#include "sched/plan/priority_rule.h"

#include <cmath>
#include <limits>
#include <string>

namespace mrlocal {

double UnitWeight(const PlanJob& job) {
  double work = 0;
  for (double p : job.maps) work += p;
  for (double p : job.reduces) work += p;
  return work > 0 ? job.weight / work : std::numeric_limits<double>::infinity();
}

double PriorityKey(PriorityRule rule, const PlanJob& job, const PlanTask& task,
                   double task_weight) {
  switch (rule) {
    case PriorityRule::kHighUnitWeight:
      return -UnitWeight(job);
    case PriorityRule::kHighJobWeight:
      return -job.weight;
    case PriorityRule::kHighTaskWeight:
      return -task_weight;
    case PriorityRule::kShortestTask:
      return task.work;
  }
  return 0;
}

Result<std::vector<double>> PriorityKeys(PriorityRule rule, const PlanInstance& instance,
                                         const std::vector<double>& task_weights) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  if (!task_weights.empty() && task_weights.size() != tasks.size())
    return Status::InvalidArgument("task weights: " + std::to_string(task_weights.size()) +
                                   " values for " + std::to_string(tasks.size()) + " tasks");
  for (double w : task_weights)
    if (!(std::isfinite(w) && w > 0))
      return Status::InvalidArgument("task weights: a weight is not a positive number");
  std::vector<double> keys(tasks.size());
  for (size_t u = 0; u < tasks.size(); ++u) {
    const PlanJob& job = instance.jobs[tasks[u].job];
    keys[u] = PriorityKey(rule, job, tasks[u], task_weights.empty() ? job.weight : task_weights[u]);
  }
  return keys;
}

}  // namespace mrlocal
