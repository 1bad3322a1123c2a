// The task-level problem of Ling et al. 2016, section 4.4: each task with its own weight
// W_u and release r_u, the objective sum_u W_u C_u (TWTCT). The instance's task data, the
// checks on it, and the LP bound on TWTCT, by hand and below every plan of random instances.
#include <gtest/gtest.h>

#include "random_plans.h"  // this folder's helpers
#include "sched/plan/baselines.h"
#include "sched/plan/instance.h"
#include "sched/plan/lp_bound.h"

namespace mrlocal {
namespace {

using testing_plan::OneMachine;

TEST(TaskLevel, ATaskWeighsAndIsReleasedAsItsOwnDataSays) {
  PlanInstance in = OneMachine();  // tasks a, b (job 0), c (job 1)
  in.jobs[1].release = 4;
  EXPECT_EQ(FlattenTasks(in)[2].weight, 1) << "without task data, the job's weight";
  EXPECT_EQ(FlattenTasks(in)[2].release, 4) << "and its release";
  in.task_weights = {2, 3, 5};
  in.task_releases = {1, 0, 2};
  const std::vector<PlanTask> tasks = FlattenTasks(in);
  EXPECT_EQ(tasks[1].weight, 3);
  EXPECT_EQ(tasks[0].release, 1) << "its own release, after its job's";
  EXPECT_EQ(tasks[2].release, 4) << "never before its job's release";
}

TEST(TaskLevel, CheckScheduleKnowsTaskReleasesAndBusyMachines) {
  PlanInstance in = OneMachine();
  in.task_releases = {0, 0, 4};
  in.machine_free = {0};
  // a b c back to back: c starts at 3, before its release 4.
  EXPECT_EQ(CheckSchedule(in, {{0, 0, 0}, {0, 1, 3}}).message(),
            "job 1 map 0 starts before its release");
  EXPECT_TRUE(CheckSchedule(in, {{0, 0, 0}, {0, 1, 4}}).ok());
  in.machine_free = {0.5};
  EXPECT_EQ(CheckSchedule(in, {{0, 0, 0}, {0, 1, 4}}).message(),
            "job 0 map 0 starts before machine 0 is free");
}

TEST(TaskLevel, TheTaskObjectiveWeighsEachTasksCompletion) {
  PlanInstance in = OneMachine();
  in.task_weights = {2, 3, 5};
  // a b c: C = 1, 3, 6.
  EXPECT_DOUBLE_EQ(WeightedTaskCompletion(in, {{0, 0, 0}, {0, 1, 3}}), 2 + 9 + 30);
  EXPECT_DOUBLE_EQ(WeightedCompletion(in, {{0, 0, 0}, {0, 1, 3}}), 3 + 6) << "job weights";
}

TEST(TaskLevel, InvalidTaskDataIsNamed) {
  PlanInstance in = OneMachine();
  in.task_releases = {0, 1};
  EXPECT_EQ(ValidateInstance(in).message(), "task releases: 2 values for 3 tasks");
  in.task_releases = {0, -1, 0};
  EXPECT_EQ(ValidateInstance(in).message(), "task releases: a value is not a time >= 0");
  in.task_releases = {};
  in.machine_free = {0, 0};
  EXPECT_EQ(ValidateInstance(in).message(), "machine free times: 2 values for 1 machines");
}

// By hand, unit task weights. The first LP (eqs. 1-3): S = (0, 1, 0), sum C_u = 1 + 3 + 3
// = 7. Its middle-time order a, c, b violates PGC {a, c}: S_a + 3 S_c >= 3 and {a, c, b}:
// S_a + 3 S_c + 2 S_b >= 11. Then min S_a + S_b + S_c + 6 with S_b >= S_a + 1: S_c buys 3
// per unit of cost, S_a 3 per 2 (it drags S_b along), so S = (0, 1, 3): 10, the schedule
// a b c, and the order a, b, c violates nothing.
TEST(TaskLevel, TheLpBoundsTwtctByHand) {
  const LpBoundOptions tasks{.objective = LpObjective::kTaskCompletion};
  LpBoundOptions first = tasks;
  first.max_iterations = 1;
  auto lp = SolveLpBound(OneMachine(), first);
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_NEAR(lp->bound, 7, 1e-9);
  lp = SolveLpBound(OneMachine(), tasks);
  ASSERT_TRUE(lp.ok()) << lp.status().message();
  EXPECT_NEAR(lp->bound, 10, 1e-9);
  EXPECT_TRUE(lp->converged);
  // c released at 2 (a task release): the first LP has S_c = 2, C_c = 5: 9.
  PlanInstance late = OneMachine();
  late.task_releases = {0, 0, 2};
  lp = SolveLpBound(late, first);
  ASSERT_TRUE(lp.ok());
  EXPECT_NEAR(lp->bound, 9, 1e-9);
}

TEST(TaskLevel, TheLpBoundIsBelowEveryPlansTwtctOnRandomInstances) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    PlanInstance in = testing_plan::RandomInstance(seed, seed % 2 == 0);
    std::mt19937 rng(seed);
    for (size_t u = FlattenTasks(in).size(); u > 0; --u) {
      in.task_weights.push_back(std::uniform_real_distribution<double>(0.5, 5)(rng));
      in.task_releases.push_back(std::uniform_real_distribution<double>(0, 12)(rng));
    }
    auto lp = SolveLpBound(in, {.objective = LpObjective::kTaskCompletion, .converge = true});
    ASSERT_TRUE(lp.ok()) << "seed " << seed << ": " << lp.status().message();
    for (auto plan : {HuwfPlan(in), StfPlan(in), HtwfPlan(in)}) {
      ASSERT_TRUE(plan.ok()) << plan.status().message();
      ASSERT_TRUE(CheckSchedule(in, *plan, 1e-9).ok()) << "seed " << seed;
      EXPECT_LE(lp->bound, WeightedTaskCompletion(in, *plan) * (1 + 1e-9)) << "seed " << seed;
    }
  }
}

// OneMachine's two jobs at 0 and a third, a map of 1, released at 100 where nothing else
// runs. The first LP: 6 + 101 = 107; its no-violation point 114 (the shift that mends
// OneMachine's PGCs by 3 moves every task after them, the late map too: 10 + 104). The
// paper's stop (0.3, on the absolute objectives) compares 107 with 0.7 x 114 and stops
// there; the default, less sum w r = 100, compares 7 with 0.7 x 14 and goes on, to
// OneMachine's 9 (+ 101), as without the third job.
TEST(EpsilonStop, FromTheReleasesALateJobDoesNotStopItEarly) {
  PlanInstance in = OneMachine();
  in.jobs.push_back({.release = 100, .weight = 1, .delay = 0, .maps = {1}, .reduces = {}});
  auto paper = SolveLpBound(in, {.epsilon_on_absolute_objective = true});
  auto shifted = SolveLpBound(in);
  ASSERT_TRUE(paper.ok() && shifted.ok());
  EXPECT_EQ(paper->epsilon_iterations, 1);
  EXPECT_NEAR(paper->epsilon_objective, 107, 1e-9);
  EXPECT_NEAR(paper->no_violation_objective, 114, 1e-9);
  EXPECT_EQ(shifted->epsilon_iterations, 2);
  EXPECT_NEAR(shifted->epsilon_objective, 110, 1e-9);
}

}  // namespace
}  // namespace mrlocal
