// EdfPolicy against hand-built ClusterStates (jobs as the Controller makes them): no
// threads, no clocks.
#include "sched/policy/edf_policy.h"

#include <gtest/gtest.h>

#include "sched/policy/policy_registry.h"
#include "tests/util/arriving_job.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ArrivingJob;
using testing::JobBuilder;
using testing::MakeCluster;
using testing::Nodes;

// Admits job `id` (arriving at `arrival`, relative deadline `deadline`) and makes it
// active, as the Controller does: map i has a replica on node i % nodes.
JobState& Add(EdfPolicy& edf, ClusterState& s, JobId id, int arrival, std::optional<int> deadline,
              uint32_t maps = 2, uint32_t reduces = 1) {
  JobBuilder spec;
  if (deadline) spec.Deadline(seconds(*deadline));
  JobState j = ArrivingJob(spec.Maps(maps).SpreadOver(s.nodes).Reduces(reduces).Build(), id,
                           seconds(arrival), s.nodes);
  EXPECT_TRUE(edf.Admit(j, s, j.arrival).admitted);
  s.active.push_back(id);
  return s.jobs.emplace(id, std::move(j)).first->second;
}

// Every map of `job` runs now: it has nothing left to give a map slot.
void RunAllMaps(JobState& job) {
  for (auto& t : job.maps) t.status = TaskStatus::kRunning;
  job.maps_running = job.M();
}

// Plans `job`'s reduces, all for `slot`, as the Controller does at the end of its maps.
void PlanReduces(ClusterState& s, JobState& job, SlotId slot) {
  for (auto& t : job.maps) t.status = TaskStatus::kDone;
  job.maps_running = 0;
  job.maps_done = job.M();
  for (auto& r : job.reduces) r.planned_slot = slot;
  job.reduces_planned = true;
  s.reducing.push_back(job.id);
}

TEST(EdfPolicy, AdmitsEveryJobAndSaysItDoesNotTestDeadlines) {
  EdfPolicy edf;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  Admission a = edf.Admit(ArrivingJob(JobBuilder().Deadline(seconds(1)).Build()), s, Time{0});
  EXPECT_TRUE(a.admitted);
  EXPECT_NE(a.reason.find("does not test deadlines"), std::string::npos);
  EXPECT_FALSE(edf.admission_control());
}

TEST(EdfPolicy, EarliestAbsoluteDeadlineFirstThenBestEffortJobsInArrivalOrder) {
  EdfPolicy edf;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  Add(edf, s, 1, 0, std::nullopt);  // best effort
  Add(edf, s, 2, 0, 10);            // absolute 10
  Add(edf, s, 3, 1, std::nullopt);  // best effort, after 1
  Add(edf, s, 4, 2, 3);             // absolute 5: the most urgent, though it came later
  Add(edf, s, 5, 4, 6);             // absolute 10: ties with 2, which arrived first
  const SlotInfo& map_slot = s.slots[0].info;
  for (JobId expected : {4u, 2u, 5u, 1u, 3u}) {
    auto t = edf.PickTask(map_slot, s, seconds(5));
    ASSERT_TRUE(t) << "expected job " << expected;
    EXPECT_EQ(t->job, expected);
    EXPECT_EQ(t->kind, TaskKind::kMap);
    RunAllMaps(s.job(t->job));
  }
  EXPECT_FALSE(edf.PickTask(map_slot, s, seconds(5))) << "every map runs";
}

TEST(EdfPolicy, DataLocalMapFirstWithinTheJob) {
  EdfPolicy edf;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  Add(edf, s, 1, 0, 10, /*maps=*/4);
  auto t = edf.PickTask(s.slots[1].info, s, Time{0});  // a map slot on node 1
  ASSERT_TRUE(t);
  EXPECT_EQ(t->index, 1u);
}

TEST(EdfPolicy, ReducesInDeadlineOrderAndOnlyFromPlannedJobs) {
  EdfPolicy edf;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  const SlotInfo& reduce_slot = s.slots[1].info;
  JobState& urgent_in_maps = Add(edf, s, 1, 0, 2);
  JobState& late = Add(edf, s, 2, 0, 30);
  JobState& best_effort = Add(edf, s, 3, 0, std::nullopt);
  JobState& soon = Add(edf, s, 4, 1, 9);
  EXPECT_FALSE(edf.PickTask(reduce_slot, s, Time{0})) << "no reduce is planned yet";
  PlanReduces(s, best_effort, reduce_slot.id);
  PlanReduces(s, late, reduce_slot.id);
  PlanReduces(s, soon, reduce_slot.id);
  (void)urgent_in_maps;  // earliest deadline, but still in its map phase: skipped
  for (JobId expected : {4u, 2u, 3u}) {
    auto t = edf.PickTask(reduce_slot, s, seconds(3));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->job, expected);
    EXPECT_EQ(t->kind, TaskKind::kReduce);
    JobState& j = s.job(t->job);
    j.reduces[t->index].status = TaskStatus::kRunning;
    ++j.reduces_running;
  }
  EXPECT_FALSE(edf.PickTask(reduce_slot, s, seconds(3)));
}

TEST(EdfPolicy, SkipsAJobWithNothingPendingAndForgetsFinishedJobs) {
  EdfPolicy edf;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  const SlotInfo& map_slot = s.slots[0].info;
  JobState& first = Add(edf, s, 1, 0, 5);
  Add(edf, s, 2, 0, 8);
  RunAllMaps(first);
  auto t = edf.PickTask(map_slot, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
  // Job 2 fails: it leaves state.active at once, but the policy hears of it only once its
  // running attempts are gone. It must not be picked in between.
  JobState& failed = s.job(2);
  failed.phase = JobPhase::kFailed;
  s.active = {1};
  EXPECT_FALSE(edf.PickTask(map_slot, s, Time{0}));
  edf.OnJobFinished(failed, s, Time{0});
  EXPECT_FALSE(edf.PickTask(map_slot, s, Time{0}));
  // A job arriving later with a later deadline still gets the slot once it is alone.
  Add(edf, s, 3, 1, 100);
  t = edf.PickTask(map_slot, s, seconds(1));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 3u);
}

TEST(EdfPolicy, IsRegisteredAsEdf) {
  auto p = MakePolicy("edf");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->name(), "edf");
}

}  // namespace
}  // namespace mrlocal
