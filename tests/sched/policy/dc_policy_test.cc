// DcPolicy (the Deadline Constraint scheduler, RTMR section III): its schedulability test
// against hand-built ClusterStates, its dispatch, and, on a simulated run, the deficiency
// the paper names: it admits a job that then misses its deadline.
#include "sched/policy/dc_policy.h"

#include <gtest/gtest.h>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ExactHistory;
using testing::MakeCluster;
using testing::MakeSyntheticJob;
using testing::OneNode;
using testing::SimRun;

// Asks `dc` to admit `job`; if it does, the job becomes active as the Controller makes it.
Admission Submit(DcPolicy& dc, ClusterState& s, JobState job) {
  Admission a = dc.Admit(job, s, job.arrival);
  if (a.admitted) {
    s.active.push_back(job.id);
    s.jobs.emplace(job.id, std::move(job));
  }
  return a;
}

void StartMap(JobState& job, uint32_t i) {
  job.maps[i].status = TaskStatus::kRunning;
  ++job.maps_running;
}

void FinishMap(JobState& job, uint32_t i) {
  job.maps[i].status = TaskStatus::kDone;
  --job.maps_running;
  ++job.maps_done;
}

// Ends `job`'s map stage and plans its reduces, all for `slot`, as the Controller does.
void PlanReduces(ClusterState& s, JobState& job, SlotId slot) {
  for (uint32_t i = 0; i < job.M(); ++i)
    if (job.maps[i].status != TaskStatus::kDone) {
      if (job.maps[i].status == TaskStatus::kPending) StartMap(job, i);
      FinishMap(job, i);
    }
  for (auto& r : job.reduces) r.planned_slot = slot;
  job.reduces_planned = true;
  job.phase = JobPhase::kReduce;
  s.reducing.push_back(job.id);
}

void Finish(DcPolicy& dc, ClusterState& s, JobId id) {
  JobState& job = s.job(id);
  job.phase = JobPhase::kDone;
  std::erase(s.active, id);
  std::erase(s.reducing, id);
  dc.OnJobFinished(job, s, Time{0});
}

TEST(DcPolicy, RejectsAJobWhoseAppHasNoHistory) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  JobState job = MakeSyntheticJob(1, 0, 100, {1}, 1, 1);
  job.spec.app = "wordcount";
  DcPolicy dc(&h);
  Admission a = dc.Admit(job, s, Time{0});
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "no execution history for app 'wordcount': cannot estimate its tasks");
  DcPolicy none(nullptr);
  EXPECT_FALSE(none.Admit(MakeSyntheticJob(1, 0, 100, {1}, 1, 1), s, Time{0}).admitted);
}

TEST(DcPolicy, AdmitsAJobWithoutDeadlineBestEffortAfterTheDeadlineJobs) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(3, 1));
  DcPolicy dc(&h);
  JobState best_effort = MakeSyntheticJob(1, 0, std::nullopt, {1, 1, 1}, 1, 1);
  best_effort.spec.app = "unknown";  // needs no history
  Admission a = Submit(dc, s, best_effort);
  EXPECT_TRUE(a.admitted);
  EXPECT_FALSE(a.estimated_finish());
  // It holds no map slot: a job needing all three is still admitted (n_min = 3).
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(2, 0, 11, {10, 10, 10}, 1, 1)).admitted);
  for (uint32_t expected : {2u, 2u, 2u, 1u}) {
    auto t = dc.PickTask(s.slots[0].info, s, Time{0});
    ASSERT_TRUE(t);
    EXPECT_EQ(t->job, expected);
    StartMap(s.job(t->job), t->index);
  }
}

TEST(DcPolicy, RejectsADeadlineShorterThanItsReduceStageAndSaysWhatWouldDo) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 1));
  DcPolicy dc(&h);
  Admission a = Submit(dc, s, MakeSyntheticJob(1, 5, 10, {4, 4}, 1, 10));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "deadline too short: the reduce stage alone needs 10.00 s");
  // Two maps of 4 s on two free slots end after 4 s, then 10 s of reduce.
  ASSERT_TRUE(a.estimate && a.estimate->min_deadline);
  EXPECT_EQ(*a.estimate->min_deadline, seconds(14));
  EXPECT_TRUE(Submit(dc, s, MakeSyntheticJob(2, 5, 14, {4, 4}, 1, 10)).admitted);
}

TEST(DcPolicy, RejectsMoreReducesThanTheClusterHasReduceSlots) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 2));
  DcPolicy dc(&h);
  Admission a = Submit(dc, s, MakeSyntheticJob(1, 0, 1000, {1}, 3, 1));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "R=3 reduce tasks exceed the cluster's 2 reduce slots");
  EXPECT_FALSE(a.estimate && a.estimate->min_deadline) << "no deadline fixes it";
}

TEST(DcPolicy, AdmitsWithItsMinimumMapSlotsAndItsDeadlineAsEstimatedFinish) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 2));
  DcPolicy dc(&h);
  // max_rs = 10 + 12 - 4 = 18: 15 s of map work in 8 s needs ceil(15/8) = 2 slots.
  Admission a = Submit(dc, s, MakeSyntheticJob(1, 10, 12, {3, 3, 3, 3, 3}, 2, 4));
  EXPECT_TRUE(a.admitted);
  EXPECT_EQ(a.reason, "admitted: 2 map slots from now, 2 reduce slots at t=18.0 s");
  ASSERT_TRUE(a.estimated_finish());
  EXPECT_EQ(*a.estimated_finish(), seconds(22));
}

TEST(DcPolicy, RejectsWhenItsMinimumMapSlotsAreNotAvailableNowUntilTheyAre) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 2));
  DcPolicy dc(&h);
  // 40 s of map work by max_rs = 20: holds 2 of the 4 map slots.
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(1, 0, 22, std::vector<double>(8, 5), 1, 2)).admitted);
  // 30 s of map work by max_rs = 1 + 11 - 1 = 11: needs 3.
  JobState second = MakeSyntheticJob(2, 1, 11, std::vector<double>(6, 5), 1, 1);
  Admission a = Submit(dc, s, second);
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "needs 3 map slots now, 2 available");
  // Job 1 holds min(n_min, its maps not done): with one map left it holds one slot.
  JobState& first = s.job(1);
  for (uint32_t i = 0; i < 7; ++i) {
    StartMap(first, i);
    FinishMap(first, i);
  }
  EXPECT_TRUE(Submit(dc, s, second).admitted);
}

TEST(DcPolicy, ChecksTheReduceSlotsOnlyAtTheLatestReduceStart) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 2));
  DcPolicy dc(&h);
  // Reduce window [20, 30], both reduce slots.
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(1, 0, 30, {2}, 2, 10)).admitted);
  // max_rs = 1 + 24 - 5 = 20: inside job 1's window.
  Admission a = Submit(dc, s, MakeSyntheticJob(2, 1, 24, {2}, 1, 5));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "needs 1 reduce slot at its latest reduce start t=20.0 s, 0 free then");
  // max_rs = 1 + 37 - 10 = 28: inside too. But max_rs = 1 + 28 - 10 = 19 is not, and that
  // job is admitted though its window [19, 29] overlaps job 1's for 9 s: one point only.
  EXPECT_FALSE(Submit(dc, s, MakeSyntheticJob(3, 1, 37, {2}, 1, 10)).admitted);
  EXPECT_TRUE(Submit(dc, s, MakeSyntheticJob(4, 1, 28, {2}, 1, 10)).admitted);
  // Once job 1 is finished its window is free.
  Finish(dc, s, 1);
  EXPECT_TRUE(Submit(dc, s, MakeSyntheticJob(5, 1, 24, {2}, 1, 5)).admitted);
}

TEST(DcPolicy, NeverRunsMoreThanItsMinimumMapsAtOnce) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 1));
  DcPolicy dc(&h);
  // n_min = 2 (see AdmitsWithItsMinimumMapSlots...).
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(1, 10, 12, {3, 3, 3, 3, 3}, 1, 4)).admitted);
  JobState& job = s.job(1);
  std::vector<uint32_t> started;
  for (int slot = 0; slot < 2; ++slot) {
    auto t = dc.PickTask(s.slots[slot].info, s, seconds(10));
    ASSERT_TRUE(t);
    StartMap(job, t->index);
    started.push_back(t->index);
  }
  // Two map slots stay free, and three maps pending: the job gets no third slot.
  EXPECT_FALSE(dc.PickTask(s.slots[2].info, s, seconds(10)));
  EXPECT_FALSE(dc.PickTask(s.slots[3].info, s, seconds(10)));
  FinishMap(job, started[0]);
  auto t = dc.PickTask(s.slots[2].info, s, seconds(13));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
  EXPECT_EQ(t->kind, TaskKind::kMap);
}

TEST(DcPolicy, MapsInDeadlineOrderAndReducesWithoutReservation) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  DcPolicy dc(&h);
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(1, 0, 100, {1}, 1, 1)).admitted);  // absolute 100
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(2, 0, 50, {1}, 1, 1)).admitted);   // absolute 50
  auto t = dc.PickTask(s.slots[0].info, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
  // Job 1 reaches its reduce stage first: the reduce slot is its, though job 2 (earlier
  // deadline, still mapping) will need it; RTMR would hold it back.
  const SlotInfo& reduce_slot = s.slots[2].info;
  PlanReduces(s, s.job(1), reduce_slot.id);
  t = dc.PickTask(reduce_slot, s, seconds(1));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
  EXPECT_EQ(t->kind, TaskKind::kReduce);
}

TEST(DcPolicy, SkipsAFailedJobBeforeItIsForgotten) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(1, 1));
  DcPolicy dc(&h);
  ASSERT_TRUE(Submit(dc, s, MakeSyntheticJob(1, 0, 100, {1}, 1, 1)).admitted);
  s.job(1).phase = JobPhase::kFailed;
  s.active.clear();
  EXPECT_FALSE(dc.PickTask(s.slots[0].info, s, Time{0}));
}

TEST(DcPolicy, IsRegisteredAsDc) {
  JobHistory h = ExactHistory();
  auto p = MakePolicy("dc", &h);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->name(), "dc");
  EXPECT_TRUE((*p)->admission_control());
  EXPECT_TRUE((*FindPolicy("dc"))->traits.needs_estimator);
}

// RTMR section III: DC checks that R reduce slots are free at the single point max_rs,
// not over the whole window [max_rs, A + D], so admitted jobs' reduce stages can collide.
// Map slots 0 and 1, reduce slot 2; exact estimates, no noise.
//   Job 1 at 0: one 10 s map, one 10 s reduce, D = 20. max_rs = 10, n_min = 1: admitted
//     with its reduce window [10, 20].
//   Job 2 at 1: one 3 s map, one 10 s reduce, D = 14. max_rs = 5, n_min = 1; map slots:
//     2 - 1 held by job 1 = 1; reduce slots at t=5: job 1's window starts at 10, so the
//     one slot counts as free. Admitted, with window [5, 15], which contains job 1's 10.
//   Run: job 2's map [1, 4], its reduce [4, 14]: done by 15. Job 1's map [0, 10]; its
//     reduce waits for the slot until 14 and ends at 24, past its deadline 20.
TEST(DcPolicy, AdmitsAJobThatThenMissesItsDeadlineWhenReduceStagesCollide) {
  const std::vector<SlotInfo> slots = OneNode(2, 1);
  JobHistory h = ExactHistory();
  DcPolicy dc(&h);
  SimRun run(slots, dc);
  run.Submit(Time{0}, 1, 10, 1, 10, 20);
  run.Submit(seconds(1), 1, 3, 1, 10, 14);
  run.controller.RunUntilIdle();

  const JobState& first = run.controller.state().job(1);
  const JobState& second = run.controller.state().job(2);
  const Admission& a1 = run.controller.outcome(1).admission;
  const Admission& a2 = run.controller.outcome(2).admission;
  ASSERT_TRUE(a1.admitted) << a1.reason;
  ASSERT_TRUE(a2.admitted) << a2.reason;
  EXPECT_EQ(a1.reason, "admitted: 1 map slot from now, 1 reduce slot at t=10.0 s");
  EXPECT_EQ(a2.reason, "admitted: 1 map slot from now, 1 reduce slot at t=5.0 s");
  ASSERT_EQ(first.phase, JobPhase::kDone);
  ASSERT_EQ(second.phase, JobPhase::kDone);
  EXPECT_LE(second.finish, *second.absolute_deadline());
  // Job 1's map stage ended by its max_rs, as DC planned; its reduce could not start then.
  EXPECT_LE(first.map_phase_end, seconds(10));
  EXPECT_GT(first.reduces[0].start, seconds(10));
  EXPECT_GT(first.finish, *first.absolute_deadline()) << "DC admitted it, and it missed";
  EXPECT_EQ(first.finish, seconds(24));
}

// DC under Hadoop's reduce slow-start (the paper's testbed: 5 %), which DC's
// dispatcher does not override: a job's reduce takes the slot after its first map and
// holds it through a map stage DC has stretched to the job's deadline.
// Map slots 0 and 1, reduce slot 2; exact estimates.
//   Job 1 at 0: ten 1 s maps, one 1 s reduce, D = 20: max_rs = 19, n_min = 1. Admitted.
//     Its reduce holds slot 2 from t=1 (one map done) to the map stage's end at 10.
//   Job 2 at 2: one 1 s map, one 1 s reduce, D = 4: max_rs = 3, one map slot free, and at
//     t=3 no admitted reduce window ([19, 20]): admitted. Its map ends at 3, but its
//     reduce waits for slot 2 until 11: done at 12, 8 s late.
// Without slow-start job 2's reduce runs [3, 4] and both jobs meet their deadlines.
TEST(DcPolicy, UnderReduceSlowstartAdmitsAJobWhoseReduceThenFindsItsSlotHeld) {
  const std::vector<SlotInfo> slots = OneNode(2, 1);
  auto run = [&slots](std::optional<double> slowstart) {
    JobHistory h = ExactHistory();
    DcPolicy dc(&h);
    SimRun sim(slots, dc, slowstart);
    sim.Submit(Time{0}, 10, 1, 1, 1, 20);
    sim.Submit(seconds(2), 1, 1, 1, 1, 4);
    sim.controller.RunUntilIdle();
    std::vector<JobState> jobs;
    for (JobId id : {1u, 2u}) {
      EXPECT_TRUE(sim.controller.outcome(id).admission.admitted)
          << sim.controller.outcome(id).admission.reason;
      jobs.push_back(sim.controller.state().job(id));
      EXPECT_EQ(jobs.back().phase, JobPhase::kDone);
    }
    return jobs;
  };

  const std::vector<JobState> hadoop = run(0.05);  // Hadoop 0.21's default
  EXPECT_EQ(hadoop[0].reduces[0].start, seconds(1)) << "held from its first map's end";
  EXPECT_EQ(hadoop[0].map_phase_end, seconds(10));
  EXPECT_LE(hadoop[0].finish, *hadoop[0].absolute_deadline());
  EXPECT_EQ(hadoop[1].finish, seconds(12));
  EXPECT_GT(hadoop[1].finish, *hadoop[1].absolute_deadline()) << "DC admitted it, and it missed";

  const std::vector<JobState> model = run(std::nullopt);
  for (const JobState& j : model) EXPECT_LE(j.finish, *j.absolute_deadline()) << j.id;
  EXPECT_EQ(model[1].finish, seconds(4));
}

}  // namespace
}  // namespace mrlocal
