#include "sched/plan/list_schedule.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <string>

#include "sched/plan/precedence.h"

namespace mrlocal {
namespace {

Status CountMismatch(const char* what, size_t given, size_t tasks) {
  return Status::InvalidArgument(std::string(what) + ": " + std::to_string(given) + " values for " +
                                 std::to_string(tasks) + " tasks");
}

Status CheckOrder(const std::vector<int>& order, size_t tasks) {
  if (order.size() != tasks) return CountMismatch("order", order.size(), tasks);
  std::vector<bool> seen(tasks, false);
  for (int u : order) {
    if (u < 0 || static_cast<size_t>(u) >= tasks || seen[u])
      return Status::InvalidArgument("order: not a permutation of the tasks (task " +
                                     std::to_string(u) + ")");
    seen[u] = true;
  }
  return Status::OK();
}

Status CheckOptions(const ListOptions& options, size_t tasks, size_t machines) {
  if (!options.machine.empty()) {
    if (options.machine.size() != tasks)
      return CountMismatch("machine", options.machine.size(), tasks);
    for (int m : options.machine)
      if (m < 0 || static_cast<size_t>(m) >= machines)
        return Status::InvalidArgument("machine: no machine " + std::to_string(m));
  }
  if (!options.not_before.empty()) {
    if (options.not_before.size() != tasks)
      return CountMismatch("not_before", options.not_before.size(), tasks);
    for (double t : options.not_before)
      if (!(std::isfinite(t) && t >= 0))
        return Status::InvalidArgument("not_before: a time is not a number >= 0");
  }
  return Status::OK();
}

}  // namespace

int EarliestFinishMachine(const std::vector<double>& speeds, const std::vector<double>& idle,
                          double ready, double work) {
  int best = 0;
  double best_end = 0;
  for (size_t m = 0; m < speeds.size(); ++m) {
    const double end = std::max(ready, idle[m]) + work / speeds[m];
    if (m == 0 || end < best_end || (end == best_end && idle[m] < idle[best])) {
      best = static_cast<int>(m);
      best_end = end;
    }
  }
  return best;
}

Result<Schedule> ListSchedule(const PlanInstance& instance, const std::vector<int>& order,
                              const ListOptions& options) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const std::vector<double>& speeds = instance.machine_speeds;
  MRLOCAL_RETURN_IF_ERROR(CheckOrder(order, tasks.size()));
  MRLOCAL_RETURN_IF_ERROR(CheckOptions(options, tasks.size(), speeds.size()));

  std::vector<int> rank(tasks.size());
  for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<int>(i);
  // The ranks of the tasks whose predecessors are placed, smallest (highest priority) on top.
  std::priority_queue<int, std::vector<int>, std::greater<int>> available;
  Precedence precedence(instance, tasks);
  for (int u : precedence.Initial()) available.push(rank[u]);

  Schedule s{std::vector<int>(tasks.size()), std::vector<double>(tasks.size())};
  std::vector<double> idle = instance.machine_free;
  idle.resize(speeds.size(), 0);
  while (!available.empty()) {
    const int u = order[available.top()];
    available.pop();
    double earliest = precedence.Earliest(u);
    if (!options.not_before.empty()) earliest = std::max(earliest, options.not_before[u]);
    const int m = options.machine.empty()
                      ? EarliestFinishMachine(speeds, idle, earliest, tasks[u].work)
                      : options.machine[u];
    s.machine[u] = m;
    s.start[u] = std::max(earliest, idle[m]);
    idle[m] = s.start[u] + tasks[u].work / speeds[m];
    for (int r : precedence.Place(u, idle[m])) available.push(rank[r]);
  }
  return s;
}

Result<std::vector<int>> OrderByKey(const PlanInstance& instance, const std::vector<double>& key,
                                    const char* what) {
  const size_t tasks = FlattenTasks(instance).size();
  if (key.size() != tasks) return CountMismatch(what, key.size(), tasks);
  for (double k : key)
    if (std::isnan(k)) return Status::InvalidArgument(std::string(what) + ": a value is NaN");
  std::vector<int> order(tasks);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  return order;
}

}  // namespace mrlocal
