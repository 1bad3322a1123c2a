// Per-task weights W_u (MarS section 4.4): a spec job's "task_weights", one per task, maps
// first; the mars-* presets' task-weights parameter; both carried into the planners'
// instance, where a job without them weighs each task as itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "datasets/workload_spec.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

Result<WorkloadSpec> ParseJob(const std::string& job) {
  return ParseWorkloadJson(R"({"jobs": [)" + job + "]}", "spec.json",
                           AppRegistry::BuiltIn().schemas());
}

// A synthetic job of 2 maps and 1 reduce with `extra` keys.
std::string Synthetic(const std::string& extra) {
  return R"({"arrival_s": 0, "app": "synthetic", "maps": 2, "reduces": 1, "map_s": 3,
             "reduce_s": 4, "weight": 7)" +
         extra + "}";
}

std::string Error(const std::string& job) {
  auto spec = ParseJob(job);
  EXPECT_FALSE(spec.ok()) << job;
  return spec.ok() ? "" : spec.status().message();
}

TEST(TaskWeightsSpec, OneWeightPerTaskMapsFirst) {
  auto spec = ParseJob(Synthetic(R"(, "task_weights": [1.5, 2, 30])"));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->jobs[0].task_weights, (std::vector<double>{1.5, 2, 30}));
  EXPECT_EQ(spec->jobs[0].weight, 7) << "the job keeps its own weight beside them";
}

TEST(TaskWeightsSpec, AbsentMeansNone) {
  auto spec = ParseJob(Synthetic(""));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_TRUE(spec->jobs[0].task_weights.empty());
}

TEST(TaskWeightsSpec, EachMistakeIsOneLineNamingTheJobAndTheField) {
  EXPECT_EQ(Error(Synthetic(R"(, "task_weights": [1, 2])")),
            "spec.json: jobs[0].task_weights: must be a list of 3 positive numbers, one per task "
            "(2 maps, then 1 reduces) (got [1,2])");
  EXPECT_EQ(Error(Synthetic(R"(, "task_weights": 5)")),
            "spec.json: jobs[0].task_weights: must be a list of 3 positive numbers, one per task "
            "(2 maps, then 1 reduces) (got 5)");
  EXPECT_EQ(Error(Synthetic(R"(, "task_weights": [1, 0, 2])")),
            "spec.json: jobs[0].task_weights[1]: must be a positive number (got 0)");
  EXPECT_EQ(Error(Synthetic(R"(, "task_weights": [1, 2, -3])")),
            "spec.json: jobs[0].task_weights[2]: must be a positive number (got -3)");
  EXPECT_EQ(Error(Synthetic(R"(, "task_weights": [1, "NaN", 2])")),
            "spec.json: jobs[0].task_weights[1]: must be a positive number (got \"NaN\")");
  // JSON has no NaN: a bare one is a syntax error, placed.
  EXPECT_THAT(Error(Synthetic(R"(, "task_weights": [1, NaN, 2])")), HasSubstr("JSON syntax error"));
  EXPECT_THAT(Error(Synthetic(R"(, "task_weights": [1, 1e999, 2])")),
              HasSubstr("JSON number out of range"));
  // Maps cut from an input: the count is not known while reading.
  EXPECT_EQ(Error(R"({"arrival_s": 0, "app": "wordcount", "input": {"generate": "text",
                     "size": 1000}, "task_weights": [1, 2]})"),
            "spec.json: jobs[0].task_weights: give the job's \"maps\" too: one weight per task, "
            "its maps first");
}

TEST(TaskWeightsSpec, TheBuiltJobsTaskCountIsChecked) {
  WorkloadJob job;
  job.name = "wc";
  job.task_weights = {1, 2, 3};
  EXPECT_TRUE(CheckTaskWeightCount(job, 2, 1).ok());
  EXPECT_EQ(CheckTaskWeightCount(job, 3, 1).message(),
            "job 'wc': task_weights gives 3 weights for its 3 maps and 1 reduces (an input of "
            "several files splits per file: give a weight per split)");
  job.task_weights.clear();
  EXPECT_TRUE(CheckTaskWeightCount(job, 3, 1).ok()) << "none given: nothing to count";
}

WorkloadSpec Preset(std::string_view name, bool task_weights) {
  PresetOptions o{.jobs = 8};
  if (task_weights) o.parameters["task-weights"] = 1;
  auto spec = MakePreset(name, 5, o);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : WorkloadSpec{};
}

TEST(TaskWeightsPreset, DrawsOnePositiveWeightPerTaskAndKeepsTheJobs) {
  for (std::string_view name : {"mars-random", "mars-uniform"}) {
    SCOPED_TRACE(name);
    const WorkloadSpec plain = Preset(name, false), weighted = Preset(name, true);
    ASSERT_EQ(plain.jobs.size(), weighted.jobs.size());
    double sum = 0;
    size_t n = 0;
    for (size_t j = 0; j < plain.jobs.size(); ++j) {
      const WorkloadJob &a = plain.jobs[j], &b = weighted.jobs[j];
      EXPECT_TRUE(a.task_weights.empty()) << "off by default";
      EXPECT_EQ(a.arrival_s, b.arrival_s);
      EXPECT_EQ(a.weight, b.weight);
      EXPECT_EQ(a.maps, b.maps);
      EXPECT_EQ(a.reduces, b.reduces);
      EXPECT_EQ(a.params.TaskSeconds("map_s"), b.params.TaskSeconds("map_s"));
      ASSERT_EQ(b.task_weights.size(), b.maps + b.reduces);
      for (double w : b.task_weights) {
        EXPECT_GT(w, 0);
        sum += w, ++n;
      }
    }
    EXPECT_NEAR(sum / static_cast<double>(n), 30, 3) << "N(30, 10) over " << n << " tasks";
    EXPECT_NE(weighted.jobs[0].task_weights[0], weighted.jobs[0].task_weights[1]);
  }
}

TEST(TaskWeightsPreset, OnlyTheMarsSimulationPresetsTakeIt) {
  auto spec = MakePreset("rtmr-wl1", 1, {.parameters = {{"task-weights", 1}}});
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "preset rtmr-wl1 has no parameter 'task-weights' (it has none)");
  EXPECT_EQ(CheckPresetParameter("mars-random", "task-weights", 2).message(),
            "task-weights must be an integer in [0, 1] (got 2)");
}

TEST(TaskWeightsPlanInstance, CarriesThemInTaskOrderAndFillsTheOthersWithTheJobsWeight) {
  WorkloadSpec spec = Preset("mars-uniform", true);
  spec.jobs.resize(3);
  spec.jobs[1].task_weights.clear();
  auto in = PlanInstanceOf(spec, *spec.cluster);
  ASSERT_TRUE(in.ok()) << in.status().message();
  std::vector<double> expected = spec.jobs[0].task_weights;
  expected.insert(expected.end(), 40, spec.jobs[1].weight);
  expected.insert(expected.end(), spec.jobs[2].task_weights.begin(),
                  spec.jobs[2].task_weights.end());
  EXPECT_EQ(in->task_weights, expected);
  const std::vector<PlanTask> tasks = FlattenTasks(*in);
  EXPECT_EQ(tasks[30].weight, spec.jobs[0].task_weights[30]) << "job 0's first reduce";

  spec.jobs[0].task_weights.clear();
  spec.jobs[2].task_weights.clear();
  in = PlanInstanceOf(spec, *spec.cluster);
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE(in->task_weights.empty()) << "none given: the instance's default";
}

TEST(TaskWeightsPlanInstance, AWrongCountNamesTheJob) {
  WorkloadSpec spec = Preset("mars-uniform", true);
  spec.jobs[2].task_weights.pop_back();
  auto in = PlanInstanceOf(spec, *spec.cluster);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message(),
            "job 'job2': task_weights gives 39 weights for its 30 maps and 10 reduces (an input "
            "of several files splits per file: give a weight per split)");
}

}  // namespace
}  // namespace mrlocal
