// so-mars in the simulator, recorded: no task of a job starts before the first batch
// boundary at or after its arrival, no re-plan plans a job that has not arrived, a re-plan
// keeps a node busy until its running task ends, and an LP without budget falls back to
// HUWF saying so.
#include "sched/policy/so_mars_policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/controller.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

// Every task start the Controller reports, by job.
struct StartRecorder final : ControllerObserver {
  void OnTaskStart(const TaskLaunch& launch, Time at) override {
    starts[launch.task.job].push_back({launch.task, at, launch.slot});
  }
  struct Start {
    TaskRef task;
    Time at;
    SlotId slot;
  };
  std::map<JobId, std::vector<Start>> starts;
};

// The preview's jobs submitted at their releases on `nodes` nodes of one map and one
// reduce slot, each task taking its work exactly; runs to the end.
struct SimRun {
  SimRun(const PlanInstance& preview, SoMarsOptions options)
      : policy(preview, options),
        slots(testing::Nodes(static_cast<int>(preview.machine_speeds.size()), 1, 1)),
        exec(loop, slots),
        controller(loop, exec, policy, slots, static_cast<int>(preview.machine_speeds.size()),
                   std::move(MakePartitioner("hash")).value(), testing::Quiet()) {
    controller.AddObserver(&recorder);
    for (const PlanJob& job : preview.jobs)
      controller.SubmitAt(FromSeconds(job.release), [this, job](JobId id) {
        SimJob model;
        model.map_work_s = job.maps;
        model.reduce_work_s = job.reduces;
        exec.AddJob(id, std::move(model));
        JobSpec spec = testing::JobBuilder()
                           .Name(job.name)
                           .MapSeconds(job.maps)
                           .SpreadOver(static_cast<int>(slots.size() / 2))
                           .ReduceSeconds(job.reduces)
                           .Weight(job.weight)
                           .Build();
        spec.shuffle_delay = FromSeconds(job.delay);
        arrival[job.name] = Seconds(loop.Now());
        id_of[job.name] = id;
        return spec;
      });
    controller.RunUntilIdle();
  }

  SoMarsPolicy policy;
  std::vector<SlotInfo> slots;
  SimLoop loop;
  SimExecutor exec;
  Controller controller;
  StartRecorder recorder;
  std::map<std::string, double> arrival;
  std::map<std::string, JobId> id_of;

  const std::vector<StartRecorder::Start>& StartsOf(const std::string& job) {
    return recorder.starts.at(id_of.at(job));
  }
  NodeId NodeOf(SlotId slot) const { return slots[slot].node; }
};

PlanJob Job(std::string name, double release, std::vector<double> maps, std::vector<double> reduces,
            double delay = 0) {
  return {release, 1, delay, std::move(maps), std::move(reduces), std::move(name)};
}

// Three nodes, B = 10 s. a's maps run 0-4, 0-4 and 0-8, its reduce 9-12 (delay 1): at the
// boundary 10 it still runs. b and c arrive mid-interval, d too, e after an interval
// without arrivals.
PlanInstance ThreeNodes() {
  PlanInstance in;
  in.machine_speeds = {1, 1, 1};
  in.jobs = {Job("a", 0, {4, 4, 8}, {3}, 1), Job("b", 3, {2}, {1}), Job("c", 9.5, {5, 5}, {2}),
             Job("d", 14.5, {1, 1, 1, 1}, {6}, 2), Job("e", 31, {3}, {3})};
  return in;
}

SoMarsOptions Every10s(std::optional<double> lp_budget_s = std::nullopt) {
  SoMarsOptions o;
  o.batch_interval = seconds(10);
  o.lp_budget_s = lp_budget_s;
  return o;
}

double BoundaryOf(double arrival, double b) { return std::ceil(arrival / b) * b; }

TEST(SoMarsPolicy, NoTaskStartsBeforeTheBoundaryAfterItsJobsArrival) {
  const PlanInstance preview = ThreeNodes();
  SimRun run(preview, Every10s());
  ASSERT_EQ(run.controller.stats().invalid_decisions, 0u);
  for (const PlanJob& job : preview.jobs) {
    const double boundary = BoundaryOf(run.arrival.at(job.name), 10);
    ASSERT_EQ(run.StartsOf(job.name).size(), job.maps.size() + job.reduces.size()) << job.name;
    for (const StartRecorder::Start& s : run.StartsOf(job.name))
      EXPECT_GE(Seconds(s.at), boundary) << job.name << " arrived at " << run.arrival.at(job.name);
  }
  EXPECT_EQ(Seconds(run.StartsOf("b").front().at), 10) << "though two nodes are idle from 4";
  EXPECT_EQ(Seconds(run.StartsOf("d").front().at), 20);
  EXPECT_EQ(Seconds(run.StartsOf("e").front().at), 40);
}

TEST(SoMarsPolicy, ARePlanPlansOnlyJobsThatHaveArrivedAndKeepsRunningTasks) {
  const PlanInstance preview = ThreeNodes();
  SimRun run(preview, Every10s());
  const std::vector<ReplanRecord>& replans = run.policy.replans();
  ASSERT_EQ(replans.size(), 4u) << "at 0, 10, 20 and 40: no job arrived in (20, 30]";
  for (const ReplanRecord& r : replans)
    for (int j : r.planned)
      EXPECT_LE(preview.jobs[j].release, r.at) << "job " << preview.jobs[j].name;
  EXPECT_EQ(replans[0].planned, (std::vector<int>{0}));
  EXPECT_EQ(replans[1].planned, (std::vector<int>{1, 2})) << "a has started all its tasks";
  EXPECT_EQ(replans[1].tasks, 2 + 3);
  // a's reduce runs 9-12 across the boundary: its node starts nothing else before 12.
  const StartRecorder::Start reduce = run.StartsOf("a").back();
  ASSERT_EQ(reduce.task.kind, TaskKind::kReduce);
  EXPECT_EQ(Seconds(reduce.at), 9);
  for (const auto& [job, starts] : run.recorder.starts)
    for (const StartRecorder::Start& s : starts) {
      if (run.NodeOf(s.slot) == run.NodeOf(reduce.slot) && s.at > reduce.at) {
        EXPECT_GE(Seconds(s.at), 12) << "job " << job;
      }
    }
  EXPECT_TRUE(run.policy.note().empty()) << run.policy.note();
}

TEST(SoMarsPolicy, WithoutLpBudgetARePlanTakesTheBetterOfHuwfAndTheFirstLpAndSaysSo) {
  // Two nodes and 24 tasks of mixed works released at once: COGE needs more than its
  // first LP here (the PGCs bind), so a budget of 0 stops it before the epsilon stop; the
  // first LP (no PGC) plans worse than HUWF here.
  PlanInstance in;
  in.machine_speeds = {1, 1};
  for (int j = 0; j < 4; ++j)
    in.jobs.push_back(
        Job(std::string(1, static_cast<char>('p' + j)), 0, {1.0 + j, 7, 2.5, 4.0 + j, 3}, {5}));
  SimRun run(in, Every10s(/*lp_budget_s=*/0));
  ASSERT_EQ(run.policy.replans().size(), 1u);
  EXPECT_TRUE(run.policy.replans()[0].fell_back);
  EXPECT_EQ(run.policy.note(),
            "so-mars: 1 of 1 re-plans had the LP past its budget of 0 s (1 of them planned as "
            "HUWF, the others from the last LP)");
  EXPECT_EQ(run.recorder.starts.size(), 4u) << "HUWF's plan ran every job";
}

}  // namespace
}  // namespace mrlocal
