// `--task-weights` and a spec's "task_weights" through the mrlocal binary: with them htwf
// plans by each task's weight and the TWTCT column measures them; misuse is one line, exit 2.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::RunMrlocal;
using testing::ScratchDir;

// Per policy (first column), the value of `column` in comparison.csv.
std::map<std::string, std::string> Column(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string line, cell;
  std::getline(in, line);
  std::istringstream header(line);
  size_t at = 0;
  for (size_t i = 0; std::getline(header, cell, ','); ++i)
    if (cell == column) at = i;
  EXPECT_GT(at, 0u) << "no column " << column << " in " << line;
  std::map<std::string, std::string> values;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::vector<std::string> cells;
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    if (cells.size() > at) values[cells[0]] = cells[at];
  }
  return values;
}

std::map<std::string, std::string> Twtct(bool task_weights) {
  ScratchDir dir;
  std::vector<std::string> args = {"compare", "--preset",   "mars-random", "--jobs",   "6",
                                   "--sim",   "--policies", "htwf,hjwf",   "--report", dir / "r"};
  if (task_weights) args.push_back("--task-weights");
  auto r = RunMrlocal(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Column(testing::ReadFile(dir / "r" / "comparison.csv"), "twtct_lp_ratio_mean");
}

TEST(TaskWeightsCli, HtwfDiffersFromHjwfOnlyWithTaskWeights) {
  const auto plain = Twtct(false), weighted = Twtct(true);
  ASSERT_EQ(plain.size(), 2u);
  ASSERT_EQ(weighted.size(), 2u);
  EXPECT_EQ(plain.at("htwf"), plain.at("hjwf")) << "a task weighs as its job: the same plan";
  EXPECT_LT(std::stod(weighted.at("htwf")), std::stod(weighted.at("hjwf")));
}

TEST(TaskWeightsCli, MisuseIsOneLine) {
  testing::ExpectUsageError(RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--policies",
                                        "fifo", "--task-weights"}),
                            "--task-weights: preset rtmr-wl1 has no parameter 'task-weights'");
  ScratchDir dir;
  const auto spec = dir / "w.json";
  testing::WriteFile(spec, R"json({"cluster": "2x(1m,1r,1.0,1t)", "jobs": [
    {"arrival_s": 0, "app": "synthetic", "maps": 2, "reduces": 1, "map_s": 1, "reduce_s": 1,
     "task_weights": [1, 0, 2]}]})json");
  testing::ExpectUsageError(RunMrlocal({"workload", spec.string(), "--sim", "--task-weights"}),
                            "--task-weights applies to --preset mars-random and mars-uniform");
  testing::ExpectUsageError(RunMrlocal({"workload", spec.string(), "--sim"}),
                            "jobs[0].task_weights[1]: must be a positive number (got 0)");
}

}  // namespace
}  // namespace mrlocal
