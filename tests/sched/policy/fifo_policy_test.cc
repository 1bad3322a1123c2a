// FifoPolicy against a hand-built ClusterState and a FakeClock: no threads.
#include "sched/policy/fifo_policy.h"

#include <gtest/gtest.h>

#include "sched/policy/policy_registry.h"
#include "tests/util/arriving_job.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using testing::ArrivingJob;
using testing::JobBuilder;
using testing::MakeCluster;
using testing::Nodes;

// Job `id` as it arrives, with `maps` map tasks whose split i has a replica on node i % nodes.
JobState MakeJob(JobId id, uint32_t maps, uint32_t reduces, int nodes) {
  return ArrivingJob(JobBuilder().Maps(maps).SpreadOver(nodes).Reduces(reduces).Build(), id,
                     Time{0}, nodes);
}

TEST(FifoPolicy, AdmitsEveryJobAndSaysItDoesNotTestDeadlines) {
  FifoPolicy fifo;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  JobState j = MakeJob(1, 4, 1, 2);
  j.spec.deadline = std::chrono::seconds(1);
  Admission a = fifo.Admit(j, s, Time{0});
  EXPECT_TRUE(a.admitted);
  EXPECT_NE(a.reason.find("does not test deadlines"), std::string::npos);
}

TEST(FifoPolicy, FirstJobFirstAndDataLocalMapFirst) {
  FakeClock clock;
  FifoPolicy fifo;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  s.jobs.emplace(1, MakeJob(1, 4, 1, 2));
  s.jobs.emplace(2, MakeJob(2, 4, 1, 2));
  s.active = {1, 2};
  // Slot 1 is on node 1: job 1's first map local to node 1 is map 1.
  auto t = fifo.PickTask(s.slots[1].info, s, clock.Now());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
  EXPECT_EQ(t->index, 1u);
  EXPECT_EQ(t->kind, TaskKind::kMap);
}

TEST(FifoPolicy, FallsBackToANonLocalMapOfTheSameJobBeforeTheNextJob) {
  FifoPolicy fifo;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  s.jobs.emplace(1, MakeJob(1, 2, 1, 2));
  s.jobs.emplace(2, MakeJob(2, 2, 1, 2));
  s.active = {1, 2};
  s.job(1).maps[1].status = TaskStatus::kRunning;  // node 1's only local map is taken
  s.job(1).maps_running = 1;
  auto t = fifo.PickTask(s.slots[1].info, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 1u);
  EXPECT_EQ(t->index, 0u);
}

TEST(FifoPolicy, ReducesOnlyOncePlannedAndOnTheirPlannedSlotWhenItIsFree) {
  FifoPolicy fifo;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  s.jobs.emplace(1, MakeJob(1, 0, 2, 2));
  s.active = {1};
  const SlotInfo& r0 = s.slots[2].info;  // reduce slot on node 0
  const SlotInfo& r1 = s.slots[3].info;
  EXPECT_FALSE(fifo.PickTask(r0, s, Time{0})) << "no reduce before the plan";
  JobState& j = s.job(1);
  j.reduces_planned = true;
  s.reducing = {1};
  j.reduces[0].planned_slot = r1.id;
  j.reduces[1].planned_slot = r0.id;
  auto t = fifo.PickTask(r0, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->index, 1u);
  // Reduce 0 is planned for r1, which is free: r0 must not steal it...
  j.reduces[1].status = TaskStatus::kDone;
  j.reduces_done = 1;
  EXPECT_FALSE(fifo.PickTask(r0, s, Time{0}));
  // ...but may once r1 is busy.
  s.slots[3].task = TaskRef{9, TaskKind::kReduce, 0};
  t = fifo.PickTask(r0, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->index, 0u);
}

TEST(FifoPolicy, NothingToDoIsNoTask) {
  FifoPolicy fifo;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  EXPECT_FALSE(fifo.PickTask(s.slots[0].info, s, Time{0}));
}

TEST(PolicyRegistry, KnowsFifoAndRejectsUnknownNamesListingTheKnownOnes) {
  auto p = MakePolicy("fifo");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->name(), "fifo");
  auto bad = MakePolicy("nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("fifo"), std::string::npos);
  auto names = PolicyNames();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "duplicate name";
}

}  // namespace
}  // namespace mrlocal
