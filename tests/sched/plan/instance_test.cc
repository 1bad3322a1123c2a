// An MSJO instance and a schedule's feasibility (Ling et al. 2016, eqs. 1-3), on a case
// worked by hand: two jobs on two identical machines.
#include "sched/plan/instance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mrlocal {
namespace {

// Job 0: maps 2 and 1, reduce 3, delay 1, weight 2, released at 0.
// Job 1: one map of 4, no reduce, weight 1, released at 1.
PlanInstance TwoJobs() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({0, 2, 1, {2, 1}, {3}});
  in.jobs.push_back({1, 1, 0, {4}, {}});
  return in;
}

TEST(PlanInstance, FlattensJobByJobMapsFirst) {
  const std::vector<PlanTask> t = FlattenTasks(TwoJobs());
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].job, 0);
  EXPECT_FALSE(t[1].reduce);
  EXPECT_TRUE(t[2].reduce);
  EXPECT_EQ(t[2].work, 3);
  EXPECT_EQ(t[3].job, 1);
}

TEST(PlanInstance, AFeasibleScheduleAndItsObjective) {
  // Machine 0: map 2 [0,2), then reduce at 2 + 1 = 3 .. 6; machine 1: map 1 [0,1), job 1's
  // map [1,5). C = 6 and 5: 2 * 6 + 1 * 5 = 17.
  const Schedule s{{0, 1, 0, 1}, {0, 0, 3, 1}};
  EXPECT_TRUE(CheckSchedule(TwoJobs(), s).ok()) << CheckSchedule(TwoJobs(), s).message();
  EXPECT_EQ(JobCompletions(TwoJobs(), s), (std::vector<double>{6, 5}));
  EXPECT_DOUBLE_EQ(WeightedCompletion(TwoJobs(), s), 17);
}

TEST(PlanInstance, NamesTheViolatedConstraint) {
  auto why = [](Schedule s) { return CheckSchedule(TwoJobs(), s).message(); };
  EXPECT_EQ(why({{0, 1, 0, 1}, {0, 0, 2.5, 1}}),
            "job 0 reduce 0 starts before its maps' end plus the delay");
  EXPECT_EQ(why({{0, 1, 0, 1}, {0, 0, 3, 0.5}}), "job 1 map 0 starts before its release");
  EXPECT_EQ(why({{0, 1, 0, 0}, {0, 0, 3, 1}}), "job 1 map 0 overlaps job 0 map 0 on machine 0");
  EXPECT_FALSE(CheckSchedule(TwoJobs(), {{0}, {0}}).ok());
}

TEST(PlanInstance, ASlowerMachineTakesLonger) {
  PlanInstance in = TwoJobs();
  in.machine_speeds[0] = 0.5;  // map 2 now ends at 4: the reduce may start at 5
  EXPECT_FALSE(CheckSchedule(in, {{0, 1, 0, 1}, {0, 0, 3, 1}}).ok());
  EXPECT_TRUE(CheckSchedule(in, {{0, 1, 1, 1}, {0, 0, 5, 1}}).ok());
}

TEST(PlanInstance, RejectsValuesOutOfRange) {
  auto bad = [](auto edit) {
    PlanInstance in = TwoJobs();
    edit(in);
    return ValidateInstance(in).message();
  };
  EXPECT_TRUE(ValidateInstance(TwoJobs()).ok());
  EXPECT_EQ(bad([](PlanInstance& in) { in.jobs[1].weight = std::nan(""); }),
            "job 1: weight is not a positive number");
  EXPECT_EQ(bad([](PlanInstance& in) { in.jobs[0].maps[0] = -1; }),
            "job 0: a task's work is not a time >= 0");
  EXPECT_EQ(bad([](PlanInstance& in) { in.machine_speeds.clear(); }), "no machine");
  EXPECT_EQ(bad([](PlanInstance& in) { in.jobs[1].maps.clear(); }), "job 1: no task");
}

}  // namespace
}  // namespace mrlocal
