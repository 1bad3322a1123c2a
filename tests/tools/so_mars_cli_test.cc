// --batch-interval: so-mars's batch interval B on `workload` and `compare`; it changes the
// run, applies to so-mars only, and its range is refused in one line.
#include <gtest/gtest.h>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::RunMrlocal;

TEST(SoMarsCli, TheBatchIntervalChangesTheRun) {
  auto every_5s = RunMrlocal({"workload", "--preset", "mars-random", "--jobs", "6", "--sim",
                              "--policy", "so-mars", "--batch-interval", "5s", "-q"});
  auto every_100s = RunMrlocal({"workload", "--preset", "mars-random", "--jobs", "6", "--sim",
                                "--policy", "so-mars", "--batch-interval", "100s", "-q"});
  ASSERT_EQ(every_5s.exit_code, 0) << every_5s.err;
  ASSERT_EQ(every_100s.exit_code, 0) << every_100s.err;
  EXPECT_NE(every_5s.out, every_100s.out) << "every job waits for 100 s in the second";
}

TEST(SoMarsCli, TheBatchIntervalAppliesToSoMarsOnly) {
  auto r = RunMrlocal({"compare", "--preset", "mars-random", "--jobs", "3", "--sim", "--policies",
                       "mars,huwf", "--batch-interval", "10s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "mrlocal: error: --batch-interval applies to --policy so-mars only\n");
}

TEST(SoMarsCli, ABatchIntervalOfZeroIsRefused) {
  auto r = RunMrlocal({"workload", "--preset", "mars-random", "--sim", "--policy", "so-mars",
                       "--batch-interval", "0s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--batch-interval: must be a positive duration"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace mrlocal
