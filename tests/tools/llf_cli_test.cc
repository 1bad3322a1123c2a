// `--policy llf` as a user runs it: a job with and without a deadline, a simulated
// workload and compare, and its overload detector's options refused out of range or for a
// policy that does not read them (exit 2, one line naming the option).
#include <gtest/gtest.h>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ExpectUsageError;
using testing::RunMrlocal;
using testing::ScratchDir;

TEST(LlfCli, RunsAJobWithAndWithoutADeadline) {
  ScratchDir dir;
  const std::string history = (dir / "history.json").string();
  auto r = RunMrlocal({"pi", "2", "1000", "--policy", "llf", "--deadline", "30s", "--history",
                       history, "--lof-threshold", "2", "--lof-min-pts", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("admitted by llf"), std::string::npos) << r.err;
  r = RunMrlocal({"pi", "2", "1000", "--policy", "llf", "--history", history, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("policy llf"), std::string::npos) << r.out;
}

TEST(LlfCli, RunsAWorkloadAndACompare) {
  auto r = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "llf",
                       "--lof-threshold", "3", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--policies", "edf,llf",
                  "--lof-min-pts", "20", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| llf"), std::string::npos) << r.out;
}

TEST(LlfCli, RefusesLofOptionsOutOfRangeOrForAnotherPolicy) {
  for (const char* bad : {"1", "0.5", "101", "nan", "x"})
    ExpectUsageError(RunMrlocal({"pi", "2", "10", "--policy", "llf", "--lof-threshold", bad}),
                     "--lof-threshold: must be a number in (1, 100]");
  for (const char* bad : {"1", "1001", "2.5", "-3"})
    ExpectUsageError(RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "llf",
                                 "--lof-min-pts", bad}),
                     "--lof-min-pts: must be an integer from 2 to 1000");
  ExpectUsageError(RunMrlocal({"pi", "2", "10", "--policy", "edf", "--lof-threshold", "2"}),
                   "--lof-threshold applies to --policy llf only");
  ExpectUsageError(RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--policies", "fifo,edf",
                               "--lof-min-pts", "5"}),
                   "--lof-min-pts applies to --policy llf only");
}

}  // namespace
}  // namespace mrlocal
