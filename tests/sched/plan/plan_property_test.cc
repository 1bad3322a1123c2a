// Every plan of sched/plan is feasible (precedence with delay, release, one task at a time
// per machine: CheckSchedule) on random instances, small ones with heterogeneous speeds and
// zero-work tasks and the paper's mars-random workloads; an invalid instance is an error.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "sched/plan/baselines.h"
#include "sched/plan/list_schedule.h"
#include "sched/plan/mares.h"
#include "sched/plan/mars.h"
#include "sched/plan/t_mars.h"

namespace mrlocal {
namespace {

struct Planner {
  const char* name;
  std::function<Result<Schedule>(const PlanInstance&, std::mt19937_64&)> plan;
};

// Random stand-ins for an LP's times (any order must give a feasible plan) and weights.
std::vector<double> RandomTimes(const PlanInstance& in, std::mt19937_64& rng) {
  std::vector<double> times(FlattenTasks(in).size());
  for (double& t : times) t = std::uniform_real_distribution<double>(0, 100)(rng);
  return times;
}

const std::vector<Planner>& Planners() {
  static const std::vector<Planner> planners = {
      {"mars", [](auto& in, auto& rng) { return MarsPlan(in, RandomTimes(in, rng)); }},
      {"mares", [](auto& in, auto& rng) { return MaresPlan(in, RandomTimes(in, rng)); }},
      {"h-mares", [](auto& in, auto& rng) { return HMaresPlan(in, RandomTimes(in, rng)); }},
      {"huwf", [](auto& in, auto&) { return HuwfPlan(in); }},
      {"hjwf", [](auto& in, auto&) { return HjwfPlan(in); }},
      {"htwf", [](auto& in, auto&) { return HtwfPlan(in); }},
      {"stf", [](auto& in, auto&) { return StfPlan(in); }},
      {"t-mars", [](auto& in, auto& rng) { return TMarsPlan(in, RandomTimes(in, rng)); }},
      {"t-mars windows",
       [](auto& in, auto& rng) {
         return TMarsPlan(in, RandomTimes(in, rng), {.driver = TMarsDriver::kWindows});
       }},
  };
  return planners;
}

// 1-4 machines of speed 0.5, 1 or 2; 1-6 jobs of 0-4 maps and 0-3 reduces (at least one
// task), a fifth of the tasks of no work; half the instances with task-level weights and
// releases (section 4.4), a third with machines busy at the start (a re-plan's).
PlanInstance SmallRandomInstance(std::mt19937_64& rng) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto time = [&](double hi) { return std::uniform_real_distribution<double>(0, hi)(rng); };
  PlanInstance in;
  for (int m = uniform(1, 4); m > 0; --m) in.machine_speeds.push_back(0.5 * (1 << uniform(0, 2)));
  for (int j = uniform(1, 6); j > 0; --j) {
    PlanJob& job = in.jobs.emplace_back();
    job.release = time(20);
    job.weight = 0.1 + time(10);
    job.delay = uniform(0, 1) ? time(3) : 0;
    auto work = [&] { return uniform(0, 4) == 0 ? 0.0 : time(10); };
    for (int n = uniform(0, 4); n > 0; --n) job.maps.push_back(work());
    for (int n = uniform(job.maps.empty() ? 1 : 0, 3); n > 0; --n) job.reduces.push_back(work());
  }
  if (uniform(0, 1)) {
    for (size_t u = FlattenTasks(in).size(); u > 0; --u) {
      in.task_weights.push_back(0.1 + time(10));
      in.task_releases.push_back(time(30));
    }
  }
  if (uniform(0, 2) == 0)
    for (size_t m = 0; m < in.machine_speeds.size(); ++m) in.machine_free.push_back(time(15));
  return in;
}

void ExpectEveryPlanFeasible(const PlanInstance& in, std::mt19937_64& rng,
                             const std::string& what) {
  for (const Planner& p : Planners()) {
    Result<Schedule> s = p.plan(in, rng);
    ASSERT_TRUE(s.ok()) << p.name << " on " << what << ": " << s.status().message();
    const Status feasible = CheckSchedule(in, *s, 1e-9);
    EXPECT_TRUE(feasible.ok()) << p.name << " on " << what << ": " << feasible.message();
  }
}

TEST(PlanProperty, EveryPlanIsFeasibleOnSmallRandomInstances) {
  std::mt19937_64 rng(14);
  for (int i = 0; i < 300; ++i)
    ExpectEveryPlanFeasible(SmallRandomInstance(rng), rng, "instance " + std::to_string(i));
}

TEST(PlanProperty, EveryPlanIsFeasibleOnMarsRandomWorkloads) {
  std::mt19937_64 rng(7);
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const size_t jobs = 5 + seed % 16;  // 5..20
    Result<WorkloadSpec> spec = MakePreset("mars-random", seed, {.jobs = jobs});
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    Result<PlanInstance> in = PlanInstanceOf(*spec, *spec->cluster);
    ASSERT_TRUE(in.ok()) << in.status().message();
    ExpectEveryPlanFeasible(*in, rng, "mars-random seed " + std::to_string(seed));
  }
}

TEST(PlanProperty, ListPlansAppendInOrderAndNeverIdleBeforeAReadyTask) {
  // On identical machines, an order in which maps precede reduces is followed exactly:
  // each machine runs its tasks in the order's sequence; and a task starts at its
  // earliest time or when its machine's previous task ends.
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    PlanInstance in = SmallRandomInstance(rng);
    for (double& s : in.machine_speeds) s = 1;
    in.task_releases.clear();
    in.machine_free.clear();
    const std::vector<PlanTask> tasks = FlattenTasks(in);
    std::vector<double> key = RandomTimes(in, rng);
    for (size_t u = 0; u < tasks.size(); ++u) key[u] += tasks[u].reduce ? 100 : 0;
    Result<Schedule> s = MarsPlan(in, key);
    ASSERT_TRUE(s.ok()) << s.status().message();
    const std::vector<int> order = *OrderByKey(in, key, "key");
    std::vector<double> idle(in.machine_speeds.size(), 0), maps_end(in.jobs.size(), 0);
    for (int u : order) {
      const PlanJob& job = in.jobs[tasks[u].job];
      double earliest = job.release;
      if (tasks[u].reduce && !job.maps.empty())
        earliest = std::max(earliest, maps_end[tasks[u].job] + job.delay);
      const int m = s->machine[u];
      EXPECT_DOUBLE_EQ(s->start[u], std::max(earliest, idle[m])) << "instance " << i;
      idle[m] = s->start[u] + tasks[u].work;
      if (!tasks[u].reduce) maps_end[tasks[u].job] = std::max(maps_end[tasks[u].job], idle[m]);
    }
  }
}

TEST(PlanProperty, AnInvalidInstanceIsTheValidationError) {
  std::mt19937_64 rng(1);
  PlanInstance in;
  in.machine_speeds = {1.0};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {1}, .reduces = {2}});
  in.jobs.push_back({.release = 0, .weight = std::nan(""), .delay = 0, .maps = {1}, .reduces = {}});
  for (const Planner& p : Planners())
    EXPECT_EQ(p.plan(in, rng).status().message(), "job 1: weight is not a positive number")
        << p.name;
  in.jobs[1].weight = 1;
  in.machine_speeds = {0};
  for (const Planner& p : Planners())
    EXPECT_EQ(p.plan(in, rng).status().message(), "a machine speed is not a positive number")
        << p.name;
}

}  // namespace
}  // namespace mrlocal
