// so-mars on simulated MarS workloads: without noise the run is the semi-online scheme's
// schedule (sched/plan/semi_online.h) of the same jobs, TWJCT for TWJCT; the batch
// interval is the policy's setting; with noise every job still finishes.
#include <gtest/gtest.h>

#include "datasets/workload_presets.h"
#include "sched/plan/semi_online.h"
#include "sched/policy/policy_args.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

WorkloadRunOptions SoMars(const WorkloadSpec& spec, uint64_t seed, double batch_interval_s) {
  WorkloadRunOptions o;
  o.policy = "so-mars";
  o.cluster = *spec.cluster;
  o.seed = seed;
  o.policy_args.Set(kBatchInterval, FromSeconds(batch_interval_s));
  return o;
}

TEST(SoMarsRun, WithoutNoiseTheRunIsTheSemiOnlineSchemesSchedule) {
  for (uint64_t seed : {1, 2, 3}) {
    for (double b : {5.0, 20.0}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " B " + std::to_string(b));
      auto spec = MakePreset("mars-random", seed, {.jobs = 8});
      ASSERT_TRUE(spec.ok());
      const WorkloadRunOptions o = SoMars(*spec, seed, b);
      auto preview = WorkloadPreview(*spec, o);
      ASSERT_TRUE(preview.ok());
      auto scheme = SemiOnlinePlan(preview->instance, {.batch_interval = b});
      ASSERT_TRUE(scheme.ok());
      auto run = RunWorkloadSim(*spec, o);
      ASSERT_TRUE(run.ok()) << run.status().message();
      EXPECT_EQ(run->stats.invalid_decisions, 0u);
      EXPECT_EQ(run->policy_note, "");
      const double planned = WeightedCompletion(preview->instance, scheme->schedule);
      EXPECT_NEAR(run->metrics.twjct_abs, planned, 1e-6 * planned);
    }
  }
}

TEST(SoMarsRun, WithNoiseEveryJobFinishes) {
  auto spec = MakePreset("mars-random", 4, {.jobs = 10, .noise = 0.5});
  ASSERT_TRUE(spec.ok());
  auto run = RunWorkloadSim(*spec, SoMars(*spec, 4, 10));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->metrics.completed, spec->jobs.size());
  EXPECT_EQ(run->stats.invalid_decisions, 0u);
}

TEST(SoMarsRun, WithoutAnIntervalItTakesFiveTimesTheFirstJobsMeanTask) {
  // The default fits the workload's time scale: the run equals the scheme at that B, and
  // the note says which B it chose.
  auto spec = MakePreset("mars-random", 5, {.jobs = 6});
  ASSERT_TRUE(spec.ok());
  WorkloadRunOptions o = SoMars(*spec, 5, 1);
  o.policy_args = PolicyArgs{};
  auto preview = WorkloadPreview(*spec, o);
  ASSERT_TRUE(preview.ok());
  const PlanJob& first = preview->instance.jobs.front();  // mars-random jobs arrive in order
  double work = 0;
  for (double p : first.maps) work += p;
  for (double p : first.reduces) work += p;
  const double b = 5 * work / static_cast<double>(first.maps.size() + first.reduces.size());
  auto scheme = SemiOnlinePlan(preview->instance, {.batch_interval = Seconds(FromSeconds(b))});
  ASSERT_TRUE(scheme.ok());
  auto run = RunWorkloadSim(*spec, o);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const double planned = WeightedCompletion(preview->instance, scheme->schedule);
  EXPECT_NEAR(run->metrics.twjct_abs, planned, 1e-6 * planned);
  EXPECT_NE(run->policy_note.find("so-mars: batch interval "), std::string::npos)
      << run->policy_note;
}

}  // namespace
}  // namespace mrlocal
