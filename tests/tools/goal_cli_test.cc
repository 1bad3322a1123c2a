// Soft completion-time goals as a user meets them: --goal on a job command (the closing
// report's goal line; a missed goal is no failure), goal_s in a spec and --goal under
// `workload` and `compare --sim` (jobs.csv's cells, the goal columns), and bad goals
// refused in one line. Simulated runs and verdicts that no timing can change.
#include <gtest/gtest.h>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::ExpectUsageError;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// On 2x(1m,1r,1.0) under fifo: quick ends at 5 (goal 10: met, utility 0.5), tight arrives
// at 1 and ends at 9 (goal 3: missed, utility 3/8 - 1), nogoal has none: mean -0.0625.
constexpr std::string_view kSpec = R"json({"cluster": "2x(1m,1r,1.0)", "jobs": [
  {"name": "quick", "arrival_s": 0, "app": "synthetic", "maps": 4, "map_s": 2, "reduce_s": 1,
   "goal_s": 10},
  {"name": "tight", "arrival_s": 1, "app": "synthetic", "maps": 4, "map_s": 2, "reduce_s": 1,
   "goal": "3s"},
  {"name": "nogoal", "arrival_s": 2, "app": "synthetic", "maps": 2, "map_s": 1, "reduce_s": 1}
]})json";

class GoalCli : public ::testing::Test {
 protected:
  void SetUp() override { WriteFile(dir_ / "spec.json", kSpec); }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  ScratchDir dir_;
};

TEST_F(GoalCli, WorkloadReportsEachGoalAndTheGoalFigures) {
  auto r = RunMrlocal({"workload", P("spec.json"), "--sim", "--report", P("r"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "goals      missed 1 of 2 with a goal (50.0%), mean utility -0.062"))
      << r.out;
  const std::string csv = ReadFile(dir_ / "r" / "jobs.csv");
  EXPECT_TRUE(Contains(csv, ",slot_time_s,goal_s,met_goal,utility\n")) << csv;
  EXPECT_TRUE(Contains(csv, ",10.000000,true,0.500000\n")) << csv;
  EXPECT_TRUE(Contains(csv, ",4.000000,false,-0.625000\n")) << csv;
  EXPECT_TRUE(Contains(csv, ",3.000000,,,\n")) << csv;  // nogoal: its slot time, then nothing
  EXPECT_TRUE(Contains(ReadFile(dir_ / "r" / "metrics.json"), "\"goal_missed\": 1,"));
}

TEST_F(GoalCli, GoalOptionGivesTheJobsWithoutOneTheirGoal) {
  auto r =
      RunMrlocal({"workload", P("spec.json"), "--sim", "--goal", "6s", "--report", P("r"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = ReadFile(dir_ / "r" / "jobs.csv");
  EXPECT_TRUE(Contains(csv, ",10.000000,true,0.500000\n")) << csv;  // the spec's goal stays
  EXPECT_TRUE(Contains(csv, ",8.000000,false,")) << csv;            // nogoal: 2 s + 6 s
}

TEST_F(GoalCli, CompareShowsGoalColumnsOnlyWhenJobsHaveGoals) {
  auto with = RunMrlocal({"compare", P("spec.json"), "--sim", "--policies", "fifo"});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_TRUE(Contains(with.out, "| goal misses | mean utility |")) << with.out;
  EXPECT_TRUE(Contains(with.out, "| 50.0% | -0.062 |")) << with.out;
  auto without = RunMrlocal(
      {"compare", "--preset", "mars-random", "--jobs", "3", "--sim", "--policies", "fifo"});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_FALSE(Contains(without.out, "goal")) << without.out;
}

TEST_F(GoalCli, AJobCommandSaysWhetherItsGoalWasMetAndAMissIsNoFailure) {
  auto met = RunMrlocal({"pi", "2", "1000", "--goal", "1h", "-q"});
  ASSERT_EQ(met.exit_code, 0) << met.err;
  EXPECT_TRUE(Contains(met.out, "\n  goal      ")) << met.out;
  EXPECT_TRUE(Contains(met.out, " MET with ")) << met.out;
  // No job finishes within a nanosecond of the command's start: past its goal on arrival.
  auto missed = RunMrlocal({"pi", "2", "1000", "--goal", "1ns", "-q"});
  ASSERT_EQ(missed.exit_code, 0) << missed.err;
  EXPECT_TRUE(Contains(missed.out, " MISSED by ")) << missed.out;
  EXPECT_TRUE(Contains(missed.out, ", utility -")) << missed.out;
}

TEST_F(GoalCli, BadGoalsAreOneLineErrors) {
  ExpectUsageError(RunMrlocal({"pi", "2", "1000", "--goal=-3s"}), "--goal");
  ExpectUsageError(RunMrlocal({"pi", "2", "1000", "--goal", "0"}), "--goal");
  ExpectUsageError(RunMrlocal({"workload", P("spec.json"), "--sim", "--goal", "0"}), "--goal");
  std::string bad(kSpec);
  bad.replace(bad.find("\"goal_s\": 10"), 12, "\"goal_s\": -3");
  WriteFile(dir_ / "bad.json", bad);
  ExpectUsageError(RunMrlocal({"compare", P("bad.json"), "--sim", "--policies", "fifo"}),
                   "jobs[0].goal_s: must be a positive number (got -3)");
}

}  // namespace
}  // namespace mrlocal
