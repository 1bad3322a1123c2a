// RunRecorder: what it keeps per job and per attempt, fed by hand through its observer
// hooks, and once end to end under a Controller on a simulated loop.
#include "sched/report/run_recorder.h"

#include <gtest/gtest.h>

#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

JobState MakeJob(JobId id, Time arrival, std::optional<Duration> deadline, uint32_t maps,
                 uint32_t reduces) {
  JobState j;
  j.id = id;
  j.arrival = arrival;
  j.spec.name = "job-" + std::to_string(id);
  j.spec.app = "synthetic";
  j.spec.queue = "q";
  j.spec.weight = 2.5;
  j.spec.deadline = deadline;
  j.maps.resize(maps);
  j.reduces.resize(reduces);
  return j;
}

TaskReport Report(JobId job, TaskKind kind, uint32_t index, SlotId slot, int start_s, int end_s,
                  Status status = Status::OK()) {
  TaskReport r;
  r.task = {job, kind, index};
  r.slot = slot;
  r.start = seconds(start_s);
  r.end = seconds(end_s);
  r.status = std::move(status);
  r.input_bytes = 1000;
  r.output_bytes = 10;
  return r;
}

TEST(RunRecorder, AttemptRecordIsAtMost48Bytes) { EXPECT_LE(sizeof(AttemptRecord), 48u); }

TEST(RunRecorder, RecordsJobsAttemptsAndRunningSums) {
  RunRecorder rec;
  JobState j = MakeJob(7, seconds(1), seconds(10), 2, 1);
  rec.OnAdmission(j, Admission::Yes("fits"), seconds(1));
  rec.OnTaskReport(Report(7, TaskKind::kMap, 0, 0, 1, 3, Status::Aborted("preempted")));
  rec.OnTaskReport(Report(7, TaskKind::kMap, 0, 0, 3, 6));
  rec.OnTaskReport(Report(7, TaskKind::kMap, 1, 1, 2, 4));
  rec.OnTaskReport(Report(7, TaskKind::kReduce, 0, 2, 6, 7));
  j.phase = JobPhase::kDone;
  j.finish = seconds(7);
  rec.OnJobFinished(j, {}, seconds(7));

  ASSERT_EQ(rec.jobs().size(), 1u);
  const JobRecord* r = rec.job(7);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "job-7");
  EXPECT_EQ(r->app, "synthetic");
  EXPECT_EQ(r->queue, "q");
  EXPECT_EQ(r->weight, 2.5);
  EXPECT_EQ(r->arrival, seconds(1));
  EXPECT_EQ(r->deadline, Time(seconds(11)));  // absolute: arrival + 10 s
  EXPECT_TRUE(r->admitted);
  EXPECT_EQ(r->admission_reason, "fits");
  EXPECT_EQ(r->maps, 2u);
  EXPECT_EQ(r->reduces, 1u);
  EXPECT_TRUE(r->finished);
  EXPECT_TRUE(r->completed());
  EXPECT_TRUE(r->met_deadline());
  EXPECT_EQ(r->response(), Duration(seconds(6)));
  // Slot time: 2 + 3 + 2 + 1 = 8 s, preempted attempt included.
  EXPECT_EQ(r->slot_time, seconds(8));
  EXPECT_EQ(r->first_start, Time(seconds(1)));
  EXPECT_EQ(r->attempts, 4u);
  EXPECT_EQ(r->preempted, 1u);
  EXPECT_EQ(r->failed_attempts, 0u);

  ASSERT_EQ(rec.attempts().size(), 4u);
  const AttemptRecord& first = rec.attempts()[0];
  EXPECT_EQ(first.attempt, 1);
  EXPECT_TRUE(first.preempted());
  EXPECT_FALSE(first.ok());
  EXPECT_EQ(rec.attempts()[1].attempt, 2);  // same task, second attempt
  EXPECT_TRUE(rec.attempts()[1].ok());
  EXPECT_EQ(rec.attempts()[2].attempt, 1);  // another task
  EXPECT_EQ(rec.attempts()[3].kind, TaskKind::kReduce);
  EXPECT_EQ(rec.attempts()[3].slot, 2);
  EXPECT_EQ(rec.attempts()[3].input_bytes, 1000u);
  EXPECT_EQ(rec.attempts()[3].output_bytes, 10u);
  EXPECT_EQ(rec.attempts_seen(), 4u);
  EXPECT_EQ(rec.preempted_seen(), 1u);
}

TEST(RunRecorder, RejectedJobIsFinishedAtItsArrival) {
  RunRecorder rec;
  JobState j = MakeJob(1, seconds(5), seconds(1), 3, 1);
  rec.OnAdmission(j, Admission::No("cannot meet its deadline"), seconds(5));
  const JobRecord* r = rec.job(1);
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->admitted);
  EXPECT_EQ(r->phase, JobPhase::kRejected);
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->finish, seconds(5));
  EXPECT_FALSE(r->completed());
  EXPECT_FALSE(r->met_deadline());
  EXPECT_EQ(r->admission_reason, "cannot meet its deadline");
}

TEST(RunRecorder, FailedJobAndFailedAttempt) {
  RunRecorder rec;
  JobState j = MakeJob(2, seconds(0), std::nullopt, 1, 1);
  rec.OnAdmission(j, Admission::Yes(""), seconds(0));
  rec.OnTaskReport(Report(2, TaskKind::kMap, 0, 0, 0, 2, Status::Corruption("bad block")));
  j.phase = JobPhase::kFailed;
  j.finish = seconds(2);
  j.failure = "bad block";
  rec.OnJobFinished(j, {}, seconds(2));
  const JobRecord* r = rec.job(2);
  EXPECT_EQ(r->phase, JobPhase::kFailed);
  EXPECT_EQ(r->failure, "bad block");
  EXPECT_FALSE(r->met_deadline());  // a failed job never meets it, deadline or not
  EXPECT_EQ(r->failed_attempts, 1u);
  EXPECT_EQ(rec.failed_seen(), 1u);
  EXPECT_FALSE(rec.attempts()[0].ok());
  EXPECT_FALSE(rec.attempts()[0].preempted());
}

TEST(RunRecorder, WithoutAttemptsKeepsOnlyTheSums) {
  RunRecorder rec({.keep_attempts = false});
  JobState j = MakeJob(1, seconds(0), std::nullopt, 1, 1);
  rec.OnAdmission(j, Admission::Yes(""), seconds(0));
  rec.OnTaskReport(Report(1, TaskKind::kMap, 0, 0, 0, 3));
  rec.OnTaskReport(Report(1, TaskKind::kReduce, 0, 1, 3, 4));
  EXPECT_FALSE(rec.keeps_attempts());
  EXPECT_TRUE(rec.attempts().empty());
  EXPECT_EQ(rec.attempts_seen(), 2u);
  EXPECT_EQ(rec.job(1)->slot_time, seconds(4));
  EXPECT_EQ(rec.job(1)->attempts, 2u);
}

TEST(RunRecorder, ReportForAnUnknownJobIsKeptWithoutCrashing) {
  RunRecorder rec;
  rec.OnTaskReport(Report(99, TaskKind::kMap, 5, 0, 0, 1));
  EXPECT_EQ(rec.job(99), nullptr);
  ASSERT_EQ(rec.attempts().size(), 1u);
  EXPECT_EQ(rec.attempts()[0].attempt, 1);
}

// Each map runs 1 s on its slot, each reduce 2 s; maps report a sketch so the
// partitioner can plan.
class FixedTimeExecutor final : public Executor {
 public:
  explicit FixedTimeExecutor(SimLoop& loop) : loop_(loop) {}
  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& l) override {
    const Time start = loop_.Now();
    const Duration took = l.task.kind == TaskKind::kMap ? seconds(1) : seconds(2);
    loop_.At(start + took, [this, l, start] {
      TaskReport r;
      r.task = l.task;
      r.token = l.token;
      r.slot = l.slot;
      r.start = start;
      r.end = loop_.Now();
      if (l.task.kind == TaskKind::kMap) {
        CountMinSketch sk(hashes);
        sk.Add(l.task.index + 1, 100);
        r.sketch = sk;
      }
      report_(std::move(r));
    });
  }
  void Cancel(SlotId, uint64_t) override {}
  void SetPlan(JobId, const ReducePlan&) override {}
  Status FinishJob(JobId, bool) override { return Status::OK(); }
  double Progress(SlotId) const override { return 0; }
  std::vector<PartitionHash> hashes = MakePartitionHashes(2, 4, 1);

 private:
  SimLoop& loop_;
  ReportFn report_;
};

TEST(RunRecorder, ObservesAControllerRun) {
  SimLoop loop;
  FixedTimeExecutor exec(loop);
  FifoPolicy fifo;
  std::vector<SlotInfo> slots = {{0, SlotKind::kMap, 0, 1.0}, {1, SlotKind::kReduce, 0, 1.0}};
  auto partitioner = MakePartitioner("dp");
  ASSERT_TRUE(partitioner.ok());
  Controller c(loop, exec, fifo, slots, 1, std::move(*partitioner));
  RunRecorder rec;
  c.AddObserver(&rec);
  for (int k = 0; k < 2; ++k) {
    JobSpec spec;
    spec.name = "j" + std::to_string(k);
    spec.app = "synthetic";
    spec.deadline = seconds(100);
    spec.reduces = 1;
    spec.partition_hashes = exec.hashes;
    spec.maps = {{10, {}}, {10, {}}};
    c.Submit(std::move(spec));
  }
  c.RunUntilIdle();
  ASSERT_EQ(rec.jobs().size(), 2u);
  for (const JobRecord& j : rec.jobs()) {
    EXPECT_TRUE(j.completed()) << j.name;
    EXPECT_TRUE(j.met_deadline()) << j.name;
    EXPECT_EQ(j.attempts, 3u);  // 2 maps + 1 reduce
    EXPECT_EQ(j.slot_time, seconds(4));
    EXPECT_EQ(j.finish, c.state().job(j.id).finish);
  }
  EXPECT_EQ(rec.attempts().size(), 6u);
  EXPECT_EQ(rec.attempts_seen(), c.stats().launches);
}

}  // namespace
}  // namespace mrlocal
