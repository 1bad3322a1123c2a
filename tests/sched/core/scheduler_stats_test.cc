// LatencySamples, the scheduler's latency histogram: percentiles against the nearest-rank
// percentile of the sorted samples, within the histogram's promised 1.6 %.
#include "sched/core/scheduler_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace mrlocal {
namespace {

// The nearest-rank q-quantile of `sorted` (ns), in microseconds, as PercentileUs defines
// the rank.
double ReferenceUs(const std::vector<int64_t>& sorted, double q) {
  const size_t rank = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return static_cast<double>(sorted[rank]) / 1000.0;
}

void ExpectPercentiles(std::vector<int64_t> samples) {
  LatencySamples h;
  for (int64_t s : samples) h.Add(s);
  EXPECT_EQ(h.count(), samples.size());
  std::sort(samples.begin(), samples.end());
  for (double q : {0.0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const double want = ReferenceUs(samples, q);
    const double got = h.PercentileUs(q);
    // Exact below 128 ns; above, the middle of a bucket 1/64 of its power of two wide.
    const double tolerance = want < 0.128 ? 1e-12 : want * 0.016;
    EXPECT_NEAR(got, want, tolerance) << "q=" << q;
  }
}

TEST(LatencySamples, PercentilesOfLogUniformSamplesFromNanosecondsToSeconds) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> log10(0, 9.5);
  std::vector<int64_t> samples;
  for (int i = 0; i < 100'000; ++i)
    samples.push_back(static_cast<int64_t>(std::pow(10.0, log10(rng))));
  ExpectPercentiles(samples);
}

TEST(LatencySamples, SmallValuesAreExact) {
  std::vector<int64_t> samples;
  for (int64_t v = 0; v < 128; ++v)
    for (int k = 0; k <= v % 5; ++k) samples.push_back(v);
  ExpectPercentiles(samples);
  LatencySamples h;
  h.Add(77);
  EXPECT_DOUBLE_EQ(h.PercentileUs(0.5), 0.077);
}

TEST(LatencySamples, ANarrowClusterAndOutliers) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> around(40'000, 500);  // 40 us +- 0.5 us
  std::vector<int64_t> samples;
  for (int i = 0; i < 10'000; ++i) samples.push_back(static_cast<int64_t>(around(rng)));
  for (int i = 0; i < 20; ++i) samples.push_back(int64_t{3'000'000'000} + i);  // 3 s stalls
  ExpectPercentiles(samples);
}

TEST(LatencySamples, NoSamplesIsZeroAndNegativeCountsAsZero) {
  LatencySamples h;
  EXPECT_EQ(h.PercentileUs(0.5), 0);
  h.Add(-5);  // a clock that stepped back
  EXPECT_EQ(h.count(), 1u);
  EXPECT_EQ(h.PercentileUs(0.99), 0);
}

}  // namespace
}  // namespace mrlocal
