// The Runtime as front ends use it: a small simulated workload, a real WordCount job whose
// counts match an independent count, and Ctrl-C turned into an aborted run that writes
// nothing.
#include "tools/runtime/runtime.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

#include "datasets/text_generator.h"
#include "sched/report/run_recorder.h"
#include "tests/util/test_util.h"
#include "tools/runtime/interrupt.h"
#include "tools/runtime/job_apps.h"
#include "tools/runtime/job_run.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

ClusterSpec Cluster(std::string_view text) {
  Result<ClusterSpec> c = ClusterSpec::Parse(text);
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? *c : ClusterSpec::Default(1);
}

// A simulated job: maps and reduces of the given seconds of work at speed 1.0.
RuntimeJob SimulatedJob(std::string name, std::vector<double> maps, std::vector<double> reduces) {
  RuntimeJob job;
  job.spec.name = std::move(name);
  job.spec.app = "synthetic";
  job.spec.maps.assign(maps.size(), {1, {}});
  job.spec.reduces = static_cast<uint32_t>(reduces.size());
  job.spec.partition_hashes = MakePartitionHashes(1, job.spec.reduces, /*seed=*/1);
  SimJob sim;
  sim.map_work_s = std::move(maps);
  sim.reduce_work_s = std::move(reduces);
  job.work = std::move(sim);
  return job;
}

// A simulated runtime of one map and one reduce slot, under fifo.
std::unique_ptr<Runtime> OneSlotOfEach() {
  RuntimeOptions options;
  options.cluster = Cluster("1x(1m,1r,1.0)");
  options.partitioner = "hash";
  options.controller.observer_tick = Duration::zero();
  auto runtime = Runtime::Simulated(std::move(options));
  EXPECT_TRUE(runtime.ok()) << runtime.status().message();
  return runtime.ok() ? std::move(runtime).value() : nullptr;
}

TEST(Runtime, RunsASimulatedWorkloadInVirtualTime) {
  std::unique_ptr<Runtime> runtime = OneSlotOfEach();
  RunRecorder recorder;
  runtime->AddObserver(&recorder);
  const JobId a = runtime->Submit(SimulatedJob("a", {1, 1}, {2}));
  runtime->SubmitAt(FromSeconds(0.5), [](JobId) { return SimulatedJob("b", {1}, {1}); });
  runtime->Run();

  ASSERT_EQ(recorder.jobs().size(), 2u);
  const JobRecord* first = recorder.job(a);
  ASSERT_NE(first, nullptr);
  // fifo on one map and one reduce slot: a's maps 0-2 s, its reduce 2-4 s; b's map 2-3 s,
  // its reduce once the slot is free, 4-5 s.
  EXPECT_TRUE(first->completed());
  EXPECT_EQ(first->finish, FromSeconds(4));
  const JobRecord& second = recorder.jobs()[1];
  EXPECT_EQ(second.name, "b");
  EXPECT_TRUE(second.completed());
  EXPECT_EQ(second.arrival, FromSeconds(0.5));
  EXPECT_EQ(second.finish, FromSeconds(5));
  EXPECT_TRUE(runtime->simulated());
  EXPECT_EQ(runtime->task_events(), 2u * 5);  // 5 attempts, each a start and an end
}

TEST(Runtime, CancelEndsOneJobAndTheOthersRunOn) {
  std::unique_ptr<Runtime> runtime = OneSlotOfEach();
  RunRecorder recorder;
  runtime->AddObserver(&recorder);
  const JobId a = runtime->Submit(SimulatedJob("a", {2, 2}, {2}));
  const JobId b = runtime->Submit(SimulatedJob("b", {1}, {1}));
  runtime->loop().At(FromSeconds(1), [&] { EXPECT_TRUE(runtime->Cancel(a).ok()); });
  runtime->Run();

  // a's first map is cancelled at 1 s; b's map runs 1-2 s and its reduce 2-3 s.
  EXPECT_EQ(recorder.job(a)->phase, JobPhase::kFailed);
  EXPECT_EQ(recorder.job(a)->failure, "cancelled");
  EXPECT_TRUE(recorder.job(b)->completed());
  EXPECT_EQ(recorder.job(b)->finish, FromSeconds(3));
  EXPECT_EQ(runtime->Cancel(42).code(), Status::Code::kNotFound);
}

TEST(Runtime, ShutdownAbortsTheRunningJobsAndDropsLaterArrivals) {
  std::unique_ptr<Runtime> runtime = OneSlotOfEach();
  RunRecorder recorder;
  runtime->AddObserver(&recorder);
  const JobId a = runtime->Submit(SimulatedJob("a", {5}, {5}));
  runtime->SubmitAt(FromSeconds(60), [](JobId) { return SimulatedJob("late", {1}, {1}); });
  runtime->loop().At(FromSeconds(1), [&] { runtime->Shutdown(Status::Aborted("stop")); });
  runtime->Run();

  ASSERT_EQ(recorder.jobs().size(), 1u) << "the run ended before the late job arrived";
  EXPECT_EQ(recorder.job(a)->phase, JobPhase::kFailed);
  EXPECT_EQ(recorder.job(a)->failure, "stop");
  EXPECT_EQ(runtime->loop().Now(), FromSeconds(1));
}

TEST(Runtime, RefusesWhatItCannotRun) {
  RuntimeOptions bad_policy;
  bad_policy.cluster = Cluster("1x(1m,1r,1.0)");
  bad_policy.policy = "lottery";
  EXPECT_FALSE(Runtime::Simulated(bad_policy).ok());
  RuntimeOptions bad_node;
  bad_node.cluster = Cluster("2x(1m,1r,1.0)");
  bad_node.availability[2] = SpeedProfile{{FromSeconds(1)}, {0.5}};
  auto r = Runtime::Simulated(bad_node);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "availability names node 2 but the cluster has 2 nodes");
}

// A real job through the same path as `mrlocal wordcount`: inputs into the block store,
// the run, the committed output.
class RealJobRun : public ::testing::Test {
 protected:
  JobRequest Request(const JobApp& app, uint64_t text_bytes, std::string_view cluster) {
    TextOptions t;
    t.bytes = text_bytes;
    t.vocabulary = 3000;
    text_ = GenerateText(t);
    testing::WriteFile(dir_ / "in.txt", text_);
    JobRequest r;
    r.app = &app;
    r.inputs = {(dir_ / "in.txt").string()};
    r.output = (dir_ / "out").string();
    r.cluster = Cluster(cluster);
    r.reduces = 2;
    r.partitions = 8;
    r.block_size = 256 << 10;
    r.pin = false;
    return r;
  }

  testing::ScratchDir dir_;
  std::string text_;
};

TEST_F(RealJobRun, WordCountCountsMatchAnIndependentCount) {
  const JobApp app = WordCountApp();
  auto run = JobRun::Prepare(Request(app, 2 << 20, "1x(2m,2r,1.0)"), {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const Submission s = (*run)->Submit();
  EXPECT_TRUE(s.admitted);
  (*run)->Run(nullptr);
  ASSERT_EQ((*run)->job().phase, JobPhase::kDone) << (*run)->job().failure;
  EXPECT_EQ((*run)->job().M(), 8u);  // 2 MiB in blocks of 256 KiB

  std::map<std::string, std::string> want;
  for (const auto& [word, count] : testing::ReferenceWordCount(text_))
    want[word] = std::to_string(count);
  EXPECT_EQ(testing::ReadJobOutput(dir_ / "out"), want);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
}

// Ctrl-C during the run: the runtime aborts the job, its tasks stop, nothing is written.
TEST_F(RealJobRun, AnInterruptAbortsTheRunAndWritesNothing) {
  const JobApp app = WordCountApp();
  // A slow slot: the job takes seconds, the signal comes with its first task.
  auto run = JobRun::Prepare(Request(app, 4 << 20, "1x(1m,1r,0.05)"), {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  struct RaiseOnFirstTask final : ControllerObserver {
    void OnTaskStart(const TaskLaunch&, Time) override {
      if (!raised) std::raise(SIGINT);
      raised = true;
    }
    bool raised = false;
  } raise_sigint;
  (*run)->AddObserver(&raise_sigint);
  Interrupt interrupt;
  ASSERT_TRUE((*run)->Submit().admitted);
  (*run)->Run(&interrupt);

  EXPECT_EQ(interrupt.signal(), SIGINT);
  EXPECT_EQ((*run)->job().phase, JobPhase::kFailed);
  EXPECT_EQ((*run)->job().failure, "interrupted (SIGINT)");
  EXPECT_EQ((*run)->outcome().failure.code(), Status::Code::kAborted);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename(), "in.txt") << "no output, no temporary";
}

}  // namespace
}  // namespace mrlocal
