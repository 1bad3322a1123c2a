// TWTCT with per-task weights (MarS section 4.4): each task of a completed job counts its
// own W_u (JobSpec::task_weights, maps then reduces) x its successful attempt's end; a job
// without them weighs each task as itself.
#include <gtest/gtest.h>

#include "hand_made_run.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {
namespace {

TEST(TaskWeightedTwtct, EachTaskCountsItsOwnWeight) {
  testing::HandMadeRun run;
  JobSpec weighted = testing::JobBuilder().Weight(100).Maps(2).Reduces(2).Build();
  weighted.task_weights = {1, 2, 3, 4};  // maps 0 and 1, then reduces 0 and 1
  run.Arrive(1, 0, weighted);
  run.Arrive(2, 0, testing::JobBuilder().Weight(5).Maps(1).Build());
  // Job 1: map 1 is preempted at 2 and ends at 6 on its second attempt; map 0 ends at 3,
  // the reduces at 8 (reduce 1) and 9 (reduce 0): 1x3 + 2x6 + 3x9 + 4x8 = 74.
  run.Attempt({1, TaskKind::kMap, 1}, 0, 0, 2, Status::Aborted("preempted"));
  run.Attempt({1, TaskKind::kMap, 0}, 1, 0, 3);
  run.Attempt({1, TaskKind::kMap, 1}, 0, 2, 6);
  run.Attempt({1, TaskKind::kReduce, 1}, 1, 6, 8);
  run.Attempt({1, TaskKind::kReduce, 0}, 0, 6, 9);
  run.Finish(1, JobPhase::kDone, 9);
  // Job 2, no task weights: its map (4) and reduce (7) weigh 5 each: 55.
  run.Attempt({2, TaskKind::kMap, 0}, 2, 1, 4);
  run.Attempt({2, TaskKind::kReduce, 0}, 2, 4, 7);
  run.Finish(2, JobPhase::kDone, 7);

  MetricsContext context;
  context.total_slots = 3;
  const WorkloadMetrics m = ComputeMetrics(run.rec, context);
  EXPECT_DOUBLE_EQ(m.twtct, 74 + 55);
  EXPECT_DOUBLE_EQ(m.twjct_abs, 100 * 9 + 5 * 7) << "the job-level sum keeps the job weights";
}

}  // namespace
}  // namespace mrlocal
