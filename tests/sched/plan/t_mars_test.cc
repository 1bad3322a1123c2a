// T-MarS (Ling et al. 2016, Algorithm 3): the doubling intervals on a hand-worked instance,
// its three drivers, the planner and policy behind `t-mars`, and TWTCT at or above the
// task-level LP bound for every task-level plan on random instances.
#include "sched/plan/t_mars.h"

#include <gtest/gtest.h>

#include <random>

#include "random_plans.h"  // this folder's helpers
#include "sched/plan/baselines.h"
#include "sched/plan/lp_bound.h"
#include "sched/plan/lp_pgc.h"
#include "sched/plan/mares.h"
#include "sched/plan/planner.h"

namespace mrlocal {
namespace {

// Two machines; job 0: maps 0, 1 (work 1) and reduce 2 (work 2); job 1: map 3 (work 3);
// job 2: map 4 (work 1). LP completions 1, 1, 3, 3, 5 (middle times 0.5, 0.5, 2, 1.5, 4.5).
PlanInstance HandInstance() {
  PlanInstance in;
  in.machine_speeds = {1, 1};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {1, 1}, .reduces = {2}});
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {3}, .reduces = {}});
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {1}, .reduces = {}});
  return in;
}
const std::vector<double> kHandCompletions = {1, 1, 3, 3, 5};

TEST(TMars, TasksGoToTheIntervalOfTheirLpCompletion) {
  // t_0 = 1: B_1 = (-, 1], B_2 = (1, 2], B_3 = (2, 4], B_4 = (4, 8].
  const DoublingIntervals d = SplitIntoDoublingIntervals(HandInstance(), kHandCompletions, 1);
  EXPECT_EQ(d.block, (std::vector<int>{1, 1, 3, 3, 4}));
  // tau_0 = t_0 = 1; tau_n = tau_{n-1} + t_n + a_n, a_n = B_n's work / 2 machines:
  // a_1 = 1, a_2 = 0 (empty), a_3 = 2.5: tau_1 = 1 + 1 + 1, tau_2 = 3 + 2, tau_3 = 5 + 4 + 2.5.
  EXPECT_EQ(d.opens, (std::vector<double>{1, 3, 5, 11.5}));
}

TEST(TMars, TheDefaultUnitIsTheFirstLpCompletionSoTheTimeUnitDoesNotMatter) {
  std::vector<double> in_tenths;
  for (double c : kHandCompletions) in_tenths.push_back(10 * c);
  const DoublingIntervals d = SplitIntoDoublingIntervals(HandInstance(), in_tenths);
  EXPECT_EQ(d.unit, 10);
  EXPECT_EQ(d.block, (std::vector<int>{1, 1, 3, 3, 4}));
  EXPECT_EQ(SplitIntoDoublingIntervals(HandInstance(), {0, 0, 0, 0, 0}).unit, 1)
      << "no positive completion: the paper's 1";
}

TEST(TMars, AlgorithmThreeAsWrittenWaitsForEachWindow) {
  Result<Schedule> s =
      TMarsPlan(HandInstance(), kHandCompletions, {.driver = TMarsDriver::kWindows, .unit = 1});
  ASSERT_TRUE(s.ok()) << s.status().message();
  // B_1 at tau_0 = 1 on both machines; B_3 at tau_2 = 5, task 3 first (middle time 1.5 <
  // 2), then the reduce; B_4 at tau_3 = 11.5, on the machine idle earlier (1 ends at 7).
  EXPECT_EQ(s->start, (std::vector<double>{1, 1, 5, 5, 11.5}));
  EXPECT_EQ(s->machine, (std::vector<int>{0, 1, 1, 0, 1}));
}

TEST(TMars, TheDefaultKeepsTheBlocksOrderWithoutWaiting) {
  Result<Schedule> s = TMarsPlan(HandInstance(), kHandCompletions);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // Maps 0, 1 at 0; at 1 task 3 (B_3, middle 1.5) before the reduce (B_3, middle 2); task 4
  // (B_4) when machine 1 is idle again at 3.
  EXPECT_EQ(s->start, (std::vector<double>{0, 0, 1, 1, 3}));
  EXPECT_EQ(s->machine, (std::vector<int>{0, 1, 1, 0, 1}));
}

TEST(TMars, GrahamsRuleStartsAvailableWorkThatAListScheduleWouldQueueBehindALaterTask) {
  // One machine; job 0 (a map of 4) released at 2; job 1 (a map of 1) at 0. The LP order
  // puts job 0 first (completion 6 < 7, as an LP with W_0 heavy would): the list schedule
  // appends it at 2 and job 1 after it; Graham's rule runs job 1 while the machine is idle.
  PlanInstance in;
  in.machine_speeds = {1};
  in.jobs.push_back({.release = 2, .weight = 1, .delay = 0, .maps = {4}, .reduces = {}});
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {1}, .reduces = {}});
  const std::vector<double> completions = {6, 7};
  EXPECT_EQ(TMarsPlan(in, completions, {.driver = TMarsDriver::kListNoWait})->start,
            (std::vector<double>{2, 6}));
  EXPECT_EQ(TMarsPlan(in, completions)->start, (std::vector<double>{2, 0}));
}

TEST(TMars, BadLpTimesAreNamed) {
  EXPECT_EQ(TMarsPlan(HandInstance(), {1, 2}).status().message(),
            "LP completion times: 2 values for 5 tasks");
  EXPECT_EQ(TMarsPlan(HandInstance(), {1, 1, 3, 3, std::nan("")}).status().message(),
            "LP completion times: a value is not a finite number");
  EXPECT_EQ(TMarsPlan(HandInstance(), kHandCompletions, {.unit = -1}).status().message(),
            "T-MarS unit: not a time >= 0");
}

// A random instance with task weights and releases (section 4.4).
PlanInstance TaskLevelInstance(unsigned seed) {
  PlanInstance in = testing_plan::RandomInstance(seed, seed % 2 == 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> weight(0.5, 5), release(0, 15);
  for (size_t u = FlattenTasks(in).size(); u > 0; --u) {
    in.task_weights.push_back(weight(rng));
    in.task_releases.push_back(seed % 3 == 0 ? 0 : release(rng));
  }
  return in;
}

TEST(TMars, EveryTaskLevelPlanIsAtOrAboveTheTaskLpBound) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const PlanInstance in = TaskLevelInstance(seed);
    Result<LpBound> lp =
        SolveLpBound(in, {.objective = LpObjective::kTaskCompletion, .converge = true});
    ASSERT_TRUE(lp.ok()) << lp.status().message();
    const std::vector<double> completions = LpTaskTimes(in, lp->start, 1);
    const std::pair<const char*, Result<Schedule>> plans[] = {
        {"t-mars", TMarsPlan(in, completions)},
        {"t-mars list", TMarsPlan(in, completions, {.driver = TMarsDriver::kListNoWait})},
        {"t-mars windows", TMarsPlan(in, completions, {.driver = TMarsDriver::kWindows})},
        {"h-mares", HMaresPlan(in, completions)},
        {"stf", StfPlan(in)},
        {"htwf", HtwfPlan(in)},
    };
    for (const auto& [name, s] : plans) {
      ASSERT_TRUE(s.ok()) << name << ": " << s.status().message();
      EXPECT_TRUE(CheckSchedule(in, *s, 1e-6).ok()) << name << ", seed " << seed;
      EXPECT_GE(WeightedTaskCompletion(in, *s), lp->bound * (1 - 1e-6))
          << name << ", seed " << seed;
    }
  }
}

TEST(TMars, ThePlannerPlansFromTheTaskLevelLp) {
  EXPECT_TRUE(NeedsLp(Planner::kTMars));
  EXPECT_EQ(PlanningObjective(Planner::kTMars), LpObjective::kTaskCompletion);
  EXPECT_EQ(PlanningObjective(Planner::kMars), LpObjective::kJobCompletion);
  const PlanInstance in = TaskLevelInstance(4);
  Result<LpBound> lp = SolvePlanningLp(in, kPlanningLpBudgetS, LpObjective::kTaskCompletion);
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  Result<Plan> given = MakePlan(Planner::kTMars, in, &lp);
  Result<Plan> solved = MakePlan(Planner::kTMars, in);
  ASSERT_TRUE(given.ok() && solved.ok());
  EXPECT_EQ(given->note, "");
  EXPECT_EQ(given->schedule.start, TMarsPlan(in, LpTaskTimes(in, lp->start, 1))->start);
  EXPECT_EQ(solved->schedule.start, given->schedule.start) << "the same LP, solved here";
}

TEST(TMars, WithoutAnLpItPlansAsHtwfAndSaysSo) {
  const PlanInstance in = TaskLevelInstance(4);
  const Result<LpBound> failed = Status::Internal("CLP: stopped");
  Result<Plan> plan = MakePlan(Planner::kTMars, in, &failed);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->note, "the LP failed (CLP: stopped): planned as HTWF");
  EXPECT_EQ(plan->schedule.start, HtwfPlan(in)->start);
}

}  // namespace
}  // namespace mrlocal
