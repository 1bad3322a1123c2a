// TWTCT, the task-level objective of MarS's section 4.4, as a workload metric: each task of
// a completed job weighs its job's weight and counts its successful attempt's end on the
// run's clock; failed and preempted attempts and unfinished jobs count nothing.
#include <gtest/gtest.h>

#include <optional>

#include "hand_made_run.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {
namespace {

TEST(Twtct, SumsEachTasksEndTimesItsJobsWeight) {
  testing::HandMadeRun run;
  auto job = [&](JobId id, int arrival, double weight) {
    run.Arrive(id, arrival, testing::JobBuilder().Weight(weight).Maps(2).Build(),
               Admission::Yes("ok"));
  };
  job(1, 0, 2.0);
  job(2, 1, 3.0);
  job(3, 1, 5.0);
  // Job 1 (weight 2): maps end at 4 and 5 (the first one preempted at 2 and run again), its
  // reduce at 7: 2 x (4 + 5 + 7) = 32.
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 2, Status::Aborted("preempted"));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 2, 4);
  run.Attempt({1, TaskKind::kMap, 1}, 1, 1, 5);
  run.Attempt({1, TaskKind::kReduce, 0}, 0, 5, 7);
  run.Finish(1, JobPhase::kDone, 7);
  // Job 2 (weight 3): a map fails at 3, runs again to 6; the other ends at 2; reduce at 9:
  // 3 x (6 + 2 + 9) = 51.
  run.Attempt({2, TaskKind::kMap, 0}, 1, 1, 3, Status::Corruption("bad block"));
  run.Attempt({2, TaskKind::kMap, 0}, 1, 3, 6);
  run.Attempt({2, TaskKind::kMap, 1}, 2, 1, 2);
  run.Attempt({2, TaskKind::kReduce, 0}, 2, 6, 9);
  run.Finish(2, JobPhase::kDone, 9);
  // Job 3 fails: its finished map counts nothing.
  run.Attempt({3, TaskKind::kMap, 0}, 3, 1, 4);
  run.Finish(3, JobPhase::kFailed, 4);

  MetricsContext context;
  context.total_slots = 4;
  const WorkloadMetrics m = ComputeMetrics(run.rec, context);
  EXPECT_DOUBLE_EQ(m.twtct, 32 + 51);
  EXPECT_DOUBLE_EQ(m.twjct_abs, 2 * 7 + 3 * 9) << "the job-level sum beside it";
  EXPECT_FALSE(m.task_lp_bound.has_value()) << "the front end sets the bound";
}

}  // namespace
}  // namespace mrlocal
