// COGE's batches (lp_bound.h's max_batch): the worst violated PGC of each run of violated
// prefixes instead of every violated one, so a round adds about sqrt(|T|) rows, not |T|.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "random_plans.h"  // this folder's helpers
#include "sched/plan/lp_bound.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

TEST(LpBatch, TakesTheWorstViolatedPrefixOfEachRun) {
  // Deficits (bound - sum) of prefixes 1..7: 0 (met), 2, 5, 1, 0 (met), 3, 4; violated
  // 2, 3, 4, 6, 7.
  const std::vector<PrefixSides> sides = {{1, 1}, {0, 2}, {0, 5}, {0, 1}, {2, 2}, {0, 3}, {0, 4}};
  EXPECT_EQ(WorstViolatedPerRun(sides, 5), (std::vector<int>{2, 3, 4, 6, 7})) << "all fit";
  EXPECT_EQ(WorstViolatedPerRun(sides, 3), (std::vector<int>{3, 6, 7}));  // 2 3 | 4 6 | 7
  EXPECT_EQ(WorstViolatedPerRun(sides, 2), (std::vector<int>{3, 7}));     // 2 3 4 | 6 7
  EXPECT_EQ(WorstViolatedPerRun(sides, 1), (std::vector<int>{3}));
  EXPECT_TRUE(WorstViolatedPerRun({{1, 1}, {3, 2}}, 2).empty());
}

PlanInstance MarsRandom(uint64_t seed, size_t jobs) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  EXPECT_TRUE(in.ok()) << in.status().message();
  return *in;
}

// ~900 tasks: each round adds at most 2 round(sqrt(|T|)) PGCs.
TEST(LpBatch, ARoundAddsAtMostTwiceTheRootOfTheTasks) {
  const PlanInstance in = MarsRandom(1, 20);
  const int tasks = static_cast<int>(FlattenTasks(in).size());
  auto lp = SolveLpBound(in, {.converge = true});
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_TRUE(lp->converged);
  const int per_round = 2 * static_cast<int>(std::lround(std::sqrt(tasks)));
  EXPECT_LE(lp->prefix_constraints, (lp->iterations - 1) * per_round);
}

// Both batchings converge to LPs no PGC of their own order violates; each is a lower bound
// below a feasible schedule, and on these instances they agree to CLP's precision.
TEST(LpBatch, SparseAndFullBatchesConvergeToTheSameBound) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const PlanInstance in = MarsRandom(seed, 10);
    auto sparse = SolveLpBound(in, {.converge = true});
    auto full = SolveLpBound(in, {.converge = true, .max_batch = std::numeric_limits<int>::max()});
    ASSERT_TRUE(sparse.ok() && full.ok());
    EXPECT_TRUE(sparse->converged && full->converged);
    EXPECT_NEAR(sparse->bound, full->bound, 1e-5 * full->bound) << "seed " << seed;
    const double feasible = WeightedCompletion(in, testing_plan::GreedySchedule(in));
    EXPECT_LE(sparse->bound, feasible);
  }
}

TEST(LpBatch, ANegativeMaxBatchIsAnError) {
  EXPECT_EQ(SolveLpBound(testing_plan::OneMachine(), {.max_batch = -1}).status().message(),
            "max_batch must be >= 0");
}

}  // namespace
}  // namespace mrlocal
