// Faults and stragglers in simulation (issue 19): the Controller's retries and LATE
// speculation against the SimExecutor's injected faults. What a user relies on: a job
// under injected task failures still succeeds and counts each task's output once; a slowed
// node's stragglers are copied onto fast slots and the job finishes sooner; the first
// attempt to finish wins and the other is discarded; a policy that vetoes speculation gets
// none; and over many seeds of faults and copies the bookkeeping always balances.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

struct SimRun : ControllerObserver {
  SimLoop loop;
  std::vector<SlotInfo> slots;
  FaultInjector faults;
  std::unique_ptr<SimExecutor> exec;
  std::unique_ptr<Policy> policy;
  std::unique_ptr<Controller> controller;
  std::vector<TaskReport> reports;
  std::vector<TaskLaunch> launches;

  SimRun(const std::string& cluster, std::vector<std::string> inject, bool speculate,
         const std::string& policy_name = "fifo", uint64_t seed = 1)
      : slots(testing::ClusterSlots(cluster)), faults(ParseFaults(inject).value(), seed) {
    SimExecutorOptions so;
    so.faults = &faults;
    exec = std::make_unique<SimExecutor>(loop, slots, so);
    policy = std::move(MakePolicy(policy_name)).value();
    ControllerOptions o;
    o.observer_tick = Duration::zero();
    o.speculation.enabled = speculate;
    controller = std::make_unique<Controller>(
        loop, *exec, *policy, slots, testing::NodeCount(slots), MakePartitioner("hash").value(), o);
    controller->AddObserver(this);
  }
  void OnTaskStart(const TaskLaunch& l, Time) override { launches.push_back(l); }
  void OnTaskReport(const TaskReport& r) override { reports.push_back(r); }

  // A job of `maps` maps of `map_s` seconds (each outputting 10 units) and one reduce.
  JobId Submit(uint32_t maps, double map_s, const std::string& app = "synthetic") {
    SimJob model;
    model.map_work_s.assign(maps, map_s);
    model.map_output.assign(maps, 10);
    model.reduce_work_s = {map_s / 2};
    const JobId id = controller->next_job_id();
    faults.AddJob(id, app);
    exec->AddJob(id, model);
    return controller->Submit(testing::JobBuilder(app).Maps(maps).Reduces(1).Build());
  }
  const JobState& job(JobId id) const { return controller->state().job(id); }
  size_t Count(bool (*pred)(const TaskReport&)) const {
    return static_cast<size_t>(std::count_if(reports.begin(), reports.end(), pred));
  }
};

TEST(InjectedFaults, AJobUnderTaskFailuresSucceedsCountingEachMapOnce) {
  SimRun run("4x(1m,1r,1.0)", {"task-fail:0.05"}, false);
  const JobId id = run.Submit(200, 1.0);
  run.controller->RunUntilIdle();
  ASSERT_EQ(run.job(id).phase, JobPhase::kDone) << run.job(id).failure;
  const JobOutcome& out = run.controller->outcome(id);
  const size_t failed = run.Count([](const TaskReport& r) { return !r.status.ok(); });
  EXPECT_GT(failed, 3u);  // 5% of ~200 attempts
  EXPECT_EQ(out.retries, failed);
  EXPECT_EQ(out.failed_attempts.size(), failed);
  EXPECT_NE(out.failed_attempts[0].find("injected fault: task-fail:0.05"), std::string::npos);
  EXPECT_EQ(out.map_output_units, 200u * 10);  // each map's output once
}

TEST(InjectedFaults, AFailedNodeIsWorkedAround) {
  SimRun run("3x(1m,1r,1.0)", {"node-fail:1"}, false);
  std::vector<JobId> ids;
  for (int j = 0; j < 4; ++j) ids.push_back(run.Submit(6, 1.0));
  run.controller->RunUntilIdle();
  for (JobId id : ids) EXPECT_EQ(run.job(id).phase, JobPhase::kDone) << run.job(id).failure;
  for (const TaskReport& r : run.reports) {
    if (!r.status.ok()) continue;
    EXPECT_NE(run.slots[r.slot].node, 1);
  }
  EXPECT_EQ(run.controller->stats().node_exclusions, 1u);  // after the third job's failure
}

TEST(InjectedFaults, ATaskThatFailsOnEveryAttemptFailsItsJobWithEveryReason) {
  SimRun run("2x(1m,1r,1.0)", {"task-fail:1,kind=reduce"}, false);
  const JobId id = run.Submit(4, 1.0);
  run.controller->RunUntilIdle();
  EXPECT_EQ(run.job(id).phase, JobPhase::kFailed);
  EXPECT_NE(run.job(id).failure.find("reduce 0 (4 attempts failed"), std::string::npos);
  EXPECT_EQ(run.controller->outcome(id).failed_attempts.size(), 4u);
}

TEST(Speculation, CopiesAStragglerOfASlowedNodeOntoAFastSlot) {
  const std::vector<std::string> slow = {"node-slow:3,factor=0.1"};
  SimRun without("4x(1m,1r,1.0)", slow, false), with("4x(1m,1r,1.0)", slow, true);
  const JobId a = without.Submit(8, 10.0), b = with.Submit(8, 10.0);
  without.controller->RunUntilIdle();
  with.controller->RunUntilIdle();
  ASSERT_EQ(with.job(b).phase, JobPhase::kDone);
  // Without: the map node 3 took at the start takes 100 s. With: it is copied once judged.
  EXPECT_GT(Seconds(without.job(a).finish), 100.0);
  EXPECT_LT(Seconds(with.job(b).finish), 0.5 * Seconds(without.job(a).finish));
  size_t copies = 0;
  for (const TaskLaunch& l : with.launches)
    if (l.speculative) {
      ++copies;
      EXPECT_NE(with.slots[l.slot].node, 3);  // never onto the slow node
    }
  EXPECT_GE(copies, 1u);
  EXPECT_EQ(with.controller->outcome(b).map_output_units, 8u * 10);  // the winner's only
  // Every attempt a copy beat (or that beat a copy) was superseded, not failed.
  const size_t superseded = with.Count([](const TaskReport& r) { return r.superseded; });
  EXPECT_EQ(superseded, copies);
  EXPECT_EQ(with.Count([](const TaskReport& r) { return !r.status.ok() && !r.superseded; }), 0u);
}

TEST(Speculation, NoCopyOfTasksThatRunEvenly) {
  SimRun run("4x(1m,1r,1.0)", {}, true);
  const JobId id = run.Submit(16, 5.0);
  run.controller->RunUntilIdle();
  EXPECT_EQ(run.job(id).phase, JobPhase::kDone);
  EXPECT_EQ(run.controller->stats().speculations, 0u);
}

TEST(Speculation, APolicyThatPromisesSlotsVetoesIt) {
  SimRun run("4x(1m,1r,1.0)", {"node-slow:3,factor=0.1"}, true, "capacity");
  const JobId id = run.Submit(8, 10.0);
  run.controller->RunUntilIdle();
  EXPECT_EQ(run.job(id).phase, JobPhase::kDone);
  EXPECT_EQ(run.controller->stats().speculations, 0u);
}

// Over many seeds of random failures, a slow node and copies: every job ends, a successful
// one counts each map's output once, and nothing is left running or counted.
TEST(Speculation, BookkeepingBalancesUnderFaultsAndCopies) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const std::string p = std::to_string(0.02 + 0.1 * (rng() % 100) / 100.0);
    SimRun run("5x(1m,1r,1.0)",
               {"task-fail:" + p, "node-slow:" + std::to_string(rng() % 5) + ",factor=0.1"}, true,
               "fifo", seed);
    std::vector<JobId> ids;
    for (int j = 0; j < 3; ++j) ids.push_back(run.Submit(6 + rng() % 10, 1.0 + rng() % 5));
    run.controller->RunUntilIdle();
    for (JobId id : ids) {
      const JobState& job = run.job(id);
      ASSERT_TRUE(job.finished()) << "seed " << seed;
      EXPECT_EQ(job.maps_running + job.reduces_running + job.extra_running, 0u) << "seed " << seed;
      if (job.phase == JobPhase::kDone) {
        EXPECT_EQ(run.controller->outcome(id).map_output_units, job.M() * 10u) << "seed " << seed;
      }
    }
    for (const SlotState& s : run.controller->state().slots)
      EXPECT_FALSE(s.task.has_value()) << "seed " << seed;
  }
}

}  // namespace
}  // namespace mrlocal
