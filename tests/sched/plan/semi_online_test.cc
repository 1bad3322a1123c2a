// The semi-online scheme (SO-MarS, section 5.3) offline: a job released mid-interval waits
// for the boundary, a re-plan keeps the tasks that started and the machines they hold, and
// every schedule it makes is feasible for every batch interval and planner.
#include "sched/plan/semi_online.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "random_plans.h"  // this folder's

namespace mrlocal {
namespace {

// Two machines. Job A at 0: maps of 4 and 7 s, a reduce of 2 s, delay 1. Job B at 3: one
// map of 1 s. B = 5: A is planned at 0, B at 5, while A's 7 s map still runs on its
// machine until 7 and A's reduce may start at 7 + 1 = 8.
PlanInstance TwoJobs() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({0, 1, 1, {4, 7}, {2}, "A"});
  in.jobs.push_back({3, 1, 0, {1}, {}, "B"});
  return in;
}

TEST(SemiOnline, AJobReleasedMidIntervalWaitsForTheBoundaryWhileStartedTasksStay) {
  const PlanInstance in = TwoJobs();
  auto run = SemiOnlinePlan(in, {.batch_interval = 5});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_TRUE(CheckSchedule(in, run->schedule).ok());
  // Tasks: A's maps 0 and 1, A's reduce 2, B's map 3.
  const Schedule& s = run->schedule;
  EXPECT_EQ(s.start[0], 0);
  EXPECT_EQ(s.start[1], 0);
  EXPECT_NE(s.machine[0], s.machine[1]);
  EXPECT_EQ(s.start[3], 5) << "B is known at 5, though a machine is idle from 4";
  EXPECT_EQ(s.machine[3], s.machine[0]) << "the other machine runs A's 7 s map until 7";
  EXPECT_EQ(s.start[2], 8) << "A's reduce: its last map ends at 7, plus the delay";
  EXPECT_DOUBLE_EQ(WeightedCompletion(in, s), 10 + 6);

  ASSERT_EQ(run->replans.size(), 2u);
  EXPECT_EQ(run->replans[0].at, 0);
  EXPECT_EQ(run->replans[0].jobs, 1);
  EXPECT_EQ(run->replans[0].tasks, 3);
  EXPECT_EQ(run->replans[1].at, 5);
  EXPECT_EQ(run->replans[1].jobs, 2) << "A's reduce and B's map";
  EXPECT_EQ(run->replans[1].planned, (std::vector<int>{0, 1}));
  EXPECT_EQ(run->replans[1].tasks, 2);
  EXPECT_FALSE(run->replans[1].fell_back);
}

TEST(SemiOnline, RemainderHoldsMachinesUntilTheirTasksEndAndLeavesOutJobsNotPresent) {
  const PlanInstance in = TwoJobs();
  std::vector<TaskProgress> progress(4);
  progress[0] = {true, 0, 4};
  progress[1] = {true, 1, 7};
  const Remainder rest = RemainderAt(in, {true, false}, progress, 5);
  EXPECT_EQ(rest.at, 5);
  EXPECT_EQ(rest.instance.machine_free, (std::vector<double>{5, 7}));
  ASSERT_EQ(rest.instance.jobs.size(), 1u) << "B is not present";
  EXPECT_TRUE(rest.instance.jobs[0].maps.empty());
  EXPECT_EQ(rest.instance.jobs[0].reduces, (std::vector<double>{2}));
  EXPECT_EQ(rest.instance.jobs[0].release, 5);
  EXPECT_EQ(rest.instance.task_releases, (std::vector<double>{8}));
  EXPECT_EQ(rest.task, (std::vector<int>{2}));
  EXPECT_EQ(rest.job, (std::vector<int>{0}));
}

TEST(SemiOnline, ALongIntervalPlansEveryJobOnceAtItsBoundary) {
  const PlanInstance in = TwoJobs();
  auto run = SemiOnlinePlan(in, {.batch_interval = 100, .planner = Planner::kHuwf});
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->replans.size(), 2u) << "A at 0, B at 100";
  EXPECT_EQ(run->schedule.start[3], 100);
  EXPECT_EQ(run->replans[1].jobs, 1) << "A is done by then";
}

TEST(SemiOnline, EveryScheduleIsFeasibleForEveryIntervalAndPlanner) {
  const Planner planners[] = {Planner::kMars, Planner::kMares, Planner::kHuwf, Planner::kHjwf};
  for (unsigned seed = 1; seed <= 40; ++seed) {
    const PlanInstance in = testing_plan::RandomInstance(seed, /*identical=*/seed % 2 == 0);
    for (double b : {0.5, 2.0, 5.0, 50.0})
      for (Planner p : planners) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " B " + std::to_string(b) + " planner " +
                     std::to_string(static_cast<int>(p)));
        auto run = SemiOnlinePlan(in, {.batch_interval = b, .planner = p});
        ASSERT_TRUE(run.ok()) << run.status().message();
        EXPECT_TRUE(CheckSchedule(in, run->schedule, 1e-6).ok())
            << CheckSchedule(in, run->schedule, 1e-6).message();
        const std::vector<PlanTask> tasks = FlattenTasks(in);
        for (size_t u = 0; u < tasks.size(); ++u)
          EXPECT_GE(run->schedule.start[u], std::ceil(tasks[u].release / b) * b - 1e-9)
              << "task " << u << " before its job's boundary";
      }
  }
}

TEST(SemiOnline, MarsRandomIsFeasibleForThePapersIntervals) {
  auto spec = MakePreset("mars-random", 1, {.jobs = 12});
  ASSERT_TRUE(spec.ok());
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  ASSERT_TRUE(in.ok());
  for (double b : {10.0, 50.0, 100.0}) {
    auto run = SemiOnlinePlan(*in, {.batch_interval = b});
    ASSERT_TRUE(run.ok());
    EXPECT_TRUE(CheckSchedule(*in, run->schedule, 1e-6).ok()) << "B " << b;
  }
}

// COGE's epsilon stop compares completion times: measured from 0, a boundary at 1000 s
// would stop it at its first LP (every job's C_j shares the 1000 s) and plan worse.
TEST(SemiOnline, ALateBoundaryPlansAsTheSameJobsAtZero) {
  auto spec = MakePreset("mars-random", 3, {.jobs = 10});
  ASSERT_TRUE(spec.ok());
  auto at_zero = PlanInstanceOf(*spec, *spec->cluster);
  ASSERT_TRUE(at_zero.ok());
  for (PlanJob& job : at_zero->jobs) job.release = 0;
  PlanInstance late = *at_zero;
  for (PlanJob& job : late.jobs) job.release = 1000;
  const std::vector<bool> all(10, true);
  const std::vector<TaskProgress> none(FlattenTasks(late).size());
  auto first = Replan(Planner::kMars, RemainderAt(*at_zero, all, none, 0), 10);
  auto later = Replan(Planner::kMars, RemainderAt(late, all, none, 1000), 10);
  ASSERT_TRUE(first.ok() && later.ok());
  ASSERT_EQ(first->schedule.start.size(), later->schedule.start.size());
  for (size_t u = 0; u < first->schedule.start.size(); ++u)
    ASSERT_NEAR(later->schedule.start[u], first->schedule.start[u] + 1000, 1e-6) << "task " << u;
}

TEST(SemiOnline, ANoLpBudgetFallsBackToHuwfAndSaysSo) {
  auto spec = MakePreset("mars-random", 2, {.jobs = 10});
  ASSERT_TRUE(spec.ok());
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  ASSERT_TRUE(in.ok());
  auto run = SemiOnlinePlan(*in, {.batch_interval = 1000, .lp_budget_s = 0});
  ASSERT_TRUE(run.ok());
  ASSERT_FALSE(run->replans.empty());
  EXPECT_TRUE(run->replans.back().fell_back) << "9 jobs at 1000 s: COGE needs more than one LP";
}

TEST(SemiOnline, BadOptionsAreErrors) {
  EXPECT_FALSE(SemiOnlinePlan(TwoJobs(), {.batch_interval = 0}).ok());
  EXPECT_FALSE(SemiOnlinePlan(TwoJobs(), {.batch_interval = -1}).ok());
  EXPECT_FALSE(SemiOnlinePlan(TwoJobs(), {.lp_budget_s = -1}).ok());
  EXPECT_FALSE(SemiOnlinePlan(PlanInstance{}, {}).ok());
}

TEST(SemiOnline, TheLpBudgetIsAtMostHalfTheInterval) {
  EXPECT_EQ(SemiOnlineLpBudget(50), kPlanningLpBudgetS);
  EXPECT_EQ(SemiOnlineLpBudget(10), 5);
}

}  // namespace
}  // namespace mrlocal
