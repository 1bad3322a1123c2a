// The Policy's extension points as the Controller honours them: wake-ups, batch dispatch,
// preemption from any hook, slot speeds, reduce placement. Simulated, deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <string>
#include <utility>

#include "sched/policy/fifo_policy.h"
#include "tests/util/cluster.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::OneNode;
using testing::SimCluster;

// FIFO's decisions; the tests' policies add the hook they exercise.
class FifoBased : public Policy {
 public:
  std::string_view name() const override { return "fifo-based"; }
  Admission Admit(const JobState& j, const ClusterState& s, Time t) override {
    return fifo_.Admit(j, s, t);
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& s, Time t) override {
    return fifo_.PickTask(slot, s, t);
  }

 private:
  FifoPolicy fifo_;
};

class WakingPolicy final : public FifoBased {
 public:
  Admission Admit(const JobState& j, const ClusterState& s, Time t) override {
    if (j.id == 1) {
      late = host()->WakeAt(seconds(3));
      early = host()->WakeAt(seconds(1));
      const TimerId cancelled = host()->WakeAt(seconds(2));
      host()->CancelWake(cancelled);
      host()->CancelWake(cancelled);  // twice: a no-op
    }
    return FifoBased::Admit(j, s, t);
  }
  void OnTimer(TimerId id, const ClusterState&, Time now) override {
    fired.emplace_back(id, now);
    host()->CancelWake(id);  // fired already: a no-op
  }
  TimerId early = 0, late = 0;
  std::vector<std::pair<TimerId, Time>> fired;
};

TEST(PolicyExtension, WakeUpsFireInOrderAndCancelledOnesDoNot) {
  WakingPolicy policy;
  SimCluster c(policy, OneNode(1, 1));
  c.SubmitAt(Time{0}, 1, 5.0);  // keeps the run going past the wake-ups
  c.controller.RunUntilIdle();
  ASSERT_EQ(policy.fired.size(), 2u);
  EXPECT_EQ(policy.fired[0], std::make_pair(policy.early, Time{seconds(1)}));
  EXPECT_EQ(policy.fired[1], std::make_pair(policy.late, Time{seconds(3)}));
}

// Assigns every free map slot to the first job's maps in one round, from the highest slot
// id down (which the default, slot by slot, never does).
class BatchPolicy final : public FifoBased {
 public:
  void Dispatch(DispatchRound& round, const ClusterState& state, Time now) override {
    ++rounds;
    std::vector<SlotId> free;
    for (SlotId s = round.NextFree(SlotKind::kMap, 0); s >= 0;
         s = round.NextFree(SlotKind::kMap, s + 1))
      free.push_back(s);
    int assigned = 0;
    for (auto s = free.rbegin(); s != free.rend(); ++s) {
      const JobState& job = state.job(state.active.front());
      auto map = job.NextPendingMap(0, false);
      if (!map) break;
      EXPECT_TRUE(round.Assign(*s, TaskRef{job.id, TaskKind::kMap, *map}));
      ++assigned;
      EXPECT_TRUE(state.slots[*s].task) << "the state shows the launch at once";
    }
    most_in_one_round = std::max(most_in_one_round, assigned);
    for (SlotId s = round.NextFree(SlotKind::kReduce, 0); s >= 0;
         s = round.NextFree(SlotKind::kReduce, s + 1))
      round.Assign(s, PickTask(state.slots[s].info, state, now));
  }
  int rounds = 0;
  int most_in_one_round = 0;
};

TEST(PolicyExtension, ABatchPolicyAssignsSeveralSlotsInOneRound) {
  BatchPolicy policy;
  SimCluster c(policy, OneNode(3, 1));
  c.SubmitAt(Time{0}, 3, 1.0);
  c.controller.RunUntilIdle();
  const JobState& job = c.controller.state().job(1);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(policy.most_in_one_round, 3);
  // Highest slot first: map 0 went to slot 2.
  EXPECT_EQ(job.maps[0].slot, 2);
  EXPECT_EQ(job.maps[2].slot, 0);
  EXPECT_EQ(job.finish, seconds(2));
  EXPECT_EQ(c.controller.stats().launches, 4u);
}

// Once a task of job 2 finishes, preempts job 1's running map.
class PreemptOnFinish final : public FifoBased {
 public:
  void OnTaskFinished(const TaskRecord& r, const ClusterState&, Time) override {
    records.push_back(r);
    if (r.task.job == 2 && !preempted) preempted = host()->Preempt({1, TaskKind::kMap, 0});
  }
  bool preempted = false;
  std::vector<TaskRecord> records;
};

TEST(PolicyExtension, APolicyPreemptsFromOnTaskFinished) {
  PreemptOnFinish policy;
  SimCluster c(policy, OneNode(2, 1));
  c.SubmitAt(Time{0}, 1, 10.0);  // job 1: one long map, slot 0
  c.SubmitAt(Time{0}, 1, 1.0);   // job 2: one short map, slot 1, done at 1 s
  c.controller.RunUntilIdle();

  EXPECT_TRUE(policy.preempted);
  EXPECT_EQ(c.controller.stats().preemptions, 1u);
  const JobState& job = c.controller.state().job(1);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.maps[0].attempts, 2u);
  EXPECT_EQ(job.maps[0].start, seconds(1)) << "requeued and run again from the start";
  bool saw_preempted = false;
  for (const TaskRecord& r : policy.records)
    saw_preempted |= r.task == TaskRef{1, TaskKind::kMap, 0} && !r.ok && r.end == seconds(1);
  EXPECT_TRUE(saw_preempted);
}

class SpeedWatcher final : public FifoBased {
 public:
  void OnSlotSpeedChanged(const SlotInfo& slot, double old_speed, const ClusterState& state,
                          Time now) override {
    seen.push_back({slot.id, old_speed, state.slots[slot.id].info.speed, now});
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& s, Time t) override {
    if (slot.kind == SlotKind::kMap) picked_at_speed.push_back(slot.speed);
    return FifoBased::PickTask(slot, s, t);
  }
  struct Change {
    SlotId slot;
    double old_speed, new_speed;
    Time at;
    friend bool operator==(const Change&, const Change&) = default;
  };
  std::vector<Change> seen;
  std::vector<double> picked_at_speed;
};

TEST(PolicyExtension, SetSlotSpeedIsVisibleToThePolicy) {
  SpeedWatcher policy;
  SimCluster c(policy, OneNode(1, 1));
  c.SubmitAt(Time{0}, 2, 1.0);
  c.loop.At(seconds(0) + std::chrono::milliseconds(500),
            [&] { EXPECT_TRUE(c.controller.SetSlotSpeed(0, 0.5).ok()); });
  c.controller.RunUntilIdle();

  ASSERT_EQ(policy.seen.size(), 1u);
  EXPECT_EQ(policy.seen[0], (SpeedWatcher::Change{0, 1.0, 0.5, std::chrono::milliseconds(500)}));
  EXPECT_EQ(c.controller.state().slots[0].info.speed, 0.5);
  ASSERT_EQ(policy.picked_at_speed.size(), 2u);
  EXPECT_EQ(policy.picked_at_speed[1], 0.5) << "the second map was picked for the slowed slot";
  EXPECT_EQ(c.controller.SetSlotSpeed(7, 1.0).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(c.controller.SetSlotSpeed(0, 0).code(), Status::Code::kInvalidArgument);
}

// Places every reduce on the last reduce slot, or (wrong) on map slot 0.
class LastSlotPlacement final : public FifoBased {
 public:
  explicit LastSlotPlacement(bool wrong) : wrong_(wrong) {}
  std::vector<SlotId> PlaceReduces(const JobState& job, const ClusterState& state) override {
    return std::vector<SlotId>(job.R(), wrong_ ? 0 : static_cast<SlotId>(state.slots.size()) - 1);
  }

 private:
  bool wrong_;
};

TEST(PolicyExtension, ACustomPlaceReducesIsHonoured) {
  LastSlotPlacement policy(/*wrong=*/false);
  SimCluster c(policy, OneNode(1, 3));  // reduce slots 1, 2, 3
  c.SubmitAt(Time{0}, 1, 1.0, /*reduces=*/2);
  c.controller.RunUntilIdle();
  const JobState& job = c.controller.state().job(1);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  for (const TaskState& r : job.reduces) {
    EXPECT_EQ(r.planned_slot, 3);
    EXPECT_EQ(r.slot, 3) << "fifo runs a reduce on its planned slot when that is free";
  }
  EXPECT_EQ(c.controller.stats().invalid_decisions, 0u);
}

TEST(PolicyExtension, AnInvalidPlacementFallsBackToTheDefault) {
  LastSlotPlacement policy(/*wrong=*/true);
  SimCluster c(policy, OneNode(1, 3));
  c.SubmitAt(Time{0}, 1, 1.0, /*reduces=*/2);
  c.controller.RunUntilIdle();
  const JobState& job = c.controller.state().job(1);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.reduces[0].planned_slot, 1);  // the default: fastest first, ties by id
  EXPECT_EQ(job.reduces[1].planned_slot, 2);
  EXPECT_EQ(c.controller.stats().invalid_decisions, 1u);
}

}  // namespace
}  // namespace mrlocal

namespace mrlocal {
namespace {

// The default placement takes only the R fastest reduce slots without sorting them all;
// it must place exactly as the whole stable sort did (fastest first, ties by slot order,
// cyclic past the slots; a running reduce keeps its slot), for any speeds and R.
TEST(PolicyExtension, TheDefaultPlacementIsTheWholeStableSortsForAnySpeedsAndReduces) {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 500; ++round) {
    std::vector<SlotInfo> slots(1 + rng() % 40);
    for (size_t i = 0; i < slots.size(); ++i)
      slots[i] = {static_cast<SlotId>(i), SlotKind::kReduce, 0, 0.25 * double(1 + rng() % 4)};
    JobState job;
    job.reduces.resize(rng() % 60);
    for (TaskState& t : job.reduces)
      if (rng() % 8 == 0) {
        t.status = TaskStatus::kRunning;
        t.slot = static_cast<SlotId>(rng() % slots.size());
      }
    std::vector<const SlotInfo*> lanes, sorted;
    for (const SlotInfo& s : slots) lanes.push_back(&s);
    sorted = lanes;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const SlotInfo* a, const SlotInfo* b) { return a->speed > b->speed; });
    std::vector<SlotId> want(job.R());
    for (uint32_t r = 0; r < job.R(); ++r)
      want[r] = job.reduces[r].status == TaskStatus::kRunning ? job.reduces[r].slot
                                                               : sorted[r % sorted.size()]->id;
    EXPECT_EQ(PlaceReducesOnFastest(job, lanes), want) << "round " << round;
  }
}

}  // namespace
}  // namespace mrlocal
