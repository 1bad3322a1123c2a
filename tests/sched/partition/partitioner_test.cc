// Partitioners (hash, lb, dp, dp-sketch) on hand-built sketches: pure functions, no threads.
#include "sched/partition/partitioner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "must_plan.h"
#include "sched/partition/largest_first_partitioner.h"

namespace mrlocal {
namespace {

// A one-row sketch whose row 0 holds exactly `sizes` (row 0 sends key hash i < p to i).
CountMinSketch Row0Sketch(const std::vector<uint64_t>& sizes) {
  CountMinSketch s(MakePartitionHashes(1, static_cast<uint32_t>(sizes.size()), 1));
  for (uint32_t i = 0; i < sizes.size(); ++i) s.Add(i, sizes[i]);
  return s;
}

// A d-row sketch of `keys` Zipf-ish keys (size ~ 1000 / rank), seeded.
CountMinSketch RandomSketch(int d, uint32_t p, int keys, uint64_t seed) {
  CountMinSketch s(MakePartitionHashes(d, p, seed));
  std::mt19937_64 rng(seed);
  for (int k = 1; k <= keys; ++k) s.Add(rng(), 1 + 1000 / k + rng() % 5);
  return s;
}

TEST(Partitioner, RegistryKnowsTheFiveNamesAndRejectsOthersListingThem) {
  EXPECT_EQ(PartitionerNames(),
            (std::vector<std::string>{"hash", "lb", "dp", "dp-sketch", "lb-sketch"}));
  for (const std::string& name : PartitionerNames()) {
    auto p = MakePartitioner(name);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_EQ((*p)->name(), name);
  }
  auto bad = MakePartitioner("magic");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "unknown partitioner 'magic' (valid: hash, lb, dp, dp-sketch, lb-sketch)");
}

TEST(Partitioner, HashSendsPartitionIToReduceTaskI) {
  PartitionPlan plan = MustPlan("hash", Row0Sketch({5, 0, 9, 2}), {1, 0.5, 1, 1});
  EXPECT_EQ(plan.plan.owner, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(plan.reduce_load, (std::vector<uint64_t>{5, 0, 9, 2}));
  EXPECT_EQ(plan.row, 0);
  EXPECT_DOUBLE_EQ(plan.estimated_phase, 9);
}

TEST(Partitioner, HashNeedsAsManyPartitionsAsReduceTasks) {
  auto p = MakePartitioner("hash");
  auto plan = (*p)->Plan(Row0Sketch({1, 2, 3, 4}), std::vector<double>{1, 1});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "partitioner hash needs as many partitions (4) as reduce tasks (2)");
}

// Hand-worked plans: sizes largest first, each to the earliest finisher.
TEST(Partitioner, PlansMatchHandWorkedExamples) {
  struct Case {
    std::string name;
    std::vector<uint64_t> sizes;
    std::vector<double> speeds;
    std::vector<uint32_t> owner;
    std::vector<uint64_t> load;
    double phase;
  };
  const std::vector<Case> cases = {
      // LPT: 7->0, 5->1, 4->1, 3->0, 1->1 (tie 10 vs 9 goes to the less loaded).
      {"lb", {7, 5, 4, 3, 1}, {1, 1}, {0, 1, 1, 0, 1}, {10, 10}, 10},
      // lb ignores speed, so the slow slot gets as much and doubles the phase.
      {"lb", {7, 5, 4, 3, 1}, {1, 0.5}, {0, 1, 1, 0, 1}, {10, 10}, 20},
      // dp: 7->0 (7 < 14), 5->1 (12 > 10), 4->0 (11 < 18), 3->0 (14 < 16), 1->1 (15 > 12).
      {"dp", {7, 5, 4, 3, 1}, {1, 0.5}, {0, 1, 0, 0, 1}, {14, 6}, 14},
      {"dp-sketch", {7, 5, 4, 3, 1}, {1, 0.5}, {0, 1, 0, 0, 1}, {14, 6}, 14},
      // Equal finishes go to the lower reduce task, equal sizes in index order.
      {"dp", {3, 3, 3, 3}, {1, 1, 1}, {0, 1, 2, 0}, {6, 3, 3}, 6},
      // An empty job still gets a valid plan: everything on task 0, nothing to do.
      {"dp", {0, 0, 0, 0}, {1, 0.5}, {0, 0, 0, 0}, {0, 0}, 0},
      {"lb", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, 0},
      {"hash", {0, 0}, {1, 1}, {0, 1}, {0, 0}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name + " case " + std::to_string(&c - cases.data()));
    PartitionPlan plan = MustPlan(c.name, Row0Sketch(c.sizes), c.speeds);
    EXPECT_EQ(plan.plan.owner, c.owner);
    EXPECT_EQ(plan.reduce_load, c.load);
    EXPECT_DOUBLE_EQ(plan.estimated_phase, c.phase);
  }
}

TEST(Partitioner, DpGivesAHalfSpeedSlotAboutHalfTheLoadOfAFullSpeedOne) {
  std::vector<uint64_t> sizes;
  for (int i = 0; i < 64; ++i) sizes.push_back(10 + (i * 37) % 50);
  PartitionPlan dp = MustPlan("dp", Row0Sketch(sizes), {1.0, 0.5, 1.0});
  const double fast = (dp.reduce_load[0] + dp.reduce_load[2]) / 2.0;
  EXPECT_NEAR(dp.reduce_load[1] / fast, 0.5, 0.05);
  // Every task finishes within one (small) partition of the others.
  EXPECT_LT(dp.estimated_phase, 1.05 * std::accumulate(sizes.begin(), sizes.end(), 0.0) / 2.5);
  // lb balances bytes instead, so its slow slot sets a longer phase.
  PartitionPlan lb = MustPlan("lb", Row0Sketch(sizes), {1.0, 0.5, 1.0});
  EXPECT_GT(lb.balance, 98.0);
  EXPECT_GT(lb.estimated_phase, 1.5 * dp.estimated_phase);
  EXPECT_LT(dp.balance, lb.balance);
}

TEST(Partitioner, DpSketchIsNeverWorseThanDp) {
  const std::vector<double> speed_choices = {1.0, 0.75, 0.5, 0.25};
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    uint32_t R = 1 + rng() % 6;
    uint32_t p = R * (1 + rng() % 5);
    std::vector<double> speeds(R);
    for (double& s : speeds) s = speed_choices[rng() % speed_choices.size()];
    CountMinSketch s = RandomSketch(4, p, 50 + static_cast<int>(rng() % 500), seed);
    PartitionPlan dp = MustPlan("dp", s, speeds);
    PartitionPlan sk = MustPlan("dp-sketch", s, speeds);
    EXPECT_LE(sk.estimated_phase, dp.estimated_phase) << "seed " << seed;
    if (sk.row == 0) {
      EXPECT_EQ(sk.plan.owner, dp.plan.owner) << "seed " << seed;
    }
  }
}

// A heavy key that shares its row-0 partition with another key but is alone under row 2:
// dp is stuck with a 140-unit partition, dp-sketch can split 100 | 100.
TEST(Partitioner, DpSketchBeatsDpWhenRowZeroPilesKeysTogether) {
  CountMinSketch s(MakePartitionHashes(3, 4, 42));
  auto h0 = s.hash(0), h2 = s.hash(2);
  const uint64_t heavy = 1;
  std::vector<uint64_t> mates, others;
  for (uint64_t k = 2; mates.size() < 1 || others.size() < 2; ++k) {
    bool same0 = h0(k) == h0(heavy), same2 = h2(k) == h2(heavy);
    if (same0 && !same2 && mates.empty()) mates.push_back(k);
    if (!same0 && !same2 && others.size() < 2) others.push_back(k);
  }
  s.Add(heavy, 100);
  s.Add(mates[0], 40);
  s.Add(others[0], 30);
  s.Add(others[1], 30);

  PartitionPlan dp = MustPlan("dp", s, {1, 1});
  PartitionPlan sk = MustPlan("dp-sketch", s, {1, 1});
  EXPECT_DOUBLE_EQ(dp.estimated_phase, 140);
  EXPECT_LE(sk.estimated_phase, 100);
  EXPECT_NE(sk.row, 0);
  EXPECT_EQ(sk.plan.route, s.hash(sk.row));
  EXPECT_EQ(sk.reduce_load[0] + sk.reduce_load[1], 200u);
}

TEST(Partitioner, SkewnessAndBalanceMatchHandComputedValues) {
  struct Case {
    std::vector<uint64_t> v;
    double skewness, balance;
  };
  const std::vector<Case> cases = {
      {{10, 5, 5, 0}, 50, 50},  // 20 / (4 * 10)
      {{4, 4, 4, 4}, 0, 100},
      {{1, 0, 0, 0}, 75, 25},
      {{30, 20, 10}, 100 - 200.0 / 3, 200.0 / 3},
      {{0, 0}, 0, 100},  // empty: no skew, perfectly balanced
      {{}, 0, 100},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(Skewness(c.v), c.skewness, 1e-9);
    EXPECT_NEAR(Balance(c.v), c.balance, 1e-9);
  }
  PartitionPlan plan = MustPlan("lb", Row0Sketch({10, 5, 5, 0}), {1, 1});
  EXPECT_DOUBLE_EQ(plan.skewness, 50);
  EXPECT_DOUBLE_EQ(plan.balance, 100);  // 10 | 5 + 5
}

TEST(Partitioner, EveryPlanIsConsistentAndDeterministic) {
  for (const std::string& name : PartitionerNames()) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      std::mt19937_64 rng(seed);
      uint32_t R = 1 + rng() % 8;
      uint32_t p = name == "hash" ? R : R + rng() % 40;
      std::vector<double> speeds(R);
      for (double& s : speeds) s = 0.1 + 0.9 * (rng() % 10) / 9.0;
      CountMinSketch s = RandomSketch(1 + rng() % 6, p, 300, seed);
      PartitionPlan a = MustPlan(name, s, speeds);
      PartitionPlan b = MustPlan(name, s, speeds);
      SCOPED_TRACE(name + " seed " + std::to_string(seed));
      ASSERT_EQ(a.plan.owner.size(), p);
      EXPECT_EQ(a.plan.route, s.hash(a.row));
      std::vector<uint64_t> load(R, 0);
      for (uint32_t i = 0; i < p; ++i) {
        ASSERT_LT(a.plan.owner[i], R);
        load[a.plan.owner[i]] += s.Row(a.row)[i];
      }
      EXPECT_EQ(a.reduce_load, load);
      double phase = 0;
      for (uint32_t r = 0; r < R; ++r) phase = std::max(phase, load[r] / speeds[r]);
      EXPECT_DOUBLE_EQ(a.estimated_phase, phase);
      EXPECT_DOUBLE_EQ(a.skewness, Skewness(s.Row(a.row)));
      EXPECT_DOUBLE_EQ(a.balance, Balance(load));
      EXPECT_GE(a.cost_us, 0);
      EXPECT_EQ(a.plan.owner, b.plan.owner);
      EXPECT_EQ(a.row, b.row);
    }
  }
}

// The per-speed heaps must choose exactly what a scan over all reduce tasks chooses.
TEST(Partitioner, AssignLargestFirstMatchesANaiveScan) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    uint32_t R = 1 + rng() % 10, p = R + rng() % 60;
    std::vector<uint64_t> sizes(p);
    for (auto& x : sizes) x = rng() % 4 == 0 ? 0 : rng() % 100;
    std::vector<double> speeds(R);
    for (double& s : speeds) s = (1 + rng() % 4) / 4.0;
    std::vector<uint32_t> order(p), naive(p);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return sizes[a] > sizes[b]; });
    std::vector<uint64_t> load(R, 0);
    for (uint32_t i : order) {
      uint32_t best = 0;
      for (uint32_t r = 1; r < R; ++r)
        if ((load[r] + sizes[i]) / speeds[r] < (load[best] + sizes[i]) / speeds[best]) best = r;
      naive[i] = best;
      load[best] += sizes[i];
    }
    std::vector<uint32_t> owner;
    AssignLargestFirst(sizes, speeds, &owner);
    EXPECT_EQ(owner, naive) << "seed " << seed;
  }
}

TEST(Partitioner, RejectsBadInputsWithClearMessages) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    CountMinSketch sketch;
    std::vector<double> speeds;
    std::string message;
  };
  const std::vector<Case> cases = {
      {Row0Sketch({1, 2}), {1, 1, 1}, "need at least as many partitions (2) as reduce tasks (3)"},
      {Row0Sketch({1, 2}), {}, "a job needs at least one reduce task"},
      {Row0Sketch({1, 2}), {1, 0}, "reduce task 1: slot speed 0 is not in (0, 1]"},
      {Row0Sketch({1, 2}), {1.5, 1}, "reduce task 0: slot speed 1.5 is not in (0, 1]"},
      {Row0Sketch({1, 2}), {nan, 1}, "reduce task 0: slot speed nan is not in (0, 1]"},
      {CountMinSketch(), {1}, "partition sizes: the sketch has no rows"},
  };
  for (const std::string& name : PartitionerNames()) {
    auto p = MakePartitioner(name);
    for (const Case& c : cases) {
      auto plan = (*p)->Plan(c.sketch, c.speeds);
      ASSERT_FALSE(plan.ok()) << name << ": " << c.message;
      EXPECT_EQ(plan.status().code(), Status::Code::kInvalidArgument);
      EXPECT_EQ(plan.status().message(), c.message) << name;
    }
  }
}

}  // namespace
}  // namespace mrlocal
