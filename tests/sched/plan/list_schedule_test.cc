// List scheduling (Ling et al. 2016, Algorithm 2) and MarS on cases worked by hand.
#include "sched/plan/list_schedule.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sched/plan/mars.h"

namespace mrlocal {
namespace {

// Tasks (FlattenTasks order): 0 = job 0 map (2), 1 = job 0 map (3), 2 = job 0 reduce (4),
// 3 = job 1 map (1). Job 0: released at 0, delay 1; job 1: released at 1.
PlanInstance TwoJobsTwoMachines() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 1, .maps = {2, 3}, .reduces = {4}});
  in.jobs.push_back({.release = 1, .weight = 1, .delay = 0, .maps = {1}, .reduces = {}});
  return in;
}

TEST(ListSchedule, AppendsEachTaskOnTheMachineIdleEarliest) {
  // Task 0 on machine 0 [0,2) (a tie: the lower index); task 1 on machine 1 [0,3); the
  // reduce may start at 3 + 1 = 4: both machines start it then, machine 0 was idle
  // earlier (e = 2 < 3). Job 1's map is released at 1: machine 1 starts it at 3, and
  // machine 0's gap [2,4) stays empty, as Algorithm 2 keeps only e_m per machine.
  Result<Schedule> s = ListSchedule(TwoJobsTwoMachines(), {0, 1, 2, 3});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(s->start, (std::vector<double>{0, 0, 4, 3}));
  EXPECT_TRUE(CheckSchedule(TwoJobsTwoMachines(), *s).ok());
}

TEST(ListSchedule, AReduceOrderedBeforeItsMapsWaitsForThem) {
  // Order 2, 3, 0, 1: the reduce is not available until both maps are placed, so job 1's
  // map goes first (machine 0 at its release 1), then the maps (machine 1 at 0, machine 0
  // at 2, ending at 5), then the reduce at 5 + 1 = 6 on machine 1 (idle since 2).
  Result<Schedule> s = ListSchedule(TwoJobsTwoMachines(), {2, 3, 0, 1});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(s->start, (std::vector<double>{0, 2, 6, 1}));
}

TEST(ListSchedule, PicksTheMachineThatFinishesEarliestNotTheIdleOne) {
  // Three maps of 4 on speeds 1 and 4: the fast machine ends each within 1 and takes all
  // three ([0,1), [1,2), [2,3)), while the slow one, idle, would end the first at 4.
  PlanInstance in;
  in.machine_speeds = {1.0, 4.0};
  in.jobs.push_back({.maps = {4, 4, 4}, .reduces = {}});
  Result<Schedule> s = ListSchedule(in, {0, 1, 2});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(s->start, (std::vector<double>{0, 1, 2}));
}

TEST(ListSchedule, HonoursFixedMachinesAndNotBefore) {
  ListOptions options;
  options.machine = {1, 1, 0, 0};
  options.not_before = {0, 0, 0, 5};
  // Both maps on machine 1: [0,2), [2,5); the reduce at 5 + 1 = 6 on machine 0; job 1's
  // map on machine 0 is ranked before the reduce but may not start before 5.
  Result<Schedule> s = ListSchedule(TwoJobsTwoMachines(), {0, 1, 3, 2}, options);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, options.machine);
  EXPECT_EQ(s->start, (std::vector<double>{0, 2, 6, 5}));
}

TEST(ListSchedule, RejectsABadOrderOrOptions) {
  auto why = [](std::vector<int> order, ListOptions options = {}) {
    return ListSchedule(TwoJobsTwoMachines(), order, options).status().message();
  };
  EXPECT_EQ(why({0, 1, 2}), "order: 3 values for 4 tasks");
  EXPECT_EQ(why({0, 1, 1, 3}), "order: not a permutation of the tasks (task 1)");
  EXPECT_EQ(why({0, 1, 2, 3}, {.machine = {0, 0, 2, 0}, .not_before = {}}),
            "machine: no machine 2");
  EXPECT_EQ(why({0, 1, 2, 3}, {.machine = {}, .not_before = {0, 0, -1, 0}}),
            "not_before: a time is not a number >= 0");
}

TEST(MarsPlan, ListSchedulesInMiddleTimeOrder) {
  // Middle times give the order 3, 0, 1, 2: job 1's map on machine 0 at 1, the maps on
  // machine 1 at 0 and machine 0 at 2 (a tie at 5: the machine with the smaller e_m,
  // both 2, then the lower index), the reduce at 6 on machine 1.
  Result<Schedule> s = MarsPlan(TwoJobsTwoMachines(), {1, 1.5, 6, 0.5});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(s->start, (std::vector<double>{0, 2, 6, 1}));
  EXPECT_DOUBLE_EQ(WeightedCompletion(TwoJobsTwoMachines(), *s), 10 + 2);
}

TEST(MarsPlan, RejectsMiddleTimesThatDoNotFit) {
  EXPECT_EQ(MarsPlan(TwoJobsTwoMachines(), {1, 2, 3}).status().message(),
            "middle times: 3 values for 4 tasks");
  EXPECT_EQ(MarsPlan(TwoJobsTwoMachines(), {1, 2, std::nan(""), 4}).status().message(),
            "middle times: a value is NaN");
}

}  // namespace
}  // namespace mrlocal
