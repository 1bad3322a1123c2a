// Per-task weights from the workload to the planners and to TWTCT: the preview carries
// each task's W_u, a simulated plan's run counts them (its TWTCT is the plan's sum_u W_u
// C_u), and a job whose input splits into another number of tasks is named.
#include <gtest/gtest.h>

#include "datasets/workload_presets.h"
#include "sched/plan/planner.h"
#include "tests/util/test_util.h"
#include "tools/runtime/job_set_preview.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

WorkloadSpec WithTaskWeights(size_t jobs) {
  auto spec = MakePreset("mars-random", 2, {.jobs = jobs, .parameters = {{"task-weights", 1}}});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : WorkloadSpec{};
}

WorkloadRunOptions Options(const WorkloadSpec& spec, const std::string& policy) {
  WorkloadRunOptions o;
  o.policy = policy;
  o.cluster = *spec.cluster;
  return o;
}

TEST(TaskWeightsRun, ThePreviewCarriesEachTasksWeight) {
  const WorkloadSpec spec = WithTaskWeights(4);
  auto preview = JobSetPreview(spec, *spec.cluster, AppRegistry::BuiltIn(), Calibration::BuiltIn());
  ASSERT_TRUE(preview.ok()) << preview.status().message();
  std::vector<double> expected;
  for (const WorkloadJob& job : spec.jobs)
    expected.insert(expected.end(), job.task_weights.begin(), job.task_weights.end());
  EXPECT_EQ(preview->instance.task_weights, expected);
}

TEST(TaskWeightsRun, ASimulatedPlansTwtctIsThePlansWeightedTaskCompletion) {
  const WorkloadSpec spec = WithTaskWeights(5);
  for (const auto& [policy, planner] :
       {std::pair{"htwf", Planner::kHtwf}, std::pair{"hjwf", Planner::kHjwf}}) {
    SCOPED_TRACE(policy);
    const WorkloadRunOptions o = Options(spec, policy);
    auto preview = WorkloadPreview(spec, o);
    ASSERT_TRUE(preview.ok()) << preview.status().message();
    auto plan = MakePlan(planner, preview->instance);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto run = RunWorkloadSim(spec, o);  // no noise: the run is its plan
    ASSERT_TRUE(run.ok()) << run.status().message();
    const double planned = WeightedTaskCompletion(preview->instance, plan->schedule);
    EXPECT_NEAR(run->metrics.twtct, planned, 1e-6 * planned);
  }
}

TEST(TaskWeightsRun, AnInputSplitIntoOtherTasksThanWeightsIsNamed) {
  testing::ScratchDir dir;
  WorkloadSpec spec = WithTaskWeights(1);
  WorkloadJob& wc = spec.jobs[0];
  wc.app = "wordcount";
  wc.params = {};
  wc.maps = 2;
  wc.reduces = 1;
  wc.task_weights = {1, 2, 3};
  wc.input.kind = InputSpec::Kind::kFiles;
  for (const char* name : {"a.txt", "b.txt", "c.txt"}) {  // 2 maps' blocks: one split each
    testing::WriteFile(dir / name, "one two three\n");
    wc.input.files.push_back((dir / name).string());
  }
  auto run = RunWorkloadSim(spec, Options(spec, "fifo"));
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(),
            "job 'job0': task_weights gives 3 weights for its 3 maps and 1 reduces (an input of "
            "several files splits per file: give a weight per split)");
  wc.task_weights = {1, 2, 3, 4};
  EXPECT_TRUE(RunWorkloadSim(spec, Options(spec, "fifo")).ok());
}

}  // namespace
}  // namespace mrlocal
