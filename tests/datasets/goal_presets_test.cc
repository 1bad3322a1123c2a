// The Reverse-Adaptive experiments' presets (datasets/goal_presets.h): sized to the cluster
// they run on, the load and goals they are asked for, the day and its forecast.
#include "datasets/goal_presets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

WorkloadSpec Make(std::string_view name, uint64_t seed, PresetOptions o = {}) {
  Result<WorkloadSpec> r = MakePreset(name, seed, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : WorkloadSpec{};
}

double MapWork(const WorkloadJob& j) { return j.maps * j.params.TaskSeconds("map_s")[0]; }

// The mean availability of step function `steps` over [0, until).
double MeanOver(const std::vector<ProfileStep>& steps, double until) {
  double area = 0;
  for (size_t i = 0; i < steps.size() && steps[i].at_s < until; ++i) {
    const double end = i + 1 < steps.size() ? std::min(steps[i + 1].at_s, until) : until;
    area += steps[i].factor * (end - steps[i].at_s);
  }
  return area / (until - steps.front().at_s);
}

TEST(GoalPresets, AloneOffersTheLoadAskedForWithGoalsFromSoloTimes) {
  for (double load : {0.4, 1.2}) {
    PresetOptions o;
    o.jobs = 400;
    o.parameters["load"] = load;
    const WorkloadSpec s = Make("ra-alone", 3, o);
    ASSERT_EQ(s.jobs.size(), 400u);
    EXPECT_EQ(s.cluster->ToString(), "10x(4m,1r,1.0)");
    EXPECT_TRUE(s.availability.empty());
    double work = 0;
    for (const WorkloadJob& j : s.jobs) work += MapWork(j);
    // Offered load: the map work over the arrivals' span and the 40 map slots, within the
    // spread of 400 exponential gaps.
    const double span = s.jobs.back().arrival_s - s.jobs.front().arrival_s;
    EXPECT_NEAR(work / (span * 40), load, 0.15 * load);
    // A job of 50 maps of m seconds and 3 reduces of 1.5 m: 2 waves of maps, one of
    // reduces alone; its goal is 3x that.
    for (const WorkloadJob& j : s.jobs) {
      const double m = j.params.TaskSeconds("map_s")[0];
      const double solo = std::ceil(j.maps / 40.0) * m + 1.5 * m;
      EXPECT_NEAR(*j.goal_s, 3 * solo, 0.002) << j.name;
      EXPECT_EQ(j.reduces, std::min<uint32_t>(10, (j.maps + 19) / 20)) << j.name;
    }
  }
}

TEST(GoalPresets, SizedToTheClusterItRunsOn) {
  PresetOptions o;
  o.jobs = 200;
  o.cluster = *ClusterSpec::Parse("2x(4m,1r,0.25)");
  const WorkloadSpec s = Make("ra-web", 1, o);
  EXPECT_EQ(s.cluster->ToString(), "2x(4m,1r,0.25)");
  for (const WorkloadJob& j : s.jobs) {
    EXPECT_LE(j.maps, 64u) << j.name;  // large: 5 to 8 times the 8 map slots
    EXPECT_LE(j.reduces, 2u) << j.name;
  }
  // The day is 90 mean maps long at the slots' speed: 90 x 20 s / 0.25.
  EXPECT_DOUBLE_EQ(s.forecast.period_s, 7200);
}

TEST(GoalPresets, WebDayIsASinusoidDownToTheTroughOnEveryNode) {
  PresetOptions o;
  o.parameters["trough"] = 0.3;
  const WorkloadSpec s = Make("ra-web", 5, o);
  ASSERT_EQ(s.availability.size(), 1u);
  const AvailabilityProfile& p = s.availability[0];
  EXPECT_EQ(p.nodes.size(), 10u);
  EXPECT_FALSE(p.forecast.has_value());  // the forecast is the day itself
  double lo = 1, hi = 0;
  for (const ProfileStep& st : p.steps) lo = std::min(lo, st.factor), hi = std::max(hi, st.factor);
  EXPECT_NEAR(lo, 0.3, 0.01);
  EXPECT_NEAR(hi, 1.0, 0.01);
  const double day = s.forecast.period_s;
  EXPECT_NEAR(MeanOver(p.steps, 2 * day), 0.65, 0.01);
  // Goals are sized to the day's mean availability: 1 / 0.65 longer than ra-alone's.
  const WorkloadSpec alone = Make("ra-alone", 5, o);
  EXPECT_NEAR(*s.jobs[0].goal_s, *alone.jobs[0].goal_s / 0.65, 0.01);
}

TEST(GoalPresets, BurstsAreNotForeseenAndAShiftedForecastIsWrong) {
  const WorkloadSpec web = Make("ra-web", 2);
  const WorkloadSpec bursty = Make("ra-bursty", 2);
  const AvailabilityProfile& p = bursty.availability[0];
  ASSERT_TRUE(p.forecast.has_value());
  // The forecast is the day alone, every step a 96th of it, never under the trough; the
  // bursts take some steps under it.
  const double step = bursty.forecast.period_s / 96;
  for (size_t k = 0; k < p.forecast->size(); ++k) {
    EXPECT_NEAR((*p.forecast)[k].at_s, k * step, 1e-6);
    EXPECT_GE((*p.forecast)[k].factor, 0.2 - 1e-9);
  }
  EXPECT_LT(std::min_element(p.steps.begin(), p.steps.end(),
                             [](auto& x, auto& y) { return x.factor < y.factor; })
                ->factor,
            0.2);
  // The bursts take the day down to 0.3 of itself somewhere.
  bool burst = false;
  for (const ProfileStep& st : p.steps)
    for (size_t k = 0; k < p.forecast->size(); ++k)
      if ((*p.forecast)[k].at_s <= st.at_s &&
          (k + 1 == p.forecast->size() || st.at_s < (*p.forecast)[k + 1].at_s))
        burst |= std::abs(st.factor - 0.3 * (*p.forecast)[k].factor) < 1e-9;
  EXPECT_TRUE(burst);

  PresetOptions o;
  o.parameters["forecast-shift"] = 0.5;  // half a day off: told peaks in troughs
  const WorkloadSpec wrong = Make("ra-web", 2, o);
  const AvailabilityProfile& w = wrong.availability[0];
  ASSERT_TRUE(w.forecast.has_value());
  EXPECT_EQ(w.steps.size(), web.availability[0].steps.size());
  for (size_t i = 0; i < w.steps.size(); ++i)
    EXPECT_NEAR(w.steps[i].factor + (*w.forecast)[i].factor, 1.2, 0.01) << i;
}

TEST(GoalPresets, SameSeedSameJobsAndParametersAreChecked) {
  const WorkloadSpec a = Make("ra-bursty", 7), b = Make("ra-bursty", 7), c = Make("ra-bursty", 8);
  ASSERT_EQ(a.jobs.size(), 60u);
  EXPECT_EQ(a.jobs.back().arrival_s, b.jobs.back().arrival_s);
  EXPECT_NE(a.jobs.back().arrival_s, c.jobs.back().arrival_s);
  PresetOptions o;
  o.parameters["load"] = 0;
  Result<WorkloadSpec> bad = MakePreset("ra-web", 1, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("load"));
  o.parameters = {{"concurrency", 2}};
  bad = MakePreset("ra-alone", 1, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("goal-factor"));  // lists what it has
}

}  // namespace
}  // namespace mrlocal
