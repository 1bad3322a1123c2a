// WalkBack on hand-worked examples: the seed paper's Fig. 3, capacities that vary, and
// the jobs that take no part in the walk.
#include "sched/policy/goal_walk.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace mrlocal {
namespace {

using std::chrono::seconds;

// Capacity of `slots` slots at `speed` with a constant availability: speed x slots x time.
auto Constant(int slots, double speed = 1.0) {
  return [=](Time t0, Time t1) { return slots * speed * Seconds(t1 - t0); };
}

// A step capacity: `rate` (work per second, all slots together) from each step's time on;
// the first step holds from time 0. Its integral, as the walk is asked for.
struct Step {
  int at_s;
  double rate;
};
auto Steps(std::vector<Step> steps) {
  return [steps](Time t0, Time t1) {
    double work = 0;
    for (size_t k = 0; k < steps.size(); ++k) {
      const Time from = std::max(t0, Time(seconds(steps[k].at_s)));
      const Time to = k + 1 < steps.size() ? std::min(t1, Time(seconds(steps[k + 1].at_s))) : t1;
      if (to > from) work += steps[k].rate * Seconds(to - from);
    }
    return work;
  };
}

GoalJob Job(JobId id, std::optional<int> goal_s, double work, int max_parallel) {
  std::optional<Time> goal;
  if (goal_s) goal = seconds(*goal_s);
  return {id, goal, work, max_parallel};
}

// The paper's Fig. 3: J1, J2, J3 with goals at 7, 15 and 20, on 4 slots at speed 1 (4 s of
// work a second). Walking back from 20: [15, 20) holds 20 of J3's 26; [7, 15) holds
// 32: J3's last 6 and 26 of J2's 40; [0, 7) holds 28: J1's 10 and J2's last 14. At 28/4 =
// 7 s a slot now, J1 needs ceil(10/7) = 2 slots and J2 ceil(14/7) = 2; J3 none yet.
TEST(WalkBack, FigureThreeJ3FitsBeforeFifteenAndJ2SpillsIntoTheFirstPeriod) {
  const std::vector<GoalJob> jobs = {Job(1, 7, 10, 4), Job(2, 15, 40, 4), Job(3, 20, 26, 4)};
  const GoalWalk walk = WalkBack(jobs, Time{0}, 4, Constant(4));

  ASSERT_EQ(walk.periods.size(), 3u);
  EXPECT_EQ(walk.periods[0].start, Time{0});
  EXPECT_EQ(walk.periods[0].end, seconds(7));
  EXPECT_EQ(walk.periods[1].end, seconds(15));
  EXPECT_EQ(walk.periods[2].end, seconds(20));
  EXPECT_DOUBLE_EQ(walk.periods[0].capacity, 28);
  EXPECT_DOUBLE_EQ(walk.periods[1].capacity, 32);
  EXPECT_DOUBLE_EQ(walk.periods[2].capacity, 20);

  ASSERT_EQ(walk.jobs.size(), 3u);
  EXPECT_EQ(walk.jobs[0].id, 1u);
  EXPECT_EQ(walk.jobs[0].placed, (std::vector<double>{10, 0, 0}));
  EXPECT_EQ(walk.jobs[1].placed, (std::vector<double>{14, 26, 0}));
  EXPECT_EQ(walk.jobs[2].placed, (std::vector<double>{0, 6, 20}));
  EXPECT_DOUBLE_EQ(walk.jobs[0].work_now, 10);
  EXPECT_DOUBLE_EQ(walk.jobs[1].work_now, 14);
  EXPECT_DOUBLE_EQ(walk.jobs[2].work_now, 0);
  EXPECT_EQ(walk.jobs[0].s_fit, 2);
  EXPECT_EQ(walk.jobs[1].s_fit, 2);
  EXPECT_EQ(walk.jobs[2].s_fit, 0);
}

// Two jobs in a period share it max-min fairly, each capped by the slots it can use: in
// [0, 10) (40 of work on 4 slots), J1 with 1 task can take 10; J2 takes the remaining 30
// though both have more work. What does not fit is due now.
TEST(WalkBack, APeriodIsSharedFairlyAndAJobUsesNoMoreSlotsThanItHasTasks) {
  const std::vector<GoalJob> jobs = {Job(1, 10, 25, 1), Job(2, 10, 50, 4)};
  const GoalWalk walk = WalkBack(jobs, Time{0}, 4, Constant(4));
  EXPECT_EQ(walk.jobs[0].placed, (std::vector<double>{10}));
  EXPECT_EQ(walk.jobs[1].placed, (std::vector<double>{30}));
  EXPECT_DOUBLE_EQ(walk.jobs[0].work_now, 25);
  EXPECT_DOUBLE_EQ(walk.jobs[1].work_now, 50);
  EXPECT_EQ(walk.jobs[0].s_fit, 1);  // ceil(25 / 10) = 3, but it has one task
  EXPECT_EQ(walk.jobs[1].s_fit, 4);  // ceil(50 / 10) = 5, capped at its 4 tasks
}

// J2 (goal 10, work 30) after J1 (goal 5) on 4 slots: the work [5, 10) cannot hold goes
// to [0, 5), and how much is the integral of the capacity over [5, 10), wherever in the
// period availability drops.
TEST(WalkBack, LessCapacityLateMovesWorkEarlierByItsIntegral) {
  const std::vector<GoalJob> jobs = {Job(1, 5, 4, 4), Job(2, 10, 30, 4)};
  struct Case {
    const char* name;
    std::function<double(Time, Time)> capacity;
    double late;  // capacity over [5, 10)
  };
  const std::vector<Case> cases = {
      {"constant", Constant(4), 20},
      {"halved from 5", Steps({{0, 4}, {5, 2}}), 10},
      {"halved from 7", Steps({{0, 4}, {7, 2}}), 4 * 2 + 2 * 3},
      {"halved from 7 to 8", Steps({{0, 4}, {7, 2}, {8, 4}}), 4 * 2 + 2 * 1 + 4 * 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const GoalWalk walk = WalkBack(jobs, Time{0}, 4, c.capacity);
    ASSERT_EQ(walk.periods.size(), 2u);
    EXPECT_DOUBLE_EQ(walk.periods[1].capacity, c.late);
    EXPECT_DOUBLE_EQ(walk.jobs[1].placed[1], c.late);
    EXPECT_DOUBLE_EQ(walk.jobs[1].work_now, 30 - c.late);
    // [0, 5) does 20 on 4 slots: 5 s of work a slot.
    EXPECT_EQ(walk.jobs[1].s_fit, static_cast<int>(std::ceil((30 - c.late) / 5)));
  }
}

// With a constant capacity a lone job's s_fit is the plain Adaptive's s_req =
// ceil(work / ((goal - now) x rate)), rate = work a slot does in a second.
TEST(WalkBack, ConstantCapacityGivesAdaptiveSlotsRequiredForALoneJob) {
  struct Case {
    int now_s, goal_s;
    double work, speed;
    int slots, s_req;
  };
  const std::vector<Case> cases = {
      {0, 10, 40, 1.0, 8, 4},   // exact: 40 / 10
      {5, 30, 100, 1.0, 8, 4},  // 100 / 25
      {5, 30, 101, 1.0, 8, 5},  // a little more rounds up
      {0, 10, 40, 0.5, 16, 8},  // half the speed, twice the slots
      {0, 20, 0.5, 1.0, 4, 1},  // any work needs a slot
      {0, 10, 300, 1.0, 8, 8},  // 30 wanted, at most its 8 tasks
      {0, 3, 0.9, 0.3, 8, 1},   // 0.9 / 0.8999999999999999 is still one slot
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.work << " by " << c.goal_s << " from " << c.now_s);
    const std::vector<GoalJob> jobs = {Job(1, c.goal_s, c.work, 8)};
    const GoalWalk walk = WalkBack(jobs, seconds(c.now_s), c.slots, Constant(c.slots, c.speed));
    EXPECT_EQ(walk.jobs[0].s_fit, c.s_req);
  }
}

// A job past its goal is due now and wants every task running; it takes no capacity in
// the walk, so the other job's s_fit is as if it were alone.
TEST(WalkBack, AJobPastItsGoalWantsAllItsTasksNow) {
  const std::vector<GoalJob> jobs = {Job(1, 5, 30, 6), Job(2, 20, 40, 8)};
  const GoalWalk walk = WalkBack(jobs, seconds(5), 8, Constant(8));
  ASSERT_EQ(walk.periods.size(), 1u);  // [5, 20): a goal at `now` ends no period
  EXPECT_EQ(walk.jobs[0].s_fit, 6);
  EXPECT_DOUBLE_EQ(walk.jobs[0].work_now, 30);
  EXPECT_EQ(walk.jobs[0].placed, (std::vector<double>{0}));
  EXPECT_EQ(walk.jobs[1].s_fit, 3);  // ceil(40 / 15)
}

// A job without a goal needs nothing now and leaves the others' s_fit alone; a job with
// no work left needs nothing either.
TEST(WalkBack, AJobWithoutAGoalOrWorkNeedsNoSlots) {
  const std::vector<GoalJob> alone = {Job(2, 10, 40, 8)};
  const std::vector<GoalJob> jobs = {Job(1, std::nullopt, 1000, 8), Job(2, 10, 40, 8),
                                     Job(3, 30, 0, 8)};
  const GoalWalk walk = WalkBack(jobs, Time{0}, 8, Constant(8));
  EXPECT_EQ(walk.periods.size(), 1u);  // job 3's goal cuts no period: it has no work
  EXPECT_EQ(walk.jobs[0].s_fit, 0);
  EXPECT_DOUBLE_EQ(walk.jobs[0].work_now, 0);
  EXPECT_EQ(walk.jobs[2].s_fit, 0);
  EXPECT_EQ(walk.jobs[1].s_fit, WalkBack(alone, Time{0}, 8, Constant(8)).jobs[0].s_fit);
  EXPECT_EQ(walk.jobs[1].s_fit, 4);
}

// Two jobs that need 60 of work by 10 s where 40 can be done: each gets 20 placed, 10 of
// each fits nowhere, and together they need more slots than there are.
TEST(WalkBack, AnInfeasibleSetNeedsMoreSlotsThanThereAre) {
  const std::vector<GoalJob> jobs = {Job(1, 10, 30, 4), Job(2, 10, 30, 4)};
  const GoalWalk walk = WalkBack(jobs, Time{0}, 4, Constant(4));
  for (const JobWalk& j : walk.jobs) {
    EXPECT_EQ(j.placed, (std::vector<double>{20}));
    EXPECT_DOUBLE_EQ(j.work_now, 30);
    EXPECT_EQ(j.s_fit, 3);
  }
  EXPECT_GT(walk.jobs[0].s_fit + walk.jobs[1].s_fit, 4);
}

TEST(WalkBack, NoJobsNoPeriods) {
  const GoalWalk walk = WalkBack({}, Time{0}, 4, Constant(4));
  EXPECT_TRUE(walk.periods.empty());
  EXPECT_TRUE(walk.jobs.empty());
}

}  // namespace
}  // namespace mrlocal
