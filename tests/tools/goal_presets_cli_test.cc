// The Reverse-Adaptive presets from the command line: `--param NAME=VALUE` reaches the
// preset, a sweep of goal workloads counts goals, and bad parameters are one-line refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ExpectUsageError;
using testing::RunMrlocal;

TEST(GoalPresetsCli, AParamReachesThePresetAndASweepCountsGoals) {
  // A higher load packs the same 12 jobs into less time: a later-arriving last job is
  // what a lighter load looks like in the report.
  auto light = RunMrlocal(
      {"workload", "--preset", "ra-web", "--sim", "--jobs", "12", "--param", "load=0.2", "-q"});
  auto heavy = RunMrlocal(
      {"workload", "--preset", "ra-web", "--sim", "--jobs", "12", "--param", "load=2", "-q"});
  ASSERT_EQ(light.exit_code, 0) << light.err;
  ASSERT_EQ(heavy.exit_code, 0) << heavy.err;
  EXPECT_NE(light.out.find("missed 0 of 12 with a goal"), std::string::npos) << light.out;
  EXPECT_NE(light.out, heavy.out);

  auto sweep = RunMrlocal({"compare", "--preset", "ra-alone", "--sim", "--jobs", "10", "--policies",
                           "fifo,reverse-adaptive", "--sweep", "load=0.5,1", "--param",
                           "goal-factor=2", "-q"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.out.find("goal misses (% of the jobs with a goal)"), std::string::npos)
      << sweep.out;
}

TEST(GoalPresetsCli, BadParamsAreOneLineRefusals) {
  const std::vector<std::string> base = {"compare", "--preset",   "ra-web",
                                         "--sim",   "--policies", "fifo"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  ExpectUsageError(RunMrlocal(with({"--param", "load=9"})),
                   "--param: load must be a number in [0.05, 3] (got 9)");
  ExpectUsageError(RunMrlocal(with({"--param", "lod=1"})), "has no parameter 'lod' (it has load");
  ExpectUsageError(RunMrlocal(with({"--param", "load"})), "--param: expected NAME=VALUE");
  ExpectUsageError(RunMrlocal(with({"--param", "load=x"})), "--param: 'x' is not a number");
  ExpectUsageError(RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--policies", "fifo",
                               "--param", "load=1"}),
                   "preset rtmr-wl1 has no parameter 'load' (it has none)");
}

}  // namespace
}  // namespace mrlocal
