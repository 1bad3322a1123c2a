#include "sched/plan/precedence.h"

#include <algorithm>

namespace mrlocal {

Precedence::Precedence(const PlanInstance& instance, const std::vector<PlanTask>& tasks)
    : instance_(instance),
      tasks_(tasks),
      maps_left_(instance.jobs.size()),
      maps_end_(instance.jobs.size(), 0),
      waiting_reduces_(instance.jobs.size()) {
  for (size_t u = 0; u < tasks.size(); ++u) {
    const int j = tasks[u].job;
    if (!tasks[u].reduce) ++maps_left_[j];
    if (tasks[u].reduce && !instance.jobs[j].maps.empty())
      waiting_reduces_[j].push_back(static_cast<int>(u));
    else
      initial_.push_back(static_cast<int>(u));
  }
}

const std::vector<int>& Precedence::Place(int u, double end) {
  const int j = tasks_[u].job;
  if (tasks_[u].reduce) return none_;
  maps_end_[j] = std::max(maps_end_[j], end);
  return --maps_left_[j] == 0 ? waiting_reduces_[j] : none_;
}

double Precedence::Earliest(int u) const {
  const PlanJob& job = instance_.jobs[tasks_[u].job];
  if (!tasks_[u].reduce || job.maps.empty()) return tasks_[u].release;
  return std::max(tasks_[u].release, maps_end_[tasks_[u].job] + job.delay);
}

}  // namespace mrlocal
