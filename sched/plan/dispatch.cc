#include "sched/plan/dispatch.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "sched/plan/list_schedule.h"

namespace mrlocal {
namespace {

// (time or key, task): the smallest first, ties to the lower task index.
using Entry = std::pair<double, int>;
using MinHeap = std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

}  // namespace

Result<Schedule> DispatchSchedule(const PlanInstance& instance, const std::vector<double>& key,
                                  const char* what) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  // OrderByKey checks `key`; the order itself is not needed.
  MRLOCAL_RETURN_IF_ERROR(OrderByKey(instance, key, what).status());
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const std::vector<double>& speeds = instance.machine_speeds;

  MinHeap pending;  // (ready time, task): predecessors placed, maybe not yet available
  MinHeap ready;    // (key, task): available at `now`
  std::vector<int> maps_left(instance.jobs.size());
  std::vector<double> maps_end(instance.jobs.size(), 0);
  std::vector<std::vector<int>> waiting_reduces(instance.jobs.size());
  for (size_t u = 0; u < tasks.size(); ++u) {
    const int j = tasks[u].job;
    if (!tasks[u].reduce) ++maps_left[j];
    if (tasks[u].reduce && !instance.jobs[j].maps.empty())
      waiting_reduces[j].push_back(static_cast<int>(u));
    else
      pending.push({instance.jobs[j].release, static_cast<int>(u)});
  }

  Schedule s{std::vector<int>(tasks.size()), std::vector<double>(tasks.size())};
  std::vector<double> idle(speeds.size(), 0);
  double now = 0;
  for (size_t placed = 0; placed < tasks.size(); ++placed) {
    now = std::max(now, *std::min_element(idle.begin(), idle.end()));
    if (ready.empty()) now = std::max(now, pending.top().first);
    for (; !pending.empty() && pending.top().first <= now; pending.pop())
      ready.push({key[pending.top().second], pending.top().second});
    const int u = ready.top().second;
    ready.pop();
    const PlanTask& task = tasks[u];
    const int m = EarliestFinishMachine(speeds, idle, now, task.work);
    s.machine[u] = m;
    s.start[u] = std::max(now, idle[m]);
    idle[m] = s.start[u] + task.work / speeds[m];
    if (task.reduce) continue;
    maps_end[task.job] = std::max(maps_end[task.job], idle[m]);
    if (--maps_left[task.job] > 0) continue;
    const PlanJob& job = instance.jobs[task.job];
    for (int r : waiting_reduces[task.job])
      pending.push({std::max(job.release, maps_end[task.job] + job.delay), r});
  }
  return s;
}

}  // namespace mrlocal
