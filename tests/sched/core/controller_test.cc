// The Controller on a simulated loop with a scripted executor: deterministic, no threads.
#include "sched/core/controller.h"

#include <gtest/gtest.h>

#include <map>

#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;

// Runs each task for (map: 1 ms per KiB of split; reduce: 10 ms) / slot speed, and can be
// told to fail one map.
class ScriptedExecutor final : public Executor {
 public:
  ScriptedExecutor(SimLoop& loop, std::vector<SlotInfo> slots) : loop_(loop), slots_(slots) {}

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& l) override {
    ++launches;
    launched_on[l.task.kind == TaskKind::kMap ? "map" : "reduce"].push_back(l.slot);
    Duration work = l.task.kind == TaskKind::kMap ? milliseconds(split_kib) : milliseconds(10);
    auto took = FromSeconds(Seconds(work) / slots_[l.slot].speed);
    Time start = loop_.Now();
    loop_.At(start + took, [this, l, start] {
      TaskReport r;
      r.task = l.task;
      r.token = l.token;
      r.slot = l.slot;
      r.start = start;
      r.end = loop_.Now();
      if (l.task.kind == TaskKind::kMap) {
        if (fail_map && *fail_map == l.task.index) {
          r.status = Status::Corruption("block 3: all 2 replicas are corrupt or missing");
        } else {
          CountMinSketch sk(hashes);
          sk.Add(l.task.index * 7919ull, 100);
          r.sketch = sk;
          r.output_bytes = 100;
        }
      }
      report_(std::move(r));
    });
  }
  void Cancel(SlotId, uint64_t) override {}
  void SetPlan(JobId job, const ReducePlan& plan) override { plans[job] = plan; }
  Status FinishJob(JobId job, bool success) override {
    finished[job] = success;
    return Status::OK();
  }
  double Progress(SlotId) const override { return 0; }

  int split_kib = 4;
  std::optional<uint32_t> fail_map;
  std::vector<PartitionHash> hashes = MakePartitionHashes(4, 8, 1);
  int launches = 0;
  std::map<std::string, std::vector<SlotId>> launched_on;
  std::map<JobId, ReducePlan> plans;
  std::map<JobId, bool> finished;

 private:
  SimLoop& loop_;
  std::vector<SlotInfo> slots_;
  ReportFn report_;
};

std::vector<SlotInfo> TwoNodes() {
  return {{0, SlotKind::kMap, 0, 1.0},
          {1, SlotKind::kMap, 1, 0.5},
          {2, SlotKind::kReduce, 0, 1.0},
          {3, SlotKind::kReduce, 1, 0.5}};
}

JobSpec MakeSpec(uint32_t maps, uint32_t reduces, const std::vector<PartitionHash>& hashes) {
  JobSpec spec;
  spec.name = "test";
  spec.app = "scripted";
  spec.reduces = reduces;
  spec.partition_hashes = hashes;
  for (uint32_t i = 0; i < maps; ++i) spec.maps.push_back({4096, {static_cast<NodeId>(i % 2)}});
  return spec;
}

struct Harness {
  SimLoop loop;
  ScriptedExecutor exec{loop, TwoNodes()};
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
  JobId id = h.controller->Submit(MakeSpec(8, 2, h.exec.hashes));
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(id);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.maps_done, 8u);
  EXPECT_EQ(job.reduces_done, 2u);
  EXPECT_EQ(h.exec.launches, 10);
  EXPECT_TRUE(h.exec.finished.at(id));
  ASSERT_TRUE(h.exec.plans.count(id));
  EXPECT_EQ(h.exec.plans.at(id).owner.size(), 8u);
  EXPECT_TRUE(h.controller->outcome(id).plan.has_value());
  EXPECT_GE(job.map_phase_end, job.arrival);
  EXPECT_GE(job.finish, job.map_phase_end);
  // The fast map slot (speed 1.0) ran more maps than the slow one (0.5): 5 and 3.
  auto& on = h.exec.launched_on["map"];
  EXPECT_EQ(std::count(on.begin(), on.end(), 0), 5);
  EXPECT_EQ(std::count(on.begin(), on.end(), 1), 3);
  EXPECT_GT(h.controller->stats().decisions, 10u);
}

TEST(Controller, AFailedMapFailsTheJobAndDiscardsItsOutput) {
  Harness h;
  h.exec.fail_map = 3;
  JobId id = h.controller->Submit(MakeSpec(8, 2, h.exec.hashes));
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
  JobId id = h.controller->Submit(MakeSpec(8, 2, h.exec.hashes));
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
  EXPECT_EQ(h.exec.launches, 10);
}

TEST(Controller, AJobThatFailsWhileItsReducesHoldSlotsFreesThem) {
  Harness h("dp-sketch", Slowstart(0.1));
  h.exec.fail_map = 5;
  JobId failing = h.controller->Submit(MakeSpec(8, 2, h.exec.hashes));
  h.controller->RunUntilIdle();
  const JobState& job = h.controller->state().job(failing);
  EXPECT_EQ(job.phase, JobPhase::kFailed);
  EXPECT_FALSE(h.exec.finished.at(failing));
  EXPECT_TRUE(h.exec.launched_on["reduce"].empty()) << "a held reduce never reaches the executor";
  EXPECT_EQ(job.reduces_running, 0u);
  // Both reduce slots are free again: the next job runs its reduces.
  h.exec.fail_map.reset();
  JobId next = h.controller->Submit(MakeSpec(2, 2, h.exec.hashes));
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(next).phase, JobPhase::kDone);
  EXPECT_EQ(h.exec.launched_on["reduce"].size(), 2u);
}

// FIFO that, at its first tick with a reduce running, preempts every running reduce.
class PreemptReducesOnce final : public Policy {
 public:
  std::string_view name() const override { return "preempt-reduces-once"; }
  Admission Admit(const JobState&, const ClusterState&, Time) override {
    return Admission::Yes("test");
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override {
    return fifo_.PickTask(slot, state, now);
  }
  std::vector<TaskRef> OnTick(const ClusterState& state, Time) override {
    std::vector<TaskRef> preempt;
    if (done_) return preempt;
    for (const SlotState& s : state.slots)
      if (s.task && s.task->kind == TaskKind::kReduce) preempt.push_back(*s.task);
    done_ = !preempt.empty();
    return preempt;
  }
  Duration tick_interval() const override { return milliseconds(1); }

 private:
  FifoPolicy fifo_;
  bool done_ = false;
};

TEST(Controller, APreemptedHeldReduceGoesBackToPendingAndRunsOnce) {
  SimLoop loop;
  ScriptedExecutor exec(loop, TwoNodes());
  PreemptReducesOnce policy;
  Controller controller(loop, exec, policy, TwoNodes(), 2,
                        std::move(MakePartitioner("dp-sketch")).value(), Slowstart(0.1));
  JobId id = controller.Submit(MakeSpec(8, 2, exec.hashes));
  controller.RunUntilIdle();
  const JobState& job = controller.state().job(id);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(controller.stats().preemptions, 2u) << "both held reduces, at the first tick";
  EXPECT_EQ(exec.launched_on["reduce"].size(), 2u) << "each reached the executor once";
  EXPECT_TRUE(exec.finished.at(id));
  EXPECT_EQ(job.reduces_done, 2u);
}

TEST(Controller, JobsRunInArrivalOrderUnderFifo) {
  Harness h;
  JobId a = h.controller->Submit(MakeSpec(4, 1, h.exec.hashes));
  JobId b = h.controller->Submit(MakeSpec(4, 1, h.exec.hashes));
  h.controller->RunUntilIdle();
  EXPECT_LT(h.controller->state().job(a).map_phase_end, h.controller->state().job(b).map_phase_end);
  EXPECT_EQ(h.controller->state().job(b).phase, JobPhase::kDone);
}

TEST(Controller, AJobWithNoInputStillRunsItsReduces) {
  Harness h;
  JobId id = h.controller->Submit(MakeSpec(0, 2, h.exec.hashes));
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kDone);
  EXPECT_EQ(h.exec.launches, 2);
}

TEST(Controller, HashPartitionerNeedsPEqualToRAndFailsTheJobClearlyOtherwise) {
  Harness h("hash");
  JobId id = h.controller->Submit(MakeSpec(2, 3, h.exec.hashes));  // p = 8, R = 3
  h.controller->RunUntilIdle();
  EXPECT_EQ(h.controller->state().job(id).phase, JobPhase::kFailed);
}

}  // namespace
}  // namespace mrlocal
