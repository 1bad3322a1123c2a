// The dynshare preset (DynamicShare's Fig. 5): its job mix, deadlines from the solo times,
// Poisson arrivals at load C / (C + 1) of the cluster's throughput, the overloaded node, its inputs
// and parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "datasets/workload_presets.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

constexpr double kHeavySolo = 2.0, kLightSolo = 0.5;
// What one more job adds to a busy cluster: mean 1 s.
constexpr double kHeavyService = 1.5, kLightService = 0.5;

// Solo times by kind (a batch: one service time more per job), and the workloads the
// preset asked about.
struct FakeSolo {
  std::vector<WorkloadSpec> asked;
  SoloTime Fn() {
    return [this](const WorkloadSpec& w) -> Result<double> {
      asked.push_back(w);
      const bool heavy = w.jobs.at(0).name == "heavy";
      return (heavy ? kHeavySolo : kLightSolo) +
             static_cast<double>(w.jobs.size() - 1) * (heavy ? kHeavyService : kLightService);
    };
  }
};

PresetOptions Options(FakeSolo& solo, size_t jobs, double concurrency) {
  PresetOptions o;
  o.jobs = jobs;
  o.parameters["concurrency"] = concurrency;
  o.solo_time = solo.Fn();
  return o;
}

WorkloadSpec Make(const PresetOptions& o, uint64_t seed = 1) {
  Result<WorkloadSpec> r = MakePreset("dynshare", seed, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : WorkloadSpec{};
}

bool IsHeavy(const WorkloadJob& j) { return j.name.find("-heavy-") != std::string::npos; }
bool IsStrict(const WorkloadJob& j) { return j.name.find("-strict") != std::string::npos; }

TEST(DynSharePreset, HalfHeavySeventyPercentStrictWithThePapersDeadlineRatios) {
  FakeSolo solo;
  const WorkloadSpec spec = Make(Options(solo, 20, 3));
  ASSERT_EQ(spec.jobs.size(), 20u);
  int heavy = 0, strict = 0;
  for (const WorkloadJob& j : spec.jobs) {
    heavy += IsHeavy(j);
    strict += IsStrict(j);
    EXPECT_EQ(j.app, "friendcount");
    EXPECT_EQ(j.maps, 12u);  // the same tasks for both kinds, as the paper's jobs
    EXPECT_EQ(j.reduces, 4u);
    // strict = 5 x solo (the default strict-factor); relaxed: 4/3 (heavy), 2 (light).
    const double strict_s = 5 * (IsHeavy(j) ? kHeavySolo : kLightSolo);
    const double relaxed_s = strict_s * (IsHeavy(j) ? 4.0 / 3 : 2.0);
    ASSERT_TRUE(j.deadline_s.has_value());
    EXPECT_NEAR(*j.deadline_s, IsStrict(j) ? strict_s : relaxed_s, 1e-3) << j.name;
  }
  EXPECT_EQ(heavy, 10);
  EXPECT_EQ(strict, 14);
  // A fixed 70 % at any count (rounded), not a draw.
  const WorkloadSpec seven = Make(Options(solo, 7, 1));
  EXPECT_EQ(std::count_if(seven.jobs.begin(), seven.jobs.end(), IsStrict), 5);
}

TEST(DynSharePreset, ArrivalsArePoissonAtLoadConcurrencyOverConcurrencyPlusOne) {
  FakeSolo solo;
  const size_t n = 4000;
  const WorkloadSpec spec = Make(Options(solo, n, 5));
  EXPECT_EQ(spec.jobs.front().arrival_s, 0);
  // Load 5/6 of a throughput of one job per second (the mean service time): a job every
  // 1.2 s, not every solo time / C (0.25 s), which would offer 4 times what it serves.
  const double mean_gap = spec.jobs.back().arrival_s / static_cast<double>(n - 1);
  EXPECT_NEAR(mean_gap, 1.2, 1.2 * 0.05);  // 3 standard errors at 4,000 gaps
  // Exponential gaps: their standard deviation equals their mean.
  double sq = 0;
  for (size_t i = 1; i < n; ++i) {
    const double gap = spec.jobs[i].arrival_s - spec.jobs[i - 1].arrival_s;
    EXPECT_GE(gap, 0);
    sq += (gap - mean_gap) * (gap - mean_gap);
  }
  EXPECT_NEAR(std::sqrt(sq / static_cast<double>(n - 2)), 1.2, 1.2 * 0.1);
}

TEST(DynSharePreset, OneSeedGivesTheSameJobsAtEveryConcurrencyOnlyCloser) {
  FakeSolo solo;
  const WorkloadSpec c1 = Make(Options(solo, 30, 1), 9), c4 = Make(Options(solo, 30, 4), 9);
  ASSERT_EQ(c1.jobs.size(), c4.jobs.size());
  for (size_t i = 0; i < c1.jobs.size(); ++i) {
    EXPECT_EQ(c1.jobs[i].name, c4.jobs[i].name);
    EXPECT_EQ(c1.jobs[i].deadline_s, c4.jobs[i].deadline_s);
    // Gaps of (1 + 1/C) service times: 1.25 at C = 4, 2 at C = 1.
    EXPECT_NEAR(c4.jobs[i].arrival_s, c1.jobs[i].arrival_s * 1.25 / 2, 2e-3);
  }
  EXPECT_NE(Make(Options(solo, 30, 1), 10).jobs[1].arrival_s, c1.jobs[1].arrival_s);
}

TEST(DynSharePreset, NodeZeroRunsAtAQuarterSpeedWhileTenJobsArriveMidSpan) {
  FakeSolo solo;
  const WorkloadSpec spec = Make(Options(solo, 20, 2));
  ASSERT_TRUE(spec.cluster.has_value());
  EXPECT_EQ(spec.cluster->ToString(), "2x(1m,1r,0.25)+4x(1m,1r,0.125)");
  EXPECT_EQ(spec.cluster->ToString(), ClusterPreset("dynshare-het")->ToString());
  // Mean gap 1 s x (1 + 1/2) = 1.5 s; the arrivals' expected span 20 x 1.5 = 30 s; the
  // overload lasts 10 gaps (15 s), in its middle.
  ASSERT_EQ(spec.availability.size(), 1u);
  const AvailabilityProfile& a = spec.availability[0];
  EXPECT_EQ(a.nodes, std::vector<int>{0});
  ASSERT_EQ(a.steps.size(), 2u);
  EXPECT_NEAR(a.steps[0].at_s, 7.5, 1e-3);
  EXPECT_EQ(a.steps[0].factor, 0.25);
  EXPECT_NEAR(a.steps[1].at_s, 22.5, 1e-3);
  EXPECT_EQ(a.steps[1].factor, 1.0);
  // Fewer jobs than 10: all of their span.
  const WorkloadSpec short_spec = Make(Options(solo, 4, 2));
  const AvailabilityProfile& few = short_spec.availability.at(0);
  EXPECT_EQ(few.steps[0].at_s, 0);
  EXPECT_NEAR(few.steps[1].at_s, 6, 1e-3);
}

TEST(DynSharePreset, SoloTimesAreAskedOfEachKindAloneAndInABatchWithoutOverload) {
  FakeSolo solo;
  Make(Options(solo, 10, 1));
  ASSERT_EQ(solo.asked.size(), 4u);  // per kind: alone, then 4 at once
  for (size_t i = 0; i < solo.asked.size(); ++i) {
    const WorkloadSpec& w = solo.asked[i];
    ASSERT_EQ(w.jobs.size(), i % 2 == 0 ? 1u : 4u);
    for (const WorkloadJob& j : w.jobs) {
      EXPECT_FALSE(j.deadline_s.has_value());
      EXPECT_EQ(j.arrival_s, 0);
      EXPECT_EQ(j.input.graph_edges, w.jobs[0].input.graph_edges);
    }
    EXPECT_TRUE(w.availability.empty());
    EXPECT_TRUE(w.cluster.has_value());
  }
  // A batch that takes no longer than one job alone has no service time to offer a load.
  PresetOptions flat = Options(solo, 10, 1);
  flat.solo_time = [](const WorkloadSpec&) -> Result<double> { return 1.0; };
  EXPECT_THAT(MakePreset("dynshare", 1, flat).status().message(),
              HasSubstr("4 heavy jobs at once took 1.000 s, no longer than one alone"));
  PresetOptions failing = Options(solo, 10, 1);
  failing.solo_time = [](const WorkloadSpec&) -> Result<double> {
    return Status::InvalidArgument("no calibration");
  };
  EXPECT_THAT(MakePreset("dynshare", 1, failing).status().message(),
              HasSubstr("solo time of the heavy job: no calibration"));
  failing.solo_time = nullptr;
  EXPECT_FALSE(MakePreset("dynshare", 1, failing).ok());
}

TEST(DynSharePreset, ReadsTheSharedGraphsOrGeneratesGraphsOfTheirShape) {
  testing::ScratchDir dir;
  FakeSolo solo;
  PresetOptions o = Options(solo, 4, 1);
  o.datasets_dir = dir.path().string();
  const WorkloadSpec generated = Make(o);
  EXPECT_THAT(generated.note, HasSubstr("generated graphs of the same shape"));
  for (const WorkloadJob& j : generated.jobs) {
    EXPECT_EQ(j.input.kind, InputSpec::Kind::kGenerated);
    EXPECT_EQ(j.input.graph_edges, IsHeavy(j) ? 948'464u : 88'234u) << j.name;
    EXPECT_EQ(j.input.graph_skew, IsHeavy(j) ? 208 : 24) << j.name;
  }
  std::filesystem::create_directories(dir / "graphs");
  testing::WriteFile(dir / "graphs" / "soc-Slashdot0902.txt.gz", "x");
  testing::WriteFile(dir / "graphs" / "facebook_combined.txt", "1 2\n");
  const WorkloadSpec shared = Make(o);
  EXPECT_THAT(shared.note, HasSubstr("graphs from"));
  for (const WorkloadJob& j : shared.jobs) {
    ASSERT_EQ(j.input.kind, InputSpec::Kind::kFiles);
    EXPECT_THAT(j.input.files.at(0),
                HasSubstr(IsHeavy(j) ? "soc-Slashdot0902.txt.gz" : "facebook_combined.txt"));
  }
}

TEST(DynSharePreset, ParametersAreCheckedByName) {
  FakeSolo solo;
  for (double bad : {0.0, 101.0, 2.5}) {
    PresetOptions o = Options(solo, 10, bad);
    EXPECT_THAT(MakePreset("dynshare", 1, o).status().message(),
                HasSubstr("concurrency must be an integer in [1, 100]"))
        << bad;
  }
  PresetOptions o = Options(solo, 10, 1);
  o.parameters["speed"] = 1;
  EXPECT_EQ(MakePreset("dynshare", 1, o).status().message(),
            "preset dynshare has no parameter 'speed' (it has concurrency, strict-factor)");
  PresetOptions rtmr;
  rtmr.parameters["concurrency"] = 2;
  EXPECT_EQ(MakePreset("rtmr-wl1", 1, rtmr).status().message(),
            "preset rtmr-wl1 has no parameter 'concurrency' (it has none)");
  EXPECT_TRUE(CheckPresetParameter("dynshare", "strict-factor", 1.5).ok());
}

}  // namespace
}  // namespace mrlocal
