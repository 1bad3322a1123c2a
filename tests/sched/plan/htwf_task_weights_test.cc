// HTWF orders by each task's own weight W_u: on a mars-random workload drawn with task
// weights its plan is not HJWF's, and without them it is.
#include <gtest/gtest.h>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "sched/plan/baselines.h"

namespace mrlocal {
namespace {

PlanInstance Instance(bool task_weights) {
  PresetOptions o{.jobs = 6};
  if (task_weights) o.parameters["task-weights"] = 1;
  auto spec = MakePreset("mars-random", 4, o);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  EXPECT_TRUE(in.ok()) << in.status().message();
  return in.ok() ? *in : PlanInstance{};
}

TEST(HtwfTaskWeights, PlansOtherwiseThanHjwfWhenTasksHaveTheirOwnWeights) {
  const PlanInstance in = Instance(true);
  auto htwf = HtwfPlan(in), hjwf = HjwfPlan(in);
  ASSERT_TRUE(htwf.ok() && hjwf.ok());
  EXPECT_TRUE(CheckSchedule(in, *htwf).ok());
  EXPECT_NE(htwf->start, hjwf->start);
  EXPECT_LT(WeightedTaskCompletion(in, *htwf), WeightedTaskCompletion(in, *hjwf))
      << "HTWF serves the heavy tasks first, the objective it is after";
}

TEST(HtwfTaskWeights, PlansAsHjwfWithoutThem) {
  const PlanInstance in = Instance(false);
  auto htwf = HtwfPlan(in), hjwf = HjwfPlan(in);
  ASSERT_TRUE(htwf.ok() && hjwf.ok());
  EXPECT_EQ(htwf->start, hjwf->start);
  EXPECT_EQ(htwf->machine, hjwf->machine);
}

}  // namespace
}  // namespace mrlocal
