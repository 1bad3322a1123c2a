// The k-NN estimator (DynamicShare section 3.1): the kernel weights on a hand-computed
// example, k against n, the cold start over-estimating and converging, the bound, and no
// estimate that is not a finite non-negative number.
#include "sched/estimate/knn_estimator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tests/util/estimate_inputs.h"

namespace mrlocal {
namespace {

using testing::JobOfSplits;

constexpr double kMiB = 1 << 20;

TaskFeatures Query(double units, double speed = 1.0, int node_tasks = 0,
                   TaskKind kind = TaskKind::kMap) {
  return TaskFeatures{kind, units, speed, node_tasks};
}

// The synthetic app: 0.2 s plus 20 ns per unit at speed 1, 10 % slower per other task on
// the node.
double TrueSeconds(const TaskFeatures& f) {
  return (0.2 + 20e-9 * f.units) * (1 + 0.1 * f.node_tasks) / f.slot_speed;
}

// A prior that knows the app's model exactly, as a calibrated model would.
class ModelPrior final : public Estimator {
 public:
  std::optional<double> TaskSeconds(const JobState&, const TaskFeatures& f) const override {
    return TrueSeconds(f);
  }
  std::optional<ShuffleEstimate> Shuffle(const JobState&) const override {
    return ShuffleEstimate{7, 7};
  }
  std::string Source(const JobState&) const override { return "model"; }
};

TEST(KnnEstimator, NeighbourCountGrowsAsNToTheFourFifths) {
  EXPECT_EQ(NeighbourCount(0), 0u);
  EXPECT_EQ(NeighbourCount(1), 1u);
  EXPECT_EQ(NeighbourCount(2), 1u);   // 0.5 * 2^0.8 = 0.87
  EXPECT_EQ(NeighbourCount(4), 2u);   // 1.52
  EXPECT_EQ(NeighbourCount(9), 3u);   // 2.90
  EXPECT_EQ(NeighbourCount(20), 5u);  // 5.49
  EXPECT_EQ(NeighbourCount(256), 42u);
  for (size_t n = 1; n < 1000; ++n) {
    ASSERT_LE(NeighbourCount(n), n);
    ASSERT_GE(NeighbourCount(n + 1), NeighbourCount(n));
  }
}

// Only node_tasks differs (0..4, range 4), so the distances are 0, 0.25, 0.5...; n = 5
// gives k = 2 and R = 1.25 * 0.25. Weights K(0) = 0.75 and K(0.8) = 0.27.
TEST(KnnEstimator, WeightsAreTheScaledEpanechnikovKernel) {
  std::vector<KnnObservation> seen;
  for (int i = 0; i < 5; ++i) seen.push_back({100, 1.0, i, 10.0 * (i + 1)});
  EXPECT_NEAR(*KnnRegress(seen, Query(100, 1.0, 0)), (0.75 * 10 + 0.27 * 20) / (0.75 + 0.27),
              1e-12);
  // At the other end, mirrored.
  EXPECT_NEAR(*KnnRegress(seen, Query(100, 1.0, 4)), (0.75 * 50 + 0.27 * 40) / 1.02, 1e-12);
}

TEST(KnnEstimator, NeighboursAllAtDistanceZeroWeighEqually) {
  std::vector<KnnObservation> seen;
  for (int i = 1; i <= 4; ++i) seen.push_back({100, 1.0, 0, 10.0 * i});
  // k = 2 of four at distance 0: the newest two, equally.
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(100)), 35);
}

TEST(KnnEstimator, LearnsWorkSoAnotherSpeedScales) {
  const std::vector<KnnObservation> seen = {{100, 1.0, 0, 10}};
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(100, 0.5)), 20);
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(100, 2.0)), 5);
}

// kNN cannot extrapolate: above the largest size it scales the largest's time up, below
// the smallest it keeps the smallest's (both over-estimates of an affine time).
TEST(KnnEstimator, SizesOutsideThoseObservedAreOverEstimated) {
  const std::vector<KnnObservation> seen = {{10, 1.0, 0, 1.0}, {20, 1.0, 0, 1.5}};
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(40)), 3.0);
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(1)), 1.0);
  EXPECT_DOUBLE_EQ(*KnnRegress(seen, Query(0)), 1.0);
}

// Below the smallest size seen, the fallback's model says how much less the task takes:
// its fixed part stays, the rest shrinks with the input. A history of 10 MiB splits must
// not estimate a 1 MiB split as a 10 MiB one.
TEST(KnnEstimator, SizesBelowThoseObservedShrinkAsTheFallbackSays) {
  const ModelPrior prior;
  KnnEstimator knn(&prior);
  const JobState job = JobOfSplits("synthetic", {}, 1);
  for (int i = 0; i < static_cast<int>(kWarmObservations); ++i) {
    const TaskFeatures f = Query(10 * kMiB, 1.0, i % 2);
    knn.Add("synthetic", TaskKind::kMap, {f.units, f.slot_speed, f.node_tasks, TrueSeconds(f)});
  }
  const TaskFeatures small = Query(kMiB, 0.5, 0);
  EXPECT_NEAR(*knn.TaskSeconds(job, small), TrueSeconds(small), 1e-9 * TrueSeconds(small));
  // The fixed part is kept: more than in proportion to the size.
  EXPECT_GT(*knn.TaskSeconds(job, small), TrueSeconds(Query(10 * kMiB, 0.5)) / 10);
  // Without a fallback it keeps the smallest's time, an over-estimate.
  KnnEstimator alone(nullptr, knn.apps());
  EXPECT_NEAR(*alone.TaskSeconds(job, small), TrueSeconds(Query(10 * kMiB, 0.5)), 1e-9);
}

TEST(KnnEstimator, ColdStartOverEstimatesThenConverges) {
  const ModelPrior prior;
  KnnEstimator knn(&prior);
  const JobState job = JobOfSplits("synthetic", {}, 1);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> size(8 * kMiB, 32 * kMiB);
  std::lognormal_distribution<double> noise(0, 0.05);
  auto draw = [&] {
    const double units = size(rng);
    const double speed = rng() % 2 ? 1.0 : 0.5;
    return Query(units, speed, static_cast<int>(rng() % 2));
  };
  auto mape = [&] {
    double sum = 0;
    for (int i = 0; i < 200; ++i) {
      const TaskFeatures q = draw();
      sum += std::abs(*knn.TaskSeconds(job, q) / TrueSeconds(q) - 1);
    }
    return sum / 200;
  };
  EXPECT_NEAR(mape(), kColdFactor - 1, 1e-9) << "no observations: the prior, widened";
  EXPECT_EQ(knn.Source(job), "knn cold start from model");
  double before = mape();
  for (int n = 1; n <= 256; ++n) {
    const TaskFeatures f = draw();
    knn.Add("synthetic", TaskKind::kMap,
            {f.units, f.slot_speed, f.node_tasks, TrueSeconds(f) * noise(rng)});
    if (n == 4 || n == kWarmObservations) {
      const double now = mape();
      EXPECT_LT(now, before) << n << " observations";
      before = now;
    }
  }
  EXPECT_LT(mape(), 0.10);
  EXPECT_EQ(knn.Source(job), "knn (256 observations)");
  EXPECT_EQ(knn.Shuffle(job)->total_units, 7) << "the fallback's";
  // Reduces were never observed: still the widened prior.
  const TaskFeatures reduce = Query(kMiB, 1.0, 0, TaskKind::kReduce);
  EXPECT_DOUBLE_EQ(*knn.TaskSeconds(job, reduce), kColdFactor * TrueSeconds(reduce));
}

TEST(KnnEstimator, WithoutObservationsOrFallbackItCannotTell) {
  KnnEstimator knn;
  const JobState job = JobOfSplits("wordcount", {1 << 20}, 1);
  EXPECT_FALSE(knn.TaskSeconds(job, Query(kMiB)));
  EXPECT_FALSE(knn.Shuffle(job));
  EXPECT_EQ(knn.Source(job), "");
  // One observation, no fallback: its own estimate, widened while cold.
  knn.Add("wordcount", TaskKind::kMap, {kMiB, 1.0, 0, 1.0});
  const double cold = 1.0 / kWarmObservations;
  EXPECT_DOUBLE_EQ(*knn.TaskSeconds(job, Query(kMiB)), cold + (1 - cold) * kColdFactor);
}

TEST(KnnEstimator, KeepsTheNewestUpToTheBound) {
  KnnEstimator knn;
  for (int i = 0; i < 300; ++i) knn.Add("wordcount", TaskKind::kReduce, {1.0 * i, 1.0, 0, 1.0});
  const KnnAppObservations* o = knn.Find("wordcount");
  ASSERT_NE(o, nullptr);
  ASSERT_EQ(o->reduces.size(), kMaxKnnObservations);
  EXPECT_EQ(o->reduces.front().units, 300 - kMaxKnnObservations);
  EXPECT_EQ(o->reduces.back().units, 299);
  EXPECT_TRUE(o->maps.empty());
}

TEST(KnnEstimator, NeverEstimatesNaNInfinityOrANegativeTime) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  KnnEstimator knn;
  for (KnnObservation bad :
       {KnnObservation{nan, 1, 0, 1}, KnnObservation{1, 0, 0, 1}, KnnObservation{1, 1, -1, 1},
        KnnObservation{1, 1, 0, -1}, KnnObservation{1, 1, 0, inf}, KnnObservation{1, inf, 0, 1}})
    knn.Add("wordcount", TaskKind::kMap, bad);
  EXPECT_EQ(knn.Find("wordcount"), nullptr) << "invalid observations are ignored";
  for (KnnObservation ok : {KnnObservation{0, 1, 0, 0}, KnnObservation{1e12, 0.01, 50, 1e6},
                            KnnObservation{5, 100, 0, 1e-9}})
    knn.Add("wordcount", TaskKind::kMap, ok);
  const JobState job = JobOfSplits("wordcount", {1}, 1);
  for (double units : {0.0, 1.0, 1e300, -5.0})
    for (double speed : {1e-6, 1.0, 1e6})
      for (int node_tasks : {0, 1000}) {
        const auto s = knn.TaskSeconds(job, Query(units, speed, node_tasks));
        ASSERT_TRUE(s);
        EXPECT_TRUE(std::isfinite(*s) && *s >= 0) << units << " " << speed << " " << *s;
      }
  EXPECT_FALSE(knn.TaskSeconds(job, Query(inf)));
  EXPECT_FALSE(knn.TaskSeconds(job, Query(nan)));
  EXPECT_FALSE(knn.TaskSeconds(job, Query(1, 0)));
}

}  // namespace
}  // namespace mrlocal
