// A workload under llf whose node 0 slows to a quarter mid-run: the report has overload.svg
// (DynamicShare Fig. 6) showing node 0 marked; under edf, which detects nothing, it has none.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// clang-format off
constexpr const char* kSpec = R"json({"cluster": "4x(2m,1r,1.0)",
 "availability": [{"nodes": [0], "profile": [[0, 1.0], [20, 0.25]]}],
 "jobs": [
  {"arrival_s": 0, "app": "synthetic", "maps": 40, "reduces": 2, "map_s": 2, "reduce_s": 3, "deadline_s": 60},
  {"arrival_s": 10, "app": "synthetic", "maps": 40, "reduces": 2, "map_s": 2, "reduce_s": 3, "deadline_s": 60},
  {"arrival_s": 20, "app": "synthetic", "maps": 40, "reduces": 2, "map_s": 2, "reduce_s": 3, "deadline_s": 60}
 ]})json";
// clang-format on

TEST(OverloadReportCli, LlfDrawsTheNodeItFoundOverloaded) {
  ScratchDir dir;
  WriteFile(dir / "spec.json", kSpec);
  auto llf = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--policy", "llf",
                         "--report", (dir / "llf").string(), "-q"});
  ASSERT_EQ(llf.exit_code, 0) << llf.err;
  EXPECT_TRUE(Contains(llf.out, "overload.svg")) << llf.out;
  const std::string svg = ReadFile(dir / "llf" / "overload.svg");
  EXPECT_TRUE(Contains(svg, "overloaded: node 0")) << svg.substr(0, 400);

  auto edf = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--policy", "edf",
                         "--report", (dir / "edf").string(), "-q"});
  ASSERT_EQ(edf.exit_code, 0) << edf.err;
  EXPECT_FALSE(fs::exists(dir / "edf" / "overload.svg"));
  EXPECT_FALSE(Contains(edf.out, "overload.svg")) << edf.out;
}

}  // namespace
}  // namespace mrlocal
