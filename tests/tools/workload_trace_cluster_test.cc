// `mrlocal workload TRACE.tsv --sim` without --cluster: a Facebook trace runs on the
// cluster it was recorded on, and says so in one line; another trace is refused with the
// --cluster to give. A real run keeps this machine's slots.
#include <gtest/gtest.h>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// FB-2009_samples_24_times_1hr_0.tsv's first two jobs.
constexpr const char* kTwoJobs =
    "job0\t49\t49\t740773\t2339561\t627471\njob1\t101\t52\t736346\t1700537\t432269\n";

TEST(WorkloadTraceCluster, AFacebookTraceIsSimulatedOnItsOwnCluster) {
  ScratchDir dir;
  const std::string trace = (dir / "FB-2009_samples_24_times_1hr_0.tsv").string();
  WriteFile(trace, kTwoJobs);
  auto r = RunMrlocal({"workload", trace, "--sim"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 jobs on 600x(1m,1r,1.0) (1200 slots)"), std::string::npos) << r.out;
  EXPECT_EQ(r.err,
            "mrlocal: simulating on 600x(1m,1r,1.0), the 600 machines the trace was recorded on "
            "(SWIM; one map and one reduce slot each): --cluster to change it\n");
  // -q: the figures only; --cluster: the user's cluster, nothing to say about it.
  auto quiet = RunMrlocal({"workload", trace, "--sim", "-q"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  auto given = RunMrlocal({"workload", trace, "--sim", "--cluster", "3x(2m,1r,1.0)"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(given.out.find("2 jobs on 3x(2m,1r,1.0) (9 slots)"), std::string::npos) << given.out;
  EXPECT_EQ(given.err, "");
}

TEST(WorkloadTraceCluster, AnUnknownTraceIsRefusedWithTheClusterToGive) {
  ScratchDir dir;
  const std::string trace = (dir / "mine.tsv").string();
  WriteFile(trace, kTwoJobs);
  auto r = RunMrlocal({"workload", trace, "--sim", "--report", (dir / "out").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "mrlocal: error: " + trace +
                       ": unknown cluster size (only FB-2009 and FB-2010 traces are known, by "
                       "name: 600 and 3000 machines); simulate it with --cluster 'Nx(1m,1r,1.0)' "
                       "for its N machines\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  auto given = RunMrlocal({"workload", trace, "--sim", "-q", "--cluster", "600x(1m,1r,1.0)"});
  EXPECT_EQ(given.exit_code, 0) << given.err;
}

TEST(WorkloadTraceCluster, AShortSimulationShowsNoProgressEvenWhenAskedFor) {
  ScratchDir dir;
  const std::string trace = (dir / "FB-2009_x.tsv").string();
  WriteFile(trace, kTwoJobs);
  auto r = RunMrlocal({"workload", trace, "--sim", "--progress"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("jobs finished"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mrlocal
