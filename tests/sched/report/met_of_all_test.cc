// WorkloadMetrics::met_all_ratio, the load sweep's "met of all jobs": every job that met its
// deadline, admitted or not, over all jobs, on a hand-made run worked out by hand.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "hand_made_run.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

// Job `id` of one map, arriving at 0 with a relative deadline of `deadline` s (none when
// absent), admitted or rejected.
void Job(testing::HandMadeRun& run, JobId id, std::optional<int> deadline, bool admitted) {
  run.Arrive(id, 0,
             testing::JobBuilder()
                 .Name("job" + std::to_string(id))
                 .Deadline(deadline ? std::optional<Duration>(seconds(*deadline)) : std::nullopt)
                 .Maps(1)
                 .Build(),
             admitted ? Admission::Yes("ok") : Admission::No("no"));
}

// Five jobs: 1 admitted, met (done at 4, deadline 5); 2 admitted, late (done at 6, deadline
// 5); 3 rejected, never ran; 4 rejected but run anyway (best effort), done at 3 by its
// deadline 5: met; 5 admitted without a deadline, done at 8: met, as SuccessR counts it.
TEST(MetOfAllJobs, CountsEveryJobThatMetItsDeadlineOverAllJobs) {
  testing::HandMadeRun run;
  Job(run, 1, 5, true);
  Job(run, 2, 5, true);
  Job(run, 3, 5, false);
  Job(run, 4, 5, false);
  Job(run, 5, std::nullopt, true);
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  run.Attempt({4, TaskKind::kMap, 0}, 1, 0, 3);
  run.Finish(4, JobPhase::kDone, 3);
  run.Attempt({2, TaskKind::kMap, 0}, 1, 3, 6);
  run.Finish(2, JobPhase::kDone, 6);
  run.Attempt({5, TaskKind::kMap, 0}, 0, 4, 8);
  run.Finish(5, JobPhase::kDone, 8);

  MetricsContext context;
  context.policy = "rtmr";
  context.total_slots = 2;
  const WorkloadMetrics m = ComputeMetrics(run.rec, context);
  EXPECT_EQ(m.jobs, 5u);
  EXPECT_EQ(m.accepted, 3u);
  EXPECT_EQ(m.successful, 2u);  // 1, 5: of the accepted
  EXPECT_EQ(m.met_all, 3u);     // 1, 4, 5
  EXPECT_DOUBLE_EQ(m.met_all_ratio, 0.6);
}

// Without a job that ran after its rejection, met of all is AcceptR x SuccessR.
TEST(MetOfAllJobs, IsAcceptTimesSuccessWhenRejectedJobsNeverRun) {
  testing::HandMadeRun run;
  Job(run, 1, 5, true);
  Job(run, 2, 5, false);
  Job(run, 3, 5, true);
  Job(run, 4, 5, false);
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  run.Attempt({3, TaskKind::kMap, 0}, 1, 0, 9);
  run.Finish(3, JobPhase::kDone, 9);
  MetricsContext context;
  context.total_slots = 2;
  const WorkloadMetrics m = ComputeMetrics(run.rec, context);
  EXPECT_DOUBLE_EQ(m.met_all_ratio, 0.25);
  EXPECT_DOUBLE_EQ(m.met_all_ratio, m.accept_ratio * m.success_ratio);
}

// --reject-policy backfill: a job the test rejected runs best effort. Job 1 admitted, met;
// job 2 best effort, done at 3 by its deadline 5: met of all, but neither accepted nor
// successful; job 3 best effort, done at 9, late; job 4 rejected and dropped.
TEST(MetOfAllJobs, CountsABestEffortJobThatMetButNotAsAccepted) {
  testing::HandMadeRun run;
  Job(run, 1, 5, true);
  Admission best_effort = Admission::Yes("rejected: no; runs best-effort in spare slots");
  best_effort.best_effort = true;
  for (JobId id : {2u, 3u})
    run.Arrive(id, 0, testing::JobBuilder().Deadline(seconds(5)).Maps(1).Build(), best_effort);
  Job(run, 4, 5, false);
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  run.Attempt({2, TaskKind::kMap, 0}, 1, 0, 3);
  run.Finish(2, JobPhase::kDone, 3);
  run.Attempt({3, TaskKind::kMap, 0}, 1, 3, 9);
  run.Finish(3, JobPhase::kDone, 9);

  MetricsContext context;
  context.policy = "rtmr";
  context.total_slots = 2;
  context.reject_policy = "backfill";
  const WorkloadMetrics m = ComputeMetrics(run.rec, context);
  EXPECT_EQ(m.jobs, 4u);
  EXPECT_EQ(m.accepted, 1u);
  EXPECT_EQ(m.rejected, 3u);
  EXPECT_EQ(m.best_effort_jobs, 2u);
  EXPECT_EQ(m.successful, 1u);
  EXPECT_DOUBLE_EQ(m.success_ratio, 1.0);
  EXPECT_EQ(m.missed, 0u) << "a best-effort job's miss breaks no promise";
  EXPECT_EQ(m.met_all, 2u);  // 1, 2
  EXPECT_DOUBLE_EQ(m.met_all_ratio, 0.5);
  // The slot time of every job that ran, over the span until the last of them ended (9 s).
  EXPECT_DOUBLE_EQ(m.utilization_all, (4.0 + 3 + 6) / (2 * 9.0));
  EXPECT_DOUBLE_EQ(m.utilization_successful, 4.0 / (2 * 4.0));

  const std::vector<JobMetrics> jobs = ComputeJobMetrics(run.rec);
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_FALSE(jobs[1].admitted);
  EXPECT_TRUE(jobs[1].best_effort);
  EXPECT_EQ(jobs[1].status, "succeeded");
  EXPECT_EQ(jobs[1].met_deadline, true);
  EXPECT_FALSE(jobs[1].successful);
  EXPECT_EQ(jobs[2].met_deadline, false);
  EXPECT_EQ(jobs[3].status, "rejected");
}

TEST(MetOfAllJobs, ZeroForAnEmptyRun) {
  testing::HandMadeRun run;
  EXPECT_EQ(ComputeMetrics(run.rec, MetricsContext{}).met_all_ratio, 0);
}

}  // namespace
}  // namespace mrlocal
