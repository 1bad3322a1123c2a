// RtmrPolicy (He, Lu, Swanson 2013, section IV), deterministic: the admission controller
// (Algorithms I-III) and the dispatcher (Algorithm IV) against hand-built ClusterStates,
// the feedback controller (Algorithms V and VI) on a simulated run. No threads, no clocks.
#include "sched/policy/rtmr_policy.h"

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
using testing::JobBuilder;
using testing::MakeCluster;
using testing::MakeSyntheticJob;
using testing::OneNode;
using testing::SimRun;

// A synthetic job of `maps` maps of map_s seconds and `reduces` reduces of reduce_s
// seconds (speed 1.0).
JobState MakeJob(JobId id, double arrival_s, std::optional<double> deadline_s, uint32_t maps,
                 double map_s, uint32_t reduces = 0, double reduce_s = 0) {
  return MakeSyntheticJob(id, arrival_s, deadline_s, std::vector<double>(maps, map_s), reduces,
                          reduce_s);
}

// Asks `rtmr` to admit `job` at its arrival; if it does, the job becomes active as the
// Controller makes it. Rejected jobs are kept too (as the Controller does), unqueued.
Admission Submit(RtmrPolicy& rtmr, ClusterState& s, JobState job) {
  Admission a = rtmr.Admit(job, s, job.arrival);
  if (a.admitted) s.active.push_back(job.id);
  s.jobs.emplace(job.id, std::move(job));
  return a;
}

// Asks for a map for `slot` and, if one is given, marks it running as the Controller does.
std::optional<TaskRef> PickAndStart(RtmrPolicy& rtmr, ClusterState& s, SlotId slot, Time now) {
  auto t = rtmr.PickTask(s.slots[slot].info, s, now);
  if (t) {
    JobState& job = s.job(t->job);
    job.task(t->kind, t->index).status = TaskStatus::kRunning;
    ++(t->kind == TaskKind::kMap ? job.maps_running : job.reduces_running);
    s.slots[slot].task = *t;
  }
  return t;
}

// Ends `job`'s map stage and plans reduce r for reduce_slots[r % size], as the Controller
// does.
void PlanReduces(ClusterState& s, JobState& job, const std::vector<SlotId>& reduce_slots) {
  for (auto& m : job.maps) m.status = TaskStatus::kDone;
  job.maps_running = 0;
  job.maps_done = job.M();
  for (uint32_t r = 0; r < job.R(); ++r)
    job.reduces[r].planned_slot = reduce_slots[r % reduce_slots.size()];
  job.reduces_planned = true;
  job.phase = JobPhase::kReduce;
  s.reducing.push_back(job.id);
}

TEST(RtmrPolicy, RejectsAJobWhoseAppHasNoHistory) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  JobState job = MakeJob(1, 0, 100, 1, 1, 1, 1);
  job.spec.app = "wordcount";
  RtmrPolicy rtmr(&h);
  Admission a = rtmr.Admit(job, s, Time{0});
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "no execution history for app 'wordcount': cannot estimate its tasks");
  EXPECT_TRUE(rtmr.queue().empty());
  RtmrPolicy none(nullptr);
  a = none.Admit(MakeJob(1, 0, 100, 1, 1, 1, 1), s, Time{0});
  EXPECT_FALSE(a.admitted);
  EXPECT_NE(a.reason.find("'synthetic'"), std::string::npos) << a.reason;
}

// Algorithms II and III by hand. 2 map slots, 1 reduce slot, φ_m = 10 s, φ_r = 5 s; a job
// of 3 maps and 2 reduces arriving at 0: the maps take T^m = [0, 0] to [10, 10] to
// [10, 20], so e_m = 20; the reduces take T^r = [0] to [25] to [30]: e = 30.
TEST(RtmrPolicy, EstimatesTheFinishWithAlgorithmsTwoAndThree) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  RtmrPolicy rtmr(&h);
  Admission a = Submit(rtmr, s, MakeJob(1, 0, 30, 3, 10, 2, 5));
  ASSERT_TRUE(a.admitted) << a.reason;
  ASSERT_TRUE(a.estimated_finish());
  EXPECT_EQ(*a.estimated_finish(), seconds(30));
  EXPECT_EQ(a.reason,
            "estimated finish 30.00 s after arrival, slack 0 us (worst-case history estimates)");
  EXPECT_FALSE(a.estimate && a.estimate->min_deadline);
  EXPECT_FALSE(a.estimate && a.estimate->extra_nodes);
  EXPECT_EQ(rtmr.EstimatedFinish(1), seconds(30));

  // A later job starts from job 1's vectors T^m = [10, 20], T^r = [30]: its map on the
  // slot free at 10 ends at 20 (e_m = 20), its reduce waits for the slot until 30: 35.
  a = Submit(rtmr, s, MakeJob(2, 0, 100, 1, 10, 1, 5));
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(35));
  // One arriving at 50, after every slot is free in the estimates: from now (line 4 of
  // Algorithm II), map [50, 60], reduce [60, 65].
  a = Submit(rtmr, s, MakeJob(3, 50, 100, 1, 10, 1, 5));
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(65));
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{1, 2, 3}));
}

TEST(RtmrPolicy, RejectsAJobPastItsDeadlineWithTheLeastDeadlineAndNodesThatWouldFit) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  RtmrPolicy rtmr(&h);
  // As above, but D = 29: e = 30 > 29. One more (1m,1r,1.0) node: 3 map slots end the
  // maps at 10, 2 reduce slots end the reduces at 15.
  Admission a = Submit(rtmr, s, MakeJob(1, 0, 29, 3, 10, 2, 5));
  EXPECT_FALSE(a.admitted);
  ASSERT_TRUE(a.estimated_finish());
  EXPECT_EQ(*a.estimated_finish(), seconds(30));
  EXPECT_EQ(a.reason,
            "estimated finish 30.00 s after arrival is past its deadline of 29.00 s "
            "(worst-case task times: map 10.00 s, reduce 5.00 s)");
  ASSERT_TRUE(a.estimate && a.estimate->min_deadline);
  EXPECT_EQ(*a.estimate->min_deadline, seconds(30));
  ASSERT_TRUE(a.estimate && a.estimate->extra_nodes);
  EXPECT_EQ(*a.estimate->extra_nodes, 1);
  EXPECT_TRUE(rtmr.queue().empty());
  EXPECT_FALSE(rtmr.EstimatedFinish(1));

  // 5 maps, 1 reduce, arriving at 2: maps end at 12, 12, 22, 22, 32, e = 37 (min deadline
  // 35 s after arrival). D = 22 (by 24): +1 node (3 slots): maps 12 x3, 22 x2, e = 27;
  // +2 (4 slots): 12 x4, 22, e = 27; +3 (5 slots): 12, e = 17 <= 24. So 3.
  a = Submit(rtmr, s, MakeJob(2, 2, 22, 5, 10, 1, 5));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimated_finish(), seconds(37));
  EXPECT_EQ(*a.estimate->min_deadline, seconds(35));
  ASSERT_TRUE(a.estimate && a.estimate->extra_nodes);
  EXPECT_EQ(*a.estimate->extra_nodes, 3);
  // With D = 25 (by 27) +1 node is enough.
  a = Submit(rtmr, s, MakeJob(3, 2, 25, 5, 10, 1, 5));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimate->extra_nodes, 1);
  // D = 14 < φ_m + φ_r = 15: no number of nodes helps.
  a = Submit(rtmr, s, MakeJob(4, 2, 14, 5, 10, 1, 5));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimate->min_deadline, seconds(35));
  EXPECT_FALSE(a.estimate && a.estimate->extra_nodes);
}

TEST(RtmrPolicy, RejectsAJobWithReducesOnAClusterWithoutReduceSlots) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 0));
  RtmrPolicy rtmr(&h);
  Admission a = Submit(rtmr, s, MakeJob(1, 0, 1000, 1, 1, 2, 1));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, "the cluster has no reduce slot for its 2 reduces");
  EXPECT_TRUE(Submit(rtmr, s, MakeJob(2, 0, 1000, 1, 1)).admitted) << "a map-only job fits";
}

// Algorithm I lines 10-21: a job that fits its own deadline is still rejected when a job
// after it in the EDF queue would then miss. One map slot, map-only jobs.
TEST(RtmrPolicy, RejectsAJobThatWouldMakeALaterDeadlineJobMiss) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(1, 1));
  RtmrPolicy rtmr(&h);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(1, 0, 25, 1, 10)).admitted);  // by 25: est. 10
  // Earlier deadline: goes first (EDF), job 1 is re-estimated to 20 <= 25.
  Admission a = Submit(rtmr, s, MakeJob(2, 0, 15, 1, 10));
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(10));
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{2, 1}));
  EXPECT_EQ(rtmr.EstimatedFinish(1), seconds(20));
  // Between them: 15 <= 18 for itself, job 1 now 25 <= 25.
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(3, 0, 18, 1, 5)).admitted);
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{2, 3, 1}));
  EXPECT_EQ(rtmr.EstimatedFinish(1), seconds(25));
  // Job 4 would end at 16 <= 19 itself, but push job 1 to 26 > 25.
  a = Submit(rtmr, s, MakeJob(4, 0, 19, 1, 1));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimated_finish(), seconds(16));
  EXPECT_EQ(a.reason, "admitting it would make job 1 (j1) miss its deadline by 1.00 s");
  // Nothing changed: the queue and job 1's estimate.
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{2, 3, 1}));
  EXPECT_EQ(rtmr.EstimatedFinish(1), seconds(25));
  // The same job with the latest deadline delays nobody: admitted at the tail.
  a = Submit(rtmr, s, MakeJob(5, 0, 40, 1, 1));
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(26));
  // An equal deadline goes after the jobs already there; no deadline, last of all.
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(6, 0, 15, 0, 0)).admitted);
  Admission best_effort = Submit(rtmr, s, MakeJob(7, 0, std::nullopt, 1, 100));
  ASSERT_TRUE(best_effort.admitted);
  EXPECT_FALSE(best_effort.estimated_finish());
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(8, 0, 100, 1, 1)).admitted);
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{2, 6, 3, 1, 5, 8, 7}));
}

// Section IV, assumption 2: no preemption. Once job 1's first map was picked, job 2 with
// an earlier deadline queues after it, is estimated after it, and gets map slots only once
// job 1's maps are all dispatched. Two map slots.
TEST(RtmrPolicy, DoesNotPreemptAStartedJob) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 1));
  RtmrPolicy rtmr(&h);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(1, 0, 100, 3, 10)).admitted);  // est. 20
  auto t = PickAndStart(rtmr, s, 0, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
  // At 1 s, job 2 (by 1 + 30 = 31) arrives: before job 1 in EDF, but job 1 started. From
  // job 1's T^m = [10, 20] its two maps end at 20 and 30.
  Admission a = Submit(rtmr, s, MakeJob(2, 1, 30, 2, 10));
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(30));
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{1, 2}));
  // Job 3 (by 1 + 15 = 16) would end at 11 on the free slot if it could go first; behind
  // the started job 1 it ends at 20.
  a = Submit(rtmr, s, MakeJob(3, 1, 15, 1, 10));
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimated_finish(), seconds(20));
  // The free slot, then the first again once its map ends, go to job 1; then job 2.
  for (auto [slot, job] : {std::pair<SlotId, JobId>{1, 1}, {0, 1}, {1, 2}, {0, 2}}) {
    if (s.slots[slot].task) {  // that slot's task ends
      JobState& j = s.job(s.slots[slot].task->job);
      j.maps[s.slots[slot].task->index].status = TaskStatus::kDone;
      --j.maps_running;
      ++j.maps_done;
      s.slots[slot].task.reset();
    }
    t = PickAndStart(rtmr, s, slot, seconds(1));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->job, job);
  }
  EXPECT_EQ(rtmr.queue(), (std::vector<JobId>{1, 2}));
}

// Algorithm IV (section IV.C). Jobs start their map stages in priority order but may end
// them out of order, so a lower-priority job's reduces can be ready while a higher-priority
// job is still mapping. Given a free reduce slot, the dispatcher walks the queue and, for
// each job ahead that has not reached its reduce stage, reserves its R reduce slots; the
// lower job gets a slot only if free slots remain beyond what is reserved.
//   H: earlier deadline, still in its map stage, R_H = 2.
//   L: later deadline, maps done, reduce 1 running on slot r2, reduce 0 ready, planned
//      for r0. Reduce slots r0, r1 free (2 <= R_H): L gets neither. Once r2 frees too
//      (3 > R_H), L gets one. When H reaches its reduce stage, H goes first.
// (With reserved == Ra the paper's "reserved > Ra" would let L in and leave H one slot
// short; the policy stops at reserved >= Ra, sched/policy/rtmr_policy.cc.)
TEST(RtmrPolicy, ReservesReduceSlotsForHigherPriorityJobsStillMapping) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 3));  // maps 0-3, reduces 4-6
  const SlotId r0 = 4, r1 = 5, r2 = 6;
  RtmrPolicy rtmr(&h);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(1, 0, 100, 3, 10, 2, 5)).admitted);  // H
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(2, 0, 200, 1, 1, 2, 5)).admitted);   // L
  ASSERT_EQ(rtmr.queue(), (std::vector<JobId>{1, 2}));
  JobState& high = s.job(1);
  JobState& low = s.job(2);
  for (SlotId m = 0; m < 4; ++m) ASSERT_TRUE(PickAndStart(rtmr, s, m, Time{0}));
  EXPECT_EQ(high.maps_running, 3u);
  EXPECT_EQ(low.maps_running, 1u);
  // L's one map ends first; its reduce 1 runs on r2.
  PlanReduces(s, low, {r0, r2});
  s.slots[3].task.reset();
  auto t = rtmr.PickTask(s.slots[r2].info, s, seconds(1));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
  EXPECT_EQ(t->index, 1u) << "the reduce planned for r2";
  low.reduces[1].status = TaskStatus::kRunning;
  ++low.reduces_running;
  s.slots[r2].task = *t;

  // 2 free reduce slots, R_H = 2 reserved: L's ready reduce 0 waits.
  EXPECT_FALSE(rtmr.PickTask(s.slots[r0].info, s, seconds(2)));
  EXPECT_FALSE(rtmr.PickTask(s.slots[r1].info, s, seconds(2)));
  // r2 frees: 3 free > 2 reserved.
  low.reduces[1].status = TaskStatus::kDone;
  --low.reduces_running;
  ++low.reduces_done;
  s.slots[r2].task.reset();
  t = rtmr.PickTask(s.slots[r0].info, s, seconds(3));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
  EXPECT_EQ(t->kind, TaskKind::kReduce);
  EXPECT_EQ(t->index, 0u);
  low.reduces[0].status = TaskStatus::kRunning;
  ++low.reduces_running;
  s.slots[r0].task = *t;

  // H reaches its reduce stage: it is served first.
  PlanReduces(s, high, {r1, r2});
  t = rtmr.PickTask(s.slots[r1].info, s, seconds(11));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
}

// The reservation counts only jobs that have not reached their reduce stage: a job ahead
// whose reduces all run reserves nothing.
TEST(RtmrPolicy, ReservesNothingForAJobAheadInItsReduceStage) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(2, 2));  // maps 0-1, reduces 2-3
  RtmrPolicy rtmr(&h);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(1, 0, 100, 1, 1, 1, 5)).admitted);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(2, 0, 200, 1, 1, 1, 5)).admitted);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(3, 0, 300, 5, 10, 2, 5)).admitted);
  PlanReduces(s, s.job(1), {2});
  ASSERT_TRUE(PickAndStart(rtmr, s, 2, seconds(1)));
  PlanReduces(s, s.job(2), {3});
  // One free slot; job 1 ahead has its one reduce running; job 3 (mapping, R = 2) is
  // behind job 2.
  auto t = rtmr.PickTask(s.slots[3].info, s, seconds(1));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
}

// Found by tests/sched/policy/rtmr_property_test.cc (workload 853, minimized). Algorithm IV's
// findAReadyReduceTask(J) gives any ready reduce of J. Here H's one ready reduce is planned
// for the other free reduce slot r1; if the walk then moves on to L, L takes r0 and the
// one slot left is reserved for P (ahead, still mapping): H waits for a slot the estimates
// gave it, behind L's long reduce.
//   P: started first, still mapping, R = 1.   H: reduce 0 done, reduce 1 ready, for r1.
//   L: after H in the queue, reduce 0 ready, for r0.  Free: r0, r1.
// Offered r0 then r1 (as the Controller's Dispatch does), H must get one and L neither.
TEST(RtmrPolicy, DoesNotPassOverAHigherJobsReduceWaitingForItsPlannedSlot) {
  JobHistory h = ExactHistory();
  ClusterState s = MakeCluster(OneNode(4, 2));  // maps 0-3, reduces 4-5
  const SlotId r0 = 4, r1 = 5;
  RtmrPolicy rtmr(&h);
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(1, 0, 170, 5, 16, 1, 15)).admitted);  // P
  ASSERT_TRUE(PickAndStart(rtmr, s, 0, Time{0}));
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(2, 2, 23, 1, 3.5, 2, 1.4)).admitted);  // H
  ASSERT_TRUE(Submit(rtmr, s, MakeJob(3, 5, 100, 1, 3.4, 1, 16)).admitted);  // L
  ASSERT_EQ(rtmr.queue(), (std::vector<JobId>{1, 2, 3}));
  JobState& high = s.job(2);
  PlanReduces(s, s.job(3), {r0});
  PlanReduces(s, high, {r0, r1});
  high.reduces[0].status = TaskStatus::kDone;
  high.reduces_done = 1;

  for (SlotId slot : {r0, r1}) {
    auto t = rtmr.PickTask(s.slots[slot].info, s, seconds(21));
    if (!t) continue;
    EXPECT_NE(t->job, 3u) << "L took reduce slot " << slot << " ahead of H";
    JobState& job = s.job(t->job);
    job.reduces[t->index].status = TaskStatus::kRunning;
    ++job.reduces_running;
    s.slots[slot].task = *t;
  }
  EXPECT_TRUE(high.reduces[1].status == TaskStatus::kRunning) << "H's ready reduce got no slot";
}

// The same case run on the simulator, every task exactly its worst case. Slots: maps 0-3,
// reduces 4-5, all speed 1.0.
//   P at 0: 5 maps of 16 s, 1 reduce of 15 s, by 170. Maps [0,16] x4, [16,32].
//   H at 2: 1 map of 3.5 s, 2 reduces of 1.4 s, by 25: map [16,19.5]; P's T^r = [0, 47]
//     (its reduce [32,47]), so H's reduces go one after the other on the other slot:
//     [19.5,20.9], [20.9,22.3]. e = 22.3.
//   L at 5: 1 map of 3.4 s, 1 reduce of 16 s, by 105: after H, e = 22.3 + 16 = 38.3.
// At 20.9 H's reduce 1 waits for r1 (planned), r0 and r1 are free, P reserves one. If L
// takes r0, H's reduce runs after L's, [36.9,38.3]: 13 s late.
TEST(RtmrPolicy, AHigherJobsReduceWaitingForItsPlannedSlotStillMeetsItsDeadline) {
  const std::vector<SlotInfo> slots = OneNode(4, 2);
  JobHistory h = ExactHistory();
  RtmrPolicy rtmr(&h);
  SimRun run(slots, rtmr);
  run.Submit(Time{0}, 5, 16, 1, 15, 170);
  run.Submit(seconds(2), 1, 3.5, 2, 1.4, 23);
  run.Submit(seconds(5), 1, 3.4, 1, 16, 100);
  run.controller.RunUntilIdle();
  for (JobId id : {1u, 2u, 3u}) {
    const JobState& j = run.controller.state().job(id);
    const Admission& a = run.controller.outcome(id).admission;
    ASSERT_TRUE(a.admitted) << "job " << id << ": " << a.reason;
    ASSERT_EQ(j.phase, JobPhase::kDone);
    EXPECT_LE(j.finish, *a.estimated_finish()) << "job " << id;
    EXPECT_LE(j.finish, *j.absolute_deadline()) << "job " << id;
  }
}

// Reduce slow-start does not apply: Algorithm IV starts a job's reduces once its map
// stage has ended, as Algorithm III planned them.
TEST(RtmrPolicy, ItsReducesWaitForTheMapStageEvenUnderReduceSlowstart) {
  const std::vector<SlotInfo> slots = OneNode(2, 1);
  JobHistory h = ExactHistory();
  RtmrPolicy rtmr(&h);
  SimRun run(slots, rtmr, /*reduce_slowstart=*/0.05);
  run.Submit(Time{0}, 10, 1.0, 1, 1.0, 20);
  run.controller.RunUntilIdle();
  const JobState& job = run.controller.state().job(1);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.map_phase_end, seconds(5));
  EXPECT_EQ(job.reduces[0].start, seconds(5));
  EXPECT_EQ(job.finish, seconds(6));
}

// Algorithms V and VI on a simulated run. One map slot; map-only jobs.
//   Job 1 at 0: one map, worst case 10 s, D = 100. It runs 2 s: 8 s before its estimate,
//     more than ε (its median map, 2 s). The feedback rebuilds its T^m from the actual
//     finish: [2] instead of [10].
//   Job 2 at 3: one map, worst case 10 s, D = 10 (by 13). From T^m = [10] it would end at
//     20; from [2], at 3 + 10 = 13: admitted only with feedback, and it meets its deadline.
struct FeedbackRun {
  Admission second;
  uint64_t feedback_updates = 0;
  const JobState* job2 = nullptr;
};

class RtmrFeedback : public ::testing::Test {
 protected:
  // Job 1 at 0: one map, worst case 10 s, runs actual1_s; by 100. Job 2 at arrive2_s: one
  // map of 10 s (worst and actual), relative deadline deadline2_s.
  FeedbackRun Run(RtmrOptions options, double actual1_s, double arrive2_s, double deadline2_s) {
    const std::vector<SlotInfo> slots = OneNode(1, 1);
    policy_ = std::make_unique<RtmrPolicy>(&history_, options);
    exec_ = std::make_unique<SimExecutor>(loop_, slots);
    controller_ = std::make_unique<Controller>(
        loop_, *exec_, *policy_, slots, 1, std::move(MakePartitioner("hash")).value(),
        ControllerOptions{.observer_tick = Duration::zero(), .reduce_slowstart = {}});
    auto job = [this](double worst_s, double actual_s, double deadline_s) {
      return [this, worst_s, actual_s, deadline_s](JobId id) {
        SimJob model;
        model.map_work_s = {actual_s};
        exec_->AddJob(id, std::move(model));
        return JobBuilder()
            .Deadline(FromSeconds(deadline_s))
            .MapSeconds({worst_s})
            .SpreadOver(1)
            .Reduces(0)
            .Build();
      };
    };
    controller_->SubmitAt(Time{0}, job(10, actual1_s, 100));
    controller_->SubmitAt(FromSeconds(arrive2_s), job(10, 10, deadline2_s));
    controller_->RunUntilIdle();
    EXPECT_EQ(controller_->state().job(1).phase, JobPhase::kDone);
    return {controller_->outcome(2).admission, policy_->feedback_updates(),
            &controller_->state().job(2)};
  }

  JobHistory history_ = ExactHistory();
  SimLoop loop_;
  std::unique_ptr<RtmrPolicy> policy_;
  std::unique_ptr<SimExecutor> exec_;
  std::unique_ptr<Controller> controller_;
};

TEST_F(RtmrFeedback, AnEarlyFinishRaisesTheAcceptRatio) {
  FeedbackRun r = Run(RtmrOptions{}, /*actual1_s=*/2, /*arrive2_s=*/3, /*deadline2_s=*/10);
  EXPECT_EQ(r.feedback_updates, 1u);
  ASSERT_TRUE(r.second.admitted) << r.second.reason;
  EXPECT_EQ(*r.second.estimated_finish(), seconds(13));
  ASSERT_EQ(r.job2->phase, JobPhase::kDone);
  EXPECT_LE(r.job2->finish, *r.job2->absolute_deadline());
}

TEST_F(RtmrFeedback, WithoutFeedbackTheSameJobIsRejected) {
  FeedbackRun r = Run(RtmrOptions{.feedback = false, .feedback_threshold = std::nullopt}, 2, 3, 10);
  EXPECT_EQ(policy_->name(), "rtmr-nofb");
  EXPECT_EQ(r.feedback_updates, 0u);
  EXPECT_FALSE(r.second.admitted);
  EXPECT_EQ(*r.second.estimated_finish(), seconds(20));
  EXPECT_EQ(r.job2->phase, JobPhase::kRejected);
}

// Job 1 runs 9.5 s, 0.5 s before its estimate: less than ε (its median map, 9.5 s), so the
// estimate stands. Job 2 at 9.6 is estimated from T^m = [10]: 20 (from [9.5] it would be
// 19.6).
TEST_F(RtmrFeedback, AFinishWithinEpsilonOfTheEstimateChangesNothing) {
  FeedbackRun r = Run(RtmrOptions{}, 9.5, 9.6, 100);
  EXPECT_EQ(r.feedback_updates, 0u);
  ASSERT_TRUE(r.second.admitted) << r.second.reason;
  EXPECT_EQ(*r.second.estimated_finish(), seconds(20));
}

// An explicit ε larger than the gap keeps even the early finish from feeding back.
TEST_F(RtmrFeedback, AnExplicitThresholdAboveTheGapChangesNothing) {
  FeedbackRun r = Run(RtmrOptions{.feedback_threshold = seconds(9)}, 2, 3, 10);
  EXPECT_EQ(r.feedback_updates, 0u);
  EXPECT_FALSE(r.second.admitted);
}

TEST(RtmrPolicy, IsRegisteredWithAndWithoutFeedback) {
  JobHistory h = ExactHistory();
  for (const char* name : {"rtmr", "rtmr-nofb"}) {
    auto p = MakePolicy(name, &h);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_EQ((*p)->name(), name);
    EXPECT_TRUE((*p)->admission_control());
    EXPECT_TRUE((*FindPolicy(name))->traits.needs_estimator);
  }
}

// Any Estimator will do: one that says every map takes 10 s and every reduce 5 s on a
// slot of speed 1.0, whatever the app, whatever the size.
class FixedEstimator final : public Estimator {
 public:
  std::optional<double> TaskSeconds(const JobState&, const TaskFeatures& t) const override {
    return (t.kind == TaskKind::kMap ? 10.0 : 5.0) / t.slot_speed;
  }
  std::optional<ShuffleEstimate> Shuffle(const JobState&) const override {
    return ShuffleEstimate{};
  }
  std::string Source(const JobState&) const override { return "fixed"; }
};

// 2 map slots, 1 reduce slot; 3 maps and 2 reduces of an app no history knows: maps end
// at 20, reduces at 30 (as in EstimatesTheFinishWithAlgorithmsTwoAndThree).
TEST(RtmrPolicy, AdmitsAndRejectsByTheEstimatorItIsGiven) {
  FixedEstimator fixed;
  ClusterState s = MakeCluster(OneNode(2, 1));
  RtmrPolicy rtmr(&fixed);
  JobState late = MakeJob(1, 0, 29, 3, 0.001, 2, 0.001);
  late.spec.app = "wordcount";
  late.spec.shuffle_units = late.spec.max_reduce_units = 0;
  Admission a = Submit(rtmr, s, late);
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(*a.estimated_finish(), seconds(30));
  JobState in_time = late;
  in_time.id = 2;
  in_time.spec.deadline = seconds(30);
  a = Submit(rtmr, s, in_time);
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), seconds(30));
  EXPECT_EQ(a.reason,
            "estimated finish 30.00 s after arrival, slack 0 us (worst-case fixed estimates)");
}

}  // namespace
}  // namespace mrlocal
