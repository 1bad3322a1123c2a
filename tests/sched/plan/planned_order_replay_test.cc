// A plan made on predicted works, run on the true ones keeping each machine's order (MarS's
// Fig. 14): a long task pushes what follows it, a short one lets the next start early
// unless the plan waits for its planned starts, and a reduce waits for its maps' true end
// plus the delay.
#include "sched/plan/planned_order_replay.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

// Two machines; job 0: maps 0, 1 and reduce 2, delay 1; job 1: map 3.
PlanInstance Works(double map0, double map1, double map3) {
  PlanInstance in;
  in.machine_speeds = {1, 1};
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 1, .maps = {map0, map1}, .reduces = {2}});
  in.jobs.push_back({.release = 0, .weight = 1, .delay = 0, .maps = {map3}, .reduces = {}});
  return in;
}

// Planned on works 2, 2, 2 (and the reduce 2): machine 0 runs 0 then 3, machine 1 runs 1
// then the reduce at 2 + 1.
const Schedule kPlan{{0, 1, 1, 0}, {0, 0, 3, 2}};

TEST(PlannedOrderReplay, TheTrueWorksOfThePredictedPlanKeepIt) {
  ASSERT_TRUE(CheckSchedule(Works(2, 2, 2), kPlan).ok());
  EXPECT_EQ(ReplayInPlannedOrder(Works(2, 2, 2), kPlan, PlannedStarts::kOrderOnly)->start,
            kPlan.start);
}

TEST(PlannedOrderReplay, ALongTaskPushesItsSuccessorsAndAShortOneOnlyWithoutWaits) {
  // Map 0 takes 5: task 3 (after it on machine 0) starts at 5, and the reduce waits for
  // 5 + 1. Map 1 takes 1: machine 1 idles until the reduce may start, not before.
  Result<Schedule> run = ReplayInPlannedOrder(Works(5, 1, 2), kPlan, PlannedStarts::kWait);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->start, (std::vector<double>{0, 0, 6, 5}));
  EXPECT_EQ(run->machine, kPlan.machine);
  EXPECT_TRUE(CheckSchedule(Works(5, 1, 2), *run).ok());
  // Everything shorter: nothing starts before its planned time.
  EXPECT_EQ(ReplayInPlannedOrder(Works(1, 1, 1), kPlan, PlannedStarts::kWait)->start, kPlan.start);
  // Unless only the order counts: task 3 right after map 0 (1), the reduce at 1 + 1.
  EXPECT_EQ(ReplayInPlannedOrder(Works(1, 1, 1), kPlan, PlannedStarts::kOrderOnly)->start,
            (std::vector<double>{0, 0, 2, 1}));
}

TEST(PlannedOrderReplay, APlanOfAnotherShapeIsAnError) {
  EXPECT_EQ(ReplayInPlannedOrder(Works(2, 2, 2), {{0, 1}, {0, 0}}, PlannedStarts::kWait)
                .status()
                .message(),
            "plan: not one machine and start per task (4 tasks)");
  EXPECT_EQ(ReplayInPlannedOrder(Works(2, 2, 2), {{0, 1, 2, 0}, {0, 0, 3, 2}}, PlannedStarts::kWait)
                .status()
                .message(),
            "plan: task 2 has no machine or no finite start");
}

}  // namespace
}  // namespace mrlocal
