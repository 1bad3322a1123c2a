#include "sched/plan/dispatch.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "sched/plan/list_schedule.h"
#include "sched/plan/precedence.h"

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

  MinHeap pending;  // (earliest start, task): predecessors placed, maybe not yet available
  MinHeap ready;    // (key, task): available at `now`
  Precedence precedence(instance, tasks);
  for (int u : precedence.Initial()) pending.push({precedence.Earliest(u), u});

  Schedule s{std::vector<int>(tasks.size()), std::vector<double>(tasks.size())};
  std::vector<double> idle = instance.machine_free;
  idle.resize(speeds.size(), 0);
  double now = 0;
  for (size_t placed = 0; placed < tasks.size(); ++placed) {
    now = std::max(now, *std::min_element(idle.begin(), idle.end()));
    if (ready.empty()) now = std::max(now, pending.top().first);
    for (; !pending.empty() && pending.top().first <= now; pending.pop())
      ready.push({key[pending.top().second], pending.top().second});
    const int u = ready.top().second;
    ready.pop();
    const int m = EarliestFinishMachine(speeds, idle, now, tasks[u].work);
    s.machine[u] = m;
    s.start[u] = std::max(now, idle[m]);
    idle[m] = s.start[u] + tasks[u].work / speeds[m];
    for (int r : precedence.Place(u, idle[m])) pending.push({precedence.Earliest(r), r});
  }
  return s;
}

}  // namespace mrlocal
