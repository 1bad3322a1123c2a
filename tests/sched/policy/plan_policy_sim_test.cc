// PlanPolicy (sched/policy/plan_policy.h) with a job its plan does not know: that job runs
// FIFO on a node only once the node has run all its planned tasks, never in a planned
// task's place; and with tasks that run shorter than planned: the next planned task starts
// when its node is free (kOrderOnly), or at its planned start (kWait, MARES).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/plan_policy.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal {
namespace {

using testing::JobBuilder;
using testing::Nodes;

// Two nodes of a map and a reduce slot, speed 1.0, under `policy`, with jobs of 1 s tasks.
struct TwoNodes {
  explicit TwoNodes(Policy& policy)
      : slots(Nodes(2, 1, 1)),
        exec(loop, slots),
        controller(loop, exec, policy, slots, 2, std::move(MakePartitioner("hash")).value(),
                   testing::Quiet()) {}

  void SubmitAt(double at_s, std::string name, uint32_t maps, uint32_t reduces) {
    controller.SubmitAt(FromSeconds(at_s), [=, this](JobId id) {
      SimJob model;
      model.map_work_s.assign(maps, 1.0);
      model.reduce_work_s.assign(reduces, 1.0);
      JobSpec spec = JobBuilder()
                         .Name(name)
                         .MapSeconds(model.map_work_s)
                         .SpreadOver(2)
                         .ReduceSeconds(reduces, 1.0)
                         .Build();
      exec.AddJob(id, std::move(model));
      return spec;
    });
  }
  const JobState& Job(const std::string& name) const {
    for (const auto& [id, job] : controller.state().jobs)
      if (job.spec.name == name) return job;
    ADD_FAILURE() << "no job " << name;
    return controller.state().jobs.begin()->second;
  }
  NodeId NodeOf(const TaskState& t) const { return slots[t.slot].node; }

  std::vector<SlotInfo> slots;
  SimLoop loop;
  SimExecutor exec;
  Controller controller;
};

// The plan: job "planned", 3 maps and a reduce of 1 s. Node 0 runs map 0 at 0, map 1 at 1
// and the reduce at 2; node 1 runs map 2 at 0 and is then done with its plan.
PlanInstance OnePlannedJob() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({.maps = {1, 1, 1}, .reduces = {1}, .name = "planned"});
  return in;
}
Schedule ItsSchedule() { return {.machine = {0, 0, 1, 0}, .start = {0, 1, 0, 2}}; }

TEST(PlanPolicyUnplanned, AnUnknownJobRunsFifoOnANodeOnceItHasRunItsPlan) {
  const PlanInstance in = OnePlannedJob();
  ASSERT_TRUE(CheckSchedule(in, ItsSchedule()).ok());
  PlanPolicy policy("mars", in, ItsSchedule(), PlannedStarts::kWait);
  TwoNodes sim(policy);
  sim.SubmitAt(0, "planned", 3, 1);
  sim.SubmitAt(0, "extra", 2, 1);  // arrives with it, before node 1's plan is done
  sim.controller.RunUntilIdle();

  const JobState& planned = sim.Job("planned");
  const JobState& extra = sim.Job("extra");
  ASSERT_EQ(planned.phase, JobPhase::kDone);
  ASSERT_EQ(extra.phase, JobPhase::kDone);
  // The plan ran as planned: nothing of "extra" pushed in before a planned task.
  const Schedule s = ItsSchedule();
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sim.NodeOf(planned.maps[i]), s.machine[i]) << "map " << i;
    EXPECT_EQ(Seconds(planned.maps[i].start), s.start[i]) << "map " << i;
  }
  EXPECT_EQ(sim.NodeOf(planned.reduces[0]), 0);
  EXPECT_EQ(Seconds(planned.reduces[0].start), 2.0);
  // "extra" starts on node 1 when its plan is done (1 s), its maps one at a time (FIFO,
  // local split first); node 0 takes none of it before its plan ends (3 s).
  const std::map<NodeId, double> plan_done = {{0, 3.0}, {1, 1.0}};
  std::vector<const TaskState*> tasks;
  for (const TaskState& t : extra.maps) tasks.push_back(&t);
  for (const TaskState& t : extra.reduces) tasks.push_back(&t);
  for (const TaskState* t : tasks) EXPECT_GE(Seconds(t->start), plan_done.at(sim.NodeOf(*t)));
  const TaskState& first =
      std::min(extra.maps[0], extra.maps[1], [](auto& a, auto& b) { return a.start < b.start; });
  const TaskState& second = &first == &extra.maps[0] ? extra.maps[1] : extra.maps[0];
  EXPECT_EQ(sim.NodeOf(first), 1);
  EXPECT_EQ(Seconds(first.start), 1.0);
  EXPECT_GE(second.start, first.end);
}

// The plan thinks each task takes 2 s; the simulated ones take 1 s. Node 0: map 0 at 0,
// map 1 at 2, the reduce at 4; node 1: map 2 at 0.
PlanInstance SlowerThanReality() {
  PlanInstance in;
  in.machine_speeds = {1.0, 1.0};
  in.jobs.push_back({.maps = {2, 2, 2}, .reduces = {2}, .name = "planned"});
  return in;
}
Schedule SlowerSchedule() { return {.machine = {0, 0, 1, 0}, .start = {0, 2, 0, 4}}; }

TEST(PlanPolicyStarts, ATaskThatEndsEarlyLetsTheNextStartUnlessThePlanWaits) {
  ASSERT_TRUE(CheckSchedule(SlowerThanReality(), SlowerSchedule()).ok());
  for (PlannedStarts starts : {PlannedStarts::kOrderOnly, PlannedStarts::kWait}) {
    const bool waits = starts == PlannedStarts::kWait;
    SCOPED_TRACE(waits ? "kWait" : "kOrderOnly");
    PlanPolicy policy("mars", SlowerThanReality(), SlowerSchedule(), starts);
    TwoNodes sim(policy);
    sim.SubmitAt(0, "planned", 3, 1);
    sim.controller.RunUntilIdle();
    const JobState& job = sim.Job("planned");
    ASSERT_EQ(job.phase, JobPhase::kDone);
    EXPECT_EQ(sim.NodeOf(job.maps[1]), 0) << "the plan's node, whatever the start";
    EXPECT_EQ(Seconds(job.maps[1].start), waits ? 2.0 : 1.0);
    EXPECT_EQ(Seconds(job.reduces[0].start), waits ? 4.0 : 2.0);
  }
}

}  // namespace
}  // namespace mrlocal
