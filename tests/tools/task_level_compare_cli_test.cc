// `mrlocal compare` with a task-level policy (t-mars, htwf, stf): the column "TWTCT / LP
// bound" is the run's sum over tasks of W_u C_u over the seed's task-level LP bound, and
// it is absent when no task-level policy runs.
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
