// A node's task limit (ClusterSpec "(1m,1r,1.0,1t)", ControllerOptions::node_task_limits):
// MarS's machines run one task at a time, map or reduce. The Controller offers no slot of a
// node at its limit, and refuses a task a policy puts there anyway.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"
#include "tests/util/recording_fifo.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::RecordingFifo;

struct Outcome {
  std::vector<TaskRecord> records;
  Time end{0};
  std::vector<SlotInfo> slots;
};

// Two jobs of 3 maps and 1 reduce, every task 1 s, released at once, under FIFO with
// Hadoop's reduce slow-start (a reduce may take its slot while maps still run).
Outcome TwoJobsOn(const char* cluster) {
  SimLoop loop;
  const ClusterSpec spec = *ClusterSpec::Parse(cluster);
  Outcome run;
  run.slots = spec.Slots();
  testing::FakeExecutor exec(loop, run.slots,
                             [](const TaskRef&) -> Duration { return seconds(1); });
  RecordingFifo policy;
  ControllerOptions options;
  options.observer_tick = Duration::zero();
  options.reduce_slowstart = 0.05;
  options.node_task_limits = spec.NodeTaskLimits();
  Controller controller(loop, exec, policy, run.slots, spec.nodes(),
                        std::move(MakePartitioner("hash")).value(), options);
  for (int j = 0; j < 2; ++j)
    controller.Submit(testing::JobBuilder("scripted")
                          .Maps(3, 4096)
                          .Reduces(1)
                          .PartitionHashes(MakePartitionHashes(1, 1, 1))
                          .Build());
  controller.RunUntilIdle();
  run.records = policy.records;
  run.end = loop.Now();
  return run;
}

// The largest number of attempts running at once on one node.
int MostAtOnce(const Outcome& run) {
  int most = 0;
  for (const TaskRecord& a : run.records) {
    int n = 0;
    for (const TaskRecord& b : run.records)
      if (run.slots[b.slot].node == run.slots[a.slot].node && b.start <= a.start && a.start < b.end)
        ++n;
    most = std::max(most, n);
  }
  return most;
}

TEST(NodeTaskLimit, AMachineRunsOneTaskAtATime) {
  const Outcome limited = TwoJobsOn("2x(1m,1r,1.0,1t)");
  ASSERT_EQ(limited.records.size(), 8u);
  for (const TaskRecord& r : limited.records) EXPECT_EQ(r.node_tasks, 0);
  EXPECT_EQ(MostAtOnce(limited), 1);
  // 8 tasks of 1 s on 2 machines: 4 s at best, and FIFO reaches it.
  EXPECT_EQ(limited.end, Time(seconds(4)));
  // Without the limit the same nodes overlap maps and reduces.
  const Outcome free = TwoJobsOn("2x(1m,1r,1.0)");
  EXPECT_EQ(MostAtOnce(free), 2);
}

TEST(NodeTaskLimit, ParsedPrintedAndChecked) {
  auto spec = ClusterSpec::Parse("50x(1m,1r,1.0,1t)+1x(4m, 2r, 0.5, 3T)");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->ToString(), "50x(1m,1r,1.0,1t)+1x(4m,2r,0.5,3t)");
  std::vector<int> limits(50, 1);
  limits.push_back(3);
  EXPECT_EQ(spec->NodeTaskLimits(), limits);
  EXPECT_EQ(ClusterSpec::Parse("2x(1m,1r,1.0)")->NodeTaskLimits(), (std::vector<int>{0, 0}));
  EXPECT_EQ(spec->TaskCapacity(), 50 + 3);
  EXPECT_EQ(ClusterSpec::Parse("2x(4m,1r,1.0)")->TaskCapacity(), 10);
  EXPECT_EQ(ClusterSpec::Parse("1x(1m,1r,1.0,3t)").status().message(),
            "--cluster '1x(1m,1r,1.0,3t)': a node's task limit must be 1 to its slots (2) at "
            "position 14 (form: N x (Mm,Rr,S[,Tt]), e.g. 2x(4m,1r,1.0)+1x(2m,1r,0.5) or "
            "50x(1m,1r,1.0,1t))");
  EXPECT_FALSE(ClusterSpec::Parse("1x(1m,1r,1.0,0t)").ok());
  EXPECT_FALSE(ClusterSpec::Parse("1x(1m,1r,1.0,1)").ok());
}

}  // namespace
}  // namespace mrlocal
