// MarS's LP bound (Ling et al. 2016, section 4.2): the CND-LPP on instances solved by
// hand, COGE's constraint generation (Algorithm 1), and the bound below feasible
// schedules of random instances.
#include "sched/plan/lp_bound.h"

#include <gtest/gtest.h>

#include <cmath>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "random_plans.h"  // this folder's helpers
#include "sched/plan/lp_model.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

using testing_plan::OneMachine;

// By hand. Eqs. 1-3 alone: S = (0, 1, 0), C = (3, 3): 6. Its middle times a 0.5, b 2,
// c 1.5 order a, c, b; PGC {a, c}: S_a + 3 S_c >= 3 and {a, c, b}: S_a + 3 S_c + 2 S_b >= 11
// are violated. With them: min (S_b + 2) + (S_c + 3), S_b >= S_a + 1; raising S_c buys 3
// per unit of cost, S_a with S_b together 1 + 2 = 3 too, so the least is S_b + S_c = 4 (as
// S = (0, 1, 3)): 9, which every optimum of that LP meets with no PGC violated. The
// schedules a b c and c a b reach 9: the bound is tight here.
TEST(LpBound, OneMachineByHand) {
  auto first = SolveLpBound(OneMachine(), {.max_iterations = 1});
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_NEAR(first->bound, 6, 1e-9);
  EXPECT_EQ(first->start, (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(first->stop, LpStop::kMaxIterations);
  EXPECT_FALSE(first->converged);

  auto converged = SolveLpBound(OneMachine());
  ASSERT_TRUE(converged.ok()) << converged.status().message();
  EXPECT_NEAR(converged->bound, 9, 1e-9);
  EXPECT_NEAR(converged->epsilon_objective, 9, 1e-9);
  EXPECT_EQ(converged->stop, LpStop::kConverged);
  EXPECT_EQ(converged->iterations, 2);
  EXPECT_EQ(converged->prefix_constraints, 2);
  // Rows E - S_a, S_b - E, C_A - S_b, C_B - S_c, then one per PGC; columns S, C, E, Q.
  EXPECT_EQ(converged->rows, 4 + 2);
  EXPECT_EQ(converged->columns, 3 + 2 + 1 + 2);
}

// The same first LP stops at epsilon = 0.5: S^NV = (0, 4, 1) (lp_pgc_test), C^NV = (6, 4),
// 6 >= 0.5 * 10; at 0.3 it does not (6 < 7), and goes on to 9.
TEST(LpBound, TheEpsilonStopComparesWithTheNoViolationPoint) {
  auto half = SolveLpBound(OneMachine(), {.epsilon = 0.5});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->stop, LpStop::kEpsilon);
  EXPECT_NEAR(half->epsilon_objective, 6, 1e-9);
  EXPECT_NEAR(half->no_violation_objective, 10, 1e-9);
  EXPECT_EQ(half->epsilon_iterations, 1);

  auto both = SolveLpBound(OneMachine(), {.epsilon = 0.5, .converge = true});
  ASSERT_TRUE(both.ok());
  EXPECT_NEAR(both->epsilon_objective, 6, 1e-9);
  EXPECT_EQ(both->start, (std::vector<double>{0, 1, 0})) << "the epsilon stop's plan";
  EXPECT_NEAR(both->bound, 9, 1e-9);
  EXPECT_TRUE(both->converged);

  auto default_epsilon = SolveLpBound(OneMachine());
  ASSERT_TRUE(default_epsilon.ok());
  EXPECT_EQ(default_epsilon->epsilon_iterations, 2);
}

// Eqs. 1-3 with a release, a delay and a machine twice as fast: the first LP is the job's
// critical path at the fastest speed, r + max map + d + reduce = 1 + 2/2 + 1 + 3/2 = 4.5.
TEST(LpBound, TheFirstLpIsTheCriticalPathAtTheFastestSpeed) {
  PlanInstance in;
  in.machine_speeds = {1.0, 2.0};
  in.jobs.push_back({1, 2, 1, {2, 1}, {3}});
  auto lp = SolveLpBound(in, {.max_iterations = 1});
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_NEAR(lp->bound, 2 * 4.5, 1e-9);
  EXPECT_NEAR(lp->completion[0], 4.5, 1e-9);
}

// Eq. 4 for B on identical machines, written out.
bool MeetsPrefix(const PlanInstance& in, const std::vector<int>& order, int length,
                 const std::vector<double>& start) {
  const std::vector<PlanTask> tasks = FlattenTasks(in);
  double sum = 0, work = 0, squares = 0;
  for (int k = 0; k < length; ++k) {
    const double p = tasks[order[k]].work;
    sum += p * start[order[k]];
    work += p;
    squares += p * p;
  }
  const double m = static_cast<double>(in.machine_speeds.size());
  const double bound = work * work / (2 * m) - squares / 2;
  return sum >= bound - 1e-6 * std::max(1.0, bound);
}

PlanInstance MarsRandom(uint64_t seed, size_t jobs, int machines) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  EXPECT_TRUE(in.ok()) << in.status().message();
  if (machines > 0) in->machine_speeds.assign(machines, 1.0);
  return *in;
}

// Algorithm 1's step 3 adds a row for exactly the PGCs the first solution violates, and
// the next solution meets them.
TEST(LpBound, CogeAddsExactlyTheViolatedPrefixes) {
  const PlanInstance in = MarsRandom(5, 4, 6);
  CndLpp lp(in);
  ASSERT_TRUE(lp.Solve().ok());
  const std::vector<int> order = MiddleTimeOrder(in, lp.start());
  std::vector<int> violated;
  for (int k = 1; k <= static_cast<int>(order.size()); ++k)
    if (!MeetsPrefix(in, order, k, lp.start())) violated.push_back(k);
  ASSERT_FALSE(violated.empty());
  EXPECT_EQ(ViolatedPrefixes(in, order, lp.start()), violated);

  const int rows = lp.rows(), columns = lp.columns();
  const double first = lp.objective();
  lp.AddPrefixConstraints(order, violated);
  EXPECT_EQ(lp.rows(), rows + static_cast<int>(violated.size()));
  EXPECT_EQ(lp.columns(), columns + static_cast<int>(violated.size()));
  EXPECT_EQ(lp.prefix_constraints(), static_cast<int>(violated.size()));
  ASSERT_TRUE(lp.Solve().ok());
  for (int k : violated) EXPECT_TRUE(MeetsPrefix(in, order, k, lp.start())) << "prefix " << k;
  EXPECT_GT(lp.objective(), first);
}

// The property: on random instances the epsilon-stopped LP <= the converged LP <= the
// weighted completion of a feasible schedule.
void ExpectBelowAFeasibleSchedule(const PlanInstance& in, const std::string& name) {
  SCOPED_TRACE(name);
  const Schedule greedy = testing_plan::GreedySchedule(in);
  ASSERT_TRUE(CheckSchedule(in, greedy).ok()) << CheckSchedule(in, greedy).message();
  const double feasible = WeightedCompletion(in, greedy);
  auto lp = SolveLpBound(in, {.converge = true});
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_TRUE(lp->converged);
  const double slack = 1e-7 * std::max(1.0, feasible);
  EXPECT_LE(lp->epsilon_objective, lp->bound + slack);
  EXPECT_LE(lp->bound, feasible + slack);
  EXPECT_LE(lp->epsilon_objective, lp->no_violation_objective + slack);
}

TEST(LpBound, BelowAFeasibleScheduleOnMarsRandom) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    ExpectBelowAFeasibleSchedule(MarsRandom(seed, 3, 0),
                                 "50 machines, seed " + std::to_string(seed));
    ExpectBelowAFeasibleSchedule(MarsRandom(seed, 3, 4),
                                 "4 machines, seed " + std::to_string(seed));
  }
}

TEST(LpBound, BelowAFeasibleScheduleOnSmallInstances) {
  for (unsigned seed = 1; seed <= 200; ++seed)
    for (bool identical : {true, false})
      ExpectBelowAFeasibleSchedule(
          testing_plan::RandomInstance(seed, identical),
          "seed " + std::to_string(seed) + (identical ? " identical" : " mixed speeds"));
}

TEST(LpBound, ZeroWorkTasksAreValid) {
  PlanInstance in = OneMachine();
  in.jobs[0].maps = {0};
  in.jobs.push_back({2, 1, 0, {0}, {0}});  // a job of no work ends at its release
  auto lp = SolveLpBound(in);
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  // Job 0's map takes no time, so b (2) and c (3) share the machine: b then c gives
  // 2 + 5 = 7, the optimum; eq. 4 on {b, c} (2 S_b + 3 S_c >= 6) lets the LP reach it.
  // Job 2, released at 2, adds 2.
  EXPECT_NEAR(lp->bound, 7 + 2, 1e-9);
  EXPECT_TRUE(lp->converged);
}

TEST(LpBound, BadInputIsAOneLineError) {
  PlanInstance in = OneMachine();
  in.jobs[1].weight = std::nan("");
  auto nan = SolveLpBound(in);
  ASSERT_FALSE(nan.ok());
  EXPECT_EQ(nan.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(nan.status().message(), "job 1: weight is not a positive number");
  EXPECT_EQ(SolveLpBound(OneMachine(), {.epsilon = 1}).status().message(),
            "epsilon must be in [0, 1)");
  EXPECT_EQ(SolveLpBound(OneMachine(), {.time_budget_s = std::nan("")}).status().message(),
            "time_budget_s must be >= 0");
}

TEST(LpBound, AnEmptyJobSetIsBoundedByZero) {
  PlanInstance in;
  in.machine_speeds = {1.0};
  auto lp = SolveLpBound(in);
  ASSERT_TRUE(lp.ok());
  EXPECT_EQ(lp->bound, 0);
  EXPECT_TRUE(lp->converged);
}

// A spent budget returns the last LP solved (the first: it always runs), marked so.
TEST(LpBound, ASpentTimeBudgetReturnsTheLastLp) {
  auto lp = SolveLpBound(MarsRandom(2, 5, 4), {.epsilon = 0, .time_budget_s = 0});
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_EQ(lp->stop, LpStop::kTimeBudget);
  EXPECT_FALSE(lp->converged);
  EXPECT_EQ(lp->iterations, 1);
  EXPECT_FALSE(lp->start.empty());
  EXPECT_NEAR(lp->epsilon_objective, lp->bound, 1e-9);
}

}  // namespace
}  // namespace mrlocal
