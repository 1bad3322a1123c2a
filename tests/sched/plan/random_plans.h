// Test helpers for the LP bound: a hand-solved instance, small random MSJO instances, and a
// feasible schedule of any instance to compare bounds with (the simplest list schedule,
// not MarS's).
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "sched/plan/instance.h"

namespace mrlocal::testing_plan {

// One machine; job 0: map a = 1, reduce b = 2; job 1: map c = 3; weights 1, no delay.
// Tasks a, b, c are 0, 1, 2.
inline PlanInstance OneMachine() {
  PlanInstance in;
  in.machine_speeds = {1.0};
  in.jobs.push_back({0, 1, 0, {1}, {2}});
  in.jobs.push_back({0, 1, 0, {3}, {}});
  return in;
}

// 1-3 machines of speed 0.5, 1 or 2 (all 1.0 when `identical`), 1-5 jobs of 0-4 maps and
// 0-3 reduces (at least one task), works in [0, 10) with some exactly 0, releases, delays.
inline PlanInstance RandomInstance(unsigned seed, bool identical) {
  std::mt19937 rng(seed);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto count = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto work = [&] { return count(0, 5) == 0 ? 0.0 : uniform(0.1, 10); };
  PlanInstance in;
  const double speeds[] = {0.5, 1.0, 2.0};
  for (int m = count(1, 3); m > 0; --m)
    in.machine_speeds.push_back(identical ? 1.0 : speeds[count(0, 2)]);
  for (int j = count(1, 5); j > 0; --j) {
    PlanJob job{.release = count(0, 1) ? 0 : uniform(0, 10),
                .weight = uniform(0.5, 5),
                .delay = count(0, 1) ? 0 : uniform(0, 3),
                .maps = {},
                .reduces = {}};
    for (int k = count(0, 4); k > 0; --k) job.maps.push_back(work());
    for (int k = count(job.maps.empty() ? 1 : 0, 3); k > 0; --k) job.reduces.push_back(work());
    in.jobs.push_back(job);
  }
  return in;
}

// Jobs by release, each task on the machine where it ends first: maps from the release,
// reduces from the job's maps' end plus its delay.
inline Schedule GreedySchedule(const PlanInstance& in) {
  const std::vector<PlanTask> tasks = FlattenTasks(in);
  std::vector<std::vector<int>> by_job(in.jobs.size());
  for (size_t u = 0; u < tasks.size(); ++u) by_job[tasks[u].job].push_back(static_cast<int>(u));
  std::vector<size_t> jobs(in.jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) jobs[j] = j;
  std::stable_sort(jobs.begin(), jobs.end(),
                   [&](size_t a, size_t b) { return in.jobs[a].release < in.jobs[b].release; });
  std::vector<double> free(in.machine_speeds.size(), 0);
  Schedule s{std::vector<int>(tasks.size()), std::vector<double>(tasks.size())};
  for (size_t j : jobs) {
    double maps_end = in.jobs[j].release;
    for (int u : by_job[j]) {  // maps first (FlattenTasks order)
      const double ready = tasks[u].reduce ? maps_end + in.jobs[j].delay : in.jobs[j].release;
      auto end_on = [&](size_t m) {
        return std::max(free[m], ready) + tasks[u].work / in.machine_speeds[m];
      };
      size_t best = 0;
      for (size_t m = 1; m < free.size(); ++m)
        if (end_on(m) < end_on(best)) best = m;
      s.machine[u] = static_cast<int>(best);
      s.start[u] = std::max(free[best], ready);
      free[best] = end_on(best);
      if (!tasks[u].reduce) maps_end = std::max(maps_end, free[best]);
    }
  }
  return s;
}

}  // namespace mrlocal::testing_plan
