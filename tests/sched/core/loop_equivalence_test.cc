// The same policy makes the same decisions on the real-time loop (AsioLoop, reports posted
// to it as the engine's slot threads do) and on the simulation (SimLoop + SimExecutor),
// for a scripted scenario. On the real loop a replaying executor finishes tasks in the
// order of their scripted (virtual) end times, so the test does not depend on how fast
// this machine is; what it checks is that the Controller and the policy behave the same
// whatever loop and executor they run on.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "sched/core/asio_loop.h"
#include "sched/core/controller.h"
#include "sched/estimate/job_history.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

struct Launched {
  SlotId slot;
  JobId job;
  TaskKind kind;
  uint32_t index;
  friend bool operator==(const Launched&, const Launched&) = default;
};

class LaunchLog final : public ControllerObserver {
 public:
  void OnTaskStart(const TaskLaunch& l, Time) override {
    log.push_back({l.slot, l.task.job, l.task.kind, l.task.index});
  }
  std::vector<Launched> log;
};

// Scripted work, seconds at speed 1.0: distinct values. Tasks that still end together
// (map 2 of job 1 after map 0 on the fast slot, and map 1 on the slow one: 1.37 + 1.392 =
// 1.381 / 0.5) end in launch order on both loops.
double Work(JobId job, TaskKind kind, uint32_t index) {
  return (kind == TaskKind::kMap ? 1.0 : 2.0) + 0.37 * job + 0.011 * index;
}

struct Scenario {
  std::vector<SlotInfo> slots = testing::ClusterSlots("1x(1m,1r,1.0)+1x(1m,1r,0.5)");
  // job: maps, reduces, deadline (s; 0 = none), queue, weight
  struct Job {
    uint32_t maps, reduces;
    double deadline_s;
    const char* queue;
    double weight;
  };
  std::vector<Job> jobs = {
      {5, 2, 0, "a", 1.0}, {3, 1, 40, "b", 2.0}, {4, 2, 20, "a", 1.0}, {2, 1, 30, "b", 1.0}};

  // Units are microseconds of work, as synthetic jobs declare them, so that the deadline
  // policies' estimates are exact.
  JobSpec Spec(JobId id) const {
    const Job& j = jobs.at(id - 1);
    const SimJob work = Model(id);
    return testing::JobBuilder()
        .Name("job" + std::to_string(id))
        .Deadline(j.deadline_s > 0 ? std::optional(FromSeconds(j.deadline_s)) : std::nullopt)
        .Queue(j.queue)
        .Weight(j.weight)
        .MapSeconds(work.map_work_s)
        .ReduceSeconds(work.reduce_work_s)
        .Build();
  }
  SimJob Model(JobId id) const {
    const Job& j = jobs.at(id - 1);
    SimJob m;
    for (uint32_t i = 0; i < j.maps; ++i) m.map_work_s.push_back(Work(id, TaskKind::kMap, i));
    for (uint32_t i = 0; i < j.reduces; ++i)
      m.reduce_work_s.push_back(Work(id, TaskKind::kReduce, i));
    return m;
  }
};

// Exact estimates for the deadline policies (rtmr, dc).
const JobHistory& History() {
  static const JobHistory history = testing::ExactHistory();
  return history;
}

// A capacity forecast for the policies that plan with one (reverse-adaptive): the slots'
// speeds, held.
PolicyArgs Args(const Scenario& sc) {
  return PolicyArgs().SetForecast(std::make_shared<ConstantForecast>(sc.slots));
}

std::vector<Launched> RunSimulated(const Scenario& sc, const std::string& policy_name) {
  SimLoop loop;
  SimExecutor executor(loop, sc.slots);
  auto policy = MakePolicy(policy_name, &History(), Args(sc));
  Controller c(loop, executor, **policy, sc.slots, 2, std::move(MakePartitioner("hash")).value());
  LaunchLog log;
  c.AddObserver(&log);
  for (JobId id = 1; id <= sc.jobs.size(); ++id) {
    executor.AddJob(id, sc.Model(id));
    c.Submit(sc.Spec(id));
  }
  c.RunUntilIdle();
  return log.log;
}

std::vector<Launched> RunReal(const Scenario& sc, const std::string& policy_name) {
  AsioLoop loop;
  // Finishes the running task with the earliest scripted end, one at a time, each after
  // the Controller has handled the previous report.
  testing::FakeExecutorOptions replay;
  replay.replay = true;
  testing::FakeExecutor executor(
      loop, sc.slots, [](const TaskRef& t) { return FromSeconds(Work(t.job, t.kind, t.index)); },
      replay);
  auto policy = MakePolicy(policy_name, &History(), Args(sc));
  Controller c(loop, executor, **policy, sc.slots, 2, std::move(MakePartitioner("hash")).value());
  LaunchLog log;
  c.AddObserver(&log);
  for (JobId id = 1; id <= sc.jobs.size(); ++id) c.Submit(sc.Spec(id));
  c.RunUntilIdle();
  return log.log;
}

TEST(LoopEquivalence, EveryPolicyDecidesAlikeOnTheRealAndTheSimulatedLoop) {
  Scenario sc;
  for (const std::string& policy : PolicyNames()) {
    // A planning policy waits on the real clock for its plan's starts (seconds here); its
    // plan is checked in simulation (tests/tools/runtime/plan_policy_run_test.cc).
    if ((*FindPolicy(policy))->traits.needs_preview) continue;
    SCOPED_TRACE(policy);
    std::vector<Launched> sim = RunSimulated(sc, policy);
    std::vector<Launched> real = RunReal(sc, policy);
    // Every task of every admitted job ran once, and in the same order on the same slots.
    if (!(*FindPolicy(policy))->traits.needs_estimator)
      EXPECT_EQ(sim.size(), 5u + 2 + 3 + 1 + 4 + 2 + 2 + 1);
    else
      EXPECT_GE(sim.size(), 5u + 2);  // at least the first job, admitted on an empty cluster
    EXPECT_EQ(sim, real);
  }
}

}  // namespace
}  // namespace mrlocal
