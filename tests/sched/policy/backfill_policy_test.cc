// BackfillPolicy on a tiny simulated cluster: a job RTMR rejects runs best effort in the
// slots admitted jobs leave, gives them back at once when an admitted job needs them, and
// still completes; the admitted job ends exactly when it would have alone. An admitted
// job's slack goes to a best-effort job with an earlier deadline only where RTMR's re-plan
// says the admitted job still meets its own.
#include "sched/policy/backfill_policy.h"

#include <gtest/gtest.h>

#include <memory>

#include "sched/policy/policy_registry.h"
#include "sched/policy/rtmr_policy.h"
#include "tests/util/cluster.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ExactHistory;
using testing::OneNode;
using testing::SimRun;

struct Backfilled {
  JobHistory history = ExactHistory();
  BackfillPolicy policy{std::make_unique<RtmrPolicy>(&history)};
};

// One node of 2 map slots and 1 reduce slot. Job 1 at 0: 2 maps of 10 s and a reduce of
// 1 s, deadline 5 s: it cannot make it, so RTMR rejects it, and it runs best effort on the
// idle cluster: maps [0,10], reduce [10,11].
TEST(BackfillPolicy, RunsARejectedJobInIdleSlotsToTheEnd) {
  Backfilled b;
  SimRun run(OneNode(2, 1), b.policy);
  run.Submit(Time{0}, 2, 10, 1, 1, 5);
  run.controller.RunUntilIdle();
  const Admission& a = run.controller.outcome(1).admission;
  EXPECT_TRUE(a.admitted);
  EXPECT_TRUE(a.best_effort);
  EXPECT_FALSE(a.guaranteed());
  EXPECT_NE(a.reason.find("rejected: estimated finish"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("runs best-effort in spare slots"), std::string::npos) << a.reason;
  const JobState& j = run.controller.state().job(1);
  ASSERT_EQ(j.phase, JobPhase::kDone);
  EXPECT_EQ(j.finish, seconds(11));
  EXPECT_EQ(b.policy.preemptions(), 0u);
}

// Without backfill the same job is dropped.
TEST(BackfillPolicy, DropIsTodaysRejection) {
  JobHistory h = ExactHistory();
  RtmrPolicy rtmr(&h);
  SimRun run(OneNode(2, 1), rtmr);
  run.Submit(Time{0}, 2, 10, 1, 1, 5);
  run.controller.RunUntilIdle();
  EXPECT_FALSE(run.controller.outcome(1).admission.admitted);
  EXPECT_EQ(run.controller.state().job(1).phase, JobPhase::kRejected);
}

// Job 1 as above holds both map slots when job 2 arrives at 2 s: 2 maps of 3 s, a reduce
// of 1 s, deadline 4 s. RTMR admits it (finish 6 s on the empty cluster). Neither slot can
// be lent to job 1's maps in place (to 10 s, job 2 would end at 9 s), so both are preempted
// at 2 s, and job 2 runs maps [2,5] and its reduce [5,6], as if alone. Job 1's maps start
// over: [5,15], reduce [15,16].
TEST(BackfillPolicy, GivesAnAdmittedJobItsSlotsAtOnceAndFinishesLater) {
  Backfilled b;
  SimRun run(OneNode(2, 1), b.policy);
  run.Submit(Time{0}, 2, 10, 1, 1, 5);
  run.Submit(seconds(2), 2, 3, 1, 1, 4);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(2).admission.guaranteed());
  const JobState& admitted = run.controller.state().job(2);
  ASSERT_EQ(admitted.phase, JobPhase::kDone);
  EXPECT_EQ(admitted.finish, seconds(6));
  for (const TaskState& t : admitted.maps) EXPECT_EQ(t.start, seconds(2));

  const JobState& be = run.controller.state().job(1);
  ASSERT_EQ(be.phase, JobPhase::kDone);
  EXPECT_EQ(be.finish, seconds(16));
  for (const TaskState& t : be.maps) EXPECT_EQ(t.attempts, 2u) << "preempted, then rerun";
  EXPECT_EQ(b.policy.preemptions(), 2u);
  EXPECT_EQ(run.controller.stats().preemptions, 2u);
}

// The same with job 2's deadline at 10 s (12 s absolute): one best-effort map keeps its slot,
// lent in place to 10 s, for job 2 still ends by 9 s (maps [2,5] and [5,8] on the other
// slot, reduce [8,9]); the other is preempted. Job 1: map [0,10], the other again [8,18],
// reduce [18,19].
TEST(BackfillPolicy, LendsARunningBestEffortMapInPlaceWhereTheAdmittedJobHasSlack) {
  Backfilled b;
  SimRun run(OneNode(2, 1), b.policy);
  run.Submit(Time{0}, 2, 10, 1, 1, 5);
  run.Submit(seconds(2), 2, 3, 1, 1, 10);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(2).admission.guaranteed());
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(9));
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(19));
  EXPECT_EQ(b.policy.loans(), 1u);
  EXPECT_EQ(b.policy.preemptions(), 1u);
}

// A best-effort reduce holding the only reduce slot gives it up when an admitted job's
// reduce becomes ready and cannot wait for it. Job 1 (best effort, deadline 1 s): 1 map of 1 s, a reduce of 20 s:
// map [0,1], reduce from 1. Job 2 at 2 s: 1 map of 2 s, a reduce of 2 s, deadline 8 s,
// admitted (finish 6 s): map [2,4]; at 4 its reduce needs the slot, and lent in place to job
// 1's reduce (to 21 s) it would end at 23 s, past 10 s: job 1's reduce is preempted, job 2's
// runs [4,6]; job 1's reduce starts over [6,26].
TEST(BackfillPolicy, PreemptsABestEffortReduceForAnAdmittedOne) {
  Backfilled b;
  SimRun run(OneNode(2, 1), b.policy);
  run.Submit(Time{0}, 1, 1, 1, 20, 1);
  run.Submit(seconds(2), 1, 2, 1, 2, 8);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(1).admission.best_effort);
  ASSERT_TRUE(run.controller.outcome(2).admission.guaranteed());
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(6));
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(26));
  EXPECT_EQ(b.policy.preemptions(), 1u);
}

// The same with job 1's reduce of 4 s and job 2's deadline at 12 s (14 s absolute): at 4,
// job 1's reduce, running since 1, ends by 5 at its worst case, and job 2's reduce after it,
// [5,7], still meets 14 s: the slot is lent in place and nothing is preempted.
TEST(BackfillPolicy, LendsARunningBestEffortReduceInPlaceWhereTheAdmittedJobHasSlack) {
  Backfilled b;
  SimRun run(OneNode(2, 1), b.policy);
  run.Submit(Time{0}, 1, 1, 1, 4, 1);
  run.Submit(seconds(2), 1, 2, 1, 2, 12);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(1).admission.best_effort);
  ASSERT_TRUE(run.controller.outcome(2).admission.guaranteed());
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(5));
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(7));
  EXPECT_EQ(b.policy.loans(), 1u);
  EXPECT_EQ(b.policy.preemptions(), 0u);
}

// Best-effort jobs among themselves: earliest deadline first. On one map slot, three jobs
// of one 5 s map that RTMR rejects (each would end past its deadline): job 1 at 0 takes the
// idle slot; job 2 (at 1, by 3 s) and job 3 (at 2, by 2.5 s) wait, and job 3 goes first.
TEST(BackfillPolicy, RunsBestEffortJobsInDeadlineOrder) {
  Backfilled b;
  SimRun run(OneNode(1, 1), b.policy);
  run.Submit(Time{0}, 1, 5, 0, 0, 1);
  run.Submit(seconds(1), 1, 5, 0, 0, 2);
  run.Submit(seconds(2), 1, 5, 0, 0, 0.5);
  run.controller.RunUntilIdle();
  for (JobId id : {1u, 2u, 3u}) ASSERT_TRUE(run.controller.outcome(id).admission.best_effort);
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(5));
  EXPECT_EQ(run.controller.state().job(3).finish, seconds(10));  // deadline 2.5 s
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(15));  // deadline 3 s
}

// Slack stealing. One map slot. Job 1 at 0: 2 maps of 2 s, deadline 20 s, admitted
// (plan: maps [0,2], [2,4]). Job 2 at 1 s: 1 map of 2 s, deadline 3.5 s (4.5 s absolute).
// RTMR queues it after job 1, which has started: [4,6], past 4.5, so it is rejected. At
// 2 s job 1's second map waits, and job 2's deadline is earlier: RTMR re-plans with the
// slot lent until 4 s, job 1 still ends by 6 s, well before 20 s, so job 2 runs [2,4] and
// meets its deadline; job 1's map runs [4,6].
TEST(BackfillPolicy, LendsAdmittedSlackToAnEarlierDeadline) {
  Backfilled b;
  SimRun run(OneNode(1, 1), b.policy);
  run.Submit(Time{0}, 2, 2, 0, 0, 20);
  run.Submit(seconds(1), 1, 2, 0, 0, 3.5);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(1).admission.guaranteed());
  ASSERT_TRUE(run.controller.outcome(2).admission.best_effort);
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(4));
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(6));
  EXPECT_EQ(b.policy.loans(), 1u);
  EXPECT_EQ(b.policy.preemptions(), 0u);
}

// The same with job 1's deadline at 5 s: lent, the slot would end job 1 at 6 s, so RTMR
// refuses; job 1 keeps its plan ([2,4], done at 4 s) and job 2 runs after it, late.
TEST(BackfillPolicy, LendsNoSlackAnAdmittedJobNeeds) {
  Backfilled b;
  SimRun run(OneNode(1, 1), b.policy);
  run.Submit(Time{0}, 2, 2, 0, 0, 5);
  run.Submit(seconds(1), 1, 2, 0, 0, 3.5);
  run.controller.RunUntilIdle();
  ASSERT_TRUE(run.controller.outcome(1).admission.guaranteed());
  ASSERT_TRUE(run.controller.outcome(2).admission.best_effort);
  EXPECT_EQ(run.controller.state().job(1).finish, seconds(4));
  EXPECT_EQ(run.controller.state().job(2).finish, seconds(6));
  EXPECT_EQ(b.policy.loans(), 0u);
}

TEST(BackfillPolicy, TheRegistryWrapsAdmissionControlPoliciesOnRequest) {
  JobHistory h = ExactHistory();
  PolicyArgs backfill;
  backfill.Set(kRejectPolicy, std::string("backfill"));
  for (const char* name : {"rtmr", "rtmr-nofb", "dc"}) {
    auto p = MakePolicy(name, &h, backfill);
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_NE(dynamic_cast<BackfillPolicy*>(p->get()), nullptr) << name;
    EXPECT_EQ((*p)->name(), name) << "reports key on the inner's name";
    auto dropped = MakePolicy(name, &h, PolicyArgs().Set(kRejectPolicy, std::string("drop")));
    ASSERT_TRUE(dropped.ok());
    EXPECT_EQ(dynamic_cast<BackfillPolicy*>(dropped->get()), nullptr) << name;
    auto unset = MakePolicy(name, &h);
    ASSERT_TRUE(unset.ok());
    EXPECT_EQ(dynamic_cast<BackfillPolicy*>(unset->get()), nullptr) << name << ": drop by default";
  }
  // A policy that admits every job has nothing to backfill.
  auto edf = MakePolicy("edf", &h, backfill);
  ASSERT_TRUE(edf.ok());
  EXPECT_EQ(dynamic_cast<BackfillPolicy*>(edf->get()), nullptr);
  // A value that is neither is refused.
  auto bad = MakePolicy("rtmr", &h, PolicyArgs().Set(kRejectPolicy, std::string("keep")));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("must be one of drop | backfill (got 'keep')"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace mrlocal
