// WordCount jobs under a planning policy on the real engine: the plan (from the calibrated
// model, job_set_preview.h) is followed node by node, and the jobs count what an
// independent counter counts.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "datasets/text_generator.h"
#include "datasets/workload_presets.h"
#include "sched/plan/planner.h"
#include "tests/util/test_util.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

// A node's tasks as (plan job, reduce?, index), in the order they start.
using TaskKey = std::tuple<int, bool, uint32_t>;

TEST(WordCountPlanRun, MarsFollowsItsPlanPerNodeAndCountsEveryWord) {
  // mars-wordcount's three smallest jobs, generated text (no datasets dir): 2, 3 and 5 maps.
  auto spec = MakePreset("mars-wordcount", 2, {.jobs = 3});
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  WorkloadRunOptions o;
  o.policy = "mars";
  o.cluster = *ClusterSpec::Parse("3x(1m,1r,1.0,1t)");
  auto preview = WorkloadPreview(*spec, o);
  ASSERT_TRUE(preview.ok()) << preview.status().message();
  auto plan = MakePlan(Planner::kMars, preview->instance);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->note, "");

  auto run = RunWorkloadReal(*spec, o);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->metrics.completed, 3u);
  EXPECT_EQ(run->stats.invalid_decisions, 0u);

  std::map<JobId, int> plan_job;
  for (const JobRecord& r : run->recorder->jobs()) {
    for (size_t j = 0; j < spec->jobs.size(); ++j) {
      if (spec->jobs[j].name != r.name) continue;
      plan_job[r.id] = static_cast<int>(j);
      const InputSpec& in = spec->jobs[j].input;
      const std::string text = GenerateText({.bytes = in.bytes, .seed = in.seed});
      EXPECT_EQ(r.output_records, testing::ReferenceWordCount(text).size()) << r.name;
    }
  }
  ASSERT_EQ(plan_job.size(), 3u);

  // Per node, the plan's tasks in planned-start order against the run's in start order.
  std::map<NodeId, std::vector<std::pair<double, TaskKey>>> planned, ran;
  const std::vector<PlanTask> tasks = FlattenTasks(preview->instance);
  for (size_t u = 0; u < tasks.size(); ++u)
    planned[plan->schedule.machine[u]].push_back(
        {plan->schedule.start[u],
         {tasks[u].job, tasks[u].reduce, static_cast<uint32_t>(tasks[u].index)}});
  for (const AttemptRecord& a : run->recorder->attempts())
    ran[run->slots[a.slot].node].push_back(
        {Seconds(a.start), {plan_job.at(a.job), a.kind == TaskKind::kReduce, a.index}});
  for (auto* by_node : {&planned, &ran})
    for (auto& [node, list] : *by_node) std::stable_sort(list.begin(), list.end());
  ASSERT_EQ(planned.size(), ran.size());
  for (auto& [node, list] : planned) {
    ASSERT_EQ(list.size(), ran[node].size()) << "node " << node;
    for (size_t i = 0; i < list.size(); ++i)
      EXPECT_EQ(list[i].second, ran[node][i].second) << "node " << node << " task " << i;
  }
}

}  // namespace
}  // namespace mrlocal
