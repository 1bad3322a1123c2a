#include "sched/plan/t_mars.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sched/plan/dispatch.h"
#include "sched/plan/list_schedule.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

double SmallestPositive(const std::vector<double>& times) {
  double smallest = 0;
  for (double t : times)
    if (t > 0 && (smallest == 0 || t < smallest)) smallest = t;
  return smallest > 0 ? smallest : 1;
}

}  // namespace

DoublingIntervals SplitIntoDoublingIntervals(const PlanInstance& instance,
                                             const std::vector<double>& lp_completion,
                                             double unit) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  DoublingIntervals d;
  d.unit = unit > 0 ? unit : SmallestPositive(lp_completion);
  d.block.resize(tasks.size());
  std::vector<double> work;  // per block, its tasks' work
  for (size_t u = 0; u < tasks.size(); ++u) {
    int n = 1;  // Algorithm 3, line 8: n = ceil(log2 C_u^LP) + 1, by doubling (no rounding)
    for (double t = d.unit; lp_completion[u] > t; t *= 2) ++n;
    d.block[u] = n;
    if (work.size() < static_cast<size_t>(n)) work.resize(n, 0);
    work[n - 1] += tasks[u].work;
  }
  const double total_speed = LpMachinesOf(instance).total_speed;
  double opens = d.unit;  // tau_0 = t_0
  for (size_t k = 1; k <= work.size(); ++k) {
    d.opens.push_back(opens);
    opens += d.unit * std::ldexp(1.0, static_cast<int>(k) - 1) + work[k - 1] / total_speed;
  }
  return d;
}

Result<Schedule> TMarsPlan(const PlanInstance& instance, const std::vector<double>& lp_completion,
                           const TMarsOptions& options) {
  MRLOCAL_RETURN_IF_ERROR(ValidateInstance(instance));
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  if (lp_completion.size() != tasks.size())
    return Status::InvalidArgument("LP completion times: " + std::to_string(lp_completion.size()) +
                                   " values for " + std::to_string(tasks.size()) + " tasks");
  for (double c : lp_completion)
    if (!std::isfinite(c))
      return Status::InvalidArgument("LP completion times: a value is not a finite number");
  if (!(options.unit >= 0)) return Status::InvalidArgument("T-MarS unit: not a time >= 0");

  const DoublingIntervals d = SplitIntoDoublingIntervals(instance, lp_completion, options.unit);
  const double fastest = LpMachinesOf(instance).fastest;
  std::vector<int> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  auto middle = [&](int u) { return lp_completion[u] - tasks[u].work / (2 * fastest); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return d.block[a] != d.block[b] ? d.block[a] < d.block[b] : middle(a) < middle(b);
  });
  if (options.driver == TMarsDriver::kGraham) {
    std::vector<double> rank(tasks.size());
    for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<double>(i);
    return DispatchSchedule(instance, rank, "T-MarS order");
  }
  ListOptions list;
  if (options.driver == TMarsDriver::kWindows)
    for (int n : d.block) list.not_before.push_back(d.opens[n - 1]);
  return ListSchedule(instance, order, list);
}

}  // namespace mrlocal
