// The tests' FakeExecutor (tests/util/fake_executor.h) under the real Controller: what
// other tests rely on it for — scripted times, failures, sketches, and the same schedule
// whether its reports are posted or taken on the loop thread.
#include "tests/util/fake_executor.h"

#include <gtest/gtest.h>

#include "sched/core/controller.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::FakeExecutor;
using testing::FakeExecutorOptions;
using testing::JobBuilder;

struct Harness {
  explicit Harness(FakeExecutorOptions options = {})
      : exec(
            loop, slots, [](const TaskRef& t) { return seconds(t.kind == TaskKind::kMap ? 2 : 3); },
            std::move(options)),
        controller(loop, exec, fifo, slots, 2, std::move(MakePartitioner("dp-sketch")).value()) {}

  JobId Submit() { return controller.Submit(JobBuilder().Maps(4).Reduces(2).Build()); }

  // Map slots 0 (speed 1.0) and 1 (0.5), reduce slots 2 (1.0) and 3 (0.5).
  const std::vector<SlotInfo> slots = testing::ClusterSlots("1x(1m,1r,1.0)+1x(1m,1r,0.5)");
  SimLoop loop;
  FakeExecutor exec;
  FifoPolicy fifo;
  Controller controller;
};

TEST(FakeExecutor, RunsEachTaskForItsTimeOverItsSlotsSpeedAndRecordsIt) {
  Harness run;
  const JobId id = run.Submit();
  run.controller.RunUntilIdle();
  EXPECT_EQ(run.controller.state().job(id).phase, JobPhase::kDone);
  EXPECT_EQ(run.exec.launches.size(), 6u);
  EXPECT_TRUE(run.exec.finished.at(id));
  ASSERT_TRUE(run.exec.plans.count(id));
  // Map 0 on the fast slot [0, 2], map 1 on the slow one [0, 4], map 2 fast [2, 4].
  EXPECT_EQ(run.exec.runs.at({id, TaskKind::kMap, 1}),
            (FakeExecutor::Run{1, seconds(0), seconds(4)}));
  EXPECT_EQ(run.exec.runs.at({id, TaskKind::kMap, 2}),
            (FakeExecutor::Run{0, seconds(2), seconds(4)}));
}

TEST(FakeExecutor, ATaskMadeToFailFailsItsJob) {
  Harness run;
  const JobId id = run.Submit();
  run.exec.FailTask({id, TaskKind::kMap, 2}, Status::Corruption("block 2: no good replica"));
  run.controller.RunUntilIdle();
  const JobState& job = run.controller.state().job(id);
  EXPECT_EQ(job.phase, JobPhase::kFailed);
  EXPECT_EQ(job.failure, "block 2: no good replica");
  EXPECT_FALSE(run.exec.finished.at(id));
}

TEST(FakeExecutor, CancelEndsTheRunningAttemptsThen) {
  FakeExecutorOptions on_loop;
  on_loop.reports_on_loop_thread = true;
  for (const FakeExecutorOptions& options : {FakeExecutorOptions{}, on_loop}) {
    Harness run(options);
    const JobId id = run.Submit();
    run.loop.At(seconds(1), [&run] { run.controller.AbortAll(Status::Aborted("stopped")); });
    run.controller.RunUntilIdle();
    EXPECT_EQ(run.controller.state().job(id).phase, JobPhase::kFailed);
    EXPECT_FALSE(run.exec.finished.at(id));
    for (uint32_t map : {0u, 1u})
      EXPECT_EQ(run.exec.runs.at({id, TaskKind::kMap, map}),
                (FakeExecutor::Run{static_cast<SlotId>(map), seconds(0), seconds(1), true}));
    EXPECT_EQ(run.exec.launches.size(), 2u);
  }
}

TEST(FakeExecutor, MapsReportSketchesThePartitionerPlansWith) {
  FakeExecutorOptions options;
  options.sketch_hashes = MakePartitionHashes(2, 8, 1);
  Harness run(options);
  const JobId id = run.controller.Submit(
      JobBuilder().Maps(4).Reduces(2).PartitionHashes(options.sketch_hashes).Build());
  run.controller.RunUntilIdle();
  EXPECT_EQ(run.controller.outcome(id).map_output_units, 4 * options.map_output_units);
  ASSERT_TRUE(run.exec.plans.count(id));
  EXPECT_EQ(run.exec.plans.at(id).owner.size(), 8u);
}

TEST(FakeExecutor, TheScheduleIsTheSameWhetherReportsArePostedOrTakenOnTheLoopThread) {
  Harness posted;
  FakeExecutorOptions on_loop;
  on_loop.reports_on_loop_thread = true;
  Harness direct(on_loop);
  for (Harness* run : {&posted, &direct}) {
    run->Submit();
    run->Submit();
    run->controller.RunUntilIdle();
  }
  EXPECT_EQ(posted.exec.runs, direct.exec.runs);
}

}  // namespace
}  // namespace mrlocal
