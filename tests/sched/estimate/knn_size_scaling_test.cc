// The k-NN estimator scales each neighbour's work to the query's size (DynamicShare's
// equation 1 over observations of other sizes): a time that grows in proportion to the
// input is then estimated without the bias of a plain mean, which pulls a query at the edge
// of the observed sizes towards the sizes inside.
#include <gtest/gtest.h>

#include <vector>

#include "sched/estimate/knn_estimator.h"

namespace mrlocal {
namespace {

constexpr double kSecondsPerUnit = 0.01;

// Ten observations of 100..190 units, each taking its units x kSecondsPerUnit at speed 1.
std::vector<KnnObservation> Proportional() {
  std::vector<KnnObservation> seen;
  for (int i = 0; i < 10; ++i) {
    const double units = 100 + 10 * i;
    seen.push_back({units, 1.0, 0, kSecondsPerUnit * units});
  }
  return seen;
}

TEST(KnnSizeScaling, ATimeProportionalToTheInputIsEstimatedAtAnySize) {
  const std::vector<KnnObservation> seen = Proportional();
  // The edges of the observed range, inside it, and above it (k = 3 neighbours, all of
  // other sizes but one).
  for (double units : {100.0, 155.0, 190.0, 380.0})
    EXPECT_NEAR(*KnnRegress(seen, TaskFeatures{TaskKind::kMap, units, 1.0, 0}),
                kSecondsPerUnit * units, 1e-12)
        << units << " units";
}

TEST(KnnSizeScaling, BelowTheSmallestObservedItIsTheSmallest) {
  // Not scaled down: a time has a fixed part, and an under-estimate misses deadlines.
  EXPECT_NEAR(*KnnRegress(Proportional(), TaskFeatures{TaskKind::kMap, 10, 1.0, 0}),
              kSecondsPerUnit * 100, 1e-12);
}

TEST(KnnSizeScaling, AnotherSpeedStillScalesTheWork) {
  EXPECT_NEAR(*KnnRegress(Proportional(), TaskFeatures{TaskKind::kReduce, 190, 0.5, 0}),
              2 * kSecondsPerUnit * 190, 1e-12);
}

}  // namespace
}  // namespace mrlocal
