// The Controller on a simulated loop with the tests' FakeExecutor: deterministic, no threads.
#include "sched/core/controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;
using testing::FakeExecutor;

// Map slots 0 (speed 1.0) and 1 (0.5), reduce slots 2 (1.0) and 3 (0.5).
std::vector<SlotInfo> TwoNodes() { return testing::ClusterSlots("1x(1m,1r,1.0)+1x(1m,1r,0.5)"); }

// p = 8 partition functions, so that the dp-sketch partitioner has a plan to make.
const std::vector<PartitionHash> kHashes = MakePartitionHashes(4, 8, 1);

// `maps` maps of 4 KiB spread over the two nodes, and `reduces` reduces.
JobSpec MakeSpec(uint32_t maps, uint32_t reduces) {
  return testing::JobBuilder("scripted")
      .Name("test")
      .Maps(maps, 4096)
      .SpreadOver(2)
      .Reduces(reduces)
      .PartitionHashes(kHashes)
      .Build();
}

// Maps take 4 ms (1 ms per KiB of split), reduces 10 ms, at speed 1.0; maps report a
// sketch over the job's partition functions.
FakeExecutor MakeExecutor(SimLoop& loop) {
  return FakeExecutor(loop, TwoNodes(),
                      [](const TaskRef& t) -> Duration {
                        return t.kind == TaskKind::kMap ? milliseconds(4) : milliseconds(10);
                      },
                      {.sketch_hashes = kHashes});
}

// The slots that tasks of `kind` were launched on, in launch order.
std::vector<SlotId> LaunchedOn(const FakeExecutor& exec, TaskKind kind) {
  std::vector<SlotId> slots;
  for (const TaskLaunch& l : exec.launches)
    if (l.task.kind == kind) slots.push_back(l.slot);
  return slots;
}

const Status kLostBlock = Status::Corruption("block 3: all 2 replicas are corrupt or missing");

struct Harness {
  SimLoop loop;
  FakeExecutor exec = MakeExecutor(loop);
  FifoPolicy fifo;
  std::unique_ptr<Controller> controller;

  explicit Harness(const std::string& partitioner = "dp-sketch", ControllerOptions options = {}) {
    auto p = MakePartitioner(partitioner);
    EXPECT_TRUE(p.ok());
    controller = std::make_unique<Controller>(loop, exec, fifo, TwoNodes(), 2, std::move(*p),
                                              std::move(options));
  }
};

ControllerOptions Slowstart(double fraction) {
  ControllerOptions o;
  o.reduce_slowstart = fraction;
  return o;
}

TEST(Controller, RunsAJobThroughMapsPlanAndReducesToDone) {
  Harness h;
  JobId id = h.controller->Submit(MakeSpec(8, 2));
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(id);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.maps_done, 8u);
  EXPECT_EQ(job.reduces_done, 2u);
  EXPECT_EQ(h.exec.launches.size(), 10u);
  EXPECT_TRUE(h.exec.finished.at(id));
  ASSERT_TRUE(h.exec.plans.count(id));
  EXPECT_EQ(h.exec.plans.at(id).owner.size(), 8u);
  EXPECT_TRUE(h.controller->outcome(id).plan.has_value());
  EXPECT_GE(job.map_phase_end, job.arrival);
  EXPECT_GE(job.finish, job.map_phase_end);
  // The fast map slot (speed 1.0) ran more maps than the slow one (0.5): 5 and 3.
  const std::vector<SlotId> on = LaunchedOn(h.exec, TaskKind::kMap);
  EXPECT_EQ(std::count(on.begin(), on.end(), 0), 5);
  EXPECT_EQ(std::count(on.begin(), on.end(), 1), 3);
  EXPECT_GT(h.controller->stats().decisions, 10u);
}

TEST(Controller, AFailedMapFailsTheJobAndDiscardsItsOutput) {
  Harness h;
  JobId id = h.controller->Submit(MakeSpec(8, 2));
  h.exec.FailTask({id, TaskKind::kMap, 3}, kLostBlock);
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(id);
  EXPECT_EQ(job.phase, JobPhase::kFailed);
  EXPECT_NE(job.failure.find("corrupt"), std::string::npos);
  EXPECT_FALSE(h.exec.finished.at(id)) << "output must be aborted, not committed";
  EXPECT_EQ(job.reduces_done, 0u);
}

// Hadoop's reduce slow-start: once half the maps are done the reduces take their slots and
// hold them, idle, until the plan; the executor runs them only then, with the plan.
TEST(Controller, ReduceSlowstartHoldsReduceSlotsFromTheGivenFractionOfMaps) {
  Harness h("dp-sketch", Slowstart(0.5));
  JobId id = h.controller->Submit(MakeSpec(8, 2));
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(id);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  EXPECT_TRUE(h.exec.finished.at(id));
  // Maps of 4 ms on slots of speeds 1.0 and 0.5 end at 4, 8, 8, 12, 16, 16, 20 and 24 ms.
  EXPECT_EQ(job.map_phase_end, milliseconds(24));
  for (const TaskState& r : job.reduces) {
    EXPECT_EQ(r.start, milliseconds(12)) << "held since ceil(0.5 x 8) = 4 maps were done";
    EXPECT_EQ(r.planned_slot, r.slot) << "planned for the slot it held";
  }
  // Reduces of 10 ms on speeds 1.0 and 0.5, from the plan at 24 ms.
  EXPECT_EQ(job.finish, milliseconds(24 + 20));
  EXPECT_EQ(h.exec.launches.size(), 10u);
}

TEST(Controller, AJobThatFailsWhileItsReducesHoldSlotsFreesThem) {
  Harness h("dp-sketch", Slowstart(0.1));
  JobId failing = h.controller->Submit(MakeSpec(8, 2));
  h.exec.FailTask({failing, TaskKind::kMap, 5}, kLostBlock);
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(failing);
  EXPECT_EQ(job.phase, JobPhase::kFailed);
  EXPECT_FALSE(h.exec.finished.at(failing));
  EXPECT_TRUE(LaunchedOn(h.exec, TaskKind::kReduce).empty())
      << "a held reduce never reaches the executor";
  EXPECT_EQ(job.reduces_running, 0u);
  // Both reduce slots are free again: the next job runs its reduces.
  JobId next = h.controller->Submit(MakeSpec(2, 2));
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(next).phase, JobPhase::kDone);
  EXPECT_EQ(LaunchedOn(h.exec, TaskKind::kReduce).size(), 2u);
}

// FIFO that wakes every millisecond from the first arrival and, at the first wake-up with
// a reduce running, preempts every running reduce.
class PreemptReducesOnce final : public Policy {
 public:
  std::string_view name() const override { return "preempt-reduces-once"; }
  Admission Admit(const JobState&, const ClusterState&, Time now) override {
    if (!waking_) host()->WakeAt(now + milliseconds(1));
    waking_ = true;
    return Admission::Yes("test");
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override {
    return fifo_.PickTask(slot, state, now);
  }
  void OnTimer(TimerId, const ClusterState& state, Time now) override {
    bool preempted = false;
    for (const SlotState& s : state.slots)
      if (s.task && s.task->kind == TaskKind::kReduce) preempted |= host()->Preempt(*s.task);
    if (!preempted) host()->WakeAt(now + milliseconds(1));
  }

 private:
  FifoPolicy fifo_;
  bool waking_ = false;
};

TEST(Controller, APreemptedHeldReduceGoesBackToPendingAndRunsOnce) {
  SimLoop loop;
  FakeExecutor exec = MakeExecutor(loop);
  PreemptReducesOnce policy;
  Controller controller(loop, exec, policy, TwoNodes(), 2,
                        std::move(MakePartitioner("dp-sketch")).value(), Slowstart(0.1));
  JobId id = controller.Submit(MakeSpec(8, 2));
  controller.RunUntilIdle();
  const JobState& job = controller.state().job(id);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(controller.stats().preemptions, 2u) << "both held reduces, at the first wake-up";
  EXPECT_EQ(LaunchedOn(exec, TaskKind::kReduce).size(), 2u) << "each reached the executor once";
  EXPECT_TRUE(exec.finished.at(id));
  EXPECT_EQ(job.reduces_done, 2u);
}

TEST(Controller, JobsRunInArrivalOrderUnderFifo) {
  Harness h;
  JobId a = h.controller->Submit(MakeSpec(4, 1));
  JobId b = h.controller->Submit(MakeSpec(4, 1));
  h.controller->RunUntilIdle();
  EXPECT_LT(h.controller->state().job(a).map_phase_end, h.controller->state().job(b).map_phase_end);
  EXPECT_EQ(h.controller->state().job(b).phase, JobPhase::kDone);
}

TEST(Controller, AJobWithNoInputStillRunsItsReduces) {
  Harness h;
  JobId id = h.controller->Submit(MakeSpec(0, 2));
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kDone);
  EXPECT_EQ(h.exec.launches.size(), 2u);
}

TEST(Controller, HashPartitionerNeedsPEqualToRAndFailsTheJobClearlyOtherwise) {
  Harness h("hash");
  JobId id = h.controller->Submit(MakeSpec(2, 3));  // p = 8, R = 3
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kFailed);
}

}  // namespace
}  // namespace mrlocal
