// Failed attempts (issue 19, sched/core/retry.h), on a simulated loop with the tests'
// FakeExecutor: an attempt that failed for a passing reason runs again, preferably on
// another node, and its job succeeds; a task that keeps failing fails its job after
// max_attempts with every attempt's reason; bad input fails at once; a node where
// attempts of several jobs failed is excluded for a while, and the jobs finish elsewhere.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sched/core/controller.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;
using testing::FakeExecutor;

const Status kDiskError = Status::IoError("slot's disk: Input/output error");

JobSpec MakeSpec(uint32_t maps, int nodes) {
  return testing::JobBuilder("scripted")
      .Maps(maps, 4096)
      .SpreadOver(nodes)
      .Reduces(1)
      .PartitionHashes(MakePartitionHashes(1, 1, 1))
      .Build();
}

ControllerOptions NoTicks() {
  ControllerOptions o;
  o.observer_tick = Duration::zero();
  return o;
}

struct Harness : ControllerObserver {
  SimLoop loop;
  std::vector<SlotInfo> slots;
  FakeExecutor exec;
  FifoPolicy fifo;
  std::unique_ptr<Controller> controller;
  std::vector<NodeId> excluded;

  explicit Harness(const std::string& cluster, ControllerOptions options = NoTicks())
      : slots(testing::ClusterSlots(cluster)),
        exec(loop, slots, [](const TaskRef&) -> Duration { return milliseconds(10); }) {
    int nodes = 0;
    for (const SlotInfo& s : slots) nodes = std::max(nodes, s.node + 1);
    controller = std::make_unique<Controller>(loop, exec, fifo, slots, nodes,
                                              MakePartitioner("hash").value(), options);
    controller->AddObserver(this);
  }
  void OnNodeExcluded(NodeId node, Time, Time) override {
    excluded.push_back(node);
    launches_when_excluded = exec.launches.size();
  }
  size_t launches_when_excluded = 0;

  // The nodes the attempts of `task` ran on, in launch order.
  std::vector<NodeId> NodesOf(const TaskRef& task) const {
    std::vector<NodeId> nodes;
    for (const TaskLaunch& l : exec.launches)
      if (l.task == task) nodes.push_back(slots[l.slot].node);
    return nodes;
  }
};

TEST(Retry, AnAttemptThatFailedForAPassingReasonRunsAgainOnAnotherNode) {
  Harness h("2x(1m,1r,1.0)");
  const JobId id = h.controller->Submit(MakeSpec(6, 2));
  const TaskRef flaky{id, TaskKind::kMap, 0};
  h.exec.FailTask(flaky, kDiskError, 2);
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kDone);
  const JobOutcome& outcome = h.controller->outcome(id);
  EXPECT_EQ(outcome.retries, 2u);
  ASSERT_EQ(outcome.failed_attempts.size(), 2u);
  EXPECT_EQ(outcome.failed_attempts[0].rfind("map 0 attempt 1 on slot ", 0), 0u)
      << outcome.failed_attempts[0];
  EXPECT_NE(outcome.failed_attempts[0].find(kDiskError.message()), std::string::npos);
  // The retry ran on the other node; once it had failed on both, anywhere.
  const std::vector<NodeId> nodes = h.NodesOf(flaky);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_NE(nodes[1], nodes[0]);
  EXPECT_TRUE(h.exec.finished.at(id));
  EXPECT_EQ(h.controller->stats().retries, 2u);
}

TEST(Retry, ATaskThatFailsMaxAttemptsTimesFailsItsJobListingEveryAttempt) {
  Harness h("2x(1m,1r,1.0)");
  const JobId id = h.controller->Submit(MakeSpec(4, 2));
  h.exec.FailTask({id, TaskKind::kMap, 2}, kDiskError);
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(id);
  EXPECT_EQ(job.phase, JobPhase::kFailed);
  const JobOutcome& outcome = h.controller->outcome(id);
  EXPECT_EQ(outcome.failed_attempts.size(), 4u);  // mapreduce.map.maxattempts
  EXPECT_EQ(outcome.retries, 3u);
  EXPECT_EQ(outcome.failure.code(), Status::Code::kIoError);
  EXPECT_EQ(job.failure, "map 2 (4 attempts failed; the last: " + kDiskError.message() + ")");
  EXPECT_FALSE(h.exec.finished.at(id)) << "output must be aborted, not committed";
}

TEST(Retry, MaxAttemptsOneRetriesNothing) {
  ControllerOptions options = NoTicks();
  options.retry.max_attempts = 1;
  Harness h("2x(1m,1r,1.0)", options);
  const JobId id = h.controller->Submit(MakeSpec(4, 2));
  h.exec.FailTask({id, TaskKind::kMap, 2}, kDiskError, 1);
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kFailed);
  EXPECT_EQ(h.controller->state().job(id).failure, kDiskError.message());
  EXPECT_EQ(h.controller->outcome(id).retries, 0u);
}

// What running again cannot change fails at once: a malformed record, a missing block,
// a block whose every replica is corrupt.
TEST(Retry, BadInputFailsTheJobAtOnce) {
  for (const Status& why : {Status::InvalidArgument("in.txt:7: not an edge: \"x\""),
                            Status::NotFound("in.txt: no such file"),
                            Status::Corruption("block 3: all 2 replicas are corrupt")}) {
    Harness h("2x(1m,1r,1.0)");
    const JobId id = h.controller->Submit(MakeSpec(4, 2));
    const TaskRef bad{id, TaskKind::kMap, 1};
    h.exec.FailTask(bad, why);
    h.controller->RunUntilIdle();
    EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kFailed) << why.message();
    EXPECT_EQ(h.controller->state().job(id).failure, why.message());
    EXPECT_EQ(h.NodesOf(bad).size(), 1u) << why.message();
    EXPECT_EQ(h.controller->outcome(id).retries, 0u);
  }
}

TEST(Retry, ANodeWhereAttemptsOfThreeJobsFailedIsExcludedAndTheJobsFinishElsewhere) {
  Harness h("3x(1m,1r,1.0)");
  h.exec.FailSlot(0, kDiskError);  // node 0's map slot
  std::vector<JobId> jobs;
  for (int j = 0; j < 4; ++j) jobs.push_back(h.controller->Submit(MakeSpec(3, 3)));
  h.controller->RunUntilIdle();
  for (JobId id : jobs) EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kDone) << id;
  ASSERT_EQ(h.excluded, std::vector<NodeId>{0});
  EXPECT_EQ(h.controller->stats().node_exclusions, 1u);
  // Once excluded (for a minute, longer than the run), node 0 took nothing more: neither
  // its map slot nor its reduce slot, whose planned reduces went to the others.
  for (size_t k = h.launches_when_excluded; k < h.exec.launches.size(); ++k)
    EXPECT_NE(h.slots[h.exec.launches[k].slot].node, 0) << "launch " << k;
  EXPECT_LT(h.loop.Now(), milliseconds(1000)) << "the run waited for the exclusion to end";
  EXPECT_LT(h.launches_when_excluded, h.exec.launches.size());
}

TEST(Retry, NoNodeIsExcludedWhenThatWouldTakeMoreThanAThirdOfTheCluster) {
  Harness h("2x(1m,1r,1.0)");
  h.exec.FailSlot(0, kDiskError);
  std::vector<JobId> jobs;
  for (int j = 0; j < 4; ++j) jobs.push_back(h.controller->Submit(MakeSpec(2, 2)));
  h.controller->RunUntilIdle();
  EXPECT_TRUE(h.excluded.empty());
  // Without exclusion node 0 kept failing; a task whose retries all landed there failed
  // its job, and the report says so, attempt by attempt.
  for (JobId id : jobs) {
    const JobOutcome& outcome = h.controller->outcome(id);
    if (h.controller->state().job(id).phase == JobPhase::kFailed) {
      EXPECT_EQ(outcome.failed_attempts.size(), 4u);
    }
  }
}

}  // namespace
}  // namespace mrlocal
