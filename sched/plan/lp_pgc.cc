#include "sched/plan/lp_pgc.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mrlocal {
namespace {

// CLP meets each row to about 1e-7 of its scaled size; a PGC is only violated beyond
// that, or COGE would add rows the LP already holds.
constexpr double kRelativeTolerance = 1e-6;

double Tolerance(double bound) { return kRelativeTolerance * std::max(1.0, std::abs(bound)); }

}  // namespace

LpMachines LpMachinesOf(const PlanInstance& instance) {
  const std::vector<double>& s = instance.machine_speeds;
  return {std::accumulate(s.begin(), s.end(), 0.0), *std::min_element(s.begin(), s.end()),
          *std::max_element(s.begin(), s.end())};
}

double PrefixBound(const LpMachines& machines, double work, double squares) {
  return work * work / (2 * machines.total_speed) - squares / (2 * machines.slowest);
}

std::vector<double> LpTaskTimes(const PlanInstance& instance, const std::vector<double>& start,
                                double share) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const double fastest = LpMachinesOf(instance).fastest;
  std::vector<double> times(tasks.size());
  for (size_t u = 0; u < tasks.size(); ++u) times[u] = start[u] + share * tasks[u].work / fastest;
  return times;
}

std::vector<int> MiddleTimeOrder(const PlanInstance& instance, const std::vector<double>& start) {
  const std::vector<double> middle = LpTaskTimes(instance, start, 0.5);
  std::vector<int> order(middle.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return middle[a] < middle[b]; });
  return order;
}

bool PrefixSides::Violated() const { return sum < bound - Tolerance(bound); }

std::vector<PrefixSides> PrefixSidesAt(const PlanInstance& instance, const std::vector<int>& order,
                                       const std::vector<double>& start) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const LpMachines machines = LpMachinesOf(instance);
  std::vector<PrefixSides> sides;
  double sum = 0, work = 0, squares = 0;
  for (int u : order) {
    const double p = tasks[u].work;
    sum += p * start[u];
    work += p;
    squares += p * p;
    sides.push_back({sum, PrefixBound(machines, work, squares)});
  }
  return sides;
}

std::vector<int> ViolatedPrefixes(const PlanInstance& instance, const std::vector<int>& order,
                                  const std::vector<double>& start) {
  const std::vector<PrefixSides> sides = PrefixSidesAt(instance, order, start);
  return WorstViolatedPerRun(sides, std::max<int>(1, static_cast<int>(sides.size())));
}

std::vector<int> WorstViolatedPerRun(const std::vector<PrefixSides>& sides, int max_batch) {
  std::vector<int> violated;
  for (int k = 1; k <= static_cast<int>(sides.size()); ++k)
    if (sides[k - 1].Violated()) violated.push_back(k);
  const size_t run = (violated.size() + max_batch - 1) / max_batch;
  if (run <= 1) return violated;
  auto deficit = [&](int k) { return sides[k - 1].bound - sides[k - 1].sum; };
  std::vector<int> batch;
  for (size_t i = 0; i < violated.size(); ++i) {
    if (i % run == 0)
      batch.push_back(violated[i]);
    else if (deficit(violated[i]) > deficit(batch.back()))
      batch.back() = violated[i];
  }
  return batch;
}

std::vector<double> NoViolationStarts(const PlanInstance& instance, const std::vector<int>& order,
                                      const std::vector<double>& start) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const LpMachines machines = LpMachinesOf(instance);
  std::vector<double> moved = start;
  double shift = 0, sum = 0, work = 0, squares = 0;
  for (int u : order) {
    const double p = tasks[u].work;
    moved[u] += shift;
    sum += p * moved[u];
    work += p;
    squares += p * p;
    const double bound = PrefixBound(machines, work, squares);
    // A prefix ending in a zero-work task has the previous prefix's sums: it holds already.
    if (p > 0 && PrefixSides{sum, bound}.Violated()) {
      const double offset = (bound - sum) / p;
      moved[u] += offset;
      shift += offset;
      sum = bound;
    }
  }
  return moved;
}

std::vector<double> LpCompletions(const PlanInstance& instance, const std::vector<double>& start) {
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const std::vector<double> end = LpTaskTimes(instance, start, 1);
  std::vector<double> done(instance.jobs.size());
  for (size_t j = 0; j < done.size(); ++j) done[j] = instance.jobs[j].release;
  for (size_t u = 0; u < tasks.size(); ++u)
    done[tasks[u].job] = std::max(done[tasks[u].job], end[u]);
  return done;
}

double WeightedSum(const PlanInstance& instance, const std::vector<double>& completion) {
  double sum = 0;
  for (size_t j = 0; j < completion.size(); ++j) sum += instance.jobs[j].weight * completion[j];
  return sum;
}

double ObjectiveAt(const PlanInstance& instance, LpObjective objective,
                   const std::vector<double>& start) {
  if (objective == LpObjective::kJobCompletion)
    return WeightedSum(instance, LpCompletions(instance, start));
  const std::vector<PlanTask> tasks = FlattenTasks(instance);
  const std::vector<double> end = LpTaskTimes(instance, start, 1);
  double sum = 0;
  for (size_t u = 0; u < tasks.size(); ++u) sum += tasks[u].weight * end[u];
  return sum;
}

}  // namespace mrlocal
