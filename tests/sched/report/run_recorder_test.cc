// RunRecorder: what it keeps per job, per attempt and per decision, fed by hand through
// its observer hooks, and end to end under a Controller on a simulated loop.
#include "sched/report/run_recorder.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "hand_made_run.h"
#include "simulated_run.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::HandMadeRun;
using testing::JobBuilder;

// Job "job-<id>" of queue "q" and weight 2.5.
JobSpec Spec(JobId id, std::optional<Duration> deadline, uint32_t maps, uint32_t reduces) {
  return JobBuilder()
      .Name("job-" + std::to_string(id))
      .Queue("q")
      .Weight(2.5)
      .Deadline(deadline)
      .Maps(maps)
      .Reduces(reduces)
      .Build();
}

// A run whose attempts read 1000 bytes and write 10.
HandMadeRun MakeRun(RunRecorderOptions options = {}) {
  HandMadeRun run(options);
  run.input_bytes = 1000;
  run.output_bytes = 10;
  return run;
}

TEST(RunRecorder, AttemptRecordIsAtMost48Bytes) { EXPECT_LE(sizeof(AttemptRecord), 48u); }

TEST(RunRecorder, RecordsJobsAttemptsAndRunningSums) {
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  run.Arrive(7, 1, Spec(7, seconds(10), 2, 1), Admission::Yes("fits"));
  run.Attempt({7, TaskKind::kMap, 0}, 0, 1, 3, Status::Aborted("preempted"));
  run.Attempt({7, TaskKind::kMap, 0}, 0, 3, 6);
  run.Attempt({7, TaskKind::kMap, 1}, 1, 2, 4);
  run.Attempt({7, TaskKind::kReduce, 0}, 2, 6, 7);
  run.Finish(7, JobPhase::kDone, 7);

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
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  run.Arrive(1, 5, Spec(1, seconds(1), 3, 1), Admission::No("cannot meet its deadline"));
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
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  run.Arrive(2, 0, Spec(2, std::nullopt, 1, 1)).failure = "bad block";
  run.Attempt({2, TaskKind::kMap, 0}, 0, 0, 2, Status::Corruption("bad block"));
  run.Finish(2, JobPhase::kFailed, 2);
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
  HandMadeRun run = MakeRun({.keep_attempts = false});
  const RunRecorder& rec = run.rec;
  run.Arrive(1, 0, Spec(1, std::nullopt, 1, 1));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 3);
  run.Attempt({1, TaskKind::kReduce, 0}, 1, 3, 4);
  EXPECT_FALSE(rec.keeps_attempts());
  EXPECT_TRUE(rec.attempts().empty());
  EXPECT_EQ(rec.attempts_seen(), 2u);
  EXPECT_EQ(rec.job(1)->slot_time, seconds(4));
  EXPECT_EQ(rec.job(1)->attempts, 2u);
}

TEST(RunRecorder, ReportForAnUnknownJobIsKeptWithoutCrashing) {
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  run.Attempt({99, TaskKind::kMap, 5}, 0, 0, 1);
  EXPECT_EQ(rec.job(99), nullptr);
  ASSERT_EQ(rec.attempts().size(), 1u);
  EXPECT_EQ(rec.attempts()[0].attempt, 1);
}

TEST(RunRecorder, KeepsTheFailureOfAFailedAttemptOnly) {
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  run.Arrive(1, 0, Spec(1, std::nullopt, 2, 1));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 1, Status::Aborted("preempted"));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 1, 2, Status::Corruption("bad block 7"));
  ASSERT_EQ(rec.attempt_failures().size(), 1u);
  EXPECT_EQ(rec.attempt_failures()[0].attempt, 1u);
  EXPECT_EQ(rec.attempt_failures()[0].message, "bad block 7");
}

TEST(RunRecorder, RecordsTheOutcomeThatTheClosingReportShows) {
  HandMadeRun run = MakeRun();
  const RunRecorder& rec = run.rec;
  Admission a = Admission::Yes("fits");
  a.estimate.emplace().finish = seconds(9);
  JobState& j = run.Arrive(3, 1,
                           JobBuilder()
                               .Deadline(seconds(30))
                               .Maps(2)
                               .Reduces(2)
                               .InputBytes(4096)
                               .PartitionHashes(MakePartitionHashes(2, 8, 1))
                               .Build(),
                           a);
  PartitionPlan plan;
  plan.row = 1;
  plan.skewness = 12.5;
  plan.balance = 80;
  plan.reduce_load = {7, 9};
  run.rec.OnPlan(j, plan, seconds(4));
  JobOutcome outcome;
  outcome.output_records = 5;
  outcome.output_bytes = 50;
  outcome.skipped_records = 2;
  outcome.warnings = {"careful"};
  outcome.top = {{"the", "12", 12}};
  j.maps_done = 2;
  j.map_phase_end = seconds(4);
  run.Finish(3, JobPhase::kDone, 6, outcome);

  const JobRecord* r = rec.job(3);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->input_bytes, 4096u);
  EXPECT_EQ(r->partitions, 8u);
  EXPECT_EQ(r->estimated_finish, Time(seconds(9)));
  ASSERT_TRUE(r->plan.has_value());
  EXPECT_EQ(r->plan->at, seconds(4));
  EXPECT_EQ(r->plan->row, 1);
  EXPECT_EQ(r->plan->reduce_load, (std::vector<uint64_t>{7, 9}));
  EXPECT_EQ(r->map_phase_end, Time(seconds(4)));
  EXPECT_EQ(r->output_records, 5u);
  EXPECT_EQ(r->skipped_records, 2u);
  EXPECT_EQ(r->warnings, std::vector<std::string>{"careful"});
  ASSERT_EQ(r->top.size(), 1u);
  EXPECT_EQ(r->top[0].key, "the");
}

TEST(RunRecorder, KeepsPicksNotIdleAnswersAndStopsAtItsCap) {
  RunRecorder rec({.keep_attempts = true, .max_decisions = 2});
  rec.OnDecision(0, std::nullopt, seconds(0), Duration(5));
  for (uint32_t i = 0; i < 3; ++i)
    rec.OnDecision(1, TaskRef{1, TaskKind::kMap, i}, seconds(i), Duration(7));
  ASSERT_EQ(rec.decisions().size(), 2u);
  EXPECT_EQ(rec.decisions()[1].task.index, 1u);
  EXPECT_EQ(rec.decisions()[1].slot, 1);
  EXPECT_EQ(rec.decisions()[1].at, seconds(1));
}

TEST(RunRecorder, ObservesASimulatedRun) {
  RunRecorder rec;
  const testing::SimulatedRun run = testing::Simulate(rec, 2, seconds(100));
  ASSERT_EQ(rec.jobs().size(), 2u);
  for (const JobRecord& j : rec.jobs()) {
    EXPECT_TRUE(j.completed()) << j.name;
    EXPECT_TRUE(j.met_deadline()) << j.name;
    EXPECT_EQ(j.attempts, 3u);  // 2 maps + 1 reduce
    EXPECT_EQ(j.slot_time, seconds(4));
    EXPECT_TRUE(j.plan.has_value()) << j.name;
    EXPECT_TRUE(j.map_phase_end.has_value()) << j.name;
    EXPECT_EQ(j.input_bytes, 20u);
  }
  EXPECT_EQ(rec.attempts().size(), 6u);
  EXPECT_EQ(rec.attempts_seen(), run.stats.launches);
  // Every launch was a policy's pick; idle answers are not kept.
  EXPECT_EQ(rec.decisions().size(), run.stats.launches);
}

}  // namespace
}  // namespace mrlocal
