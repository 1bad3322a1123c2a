#include "sched/plan/priority_rule.h"

#include <limits>
#include <string>

namespace mrlocal {

double UnitWeight(const PlanJob& job) {
  double work = 0;
  for (double p : job.maps) work += p;
  for (double p : job.reduces) work += p;
  return work > 0 ? job.weight / work : std::numeric_limits<double>::infinity();
}

double PriorityKey(PriorityRule rule, const PlanJob& job, const PlanTask& task) {
  switch (rule) {
    case PriorityRule::kHighUnitWeight:
      return -UnitWeight(job);
    case PriorityRule::kHighJobWeight:
      return -job.weight;
    case PriorityRule::kHighTaskWeight:
      return -task.weight;
    case PriorityRule::kShortestTask:
      return task.work;
  }
  return 0;
}

Result<std::vector<double>> PriorityKeys(PriorityRule rule, const PlanInstance& instance) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  std::vector<double> keys(tasks.size());
  for (size_t u = 0; u < tasks.size(); ++u)
    keys[u] = PriorityKey(rule, instance.jobs[tasks[u].job], tasks[u]);
  return keys;
}

}  // namespace mrlocal
