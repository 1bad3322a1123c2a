// FairPolicy: single decisions against hand-built ClusterStates, and shares over time
// through the real Controller on a SimLoop.
#include "sched/policy/fair_policy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

#include "sched/core/controller.h"
#include "sched/policy/policy_registry.h"
#include "tests/util/arriving_job.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ArrivingJob;
using testing::FakeExecutor;
using testing::JobBuilder;
using testing::MakeCluster;
using testing::Nodes;
using testing::OneNode;

// An active job with `maps` pending maps (map i local to node i % nodes), of which the
// first `running` run.
JobState& Add(FairPolicy& fair, ClusterState& s, JobId id, uint32_t maps, uint32_t running,
              double weight = 1.0, std::string queue = "default") {
  JobState j = ArrivingJob(JobBuilder()
                               .Weight(weight)
                               .Queue(std::move(queue))
                               .Maps(maps)
                               .SpreadOver(s.nodes)
                               .Reduces(2)
                               .Build(),
                           id, Time{0}, s.nodes);
  for (uint32_t i = 0; i < running; ++i) j.maps[i].status = TaskStatus::kRunning;
  j.maps_running = running;
  EXPECT_TRUE(fair.Admit(j, s, Time{0}).admitted);
  s.active.push_back(id);
  return s.jobs.emplace(id, std::move(j)).first->second;
}

JobId PickedJob(FairPolicy& fair, const ClusterState& s, const SlotInfo& slot) {
  auto t = fair.PickTask(slot, s, Time{0});
  return t ? t->job : 0;
}

TEST(FairPolicy, AdmitsEveryJobAndSaysItDoesNotTestDeadlines) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  Admission a = fair.Admit(ArrivingJob(JobBuilder().Deadline(seconds(1)).Build()), s, Time{0});
  EXPECT_TRUE(a.admitted);
  EXPECT_NE(a.reason.find("does not test deadlines"), std::string::npos);
  EXPECT_FALSE(fair.admission_control());
}

TEST(FairPolicy, FewestRunningTasksFirstTiesByArrivalDataLocalFirst) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  Add(fair, s, 1, 8, 2);
  Add(fair, s, 2, 8, 1);
  Add(fair, s, 3, 8, 1);
  auto t = fair.PickTask(s.slots[1].info, s, Time{0});  // map slot on node 1
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u) << "1 running, tied with job 3, which came later";
  EXPECT_EQ(t->index, 1u) << "job 2's first pending map local to node 1";
}

TEST(FairPolicy, WeightsDivideRunningCounts) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  JobState& heavy = Add(fair, s, 1, 8, 3, /*weight=*/2.0);  // 3 / 2 = 1.5
  JobState& light = Add(fair, s, 2, 8, 1);                  // 1 / 1 = 1
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 2u);
  light.maps[1].status = TaskStatus::kRunning;
  light.maps_running = 2;  // 2 > 1.5
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 1u);
  (void)heavy;
}

TEST(FairPolicy, AJobWithNothingPendingIsNeverPicked) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  Add(fair, s, 1, 2, 2);  // furthest below its share of nothing: both its maps run
  JobState& done_maps = Add(fair, s, 2, 0, 0);
  Add(fair, s, 3, 9, 5);
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 3u);
  // Reduce slot: no job has planned reduces, so none is offered.
  EXPECT_EQ(PickedJob(fair, s, s.slots[1].info), 0u);
  done_maps.reduces_planned = true;
  for (auto& r : done_maps.reduces) r.status = TaskStatus::kDone;
  done_maps.reduces_done = 2;
  s.reducing = {2};
  EXPECT_EQ(PickedJob(fair, s, s.slots[1].info), 0u);
  s.job(3).maps_running = 9;
  for (auto& m : s.job(3).maps) m.status = TaskStatus::kRunning;
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 0u);
}

TEST(FairPolicy, ReducesFairlyAmongReducingJobsAndTheirPlannedSlots) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(2, 1, 1));
  const SlotInfo& r0 = s.slots[2].info;
  const SlotInfo& r1 = s.slots[3].info;
  Add(fair, s, 1, 4, 0);  // still mapping: its reduces are not offered
  for (JobId id : {2u, 3u}) {
    JobState& j = Add(fair, s, id, 0, 0);
    j.reduces_planned = true;
    s.reducing.push_back(id);
  }
  // Job 2 runs one reduce (planned for r1); its other is planned for r0. Job 3's two
  // reduces are both planned for r1, which is free.
  JobState& j2 = s.job(2);
  j2.reduces[0].status = TaskStatus::kRunning;
  j2.reduces[0].planned_slot = r1.id;
  j2.reduces[1].planned_slot = r0.id;
  j2.reduces_running = 1;
  for (auto& r : s.job(3).reduces) r.planned_slot = r1.id;
  EXPECT_EQ(PickedJob(fair, s, r1), 3u) << "0 running beats 1";
  // On r0, job 3 keeps its reduces for their free planned slot: job 2 is next in order.
  auto t = fair.PickTask(r0, s, Time{0});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->job, 2u);
  EXPECT_EQ(t->index, 1u);
}

TEST(FairPolicy, QueuesShareFirstThenTheJobsOfTheChosenQueue) {
  FairPolicy fair;
  ClusterState s = MakeCluster(Nodes(1, 1, 1));
  Add(fair, s, 1, 9, 2, 1.0, "a");  // queue a: 2 running
  Add(fair, s, 2, 9, 1, 1.0, "b");  // queue b: 1 + 1 + 0 = 2 running, tied with a, later
  Add(fair, s, 3, 9, 1, 1.0, "b");
  Add(fair, s, 4, 9, 0, 1.0, "b");
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 1u)
      << "queue a ties with b and came first, though job 4 runs nothing";
  s.job(1).maps[2].status = TaskStatus::kRunning;
  s.job(1).maps_running = 3;
  EXPECT_EQ(PickedJob(fair, s, s.slots[0].info), 4u) << "queue b, then its emptiest job";
}

// The Controller on a SimLoop, checking the running counts each time a map starts.
struct SharesRun {
  std::vector<SlotInfo> slots;
  SimLoop loop;
  FakeExecutor exec;
  FairPolicy fair;
  std::unique_ptr<Controller> controller;

  explicit SharesRun(int map_slots)
      : slots(OneNode(map_slots, 1)), exec(loop, slots, [](const TaskRef& t) -> Duration {
          return seconds(1 + (t.index * 7 + t.job * 3) % 5);  // finishes interleave
        }) {
    auto partitioner = MakePartitioner("dp");
    EXPECT_TRUE(partitioner.ok());
    controller = std::make_unique<Controller>(loop, exec, fair, slots, 1, std::move(*partitioner));
  }
  void Submit(double weight, std::string queue) {
    controller->Submit(JobBuilder("fixed").Weight(weight).Queue(std::move(queue)).Maps(60).Build());
  }
  // Runs to the end; calls `check(running maps by job)` at every map launch while every
  // job still has a pending map and every map slot is busy. Returns how many checks ran.
  int Run(const std::function<void(const std::vector<uint32_t>&)>& check) {
    struct Watcher final : ControllerObserver {
      SharesRun* run;
      const std::function<void(const std::vector<uint32_t>&)>* check;
      int checks = 0;
      void OnTaskStart(const TaskLaunch& l, Time) override {
        if (l.task.kind != TaskKind::kMap) return;
        std::vector<uint32_t> running;
        uint32_t busy = 0;
        for (const auto& [id, job] : run->controller->state().jobs) {
          if (job.maps_pending() == 0) return;
          running.push_back(job.maps_running);
          busy += job.maps_running;
        }
        if (busy + 1 < run->slots.size()) return;  // still filling the slots
        ++checks;
        (*check)(running);
      }
    } watcher;
    watcher.run = this;
    watcher.check = &check;
    controller->AddObserver(&watcher);
    controller->RunUntilIdle();
    for (const auto& [id, job] : controller->state().jobs) EXPECT_EQ(job.phase, JobPhase::kDone);
    return watcher.checks;
  }
};

TEST(FairPolicy, EqualWeightsKeepRunningCountsWithinOneOfEachOther) {
  SharesRun run(5);
  run.Submit(1.0, "default");
  run.Submit(1.0, "default");
  int checks = run.Run([](const std::vector<uint32_t>& r) {
    EXPECT_LE(std::abs(static_cast<int>(r[0]) - static_cast<int>(r[1])), 1)
        << r[0] << " vs " << r[1];
  });
  EXPECT_GT(checks, 40);
}

TEST(FairPolicy, WeightsTwoToOneGetTwoThirdsAndOneThirdOfTheSlots) {
  SharesRun run(6);
  run.Submit(2.0, "default");
  run.Submit(1.0, "default");
  int checks = run.Run([](const std::vector<uint32_t>& r) {
    EXPECT_EQ(r[0], 4u);
    EXPECT_EQ(r[1], 2u);
  });
  EXPECT_GT(checks, 40);
}

TEST(FairPolicy, TwoQueuesSplitTheSlotsEvenlyWhateverTheirJobCounts) {
  SharesRun run(8);
  run.Submit(1.0, "a");
  run.Submit(1.0, "b");
  run.Submit(1.0, "b");
  run.Submit(1.0, "b");
  int checks = run.Run([](const std::vector<uint32_t>& r) {
    EXPECT_EQ(r[0], 4u) << "queue a";
    EXPECT_EQ(r[1] + r[2] + r[3], 4u) << "queue b";
    for (int i = 1; i <= 3; ++i) {
      EXPECT_GE(r[i], 1u) << "job " << i + 1 << " of queue b";
      EXPECT_LE(r[i], 2u) << "job " << i + 1 << " of queue b";
    }
  });
  EXPECT_GT(checks, 40);
}

TEST(FairPolicy, IsRegisteredAsFair) {
  auto p = MakePolicy("fair");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->name(), "fair");
}

}  // namespace
}  // namespace mrlocal
