// WorkloadMetrics: RTMR's AcceptR / SuccessR / Util, miss ratio, TWJCT, latency and
// makespan on hand-made runs, worked out by hand.
#include "sched/report/workload_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "hand_made_run.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

// A hand-made run of jobs of one map and one reduce.
class RunBuilder : public testing::HandMadeRun {
 public:
  using HandMadeRun::HandMadeRun;

  // A job arriving at `arrival` s, with a relative deadline of `deadline` s (< 0: none).
  void Job(JobId id, int arrival, int deadline, double weight, bool admitted) {
    Arrive(id, arrival,
           testing::JobBuilder()
               .Name("job" + std::to_string(id))
               .Weight(weight)
               .Deadline(deadline >= 0 ? std::optional<Duration>(seconds(deadline)) : std::nullopt)
               .Maps(1)
               .Build(),
           admitted ? Admission::Yes("ok") : Admission::No("no"));
  }
};

// Five jobs on 4 slots (times in seconds):
//   job 1  arrives 0, deadline 10 (abs 10), weight 2: map [0,4] + reduce [4,6], done at 6:
//          met. Slot time 6.
//   job 2  arrives 2, deadline 5 (abs 7): map [2,5] preempted, map [5,8], reduce [8,10],
//          done at 10: missed (10 > 7). Slot time 3 + 3 + 2 = 8.
//   job 3  arrives 3, deadline 4: rejected.
//   job 4  arrives 4, no deadline: map [4,6], reduce [6,7], done at 7: successful (no
//          deadline, completed). Slot time 3.
//   job 5  arrives 5, deadline 20 (abs 25): map [6,9] fails, job failed at 9. Slot time 3.
void BuildFiveJobs(RunBuilder& b) {
  b.Job(1, 0, 10, 2.0, true);
  b.Job(2, 2, 5, 1.0, true);
  b.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  b.Attempt({2, TaskKind::kMap, 0}, 1, 2, 5, Status::Aborted("preempted"));
  b.Job(3, 3, 4, 1.0, false);
  b.Job(4, 4, -1, 1.0, true);
  b.Attempt({1, TaskKind::kReduce, 0}, 2, 4, 6);
  b.Finish(1, JobPhase::kDone, 6);
  b.Job(5, 5, 20, 1.0, true);
  b.Attempt({4, TaskKind::kMap, 0}, 0, 4, 6);
  b.Attempt({4, TaskKind::kReduce, 0}, 2, 6, 7);
  b.Finish(4, JobPhase::kDone, 7);
  b.Attempt({2, TaskKind::kMap, 0}, 1, 5, 8);
  b.Attempt({5, TaskKind::kMap, 0}, 0, 6, 9, Status::Corruption("bad block"));
  b.Finish(5, JobPhase::kFailed, 9);
  b.Attempt({2, TaskKind::kReduce, 0}, 3, 8, 10);
  b.Finish(2, JobPhase::kDone, 10);
}

MetricsContext Context(bool admission_control) {
  MetricsContext c;
  c.policy = admission_control ? "rtmr" : "fifo";
  c.sim = true;
  c.total_slots = 4;
  c.admission_control = admission_control;
  return c;
}

TEST(WorkloadMetrics, RtmrDefinitionsOnFiveJobs) {
  RunBuilder b;
  BuildFiveJobs(b);
  WorkloadMetrics m = ComputeMetrics(b.rec, Context(true));
  EXPECT_EQ(m.policy, "rtmr");
  EXPECT_TRUE(m.sim);
  EXPECT_EQ(m.jobs, 5u);
  EXPECT_EQ(m.accepted, 4u);  // 1, 2, 4, 5
  EXPECT_EQ(m.rejected, 1u);
  EXPECT_DOUBLE_EQ(m.accept_ratio, 0.8);  // 4 / 5
  EXPECT_EQ(m.completed, 3u);             // 1, 2, 4
  EXPECT_EQ(m.failed, 1u);                // 5
  EXPECT_EQ(m.unfinished, 0u);
  EXPECT_EQ(m.successful, 2u);             // 1 (met), 4 (no deadline, completed)
  EXPECT_DOUBLE_EQ(m.success_ratio, 0.5);  // 2 / 4
  EXPECT_EQ(m.deadline_jobs, 3u);          // accepted with a deadline: 1, 2, 5
  EXPECT_EQ(m.missed, 2u);                 // 2 (late), 5 (failed)
  EXPECT_DOUBLE_EQ(m.miss_ratio, 2.0 / 3.0);
  // Turnaround: first arrival 0 to last accepted finish 10 = 10 s; available 4 x 10 = 40.
  EXPECT_DOUBLE_EQ(m.turnaround_s, 10);
  EXPECT_DOUBLE_EQ(m.slot_time_successful_s, 9);      // 6 + 3
  EXPECT_DOUBLE_EQ(m.slot_time_s, 20);                // 6 + 8 + 3 + 3
  EXPECT_DOUBLE_EQ(m.utilization_successful, 0.225);  // 9 / 40
  EXPECT_DOUBLE_EQ(m.utilization_all, 0.5);           // 20 / 40
  EXPECT_DOUBLE_EQ(m.utilization, 0.225);
  // TWJCT = 2 x (6 - 0) + 1 x (10 - 2) + 1 x (7 - 4) = 23; absolute: 2 x 6 + 10 + 7 = 29.
  EXPECT_DOUBLE_EQ(m.twjct, 23);
  EXPECT_DOUBLE_EQ(m.twjct_abs, 29);
  // Responses {3, 6, 8}: p50 = ceil(1.5) = 2nd = 6; p95 = ceil(2.85) = 3rd = 8.
  EXPECT_DOUBLE_EQ(m.latency_s.p50, 6);
  EXPECT_DOUBLE_EQ(m.latency_s.p95, 8);
  EXPECT_DOUBLE_EQ(m.latency_s.p99, 8);
  EXPECT_DOUBLE_EQ(m.latency_s.mean, 17.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.latency_s.max, 8);
  EXPECT_DOUBLE_EQ(m.makespan_s, 10);  // last finish 10 - first arrival 0
  EXPECT_EQ(m.attempts, 8u);
  EXPECT_EQ(m.preempted_attempts, 1u);
  EXPECT_EQ(m.failed_attempts, 1u);
}

// RTMR's FIFO rule: without admission control every job counts as accepted and Util
// counts every job's slot time.
TEST(WorkloadMetrics, NoAdmissionControlCountsEveryJobAndAllSlotTime) {
  RunBuilder b;
  BuildFiveJobs(b);
  WorkloadMetrics m = ComputeMetrics(b.rec, Context(false));
  EXPECT_FALSE(m.admission_control);
  EXPECT_EQ(m.accepted, 5u);
  EXPECT_DOUBLE_EQ(m.accept_ratio, 1.0);
  EXPECT_DOUBLE_EQ(m.success_ratio, 0.4);  // 2 / 5
  EXPECT_EQ(m.deadline_jobs, 4u);          // 1, 2, 3, 5
  EXPECT_EQ(m.missed, 3u);                 // 2, 3 (never ran), 5
  EXPECT_DOUBLE_EQ(m.miss_ratio, 0.75);
  EXPECT_DOUBLE_EQ(m.utilization, 0.5);  // = utilization_all = 20 / 40
  EXPECT_DOUBLE_EQ(m.utilization_all, 0.5);
  EXPECT_DOUBLE_EQ(m.utilization_successful, 0.225);
}

TEST(WorkloadMetrics, SameFiguresWithoutKeepingAttempts) {
  RunBuilder a, b({.keep_attempts = false});
  BuildFiveJobs(a);
  BuildFiveJobs(b);
  WorkloadMetrics x = ComputeMetrics(a.rec, Context(true));
  WorkloadMetrics y = ComputeMetrics(b.rec, Context(true));
  EXPECT_TRUE(b.rec.attempts().empty());
  EXPECT_EQ(x.utilization, y.utilization);
  EXPECT_EQ(x.utilization_all, y.utilization_all);
  EXPECT_EQ(x.twjct, y.twjct);
  EXPECT_EQ(x.attempts, y.attempts);
  EXPECT_EQ(x.preempted_attempts, y.preempted_attempts);
}

TEST(WorkloadMetrics, FinishingExactlyAtTheDeadlineMeetsIt) {
  RunBuilder b;
  b.Job(1, 1, 5, 1.0, true);
  b.Attempt({1, TaskKind::kMap, 0}, 0, 1, 6);
  b.Finish(1, JobPhase::kDone, 6);  // deadline 1 + 5 = 6
  WorkloadMetrics m = ComputeMetrics(b.rec, Context(true));
  EXPECT_EQ(m.successful, 1u);
  EXPECT_EQ(m.missed, 0u);
  EXPECT_DOUBLE_EQ(m.miss_ratio, 0);
  // One slot of 4 busy 5 s out of the turnaround 1..6: 5 / (4 x 5).
  EXPECT_DOUBLE_EQ(m.utilization, 0.25);
  EXPECT_DOUBLE_EQ(m.makespan_s, 5);
}

TEST(WorkloadMetrics, NoDeadlineJobsGiveAZeroMissRatio) {
  RunBuilder b;
  b.Job(1, 0, -1, 1.0, true);
  b.Attempt({1, TaskKind::kMap, 0}, 0, 0, 2);
  b.Finish(1, JobPhase::kDone, 2);
  WorkloadMetrics m = ComputeMetrics(b.rec, Context(true));
  EXPECT_EQ(m.deadline_jobs, 0u);
  EXPECT_EQ(m.miss_ratio, 0);
  EXPECT_DOUBLE_EQ(m.success_ratio, 1);
}

TEST(WorkloadMetrics, UnfinishedAcceptedJobIsNotSuccessful) {
  RunBuilder b;
  b.Job(1, 0, 10, 1.0, true);
  b.Attempt({1, TaskKind::kMap, 0}, 0, 0, 2);
  WorkloadMetrics m = ComputeMetrics(b.rec, Context(true));
  EXPECT_EQ(m.unfinished, 1u);
  EXPECT_EQ(m.successful, 0u);
  EXPECT_EQ(m.missed, 1u);
  EXPECT_EQ(m.turnaround_s, 0);  // no accepted job finished
  EXPECT_EQ(m.utilization, 0);
  EXPECT_EQ(m.makespan_s, 0);
}

TEST(WorkloadMetrics, EmptyWorkloadGivesZerosNotNaN) {
  RunRecorder rec;
  MetricsContext c = Context(true);
  SchedulerStats stats;
  c.scheduler = &stats;
  WorkloadMetrics m = ComputeMetrics(rec, c);
  for (double v :
       {m.accept_ratio, m.success_ratio, m.utilization, m.utilization_all, m.miss_ratio, m.twjct,
        m.latency_s.p50, m.latency_s.p99, m.makespan_s, m.scheduler.decision_latency_us.p99}) {
    EXPECT_FALSE(std::isnan(v));
    EXPECT_EQ(v, 0);
  }
  EXPECT_EQ(m.jobs, 0u);
  // Zero slots too.
  c.total_slots = 0;
  RunBuilder b;
  BuildFiveJobs(b);
  EXPECT_EQ(ComputeMetrics(b.rec, c).utilization, 0);
}

TEST(WorkloadMetrics, SchedulerFiguresComeFromTheStats) {
  SchedulerStats stats;
  stats.decisions = 3;
  stats.launches = 2;
  stats.preemptions = 1;
  for (int ns : {1000, 2000, 3000}) stats.decision_ns.Add(ns);
  MetricsContext c = Context(true);
  c.scheduler = &stats;
  WorkloadMetrics m = ComputeMetrics(RunRecorder(), c);
  EXPECT_EQ(m.scheduler.decisions, 3u);
  EXPECT_EQ(m.scheduler.launches, 2u);
  EXPECT_EQ(m.scheduler.preemptions, 1u);
  // SchedulerStats' own percentiles (possibly bucketed: within 2 %).
  EXPECT_NEAR(m.scheduler.decision_latency_us.p50, 2.0, 0.04);
  EXPECT_NEAR(m.scheduler.decision_latency_us.p99, 3.0, 0.06);
}

// A single job's closing report: its phases, throughput and deadline as the user gave it
// (set-up included), from the recorder's view of it.
TEST(JobMetrics, OneJobsFiguresCountItsSetUp) {
  testing::HandMadeRun run;
  const RunRecorder& rec = run.rec;
  Admission a = Admission::Yes("fits");
  a.estimate.emplace().finish = seconds(7);
  JobState& j = run.Arrive(1, 2,
                           testing::JobBuilder()
                               .Name("wordcount")
                               // submitted with the user's 10 s less 2 s of set-up
                               .Deadline(seconds(8))
                               .InputBytes(12'000'000)
                               .Maps(2)
                               .Build(),
                           a);
  j.maps_done = 2;
  j.map_phase_end = seconds(5);
  run.Finish(1, JobPhase::kDone, 6);

  const std::vector<JobMetrics> jobs = ComputeJobMetrics(rec, seconds(2));
  ASSERT_EQ(jobs.size(), 1u);
  const JobMetrics& m = jobs[0];
  EXPECT_EQ(m.status, "succeeded");
  EXPECT_EQ(m.deadline_s, 10.0);
  EXPECT_EQ(m.deadline_at_s, 10.0);      // arrival 2 + 8 on the run's clock
  EXPECT_EQ(m.estimated_finish_s, 5.0);  // after arrival
  EXPECT_EQ(m.elapsed_s, 4.0);
  EXPECT_EQ(m.map_phase_s, 3.0);
  EXPECT_EQ(m.reduce_phase_s, 1.0);
  EXPECT_EQ(m.throughput_mb_s, 3.0);
  EXPECT_EQ(m.met_deadline, true);
  EXPECT_EQ(m.slack_s, 4.0);
  EXPECT_TRUE(m.successful);
}

TEST(JobMetrics, AJobWithoutADeadlineHasNoVerdictButSucceeds) {
  RunBuilder b;
  b.Job(1, 0, -1, 1, true);
  b.Finish(1, JobPhase::kDone, 3);
  b.Job(2, 0, -1, 1, true);  // never finished
  const std::vector<JobMetrics> jobs = ComputeJobMetrics(b.rec);
  EXPECT_FALSE(jobs[0].met_deadline.has_value());
  EXPECT_FALSE(jobs[0].slack_s.has_value());
  EXPECT_TRUE(jobs[0].successful);
  EXPECT_EQ(jobs[1].status, "unfinished");
  EXPECT_FALSE(jobs[1].finish_s.has_value());
  EXPECT_FALSE(jobs[1].successful);
}

TEST(WorkloadMetrics, NearestRankPercentile) {
  std::vector<double> v = {5, 1, 4, 2, 3, 6, 8, 7, 10, 9};
  EXPECT_EQ(NearestRankPercentile(v, 0.5), 5);    // ceil(5) = 5th
  EXPECT_EQ(NearestRankPercentile(v, 0.95), 10);  // ceil(9.5) = 10th
  EXPECT_EQ(NearestRankPercentile(v, 0.1), 1);    // ceil(1) = 1st
  EXPECT_EQ(NearestRankPercentile(v, 0.11), 2);   // ceil(1.1) = 2nd
  EXPECT_EQ(NearestRankPercentile(v, 0), 1);
  std::vector<double> empty;
  EXPECT_EQ(NearestRankPercentile(empty, 0.5), 0);
}

}  // namespace
}  // namespace mrlocal
