// One Reverse-Adaptive re-plan: WalkBack (s_fit per job) and EqualUtilityShare (slots per
// job) for 10, 100 and 1,000 jobs, whose goals fall on `periods` distinct times spread
// over a day (periods = jobs: every goal distinct, the worst case). The capacity is a
// daily step profile of 24 hourly availability factors (a web load peaking at noon, down
// to 0.4 of the cluster), on 100 slots at speed 1.0; the capacity function integrates it
// hour by hour, as a forecast would. The jobs' work adds up to 90% of the day's capacity,
// unevenly, so the walk carries work back across periods; each can use 1-64 slots. The
// inputs are the same every iteration. Issue 15's target: <= 1 ms at 100 jobs.
//
//   bench_goal_walk [--benchmark_filter=/100/]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "sched/policy/goal_walk.h"
#include "sched/policy/utility_share.h"

namespace mrlocal {
namespace {

constexpr int kSlots = 100;
constexpr double kHour = 3600, kDay = 24 * kHour;

// Availability in each hour of the day: 1 at night, 0.4 at noon.
std::array<double, 24> DailyFactors() {
  std::array<double, 24> f;
  for (int h = 0; h < 24; ++h)
    f[h] = 1 - 0.6 * std::max(0.0, std::sin(std::numbers::pi * (h - 6) / 12));
  return f;
}

// Work of the slots over [t0, t1): the step profile's integral, hour by hour.
double DailyCapacity(const std::array<double, 24>& factor, Time t0, Time t1) {
  double work = 0;
  for (double t = Seconds(t0), end = Seconds(t1); t < end;) {
    const double hour_end = (std::floor(t / kHour) + 1) * kHour;
    const double to = std::min(hour_end, end);
    work += kSlots * factor[static_cast<int>(std::fmod(t / kHour, 24))] * (to - t);
    t = to;
  }
  return work;
}

std::vector<GoalJob> MakeJobs(int jobs, int periods, double day_capacity) {
  std::vector<GoalJob> out;
  for (int k = 0; k < jobs; ++k) {
    const int period = (k * 7919) % periods;  // goals in no order; distinct when equal
    const double weight = 0.5 + (k * 104729 % 100) / 100.0;  // 0.5-1.5, mean ~1
    out.push_back({static_cast<JobId>(k + 1), FromSeconds((period + 1) * kDay / periods),
                   0.9 * day_capacity / jobs * weight, 1 + (k * 13) % 64});
  }
  return out;
}

void BM_Replan(benchmark::State& bench) {
  const int jobs = static_cast<int>(bench.range(0));
  const int periods = static_cast<int>(bench.range(1));
  const std::array<double, 24> factor = DailyFactors();
  auto capacity = [&factor](Time t0, Time t1) { return DailyCapacity(factor, t0, t1); };
  const std::vector<GoalJob> goal_jobs =
      MakeJobs(jobs, periods, capacity(Time{0}, FromSeconds(kDay)));
  std::vector<SlotDemand> demands(goal_jobs.size());
  int sum_fit = 0;
  for (auto _ : bench) {
    const GoalWalk walk = WalkBack(goal_jobs, Time{0}, kSlots, capacity);
    sum_fit = 0;
    for (size_t j = 0; j < demands.size(); ++j) {
      demands[j] = {walk.jobs[j].s_fit, goal_jobs[j].max_parallel};
      sum_fit += walk.jobs[j].s_fit;
    }
    std::vector<int> share = EqualUtilityShare(demands, kSlots);
    benchmark::DoNotOptimize(share.data());
  }
  bench.counters["sum_s_fit"] = sum_fit;  // how loaded the first period is (slots: 100)
}
BENCHMARK(BM_Replan)
    ->ArgNames({"jobs", "periods"})
    ->Args({10, 10})
    ->Args({100, 10})
    ->Args({100, 100})
    ->Args({1000, 10})
    ->Args({1000, 100})
    ->Args({1000, 1000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
