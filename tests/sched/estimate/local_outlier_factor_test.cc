// LocalOutlierFactors against a hand-computed example and against a literal O(n^2)
// transcription of Breunig et al.'s definitions (2000, definitions 3-7).
#include "sched/estimate/local_outlier_factor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace mrlocal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Definitions 3-7, point by point, with the header's conventions for infinite lrd.
std::vector<double> BruteForceLof(const std::vector<double>& v, int min_pts) {
  const size_t n = v.size();
  if (n < 2) return std::vector<double>(n, 1.0);
  const size_t k = std::min<size_t>(static_cast<size_t>(min_pts), n - 1);
  std::vector<double> kdist(n);
  std::vector<std::vector<size_t>> hood(n);
  for (size_t p = 0; p < n; ++p) {
    std::vector<double> d;
    for (size_t o = 0; o < n; ++o)
      if (o != p) d.push_back(std::abs(v[p] - v[o]));
    std::sort(d.begin(), d.end());
    kdist[p] = d[k - 1];
    for (size_t o = 0; o < n; ++o)
      if (o != p && std::abs(v[p] - v[o]) <= kdist[p]) hood[p].push_back(o);
  }
  std::vector<double> lrd(n);
  for (size_t p = 0; p < n; ++p) {
    double sum = 0;
    for (size_t o : hood[p]) sum += std::max(kdist[o], std::abs(v[p] - v[o]));
    lrd[p] = sum == 0 ? kInf : static_cast<double>(hood[p].size()) / sum;
  }
  std::vector<double> lof(n);
  for (size_t p = 0; p < n; ++p) {
    if (std::isinf(lrd[p])) {
      lof[p] = 1;
      continue;
    }
    double sum = 0;
    for (size_t o : hood[p]) sum += lrd[o];
    lof[p] = sum / (static_cast<double>(hood[p].size()) * lrd[p]);
  }
  return lof;
}

void ExpectSame(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isinf(want[i])) {
      EXPECT_TRUE(std::isinf(got[i])) << "value " << i << ": " << got[i];
    } else {
      EXPECT_NEAR(got[i], want[i], 1e-9 * std::max(1.0, want[i])) << "value " << i;
    }
  }
}

TEST(LocalOutlierFactor, MatchesAHandComputedExample) {
  // k = 2. k-distances: 0 -> 2, 1 -> 1, 2 -> 2, 10 -> 9. lrd: 2/3, 1/2, 2/3, 2/17.
  // LOF(0) = (1/2 + 2/3) / (2 * 2/3) = 7/8; LOF(1) = (4/3) / 1 = 4/3; LOF(2) = 7/8;
  // LOF(10) = (2/3 + 1/2) / (2 * 2/17) = 119/24.
  const std::vector<double> v = {10, 0, 2, 1};
  ExpectSame(LocalOutlierFactors(v, 2), {119.0 / 24, 7.0 / 8, 7.0 / 8, 4.0 / 3});
}

TEST(LocalOutlierFactor, AgreesWithTheDefinitionsOnRandomValues) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    const size_t n = std::uniform_int_distribution<size_t>(1, 60)(rng);
    const int min_pts = std::uniform_int_distribution<int>(1, 25)(rng);
    std::vector<double> v(n);
    std::lognormal_distribution<double> spread(0, 1);
    for (double& x : v) x = spread(rng);
    if (round % 5 == 0) v.back() *= 8;  // an outlier now and then
    SCOPED_TRACE("round " + std::to_string(round));
    ExpectSame(LocalOutlierFactors(v, min_pts), BruteForceLof(v, min_pts));
  }
}

TEST(LocalOutlierFactor, AgreesWithTheDefinitionsOnValuesWithTies) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 300; ++round) {
    const size_t n = std::uniform_int_distribution<size_t>(1, 40)(rng);
    const int min_pts = std::uniform_int_distribution<int>(1, 12)(rng);
    std::vector<double> v(n);
    for (double& x : v) x = std::uniform_int_distribution<int>(0, 6)(rng);
    SCOPED_TRACE("round " + std::to_string(round));
    ExpectSame(LocalOutlierFactors(v, min_pts), BruteForceLof(v, min_pts));
  }
}

TEST(LocalOutlierFactor, DuplicatesAreInliersAndAPointBesideThemAnInfiniteOutlier) {
  const std::vector<double> v = {1, 1, 1, 1, 1, 1.05};
  const std::vector<double> lof = LocalOutlierFactors(v, 3);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(lof[i], 1.0);
  EXPECT_TRUE(std::isinf(lof[5]));
  // All equal: all inliers.
  for (double x : LocalOutlierFactors(std::vector<double>(8, 2.5), 3)) EXPECT_EQ(x, 1.0);
}

TEST(LocalOutlierFactor, WithNoMoreValuesThanMinPtsComparesWithAllTheOthers) {
  EXPECT_TRUE(LocalOutlierFactors({}, 10).empty());
  EXPECT_EQ(LocalOutlierFactors(std::vector<double>{3}, 10), std::vector<double>{1.0});
  EXPECT_EQ(LocalOutlierFactors(std::vector<double>{3, 5}, 10), (std::vector<double>{1.0, 1.0}));
  // 5 values, MinPts 10: k = 4, every other value is a neighbour of each. Then even a
  // value 4x the others has LOF about 1: the one slow value sets every k-distance (why
  // the overload detector uses k <= (n - 1) / 2).
  const std::vector<double> v = {1.0, 1.1, 0.9, 1.05, 4.0};
  const std::vector<double> lof = LocalOutlierFactors(v, 10);
  ExpectSame(lof, BruteForceLof(v, 4));
  EXPECT_LT(lof[4], 1.5);
  EXPECT_GT(LocalOutlierFactors(v, 2)[4], 10);
}

}  // namespace
}  // namespace mrlocal
