// A planning policy's preview of WordCount jobs (tools/runtime/job_set_preview.h): one map
// per block timed by the calibrated model, reduces sharing the model's shuffle; jobs whose
// app has no model, and clusters a plan cannot run on, refused with one line.
#include "tools/runtime/job_set_preview.h"

#include <gtest/gtest.h>

#include "datasets/workload_presets.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

WorkloadSpec WordCountSet(size_t jobs) {
  auto spec = MakePreset("mars-wordcount", 3, {.jobs = jobs});  // generated text: no dir
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return *spec;
}

TEST(JobSetPreview, AWordCountJobHasOneMapPerBlockTimedByTheModel) {
  const WorkloadSpec spec = WordCountSet(10);
  const Calibration calibration = Calibration::BuiltIn();
  const AppModel model = *calibration.Find("wordcount");
  auto preview = JobSetPreview(spec, *spec.cluster, AppRegistry::BuiltIn(), calibration);
  ASSERT_TRUE(preview.ok()) << preview.status().message();
  EXPECT_TRUE(preview->modelled_work);
  EXPECT_EQ(preview->instance.machine_speeds, std::vector<double>(16, 0.1));
  ASSERT_EQ(preview->instance.jobs.size(), 10u);
  for (size_t j = 0; j < spec.jobs.size(); ++j) {
    const WorkloadJob& job = spec.jobs[j];
    const PlanJob& p = preview->instance.jobs[j];
    SCOPED_TRACE(job.name);
    EXPECT_EQ(p.name, job.name);
    EXPECT_EQ(p.release, job.arrival_s);
    EXPECT_EQ(p.weight, job.weight);
    const uint64_t bytes = job.input.bytes;
    ASSERT_EQ(p.maps.size(), (bytes + (64 << 10) - 1) / (64 << 10)) << "one map per 64 KiB";
    ASSERT_EQ(p.reduces.size(), std::max<size_t>(1, p.maps.size() / 2));
    uint64_t covered = 0;
    for (double w : p.maps) {
      const uint64_t split = bytes / p.maps.size() + (covered < bytes % p.maps.size() ? 1 : 0);
      EXPECT_GT(w, 0);
      EXPECT_DOUBLE_EQ(w, model.MapSeconds(double(split)));
      ++covered;
    }
    for (double w : p.reduces) EXPECT_GT(w, 0);
  }
}

TEST(JobSetPreview, SyntheticJobsKeepTheirDeclaredWork) {
  auto spec = MakePreset("mars-uniform", 1, {.jobs = 2});
  ASSERT_TRUE(spec.ok());
  auto preview =
      JobSetPreview(*spec, *spec->cluster, AppRegistry::BuiltIn(), Calibration::BuiltIn());
  ASSERT_TRUE(preview.ok()) << preview.status().message();
  EXPECT_FALSE(preview->modelled_work);
  EXPECT_EQ(preview->instance.jobs[1].maps, std::vector<double>(30, 10.0));
  EXPECT_EQ(preview->instance.jobs[1].reduces, std::vector<double>(10, 15.0));
}

TEST(JobSetPreview, AnAppWithoutAModelIsNamedWithTheCommandThatMakesOne) {
  const WorkloadSpec spec = WordCountSet(2);
  Calibration pi_only;
  pi_only.source = "file calibration.json";
  pi_only.apps["pi"] = Calibration::BuiltIn().apps.at("pi");
  WorkloadRunOptions o;
  o.policy = "mars";
  o.cluster = *spec.cluster;
  o.calibration = pi_only;
  auto run = RunWorkloadSim(spec, o);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(run.status().message(),
            "policy 'mars' plans over the whole job set before the run: job '" + spec.jobs[0].name +
                "': app 'wordcount' has no task-time model in the file calibration.json "
                "calibration, and a plan needs every task's time (run `mrlocal calibrate --apps "
                "wordcount`, or give --calibration FILE)");
  o.policy = "fifo";  // needs no plan; the simulation itself then says what it lacks
  EXPECT_FALSE(RunWorkloadSim(spec, o).ok());
}

TEST(JobSetPreview, APlanOnANodeWithoutAReduceSlotIsRefused) {
  auto spec = MakePreset("mars-uniform", 1, {.jobs = 2});
  ASSERT_TRUE(spec.ok());
  WorkloadRunOptions o;
  o.policy = "huwf";
  o.cluster = *ClusterSpec::Parse("1x(1m,1r,1.0,1t)+2x(1m,0r,1.0,1t)");
  auto run = RunWorkloadSim(*spec, o);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(),
            "policy 'huwf' runs each node's planned maps and reduces on its own slots, and node "
            "1 has no reduce slot: give every node both (--cluster, e.g. '4x(1m,1r,1.0,1t)')");
  o.policy = "fifo";
  EXPECT_TRUE(RunWorkloadSim(*spec, o).ok());
}

}  // namespace
}  // namespace mrlocal
