// The app registry: lookup by name, one clear error for an unknown app, duplicates refused,
// and every built-in app complete (runtime, simulation model, probe, spec fields).
#include "tools/runtime/app_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "datasets/workload_spec.h"

namespace mrlocal {
namespace {

using ::testing::ElementsAre;

TEST(AppRegistry, FindsEveryBuiltInAppByName) {
  const AppRegistry& apps = AppRegistry::BuiltIn();
  EXPECT_THAT(apps.Names(), ElementsAre("wordcount", "friendcount", "pi", "synthetic"));
  for (const std::string& name : apps.Names()) {
    auto app = apps.Find(name);
    ASSERT_TRUE(app.ok()) << app.status().message();
    EXPECT_EQ((*app)->spec.name, name);
  }
  ASSERT_EQ(apps.schemas().size(), 4u);
  EXPECT_EQ(apps.schemas()[2].name, "pi");
}

TEST(AppRegistry, AnUnknownAppIsOneErrorListingTheKnownOnes) {
  auto app = AppRegistry::BuiltIn().Find("wordcont");
  ASSERT_FALSE(app.ok());
  EXPECT_EQ(app.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(app.status().message(),
            "unknown app 'wordcont' (known: wordcount, friendcount, pi, synthetic)");
}

TEST(AppRegistry, RegisteringANameTwiceIsAnError) {
  AppRegistry registry;
  AppDescriptor a;
  a.spec.name = "grep";
  ASSERT_TRUE(registry.Register(a).ok());
  Status again = registry.Register(a);
  EXPECT_EQ(again.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(again.message(), "app 'grep' is registered already");
  EXPECT_THAT(registry.Names(), ElementsAre("grep"));
  EXPECT_EQ(registry.schemas().size(), 1u);
}

TEST(AppRegistry, EveryBuiltInAppHasARuntimeAModelAndAProbe) {
  for (const std::string& name : AppRegistry::BuiltIn().Names()) {
    const AppDescriptor& app = **AppRegistry::BuiltIn().Find(name);
    EXPECT_TRUE(app.runtime) << name;
    EXPECT_TRUE(app.model) << name;
    EXPECT_TRUE(app.model_estimate) << name;
    EXPECT_TRUE(app.probe) << name;
    // Apps measured by calibration, or declaring their work: one or the other.
    EXPECT_NE(static_cast<bool>(app.calibrate), app.declared_estimate.has_value()) << name;
  }
}

// A spec job of each app, read with the registry's schemas, becomes a real job of that
// app and a simulated one.
TEST(AppRegistry, ASpecJobOfEachAppRunsForRealAndInSimulation) {
  const AppRegistry& apps = AppRegistry::BuiltIn();
  auto spec = ParseWorkloadJson(R"({"jobs": [
      {"arrival_s": 0, "app": "wordcount", "input": {"generate": "text", "size": 3000}, "maps": 3},
      {"arrival_s": 0, "app": "friendcount", "input": {"generate": "graph", "size": "1MiB"}},
      {"arrival_s": 0, "app": "pi", "maps": 4, "samples": 1000},
      {"arrival_s": 0, "app": "synthetic", "maps": 2, "reduces": 2, "map_s": [1, 2],
       "reduce_s": 3}]})",
                                "spec.json", apps.schemas());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  const Calibration calibration = Calibration::BuiltIn();
  for (const WorkloadJob& job : spec->jobs) {
    const AppDescriptor& app = **apps.Find(job.app);
    EXPECT_EQ(app.runtime(job).name, job.app);
    auto sim = BuildSimJob(apps, job, {*spec, calibration});
    ASSERT_TRUE(sim.ok()) << sim.status().message();
    EXPECT_EQ(sim->spec.app, job.app);
    EXPECT_EQ(sim->sim.map_work_s.size(), sim->spec.maps.size()) << job.app;
    EXPECT_EQ(sim->sim.reduce_work_s.size(), job.reduces) << job.app;
  }
  // pi: a map's units are its samples; synthetic: a microsecond of work per unit.
  auto pi = BuildSimJob(apps, spec->jobs[2], {*spec, calibration});
  EXPECT_EQ(pi->spec.maps.size(), 4u);
  EXPECT_EQ(pi->spec.maps[0].bytes, 1000u);
  auto synthetic = BuildSimJob(apps, spec->jobs[3], {*spec, calibration});
  EXPECT_EQ(synthetic->sim.map_work_s, (std::vector<double>{1, 2}));
  EXPECT_EQ(synthetic->sim.reduce_work_s, (std::vector<double>{3, 3}));
  EXPECT_EQ(synthetic->spec.maps[1].bytes, 2'000'000u);
  EXPECT_EQ(synthetic->spec.shuffle_units, 6'000'000u);
  EXPECT_EQ(synthetic->spec.max_reduce_units, 3'000'000u);
}

TEST(AppRegistry, AJobOfAnUnknownAppIsNotSimulated) {
  WorkloadSpec spec;
  WorkloadJob job;
  job.name = "j";
  job.app = "grep";
  auto sim = BuildSimJob(AppRegistry::BuiltIn(), job, {spec, Calibration::BuiltIn()});
  ASSERT_FALSE(sim.ok());
  EXPECT_EQ(sim.status().message(),
            "job 'j': unknown app 'grep' (known: wordcount, friendcount, pi, synthetic)");
}

}  // namespace
}  // namespace mrlocal
