// A MarS workload as the planners' instance: machines per node, and each job's release,
// weight, delay and task works as the preset drew them.
#include "datasets/plan_instance.h"

#include <gtest/gtest.h>

#include "datasets/workload_presets.h"

namespace mrlocal {
namespace {

TEST(PlanInstanceOf, TheUniformPresetOnFiftyMachines) {
  auto spec = MakePreset("mars-uniform", 7);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ(in->machine_speeds, std::vector<double>(50, 1.0));
  ASSERT_EQ(in->jobs.size(), spec->jobs.size());
  for (size_t j = 0; j < in->jobs.size(); ++j) {
    const PlanJob& p = in->jobs[j];
    EXPECT_EQ(p.release, spec->jobs[j].arrival_s);
    EXPECT_EQ(p.weight, spec->jobs[j].weight);
    EXPECT_EQ(p.maps, std::vector<double>(30, 10.0));
    EXPECT_EQ(p.reduces, std::vector<double>(10, 15.0));
    EXPECT_DOUBLE_EQ(p.delay, 1.0) << "a tenth of the mean map time";
  }
}

TEST(PlanInstanceOf, TheRandomPresetKeepsEachTasksWork) {
  auto spec = MakePreset("mars-random", 3, {.jobs = 10});
  ASSERT_TRUE(spec.ok());
  auto in = PlanInstanceOf(*spec, ClusterSpec({{2, 1, 1, 0.5}, {1, 2, 1, 1.0}}));
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ(in->machine_speeds, (std::vector<double>{0.5, 0.5, 1.0}));
  for (size_t j = 0; j < in->jobs.size(); ++j) {
    EXPECT_EQ(in->jobs[j].maps, spec->jobs[j].params.TaskSeconds("map_s"));
    EXPECT_EQ(in->jobs[j].reduces, spec->jobs[j].params.TaskSeconds("reduce_s"));
  }
}

TEST(PlanInstanceOf, AJobWithoutTaskTimesIsNamed) {
  auto spec = MakePreset("mars-uniform", 1, {.jobs = 2});
  ASSERT_TRUE(spec.ok());
  spec->jobs[1].app = "wordcount";
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message(),
            "job 'job1' (wordcount): a plan needs per-task times, which only synthetic jobs give");
}

}  // namespace
}  // namespace mrlocal
