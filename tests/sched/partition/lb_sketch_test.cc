// lb-sketch, the paper's LB enhanced with sketches (evaluation, before Fig. 9): LB planned
// on every row of the sketch, keeping the row whose plan has the best Balance.
#include <gtest/gtest.h>

#include <random>

#include "must_plan.h"
#include "sched/partition/largest_first_partitioner.h"
#include "sched/partition/partitioner.h"

namespace mrlocal {
namespace {

// A d-row sketch of `keys` keys with Zipf-ish sizes (~ 1000 / rank), seeded.
CountMinSketch RandomSketch(int d, uint32_t p, int keys, uint64_t seed) {
  CountMinSketch s(MakePartitionHashes(d, p, seed));
  std::mt19937_64 rng(seed);
  for (int k = 1; k <= keys; ++k) s.Add(rng(), 1 + 1000 / k + rng() % 5);
  return s;
}

// The Balance LB reaches on one row (largest first to the least loaded, speeds ignored).
double LbBalanceOfRow(const CountMinSketch& s, int row, size_t R) {
  std::vector<uint32_t> owner;
  AssignLargestFirst(s.Row(row), std::vector<double>(R, 1.0), &owner);
  std::vector<uint64_t> loads(R, 0);
  for (size_t i = 0; i < owner.size(); ++i) loads[owner[i]] += s.Row(row)[i];
  return Balance(loads);
}

TEST(LbSketch, KeepsTheRowWithTheBestBalance) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const size_t R = 2 + rng() % 5;
    const uint32_t p = static_cast<uint32_t>(R * (1 + rng() % 4));
    const CountMinSketch s = RandomSketch(4, p, 20 + static_cast<int>(rng() % 200), seed);
    const PartitionPlan plan = MustPlan("lb-sketch", s, std::vector<double>(R, 1.0));
    SCOPED_TRACE("seed " + std::to_string(seed));
    double best = 0;
    int best_row = 0;
    for (int row = 0; row < s.depth(); ++row) {
      const double b = LbBalanceOfRow(s, row, R);
      if (b > best) {
        best = b;
        best_row = row;
      }
    }
    EXPECT_DOUBLE_EQ(plan.balance, best);
    EXPECT_EQ(plan.row, best_row);  // ties keep the lower row
    EXPECT_EQ(plan.plan.route, s.hash(plan.row));
    EXPECT_GE(plan.balance, MustPlan("lb", s, std::vector<double>(R, 1.0)).balance);
  }
}

TEST(LbSketch, IgnoresSpeedsAsLbDoes) {
  const CountMinSketch s = RandomSketch(4, 24, 300, 9);
  const PartitionPlan equal = MustPlan("lb-sketch", s, {1, 1, 1, 1});
  const PartitionPlan mixed = MustPlan("lb-sketch", s, {1, 0.5, 0.25, 0.25});
  EXPECT_EQ(mixed.row, equal.row);
  EXPECT_EQ(mixed.plan.owner, equal.plan.owner);
  EXPECT_EQ(mixed.reduce_load, equal.reduce_load);
  // The phase is still estimated with the real speeds: the slow slots set it.
  EXPECT_GT(mixed.estimated_phase, 2 * equal.estimated_phase);
}

TEST(LbSketch, ARowThatCannotBeBetteredKeepsRowZero) {
  // One key: every row puts all of it in one partition, so every row's Balance is equal.
  CountMinSketch s(MakePartitionHashes(4, 8, 3));
  s.Add(12345, 100);
  const PartitionPlan plan = MustPlan("lb-sketch", s, {1, 1});
  EXPECT_EQ(plan.row, 0);
  EXPECT_DOUBLE_EQ(plan.balance, 50);
}

// Fig. 12's point: with sketches for both, dp's speed-aware plan still ends earlier than
// LB's balanced one on a heterogeneous cluster.
TEST(LbSketch, DpSketchEndsNoLaterOnAHeterogeneousCluster) {
  const std::vector<double> speeds = {1, 1, 0.5, 0.25};
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const CountMinSketch s = RandomSketch(4, 40, 400, seed);
    const PartitionPlan lb = MustPlan("lb-sketch", s, speeds);
    const PartitionPlan dp = MustPlan("dp-sketch", s, speeds);
    EXPECT_LT(dp.estimated_phase, lb.estimated_phase) << "seed " << seed;
    EXPECT_GE(lb.balance, dp.balance) << "seed " << seed;
  }
}

}  // namespace
}  // namespace mrlocal
