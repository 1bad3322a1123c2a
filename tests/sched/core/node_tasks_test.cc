// TaskState::node_tasks and TaskRecord::node_tasks: the attempts running on the other
// slots of a task's node when it launched, the DynamicShare kNN estimator's load feature
// (sched/estimate/knn_estimator.h). Counted at launch, not at the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "sched/core/controller.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"
#include "tests/util/recording_fifo.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;
using testing::RecordingFifo;

// Node 0 has three map slots, node 1 one: four maps of one job launch in one dispatch
// round, one after another, so node 0's see 0, 1 and 2 others of their node running and
// node 1's none. Maps take 1 to 4 ms by index, so the later ones finish alone, and still
// report the load at their launch.
TEST(NodeTasks, CountsTheOtherAttemptsOnTheNodeAtLaunch) {
  SimLoop loop;
  const std::vector<SlotInfo> slots = testing::ClusterSlots("1x(3m,1r,1.0)+1x(1m,1r,1.0)");
  testing::FakeExecutor exec(loop, slots, [](const TaskRef& t) -> Duration {
    return t.kind == TaskKind::kMap ? milliseconds(1 + t.index) : milliseconds(1);
  });
  RecordingFifo policy;
  auto partitioner = MakePartitioner("hash");
  ASSERT_TRUE(partitioner.ok());
  Controller controller(loop, exec, policy, slots, 2, std::move(*partitioner));
  const JobId id = controller.Submit(testing::JobBuilder("scripted")
                                         .Maps(4, 4096)
                                         .Reduces(1)
                                         .PartitionHashes(MakePartitionHashes(1, 1, 1))
                                         .Build());
  controller.RunUntilIdle();
  const JobState& job = controller.state().job(id);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  std::vector<int> node0, node1;
  for (const TaskState& m : job.maps)
    (slots[static_cast<size_t>(m.slot)].node == 0 ? node0 : node1).push_back(m.node_tasks);
  std::sort(node0.begin(), node0.end());
  EXPECT_EQ(node0, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(node1, (std::vector<int>{0}));
  EXPECT_EQ(job.reduces[0].node_tasks, 0) << "it launched once the maps were done";
  ASSERT_EQ(policy.records.size(), 5u);
  for (const TaskRecord& r : policy.records)
    EXPECT_EQ(r.node_tasks, job.task(r.task.kind, r.task.index).node_tasks);
}

}  // namespace
}  // namespace mrlocal
