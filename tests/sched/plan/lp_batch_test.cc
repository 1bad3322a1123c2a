// COGE's batches (lp_bound.h's prefix_stride): the worst violated PGC per window of prefix
// lengths instead of every violated one, so a round adds about sqrt(|T|) rows, not |T|.
#include <gtest/gtest.h>

#include <cmath>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "random_plans.h"  // this folder's helpers
#include "sched/plan/lp_bound.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

TEST(LpBatch, TakesTheWorstViolatedPrefixOfEachWindow) {
  // Deficits (bound - sum) of prefixes 1..7: 0 (met), 2, 5 | 1, 0 (met), 3 | 4.
  const std::vector<PrefixSides> sides = {{1, 1}, {0, 2}, {0, 5}, {0, 1}, {2, 2}, {0, 3}, {0, 4}};
  EXPECT_EQ(WorstViolatedPerWindow(sides, 1), (std::vector<int>{2, 3, 4, 6, 7}));
  EXPECT_EQ(WorstViolatedPerWindow(sides, 3), (std::vector<int>{3, 6, 7}));
  EXPECT_EQ(WorstViolatedPerWindow(sides, 7), (std::vector<int>{3}));
  EXPECT_TRUE(WorstViolatedPerWindow({{1, 1}, {3, 2}}, 2).empty());
}

PlanInstance MarsRandom(uint64_t seed, size_t jobs) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  EXPECT_TRUE(in.ok()) << in.status().message();
  return *in;
}

// ~900 tasks: each round adds at most one PGC per window of round(sqrt(|T|)) lengths.
TEST(LpBatch, ARoundAddsAtMostOnePgcPerWindow) {
  const PlanInstance in = MarsRandom(1, 20);
  const int tasks = static_cast<int>(FlattenTasks(in).size());
  const int stride = static_cast<int>(std::lround(std::sqrt(tasks)));
  auto lp = SolveLpBound(in, {.converge = true});
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_TRUE(lp->converged);
  const int per_round = (tasks + stride - 1) / stride;
  EXPECT_LE(lp->prefix_constraints, (lp->iterations - 1) * per_round);
}

// Both batchings converge to LPs no PGC of their own order violates; each is a lower bound
// below a feasible schedule, and on these instances they agree to CLP's precision.
TEST(LpBatch, SparseAndFullBatchesConvergeToTheSameBound) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const PlanInstance in = MarsRandom(seed, 10);
    auto sparse = SolveLpBound(in, {.converge = true});
    auto full = SolveLpBound(in, {.converge = true, .prefix_stride = 1});
    ASSERT_TRUE(sparse.ok() && full.ok());
    EXPECT_TRUE(sparse->converged && full->converged);
    EXPECT_NEAR(sparse->bound, full->bound, 1e-5 * full->bound) << "seed " << seed;
    const double feasible = WeightedCompletion(in, testing_plan::GreedySchedule(in));
    EXPECT_LE(sparse->bound, feasible);
  }
}

TEST(LpBatch, ANegativeStrideIsAnError) {
  EXPECT_EQ(SolveLpBound(testing_plan::OneMachine(), {.prefix_stride = -1}).status().message(),
            "prefix_stride must be >= 0");
}

}  // namespace
}  // namespace mrlocal
