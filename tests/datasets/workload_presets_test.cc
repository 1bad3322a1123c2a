// Presets: determinism, the papers' tables and distributions, the cluster presets.
#include "datasets/workload_presets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

// dynshare asks its caller for the jobs' solo times: 1 s each here, one more each second.
WorkloadSpec Make(std::string_view name, uint64_t seed, PresetOptions o = {}) {
  if (!o.solo_time)
    o.solo_time = [](const WorkloadSpec& w) -> Result<double> { return w.jobs.size() * 1.0; };
  Result<WorkloadSpec> r = MakePreset(name, seed, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : WorkloadSpec{};
}

// Everything a preset sets, as one comparable string.
std::string Fingerprint(const WorkloadSpec& s) {
  std::string f = s.name + "|" + (s.cluster ? s.cluster->ToString() : "") + "|";
  char buf[128];
  for (const WorkloadJob& j : s.jobs) {
    std::snprintf(buf, sizeof buf, "%s %.17g %u %u %.17g %.17g %.17g;", j.name.c_str(), j.arrival_s,
                  j.maps, j.reduces, j.deadline_s.value_or(-1), j.weight, j.shuffle_delay_s);
    f += buf;
    for (double x : j.params.TaskSeconds("map_s")) f += std::to_string(x) + ",";
    for (double x : j.params.TaskSeconds("reduce_s")) f += std::to_string(x) + ",";
  }
  return f;
}

// The bin a rtmr job came from: its name is "job<k>-bin<b>".
int BinOf(const WorkloadJob& j) { return std::stoi(j.name.substr(j.name.find("-bin") + 4)); }

TEST(Presets, SameSeedSameWorkloadOtherSeedOther) {
  for (const std::string& name : PresetNames()) {
    const std::string a = Fingerprint(Make(name, 7)), b = Fingerprint(Make(name, 7));
    EXPECT_EQ(a, b) << name;
    EXPECT_NE(a, Fingerprint(Make(name, 8))) << name;
  }
}

// Pins the draws (as first made with libstdc++ and glibc on x86-64): a standard library
// whose mt19937_64 differs, or a changed transform, shows here.
TEST(Presets, DrawsArePinned) {
  const WorkloadSpec wl1 = Make("rtmr-wl1", 1);
  EXPECT_EQ(wl1.jobs[1].name, "job1-bin1");
  EXPECT_DOUBLE_EQ(wl1.jobs[1].arrival_s, 9.703);
  EXPECT_EQ(wl1.jobs[1].reduces, 4u);
  EXPECT_EQ(wl1.jobs[1].deadline_s, 299.0);
  EXPECT_EQ(wl1.jobs[2].name, "job2-bin3");
  EXPECT_DOUBLE_EQ(wl1.jobs[2].arrival_s, 18.755);
  EXPECT_EQ(wl1.jobs[2].reduces, 6u);
  const WorkloadSpec mars = Make("mars-random", 1);
  const WorkloadJob& m = mars.jobs[0];
  EXPECT_EQ(m.arrival_s, 0);
  EXPECT_EQ(m.maps, 25u);
  EXPECT_EQ(m.reduces, 2u);
  EXPECT_DOUBLE_EQ(m.params.TaskSeconds("map_s")[0], 5.387);
  EXPECT_DOUBLE_EQ(m.params.TaskSeconds("reduce_s")[0], 8.938);
  EXPECT_DOUBLE_EQ(m.weight, 22.718);
}

TEST(Presets, RtmrWorkloadOneFollowsTablesTwoAndThree) {
  struct Want {
    int jobs;
    uint32_t maps, red_lo, red_hi, dl_lo, dl_hi;
  };
  const std::map<int, Want> want = {
      {1, {38, 1, 1, 5, 200, 300}},      {2, {16, 2, 1, 5, 200, 300}},
      {3, {14, 10, 5, 10, 300, 400}},    {4, {8, 50, 10, 20, 500, 800}},
      {5, {6, 100, 20, 30, 1000, 1500}}, {6, {6, 200, 30, 30, 2000, 2500}}};
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const WorkloadSpec spec = Make("rtmr-wl1", seed);
    ASSERT_EQ(spec.jobs.size(), 88u);
    ASSERT_TRUE(spec.cluster.has_value());
    EXPECT_EQ(spec.cluster->ToString(), "20x(4m,1r,1.0)+10x(2m,1r,1.0)");
    std::map<int, int> count;
    for (const WorkloadJob& j : spec.jobs) {
      const int bin = BinOf(j);
      const Want& w = want.at(bin);
      ++count[bin];
      EXPECT_EQ(j.app, "synthetic");
      EXPECT_EQ(j.maps, w.maps);
      EXPECT_GE(j.reduces, w.red_lo);
      EXPECT_LE(j.reduces, w.red_hi);
      ASSERT_TRUE(j.deadline_s.has_value());
      EXPECT_GE(*j.deadline_s, w.dl_lo);
      EXPECT_LE(*j.deadline_s, w.dl_hi);
      EXPECT_EQ(*j.deadline_s, std::floor(*j.deadline_s));
      EXPECT_EQ(j.params.TaskSeconds("map_s"), std::vector<double>{12.0});
      EXPECT_EQ(j.params.TaskSeconds("reduce_s"), std::vector<double>{12.0});
    }
    for (const auto& [bin, w] : want) EXPECT_EQ(count[bin], w.jobs) << "bin " << bin;
  }
}

TEST(Presets, RtmrWorkloadTwoFollowsTableFour) {
  struct Want {
    int jobs;
    uint32_t maps_lo, maps_hi, red_lo, red_hi, dl_lo, dl_hi;
  };
  const std::map<int, Want> want = {{1, {9, 1, 10, 1, 5, 200, 300}},
                                    {2, {24, 10, 50, 5, 10, 300, 500}},
                                    {3, {25, 50, 100, 15, 30, 1000, 1500}},
                                    {4, {18, 100, 200, 25, 50, 1500, 2500}},
                                    {5, {13, 200, 300, 35, 70, 2500, 3500}}};
  std::map<int, std::pair<uint32_t, uint32_t>> seen;  // bin -> smallest, largest maps drawn
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const WorkloadSpec spec = Make("rtmr-wl2", seed);
    ASSERT_EQ(spec.jobs.size(), 89u);
    std::map<int, int> count;
    for (const WorkloadJob& j : spec.jobs) {
      const int bin = BinOf(j);
      const Want& w = want.at(bin);
      ++count[bin];
      EXPECT_GE(j.maps, w.maps_lo);
      EXPECT_LE(j.maps, w.maps_hi);
      EXPECT_GE(j.reduces, w.red_lo);
      EXPECT_LE(j.reduces, w.red_hi);
      EXPECT_GE(*j.deadline_s, w.dl_lo);
      EXPECT_LE(*j.deadline_s, w.dl_hi);
      auto [it, fresh] = seen.emplace(bin, std::make_pair(j.maps, j.maps));
      it->second.first = std::min(it->second.first, j.maps);
      it->second.second = std::max(it->second.second, j.maps);
    }
    for (const auto& [bin, w] : want) EXPECT_EQ(count[bin], w.jobs) << "bin " << bin;
  }
  // The intervals are closed: both ends come up over 50 seeds.
  for (const auto& [bin, w] : want) {
    EXPECT_EQ(seen[bin].first, w.maps_lo) << "bin " << bin;
    EXPECT_EQ(seen[bin].second, w.maps_hi) << "bin " << bin;
  }
}

TEST(Presets, RtmrArrivalsAreExponentialWithMeanFourteen) {
  double gaps = 0, sq = 0;
  size_t n = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const WorkloadSpec spec = Make(seed % 2 ? "rtmr-wl1" : "rtmr-wl2", seed);
    EXPECT_EQ(spec.jobs[0].arrival_s, 0);  // the first job opens the workload
    for (size_t i = 1; i < spec.jobs.size(); ++i) {
      const double g = spec.jobs[i].arrival_s - spec.jobs[i - 1].arrival_s;
      ASSERT_GE(g, 0);
      gaps += g, sq += g * g, ++n;
    }
  }
  const double mean = gaps / n, sd = std::sqrt(sq / n - mean * mean);
  EXPECT_NEAR(mean, 14, 0.3);  // 17,500 gaps: standard error 0.11
  EXPECT_NEAR(sd, 14, 0.5);    // exponential: sd = mean
}

TEST(Presets, RtmrOptionsReachTheJobs) {
  PresetOptions o;
  o.map_task_s = 3.5;
  o.reduce_task_s = 40;
  o.noise = 0.2;
  const WorkloadSpec spec = Make("rtmr-wl2", 3, o);
  EXPECT_DOUBLE_EQ(spec.model.noise, 0.2);
  EXPECT_EQ(spec.reduce_slowstart, 0.05) << "Hadoop 0.21's default, as on the paper's testbed";
  for (const WorkloadJob& j : spec.jobs) {
    EXPECT_EQ(j.params.TaskSeconds("map_s"), std::vector<double>{3.5});
    EXPECT_EQ(j.params.TaskSeconds("reduce_s"), std::vector<double>{40});
  }
  o.jobs = 88;
  EXPECT_TRUE(MakePreset("rtmr-wl1", 1, o).ok());
  o.jobs = 10;
  Result<WorkloadSpec> r = MakePreset("rtmr-wl1", 1, o);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("preset rtmr-wl1 has 88 jobs"));
}

TEST(Presets, MarsRandomMatchesSectionFiveOne) {
  double gap_sum = 0, maps_sum = 0, map_s = 0, red_s = 0, weight = 0, weight_sq = 0;
  size_t gaps = 0, jobs = 0, map_tasks = 0, red_tasks = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const WorkloadSpec spec = Make("mars-random", seed);
    ASSERT_EQ(spec.jobs.size(), 50u);
    EXPECT_EQ(spec.cluster->ToString(), "50x(1m,1r,1.0,1t)");
    for (size_t i = 0; i < spec.jobs.size(); ++i) {
      const WorkloadJob& j = spec.jobs[i];
      ++jobs;
      EXPECT_EQ(j.app, "synthetic");
      EXPECT_EQ(j.arrival_s, std::floor(j.arrival_s));  // whole 1 s steps
      if (i > 0) {
        EXPECT_GE(j.arrival_s - spec.jobs[i - 1].arrival_s, 1);  // one job per step at most
        gap_sum += j.arrival_s - spec.jobs[i - 1].arrival_s, ++gaps;
      }
      EXPECT_GE(j.maps, 1u);
      EXPECT_GE(j.reduces, 1u);
      EXPECT_LE(j.reduces, j.maps);
      ASSERT_EQ(j.params.TaskSeconds("map_s").size(), j.maps);
      ASSERT_EQ(j.params.TaskSeconds("reduce_s").size(), j.reduces);
      maps_sum += j.maps;
      for (double s : j.params.TaskSeconds("map_s")) {
        EXPECT_GE(s, 0.1);
        map_s += s, ++map_tasks;
      }
      for (double s : j.params.TaskSeconds("reduce_s")) {
        EXPECT_GE(s, 0.1);
        red_s += s, ++red_tasks;
      }
      EXPECT_GT(j.weight, 0);
      weight += j.weight, weight_sq += j.weight * j.weight;
      const double mean_map = std::accumulate(j.params.TaskSeconds("map_s").begin(),
                                              j.params.TaskSeconds("map_s").end(), 0.0) /
                              j.maps;
      EXPECT_NEAR(j.shuffle_delay_s, 0.1 * mean_map, 0.0006);
      EXPECT_FALSE(j.deadline_s.has_value());
    }
  }
  EXPECT_NEAR(gap_sum / gaps, 2.0, 0.06);       // geometric, p = 1/2
  EXPECT_NEAR(maps_sum / jobs, 30, 0.4);        // Poisson(30): standard error 0.08
  EXPECT_NEAR(map_s / map_tasks, 10.29, 0.1);   // N(10,5) truncated at 0.1 s
  EXPECT_NEAR(red_s / red_tasks, 15.02, 0.15);  // N(15,5), almost never truncated
  const double wm = weight / jobs;
  EXPECT_NEAR(wm, 30, 0.7);
  EXPECT_NEAR(std::sqrt(weight_sq / jobs - wm * wm), 10, 0.6);
}

TEST(Presets, MarsUniformAndJobCount) {
  PresetOptions o;
  o.jobs = 120;
  const WorkloadSpec spec = Make("mars-uniform", 5, o);
  ASSERT_EQ(spec.jobs.size(), 120u);
  for (const WorkloadJob& j : spec.jobs) {
    EXPECT_EQ(j.maps, 30u);
    EXPECT_EQ(j.reduces, 10u);
    EXPECT_EQ(j.params.TaskSeconds("map_s"), std::vector<double>{10});
    EXPECT_EQ(j.params.TaskSeconds("reduce_s"), std::vector<double>{15});
    EXPECT_DOUBLE_EQ(j.shuffle_delay_s, 1.0);
  }
  EXPECT_EQ(Make("mars-random", 5, o).jobs.size(), 120u);
}

TEST(Presets, NamesSourcesAndErrors) {
  EXPECT_EQ(PresetNames(),
            (std::vector<std::string>{"rtmr-wl1", "rtmr-wl2", "mars-random", "mars-uniform",
                                      "mars-wordcount", "dynshare", "ra-alone", "ra-web",
                                      "ra-bursty"}));
  for (const std::string& name : PresetNames()) {
    const WorkloadSpec spec = Make(name, 42);
    EXPECT_EQ(spec.name, name);
    EXPECT_EQ(spec.source, "preset " + name + " (seed 42)");
    EXPECT_FALSE(PresetSummary(name).empty());
    std::set<std::string> names;
    for (size_t i = 0; i < spec.jobs.size(); ++i) {
      EXPECT_TRUE(names.insert(spec.jobs[i].name).second);
      if (i > 0) {
        EXPECT_GE(spec.jobs[i].arrival_s, spec.jobs[i - 1].arrival_s);
      }
    }
  }
  Result<WorkloadSpec> r = MakePreset("rtmr-wl3", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "unknown preset 'rtmr-wl3' (known: rtmr-wl1, rtmr-wl2, mars-random, mars-uniform, "
            "mars-wordcount, dynshare, ra-alone, ra-web, ra-bursty)");
  EXPECT_TRUE(PresetSummary("rtmr-wl3").empty());
  for (auto bad : {PresetOptions{.map_task_s = 0}, PresetOptions{.reduce_task_s = -1},
                   PresetOptions{.noise = NAN}})
    EXPECT_FALSE(MakePreset("rtmr-wl1", 1, bad).ok());
}

TEST(Presets, Clusters) {
  EXPECT_EQ(ClusterPresetNames(),
            (std::vector<std::string>{"rtmr-table1", "mars-50", "mars-16", "dynshare-het"}));
  Result<ClusterSpec> rtmr = ClusterPreset("rtmr-table1");
  ASSERT_TRUE(rtmr.ok());
  EXPECT_EQ(rtmr->nodes(), 30);
  EXPECT_EQ(rtmr->map_slots(), 100);
  EXPECT_EQ(rtmr->reduce_slots(), 30);  // "30, the total number of reduce slots in the cluster"
  Result<ClusterSpec> mars = ClusterPreset("mars-50");
  ASSERT_TRUE(mars.ok());
  EXPECT_EQ(mars->nodes(), 50);
  Result<ClusterSpec> bad = ClusterPreset("big");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(
      bad.status().message(),
      HasSubstr(
          "unknown cluster preset 'big' (known: rtmr-table1, mars-50, mars-16, dynshare-het)"));
}

}  // namespace
}  // namespace mrlocal
