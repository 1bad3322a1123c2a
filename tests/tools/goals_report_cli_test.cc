// goals.svg end to end: a workload's report draws the availability its spec gives (at the
// run's time scale), and a job command's report has the chart when the job has a --goal.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// The d attribute of the map slots' f(t) line.
std::string MapCapacityPath(const std::string& svg) {
  const std::string open = "<path class=\"capacity map\" d=\"";
  const size_t at = svg.find(open);
  if (at == std::string::npos) return "no map capacity line";
  return svg.substr(at + open.size(), svg.find('"', at + open.size()) - at - open.size());
}

TEST(GoalsReportCli, AWorkloadsChartFollowsItsAvailability) {
  ScratchDir dir;
  // No goals: the chart is there for the availability alone. Node 1 at half speed over
  // [10, 20) s, at --time-scale 0.5 over [5, 10): f(t) of the map slots 4, 3, 4.
  WriteFile(dir / "spec.json", R"json({"cluster": "2x(2m,1r,1.0)",
    "availability": [{"nodes": [1], "profile": [[0, 1.0], [10, 0.5], [20, 1.0]]}],
    "jobs": [{"arrival_s": 0, "app": "synthetic", "maps": 40, "reduces": 1, "map_s": 1,
              "reduce_s": 1}]})json");
  auto r = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--time-scale", "0.5",
                       "--report", (dir / "r").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("gantt.svg, goals.svg)"), std::string::npos) << r.out;
  const std::string svg = ReadFile(dir / "r" / "goals.svg");
  // Time 0 at x = 70; the run ends after the dip, so the dip lies inside the axis.
  const std::string path = MapCapacityPath(svg);
  EXPECT_EQ(path.substr(0, 6), "M70 62") << path;
  EXPECT_NE(path.find(" V94.5 H"), std::string::npos) << "a step down to 3 of 4: " << path;
  EXPECT_NE(path.find(" V62 H"), std::string::npos) << "and back up to 4: " << path;
  // The same run draws the same bytes.
  auto again = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--time-scale", "0.5",
                           "--report", (dir / "again").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ReadFile(dir / "again" / "goals.svg"), svg);
}

TEST(GoalsReportCli, AJobCommandDrawsItWithAGoalOnly) {
  ScratchDir dir;
  WriteFile(dir / "in.txt", "a b c a b a\n");
  auto with = RunMrlocal({"wordcount", (dir / "in.txt").string(), "-q", "--goal", "10s", "--report",
                          (dir / "g").string()});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  // The goal counts from the command's start, a little before the run's clock starts.
  EXPECT_TRUE(std::regex_search(ReadFile(dir / "g" / "goals.svg"),
                                std::regex(R"(wordcount \(job 1\): goal (9\.9|10)[0-9.]* s met)")));
  auto without =
      RunMrlocal({"wordcount", (dir / "in.txt").string(), "-q", "--report", (dir / "n").string()});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "n" / "gantt.svg"));
  EXPECT_FALSE(std::filesystem::exists(dir / "n" / "goals.svg"));
}

}  // namespace
}  // namespace mrlocal
