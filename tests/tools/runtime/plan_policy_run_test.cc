// The planning policies (mars, mares, h-mares, huwf, hjwf, htwf, stf) on simulated MarS
// workloads: without noise each run is its plan, start for start; with noise every run
// is still a valid schedule and finishes; a WordCount job is planned from its model.
#include <gtest/gtest.h>

#include <map>

#include "datasets/workload_presets.h"
#include "sched/plan/planner.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

const std::map<std::string, Planner>& Planners() {
  static const std::map<std::string, Planner> planners = {
      {"mars", Planner::kMars}, {"mares", Planner::kMares}, {"h-mares", Planner::kHMares},
      {"huwf", Planner::kHuwf}, {"hjwf", Planner::kHjwf},   {"htwf", Planner::kHtwf},
      {"stf", Planner::kStf}};
  return planners;
}

WorkloadSpec Preset(const std::string& name, uint64_t seed, size_t jobs, double noise = 0) {
  auto spec = MakePreset(name, seed, {.jobs = jobs, .noise = noise});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return *spec;
}

WorkloadRunOptions Options(const WorkloadSpec& spec, const std::string& policy, uint64_t seed) {
  WorkloadRunOptions o;
  o.policy = policy;
  o.cluster = *spec.cluster;
  o.seed = seed;
  return o;
}

// Per plan task (FlattenTasks order), the run's attempt that finished it.
std::vector<const AttemptRecord*> TasksOf(const WorkloadRun& run, const PlanInstance& in) {
  std::vector<size_t> first(in.jobs.size() + 1, 0);
  for (size_t j = 0; j < in.jobs.size(); ++j)
    first[j + 1] = first[j] + in.jobs[j].maps.size() + in.jobs[j].reduces.size();
  std::map<JobId, size_t> plan_job;
  for (const JobRecord& r : run.recorder->jobs())
    for (size_t j = 0; j < in.jobs.size(); ++j)
      if (in.jobs[j].name == r.name) plan_job[r.id] = j;
  std::vector<const AttemptRecord*> tasks(first.back(), nullptr);
  for (const AttemptRecord& a : run.recorder->attempts()) {
    const size_t j = plan_job.at(a.job);
    const size_t offset = a.kind == TaskKind::kMap ? 0 : in.jobs[j].maps.size();
    tasks[first[j] + offset + a.index] = &a;
  }
  return tasks;
}

TEST(PlanPolicyRun, WithoutNoiseTheRunIsThePlanStartForStart) {
  for (const char* preset : {"mars-uniform", "mars-random"}) {
    for (uint64_t seed : {1, 2}) {
      const WorkloadSpec spec = Preset(preset, seed, 6);
      for (const auto& [policy, planner] : Planners()) {
        SCOPED_TRACE(std::string(preset) + " seed " + std::to_string(seed) + " " + policy);
        const WorkloadRunOptions o = Options(spec, policy, seed);
        auto preview = WorkloadPreview(spec, o);
        ASSERT_TRUE(preview.ok()) << preview.status().message();
        auto plan = MakePlan(planner, preview->instance);
        ASSERT_TRUE(plan.ok()) << plan.status().message();
        ASSERT_EQ(plan->note, "");
        auto run = RunWorkloadSim(spec, o);
        ASSERT_TRUE(run.ok()) << run.status().message();
        EXPECT_EQ(run->stats.invalid_decisions, 0u);

        const std::vector<const AttemptRecord*> tasks = TasksOf(*run, preview->instance);
        for (size_t u = 0; u < tasks.size(); ++u) {
          ASSERT_NE(tasks[u], nullptr) << "task " << u << " never ran";
          EXPECT_NEAR(Seconds(tasks[u]->start), plan->schedule.start[u], 1e-6) << "task " << u;
          EXPECT_EQ(run->slots[tasks[u]->slot].node, plan->schedule.machine[u]) << "task " << u;
        }
        const double planned = WeightedCompletion(preview->instance, plan->schedule);
        EXPECT_NEAR(run->metrics.twjct_abs, planned, 1e-6 * planned);
      }
    }
  }
}

TEST(PlanPolicyRun, WithNoiseEveryRunFinishesOneTaskPerNodeAtATime) {
  for (uint64_t seed : {1, 2, 3}) {
    const WorkloadSpec spec = Preset("mars-random", seed, 8, /*noise=*/0.5);
    for (const auto& [policy, planner] : Planners()) {
      SCOPED_TRACE(policy + " seed " + std::to_string(seed));
      auto run = RunWorkloadSim(spec, Options(spec, policy, seed));
      ASSERT_TRUE(run.ok()) << run.status().message();
      EXPECT_EQ(run->metrics.completed, spec.jobs.size());
      EXPECT_EQ(run->stats.invalid_decisions, 0u);
      // Per node, its attempts one after the other.
      std::map<NodeId, std::vector<std::pair<Time, Time>>> by_node;
      for (const AttemptRecord& a : run->recorder->attempts())
        by_node[run->slots[a.slot].node].push_back({a.start, a.end});
      for (auto& [node, spans] : by_node) {
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
          EXPECT_LE(spans[i - 1].second, spans[i].first) << "node " << node;
      }
    }
  }
}

// A job of a modelled app is planned from its model (job_set_preview.h), beside synthetic
// ones; job_set_preview_test.cc has the refusals.
TEST(PlanPolicyRun, AWordCountJobIsPlannedBesideSyntheticOnes) {
  WorkloadSpec spec = Preset("mars-uniform", 1, 2);
  WorkloadJob& wc = spec.jobs[1];
  wc.app = "wordcount";
  wc.params = {};
  wc.input.kind = InputSpec::Kind::kGenerated;
  wc.input.bytes = 1 << 20;
  auto run = RunWorkloadSim(spec, Options(spec, "mars", 1));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->metrics.completed, 2u);
  EXPECT_EQ(run->policy_note, "");
}

}  // namespace
}  // namespace mrlocal
