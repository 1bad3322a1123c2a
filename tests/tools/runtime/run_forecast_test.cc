// The forecast a workload run gives its policies: the spec's kind over the spec's forecast
// profiles (which may differ from the real ones), told what the run's cluster shows.
#include "tools/runtime/run_forecast.h"

#include <gtest/gtest.h>

#include "tools/runtime/app_registry.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

Time S(double s) { return FromSeconds(s); }

// Two nodes of one map and one reduce slot; node 1 at 0.5 from 10 s to 30 s for real,
// forecast at 0.25 from 10 s on. One synthetic job of 2 maps of 30 s: node 1's ends at 40 s.
WorkloadSpec Spec(std::string_view forecast_kind) {
  auto spec = ParseWorkloadJson(
      R"j({"cluster": "2x(1m,1r,1.0)", "forecast": ")j" + std::string(forecast_kind) +
          R"j(", "availability": [{"nodes": [1], "profile": [[10, 0.5], [30, 1.0]],
                                  "forecast": [[10, 0.25]]}],
             "jobs": [{"arrival_s": 0, "app": "synthetic", "maps": 2, "reduces": 0,
                       "map_s": 30}]})j",
      "spec.json", AppRegistry::BuiltIn().schemas());
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : WorkloadSpec{};
}

WorkloadRun Simulate(const WorkloadSpec& spec) {
  WorkloadRunOptions o;
  o.cluster = *spec.cluster;
  auto run = RunWorkloadSim(spec, o);
  EXPECT_TRUE(run.ok()) << run.status().message();
  return run.ok() ? std::move(*run) : WorkloadRun{};
}

TEST(RunForecast, AKnownForecastIsTheSpecsForecastProfileNotTheRealOne) {
  const WorkloadRun run = Simulate(Spec("known"));
  ASSERT_TRUE(run.forecast);
  // Maps over [0, 40): node 0 40; node 1 10 + 30 x 0.25 (the forecast, not 10 + 10 + 10).
  EXPECT_DOUBLE_EQ(run.forecast->Work(SlotKind::kMap, S(0), S(40)), 40 + 17.5);
}

TEST(RunForecast, ALearnedOneHasSeenTheRealProfile) {
  const WorkloadRun run = Simulate(Spec("learned"));
  ASSERT_TRUE(run.forecast);
  // The run saw the steps at 10 s and 30 s: the past is the real profile.
  EXPECT_DOUBLE_EQ(run.forecast->Work(SlotKind::kMap, S(0), S(30)), 30 + 10 + 20 * 0.5);
}

TEST(RunForecast, AConstantOneHoldsWhatTheClusterShowedLast) {
  WorkloadSpec spec = Spec("constant");
  spec.availability[0].steps = {{10, 0.5}};
  const WorkloadRun run = Simulate(spec);
  ASSERT_TRUE(run.forecast);
  // Node 1 at 0.5 since 10 s, held before and after: 10 + 10 x 0.5.
  EXPECT_DOUBLE_EQ(run.forecast->Work(SlotKind::kMap, S(0), S(10)), 15);
  EXPECT_DOUBLE_EQ(run.forecast->Work(SlotKind::kMap, S(100), S(110)), 15);
}

TEST(RunForecast, WithoutAProfileTheForecastIsConstantAtFullSpeed) {
  WorkloadSpec spec = Spec("known");
  spec.availability.clear();
  const WorkloadRun run = Simulate(spec);
  ASSERT_TRUE(run.forecast);
  EXPECT_DOUBLE_EQ(run.forecast->Work(SlotKind::kReduce, S(5), S(15)), 20);
}

}  // namespace
}  // namespace mrlocal
