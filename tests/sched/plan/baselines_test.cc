// The paper's baselines (Ling et al. 2016, section 5.1.3) on cases worked by hand where
// their orders differ.
#include "sched/plan/baselines.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sched/plan/mares.h"
#include "sched/plan/priority_rule.h"

namespace mrlocal {
namespace {

// One machine, everything released at 0, so a plan is a sequence. Tasks: 0-3 = job A's
// maps of 1 (weight 2, unit weight 2/4 = 0.5), 4 = job B's map of 10 (weight 3, UW 0.3),
// 5 = job C's map of 3 (weight 6, UW 2).
PlanInstance ThreeJobsOneMachine() {
  PlanInstance in;
  in.machine_speeds = {1.0};
  in.jobs.push_back({.release = 0, .weight = 2, .delay = 0, .maps = {1, 1, 1, 1}, .reduces = {}});
  in.jobs.push_back({.release = 0, .weight = 3, .delay = 0, .maps = {10}, .reduces = {}});
  in.jobs.push_back({.release = 0, .weight = 6, .delay = 0, .maps = {3}, .reduces = {}});
  return in;
}

std::vector<double> Starts(const Result<Schedule>& s) {
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? s->start : std::vector<double>{};
}

TEST(Baselines, EachRuleSequencesTheJobsItsOwnWay) {
  PlanInstance in = ThreeJobsOneMachine();
  // HUWF by unit weight: C (2) at 0, A (0.5) at 3..6, B (0.3) at 7. TWJCT 18 + 14 + 51.
  EXPECT_EQ(Starts(HuwfPlan(in)), (std::vector<double>{3, 4, 5, 6, 7, 0}));
  EXPECT_DOUBLE_EQ(WeightedCompletion(in, *HuwfPlan(in)), 83);
  // HJWF by job weight: C (6), B (3) at 3, A (2) at 13..16. TWJCT 18 + 39 + 34.
  EXPECT_EQ(Starts(HjwfPlan(in)), (std::vector<double>{13, 14, 15, 16, 3, 0}));
  EXPECT_DOUBLE_EQ(WeightedCompletion(in, *HjwfPlan(in)), 91);
  // STF by task work: A's four 1s, C's 3 at 4, B's 10 at 7. TWJCT 8 + 51 + 42.
  EXPECT_EQ(Starts(StfPlan(in)), (std::vector<double>{0, 1, 2, 3, 7, 4}));
  EXPECT_DOUBLE_EQ(WeightedCompletion(in, *StfPlan(in)), 101);
  // HTWF by each task's own weight: A's last map (9), B (5), C (2), then A's other maps
  // (1 each, in task order).
  // Without task weights a task weighs as its job: HTWF plans as HJWF.
  EXPECT_EQ(Starts(HtwfPlan(in)), Starts(HjwfPlan(in)));
  in.task_weights = {1, 1, 1, 9, 5, 2};
  EXPECT_EQ(Starts(HtwfPlan(in)), (std::vector<double>{14, 15, 16, 0, 1, 11}));
}

TEST(Baselines, ListPlansPlaceALaterHeavierJobFirstWhileStfDoesNotIdle) {
  // Job 0 (map of 3, UW 1/3) is released at 0, job 1 (map of 1, weight 10) at 5. HUWF and
  // HJWF sort every task first: job 1's map is placed first, at its release 5, and job 0's
  // is appended after it at 6, the machine idle over [0,5). STF dispatches at each idle
  // moment among the tasks released: job 0 at 0, job 1 at 5.
  PlanInstance in;
  in.machine_speeds = {1.0};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {3}, .reduces = {}});
  in.jobs.push_back({.release = 5, .weight = 10, .delay = 0, .maps = {1}, .reduces = {}});
  EXPECT_EQ(Starts(HuwfPlan(in)), (std::vector<double>{6, 5}));
  EXPECT_EQ(Starts(HjwfPlan(in)), (std::vector<double>{6, 5}));
  EXPECT_EQ(Starts(StfPlan(in)), (std::vector<double>{0, 5}));
}

TEST(Baselines, StfStartsAReduceOnlyOnceItsMapsEndedPlusTheDelay) {
  // Two machines; job 0: maps 2 and 4, a reduce of 1, delay 1; job 1 (released at 3): a
  // map of 5. At 0 both maps start; at 2 machine 0 is idle but nothing is available (the
  // reduce waits for 4 + 1, job 1 for 3); at 3 job 1's map starts on it; at 4 machine 1
  // is idle and the reduce available at 5 starts there.
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 1, .maps = {2, 4}, .reduces = {1}});
  in.jobs.push_back({.release = 3, .weight = 1, .delay = 0, .maps = {5}, .reduces = {}});
  Result<Schedule> s = StfPlan(in);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->start, (std::vector<double>{0, 0, 5, 3}));
  EXPECT_EQ(s->machine, (std::vector<int>{0, 1, 1, 0}));
}

TEST(PriorityRule, KeysAnOnlinePolicyCanRankTasksWith) {
  const PlanJob job{.release = 0, .weight = 4, .delay = 0, .maps = {1, 3}, .reduces = {4}};
  const PlanTask reduce{.job = 0, .reduce = true, .index = 0, .work = 4, .weight = 7};
  EXPECT_DOUBLE_EQ(UnitWeight(job), 0.5);
  EXPECT_DOUBLE_EQ(PriorityKey(PriorityRule::kHighUnitWeight, job, reduce), -0.5);
  EXPECT_DOUBLE_EQ(PriorityKey(PriorityRule::kHighJobWeight, job, reduce), -4);
  EXPECT_DOUBLE_EQ(PriorityKey(PriorityRule::kHighTaskWeight, job, reduce), -7);
  EXPECT_DOUBLE_EQ(PriorityKey(PriorityRule::kShortestTask, job, reduce), 4);
  // A job of no work costs nothing to finish first.
  const PlanJob empty{.release = 0, .weight = 1, .delay = 0, .maps = {0}, .reduces = {}};
  EXPECT_EQ(UnitWeight(empty), std::numeric_limits<double>::infinity());
}

TEST(PriorityRule, RejectsTaskWeightsThatDoNotFit) {
  PlanInstance in = ThreeJobsOneMachine();
  in.task_weights = {1, 2};
  EXPECT_EQ(HtwfPlan(in).status().message(), "task weights: 2 values for 6 tasks");
  in.task_weights = {1, 1, 1, 1, 0, 1};
  EXPECT_EQ(HtwfPlan(in).status().message(), "task weights: a value is not a positive number");
}

// Two machines. Tasks: 0, 1 = job 0's maps of 2, 2 = its reduce of 2 (delay 0), 3 = job
// 1's map of 1. LP completion times 2, 2, 4, 1 order them 3, 0, 1, 2; the balanced
// assignment puts 3 on machine 0 (a tie), 0 on machine 1 (load 2 < 3), 1 on machine 0
// (3 < 4), the reduce on machine 1 (4 < 5).
PlanInstance PreAssignedCase() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {2, 2}, .reduces = {2}});
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {1}, .reduces = {}});
  return in;
}
const std::vector<double> kLpCompletion = {2, 2, 4, 1};

TEST(Mares, BalancesTheMachinesInLpOrder) {
  EXPECT_EQ(BalancedAssignment(PreAssignedCase(), {3, 0, 1, 2}), (std::vector<int>{1, 0, 1, 0}));
}

TEST(Mares, HMaresWaitsOnlyForPredecessors) {
  // Machine 0: task 3 [0,1), task 1 [1,3); machine 1: task 0 [0,2), the reduce at 3.
  Result<Schedule> s = HMaresPlan(PreAssignedCase(), kLpCompletion);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(s->start, (std::vector<double>{0, 1, 3, 0}));
}

TEST(Mares, MaresStartsNoTaskBeforeItsLpCompletionTime) {
  // Task 3 at 1, task 0 at 2, task 1 at 2 (its machine is free then too), the reduce at 4.
  Result<Schedule> s = MaresPlan(PreAssignedCase(), kLpCompletion);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(s->start, (std::vector<double>{2, 2, 4, 1}));
  EXPECT_EQ(MaresPlan(PreAssignedCase(), {2, 2, -4, 1}).status().message(),
            "LP completion times: a value is not a time >= 0");
}

}  // namespace
}  // namespace mrlocal
