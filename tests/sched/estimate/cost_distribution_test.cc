// The Chernoff bound on sums of task times (sched/estimate/cost_distribution.h): it is an
// upper bound on the sum's quantile (checked against the exact quantile of a sum of
// two-point variables, and against the empirical quantile of the simulator's noise), it
// is far below n worst cases for long chains, and a chain of worst-case tasks is exact.
#include "sched/estimate/cost_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>


namespace mrlocal {
namespace {

TEST(CostDistribution, TasksAtTheirWorstCaseSumExactly) {
  ChainTail tail;
  for (int i = 0; i < 5; ++i) tail.Add(nullptr, 2.0);
  // ln E exp(theta S) = 10 theta: the bound is 10 + L / theta at the largest theta.
  EXPECT_NEAR(tail.Bound(std::log(1e4)), 10.0, 0.05);
  EXPECT_GE(tail.Bound(std::log(1e4)), 10.0);
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
  for (int i = 0; i < n; ++i) tail.Add(d.get(), 1.0);
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
    for (int i = 0; i < n; ++i) tail.Add(d.get(), 1.0);
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
    EXPECT_LE(bound, n + 1e-3) << n << " tasks";
    if (n >= 10) {
      EXPECT_LT(bound, 0.6 * n) << n << " tasks";
    }
  }
}

}  // namespace
}  // namespace mrlocal
