// The Chernoff bound on sums of task times (sched/estimate/cost_distribution.h): it is an
// upper bound on the sum's quantile (checked against the exact quantile of a sum of
// two-point variables, and against the empirical quantile of the simulator's noise), it
// is far below n worst cases for long chains, and a chain of worst-case tasks is exact.
#include "sched/estimate/cost_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

namespace mrlocal {
namespace {

TEST(CostDistribution, TasksAtTheirWorstCaseSumExactly) {
  ChainTail tail;
  for (int i = 0; i < 5; ++i) tail.Add(CostDistribution::OfTask(nullptr, 2.0));
  // ln E exp(theta S) = 10 theta: the bound is 10 + L / theta at the largest theta.
  const double top = ThetaGrid::Theta(ThetaGrid::kThetas - 1);
  EXPECT_NEAR(tail.Bound(std::log(1e4)), 10.0 + std::log(1e4) / top, 1e-3);
  EXPECT_EQ(ChainTail().Bound(5), 0);
}

TEST(CostDistribution, BoundsTheExactQuantileOfABinomialSum) {
  // R = 1 with probability 0.1, else 0.1: S = sum of n, its tail exactly binomial.
  std::vector<double> ratios(10, 0.1);
  ratios[0] = 1.0;
  auto d = CostDistribution::FromRatios(ratios);
  EXPECT_NEAR(d->mean(), 0.19, 1e-12);
  const int n = 20;
  const double delta = 1e-3;
  ChainTail tail;
  for (int i = 0; i < n; ++i) tail.Add(CostDistribution::OfTask(d.get(), 1.0));
  const double bound = tail.Bound(std::log(1 / delta));
  // The smallest k with P(more than k of n at 1) <= delta.
  double p_tail = 1;
  int k = -1;
  while (p_tail > delta) {
    ++k;
    p_tail -= std::exp(std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) +
                       k * std::log(0.1) + (n - k) * std::log(0.9));
  }
  const double exact = 0.1 * (n - k) + 1.0 * k;  // the sum with k tasks at 1
  EXPECT_GE(bound, exact - 1e-9);
  EXPECT_LT(bound, 1.5 * exact);  // and useful: well below 20 worst cases
}

// The simulator's noise: exp(sigma z - sigma^2 / 2), z standard normal cut at ±3, over its
// largest value.
double NoiseRatio(double z, double sigma) {
  return std::exp(sigma * (std::clamp(z, -3.0, 3.0) - 3));
}

TEST(CostDistribution, BoundsTheSimulatorsNoiseAndGainsOnLongChains) {
  const double sigma = 0.5;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> ratios(50'000);
  for (double& r : ratios) r = NoiseRatio(normal(rng), sigma);
  auto d = CostDistribution::FromRatios(ratios);
  for (int n : {1, 2, 4, 10, 40}) {
    ChainTail tail;
    for (int i = 0; i < n; ++i) tail.Add(CostDistribution::OfTask(d.get(), 1.0));
    const double delta = 1e-3;
    const double bound = tail.Bound(std::log(1 / delta));
    std::vector<double> sums(200'000);
    for (double& s : sums) {
      s = 0;
      for (int i = 0; i < n; ++i) s += NoiseRatio(normal(rng), sigma);
    }
    std::nth_element(sums.begin(), sums.begin() + long(sums.size() * (1 - delta)), sums.end());
    const double empirical = sums[size_t(sums.size() * (1 - delta))];
    EXPECT_GE(bound, empirical) << n << " tasks";
    // A chain never counts for more than n worst cases (the policy takes the smaller).
    EXPECT_LE(bound, n + std::log(1 / delta) / ThetaGrid::Theta(ThetaGrid::kThetas - 1))
        << n << " tasks";
    if (n >= 10) {
      EXPECT_LT(bound, 0.6 * n) << n << " tasks";
    }
  }
}

// ChainTail sums and bounds on vectors; RTMR's decisions stay the same only if every bound
// is the scalar formula's to the last bit: float sums in the order added, raised by their
// rounding, the least over the grid of (K + L) / theta.
TEST(CostDistribution, BoundIsTheScalarFormulaExactly) {
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::shared_ptr<const CostDistribution>> spreads = {nullptr};
  for (int d = 0; d < 3; ++d) {
    std::vector<double> ratios(1 + d * 20);
    for (double& r : ratios) r = unit(rng);
    spreads.push_back(CostDistribution::FromRatios(ratios));
  }
  for (int chain = 0; chain < 200; ++chain) {
    ChainTail tail;
    TaskCumulants sums{};
    const int n = 1 + chain % 40;
    for (int i = 0; i < n; ++i) {
      const double worst_s = std::exp(unit(rng) * 12 - 4);  // 0.02 s to 3 h
      const TaskCumulants task = CostDistribution::OfTask(spreads[rng() % 4].get(), worst_s);
      tail.Add(task);
      for (size_t k = 0; k < sums.size(); ++k) sums[k] += task[k];
    }
    const double log_inv_delta = unit(rng) * 20;
    const double rounding = 1 + double(n) * 0x1p-23;
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < ThetaGrid::kThetas; ++k)
      least = std::min(
          least, (double(sums[size_t(k)]) * rounding + log_inv_delta) * ThetaGrid::InverseTheta(k));
    ASSERT_EQ(tail.Bound(log_inv_delta), least) << "chain " << chain;
  }
}

}  // namespace
}  // namespace mrlocal
