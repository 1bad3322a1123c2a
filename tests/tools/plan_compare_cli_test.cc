// `mrlocal compare` with the planning policies: the column "TWJCT / LP bound" is the run's
// sum of w_j C_j over the LP bound of the seed's job set, shown only where the LP bounds
// something (synthetic jobs, nodes that run one task at a time); the single-job commands
// refuse a planning policy with one line.
#include <gtest/gtest.h>

#include <sstream>

#include "datasets/workload_presets.h"
#include "sched/plan/planner.h"
#include "tests/util/test_util.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

using testing::RunMrlocal;
using testing::ScratchDir;

// The value of `column` in the CSV's first data row.
double CsvCell(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  std::istringstream h(header), r(row);
  std::string name, value;
  while (std::getline(h, name, ',') && std::getline(r, value, ','))
    if (name == column) return std::stod(value);
  ADD_FAILURE() << "no column " << column << " in " << header;
  return 0;
}

TEST(PlanCompareCli, TheColumnIsTheWeightedCompletionOverTheLpBound) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "mars-uniform", "--jobs", "5", "--seed", "3", "--sim",
                       "--policies", "huwf", "--report", (dir / "r").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| TWJCT / LP bound |"), std::string::npos) << r.out;

  auto spec = MakePreset("mars-uniform", 3, {.jobs = 5});
  ASSERT_TRUE(spec.ok());
  WorkloadRunOptions o;
  o.cluster = *spec->cluster;
  auto preview = WorkloadPreview(*spec, o);
  ASSERT_TRUE(preview.ok());
  auto plan = MakePlan(Planner::kHuwf, preview->instance);
  auto lp = SolvePlanningLp(preview->instance);
  ASSERT_TRUE(plan.ok() && lp.ok());
  const double expected = WeightedCompletion(preview->instance, plan->schedule) / lp->bound;
  EXPECT_GT(expected, 1);
  EXPECT_NEAR(CsvCell(testing::ReadFile(dir / "r" / "comparison.csv"), "twjct_lp_ratio_mean"),
              expected, 1e-6);
}

// A plan's machine runs one task at a time: on nodes that could run more, the run says
// that slots stayed idle and which cluster the plan assumed.
TEST(PlanCompareCli, APlanOnNodesOfSeveralTasksSaysSlotsStayedIdle) {
  auto r = RunMrlocal({"workload", "--preset", "mars-uniform", "--jobs", "2", "--sim", "--cluster",
                       "3x(2m,1r,1.0)", "--policy", "huwf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("mrlocal: the plan runs each node one task at a time, while this "
                       "cluster's 3 nodes can run 9 at once: slots stayed idle (--cluster "
                       "'3x(2m,1r,1.0,1t)' is what the plan assumes)\n"),
            std::string::npos)
      << r.err;
  auto limited = RunMrlocal({"workload", "--preset", "mars-uniform", "--jobs", "2", "--sim",
                             "--cluster", "3x(2m,1r,1.0,1t)", "--policy", "huwf"});
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_EQ(limited.err.find("slots stayed idle"), std::string::npos) << limited.err;
}

TEST(PlanCompareCli, NoColumnWhereANodeRunsSeveralTasksAtOnce) {
  auto r = RunMrlocal({"compare", "--preset", "mars-uniform", "--jobs", "3", "--sim", "--cluster",
                       "50x(1m,1r,1.0)", "--policies", "huwf,fifo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("LP bound"), std::string::npos) << r.out;
}

TEST(PlanCompareCli, ASingleJobRefusesAPlanningPolicy) {
  ScratchDir dir;
  testing::WriteFile(dir / "in.txt", "a b a\n");
  testing::ExpectUsageError(
      RunMrlocal({"wordcount", (dir / "in.txt").string(), "--policy", "mars"}),
      "--policy mars plans over a whole workload before it runs");
}

// With a task-level policy (t-mars, htwf, stf) the column "TWTCT / LP bound" is the run's
// sum over tasks of W_u C_u over the seed's task-level LP bound; absent without one.
TEST(TaskLevelCompareCli, TheColumnIsTheWeightedTaskCompletionOverTheTaskLpBound) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "mars-uniform", "--jobs", "4", "--seed", "3", "--sim",
                       "--policies", "t-mars", "--report", (dir / "r").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| TWTCT / LP bound |"), std::string::npos) << r.out;

  auto spec = MakePreset("mars-uniform", 3, {.jobs = 4});
  ASSERT_TRUE(spec.ok());
  WorkloadRunOptions o;
  o.cluster = *spec->cluster;
  auto preview = WorkloadPreview(*spec, o);
  ASSERT_TRUE(preview.ok());
  auto lp = SolvePlanningLp(preview->instance, kPlanningLpBudgetS, LpObjective::kTaskCompletion);
  ASSERT_TRUE(lp.ok());
  auto plan = MakePlan(Planner::kTMars, preview->instance, &lp);
  ASSERT_TRUE(plan.ok());
  const double expected = WeightedTaskCompletion(preview->instance, plan->schedule) / lp->bound;
  EXPECT_GT(expected, 1);
  EXPECT_NEAR(CsvCell(testing::ReadFile(dir / "r" / "comparison.csv"), "twtct_lp_ratio_mean"),
              expected, 1e-6);
}

TEST(TaskLevelCompareCli, NoTaskLevelPolicyNoColumn) {
  auto r = RunMrlocal(
      {"compare", "--preset", "mars-uniform", "--jobs", "3", "--sim", "--policies", "mars,huwf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| TWJCT / LP bound |"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("TWTCT"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mrlocal
