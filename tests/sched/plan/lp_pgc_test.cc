// MarS's performance guarantee constraints (Ling et al. 2016, eqs. 4-6) and the
// no-violation point of COGE's epsilon stop, on start times given by hand.
#include "sched/plan/lp_pgc.h"

#include <gtest/gtest.h>

#include <numeric>

#include "random_plans.h"  // this folder's helpers

namespace mrlocal {
namespace {

using testing_plan::OneMachine;

TEST(LpPgc, OrdersByMiddleTimeMapsFirstOnTies) {
  // Middles 0.5, 2, 1.5: a, c, b.
  EXPECT_EQ(MiddleTimeOrder(OneMachine(), {0, 1, 0}), (std::vector<int>{0, 2, 1}));
  PlanInstance zero = OneMachine();
  zero.jobs[0].maps = {0};
  zero.jobs[0].reduces = {0};
  EXPECT_EQ(MiddleTimeOrder(zero, {1, 1, 5}), (std::vector<int>{0, 1, 2}));
}

TEST(LpPgc, TheBoundOfAPrefixIsEqFourOnThePapersMachines) {
  PlanInstance in = OneMachine();
  in.machine_speeds = {1, 1, 1};
  // (1 + 3)^2 / (2 * 3) - (1 + 9) / 2.
  EXPECT_DOUBLE_EQ(PrefixBound(LpMachinesOf(in), 4, 10), 16.0 / 6 - 5);
  in.machine_speeds = {0.5, 2};  // total 2.5, slowest 0.5
  EXPECT_DOUBLE_EQ(PrefixBound(LpMachinesOf(in), 4, 10), 16.0 / 5 - 10);
}

TEST(LpPgc, FindsTheViolatedPrefixes) {
  // At S = (0, 1, 0), order a, c, b: {a}: 0 >= 0 holds; {a, c}: 0 >= 1 * 3 fails;
  // {a, c, b}: 2 >= 1*3 + 1*2 + 3*2 = 11 fails.
  const std::vector<double> start = {0, 1, 0};
  EXPECT_EQ(ViolatedPrefixes(OneMachine(), {0, 2, 1}, start), (std::vector<int>{2, 3}));
  // The schedule a, b, c meets them all, tightly.
  EXPECT_TRUE(ViolatedPrefixes(OneMachine(), {0, 1, 2}, {0, 1, 3}).empty());
}

TEST(LpPgc, NoViolationPointShiftsTheSuffix) {
  // {a, c}: deficit 3 on c (p 3): c and b move 1 later, to (0, 2, 1). {a, c, b}:
  // 0 + 3 + 4 = 7, deficit 4 on b (p 2): b moves 2 more, to 4. C = (6, 4).
  const std::vector<int> order = {0, 2, 1};
  const std::vector<double> moved = NoViolationStarts(OneMachine(), order, {0, 1, 0});
  EXPECT_EQ(moved, (std::vector<double>{0, 4, 1}));
  EXPECT_TRUE(ViolatedPrefixes(OneMachine(), order, moved).empty());
  EXPECT_EQ(LpCompletions(OneMachine(), moved), (std::vector<double>{6, 4}));
  EXPECT_EQ(WeightedSum(OneMachine(), {6, 4}), 10);
}

// The heterogeneous eq. 4 (lp_pgc.h) is necessary: every feasible schedule meets it on
// every prefix of every order tried.
TEST(LpPgc, EveryFeasibleScheduleMeetsEqFourOnAnyMachines) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    const PlanInstance in = testing_plan::RandomInstance(seed, /*identical=*/false);
    const Schedule s = testing_plan::GreedySchedule(in);
    ASSERT_TRUE(CheckSchedule(in, s).ok()) << CheckSchedule(in, s).message();
    std::vector<int> order(s.start.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 rng(seed);
    for (int shuffle = 0; shuffle < 5; ++shuffle) {
      std::shuffle(order.begin(), order.end(), rng);
      EXPECT_TRUE(ViolatedPrefixes(in, order, s.start).empty()) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace mrlocal
