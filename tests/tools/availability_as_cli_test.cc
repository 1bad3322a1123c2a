// --availability-as as a user meets it: a real run with the availability as a CPU load
// beside the slots (the load's line), and the refusals in one line, exit 2: with --sim
// (the profiles are the load there already), a value it does not know, and a CPU that
// nodes of different profiles share. How closely the load follows the profile is
// measured, not tested (README, "Goals under varying capacity").
#include <gtest/gtest.h>

#include <string>

#include "engine/slot_worker.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::ExpectUsageError;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// One map and one reduce slot at availability 0.5 from the start; two maps of 50 ms.
constexpr std::string_view kHalf = R"json({"cluster": "1x(1m,1r,1.0)",
  "availability": [{"nodes": [0], "profile": [[0, 0.5]]}],
  "jobs": [{"name": "syn", "arrival_s": 0, "app": "synthetic", "maps": 2, "map_s": 0.05,
  "reduces": 1, "reduce_s": 0.01}]})json";

class AvailabilityAsCli : public ::testing::Test {
 protected:
  void SetUp() override { WriteFile(dir_ / "half.json", kHalf); }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  ScratchDir dir_;
};

TEST_F(AvailabilityAsCli, ALoadRunsBesideTheSlotsOfARealRun) {
  auto r = RunMrlocal({"workload", P("half.json"), "--availability-as", "load", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "successful 1 ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "  load       beside the slots on ")) << r.out;
  EXPECT_TRUE(Contains(r.out, " CPU-s over ")) << r.out;
}

TEST_F(AvailabilityAsCli, ThrottleIsTheDefaultAndRunsNoLoad) {
  for (auto args : {std::vector<std::string>{"workload", P("half.json"), "-q"},
                    std::vector<std::string>{"workload", P("half.json"), "-q", "--availability-as",
                                             "throttle"}}) {
    auto r = RunMrlocal(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(Contains(r.out, "  load ")) << r.out;
  }
}

TEST_F(AvailabilityAsCli, IsRefusedWithSimAndForAnUnknownValue) {
  const std::string sim_refused =
      "--availability-as applies to real runs: in simulation the availability profiles are the "
      "load already";
  ExpectUsageError(RunMrlocal({"workload", P("half.json"), "--sim", "--availability-as", "load"}),
                   sim_refused);
  ExpectUsageError(RunMrlocal({"compare", P("half.json"), "--sim", "--policies", "fifo",
                               "--availability-as", "throttle"}),
                   sim_refused);
  ExpectUsageError(RunMrlocal({"workload", P("half.json"), "--availability-as", "burn"}),
                   "--availability-as: must be one of");
}

// One node more than this process has CPUs: node 0's map slot and the last node's share
// the first CPU, and only node 0 has a profile.
TEST_F(AvailabilityAsCli, RefusesACpuSharedByNodesOfDifferentProfiles) {
  const size_t nodes = AllowedCpus().size() + 1;
  WriteFile(dir_ / "shared.json", R"j({"cluster": ")j" + std::to_string(nodes) + R"j(x(1m,1r,1.0)",
  "availability": [{"nodes": [0], "profile": [[0, 0.5]]}],
  "jobs": [{"arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 0.01, "reduce_s": 0.01}]})j");
  auto r = RunMrlocal({"workload", P("shared.json"), "--availability-as", "load", "-q"});
  ExpectUsageError(r, "--availability-as load: nodes 0 and ");
  EXPECT_TRUE(Contains(r.err, " but different availability profiles (node ")) << r.err;
}

}  // namespace
}  // namespace mrlocal
