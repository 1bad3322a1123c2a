// `mrlocal compare --sweep` and the dynshare preset's options end to end: the table and
// CSV of DynamicShare's Fig. 5, the same jobs for every policy, and one-line refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::CountLines;
using testing::ExpectUsageError;
using testing::Lines;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;

// The cells of a Markdown table row "| a | b |": {"a", "b"}.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  size_t start = row.find('|');
  while (start != std::string::npos) {
    const size_t end = row.find('|', start + 1);
    if (end == std::string::npos) break;
    std::string cell = row.substr(start + 1, end - start - 1);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    cells.push_back(cell);
    start = end;
  }
  return cells;
}

TEST(SweepCli, OneTableRowsConcurrencyColumnsPoliciesAndACsvForTheChart) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "dynshare", "--sim", "--policies", "fifo,edf",
                       "--seeds", "2", "--jobs", "8", "--sweep", "concurrency=1:3", "--report",
                       dir.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_GE(out.size(), 5u) << r.out;
  EXPECT_EQ(out[0], "| concurrency | fifo | edf |");
  for (int c = 1; c <= 3; ++c) {
    const std::vector<std::string> cells = Cells(out[1 + c]);
    ASSERT_EQ(cells.size(), 3u) << out[1 + c];
    EXPECT_EQ(cells[0], std::to_string(c));
    EXPECT_TRUE(Contains(cells[1], "–")) << "mean (min–max) over 2 seeds: " << cells[1];
  }
  EXPECT_TRUE(Contains(r.out, "deadline misses")) << r.out;
  // The preset says what it measured, once per concurrency.
  EXPECT_TRUE(Contains(r.err, "dynshare: ")) << r.err;
  EXPECT_TRUE(Contains(r.err, "solo ")) << r.err;
  const std::vector<std::string> csv = Lines(ReadFile(dir / "sweep.csv"));
  ASSERT_EQ(csv.size(), 7u);
  EXPECT_EQ(csv[0], "series,x,y,ymin,ymax");
  EXPECT_EQ(csv[1].substr(0, 6), "fifo,1");
  EXPECT_EQ(csv[4].substr(0, 5), "edf,1");
  EXPECT_EQ(ReadFile(dir / "sweep.md"), r.out.substr(0, r.out.find("\nreport in")));
}

// compare loads each seed's workload once and hands it to every policy: the same policy
// twice gives the same column, seed by seed.
TEST(SweepCli, EveryPolicySeesTheSameJobsPerSeed) {
  // The same entry twice is refused: llf and its variant at its default MinPts.
  auto r = RunMrlocal({"compare", "--preset", "dynshare", "--sim", "--policies",
                       "llf,fair,llf:lof-min-pts=10", "--seeds", "3", "--jobs", "10", "--noise",
                       "0.3", "--sweep", "concurrency=2,6", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_GE(out.size(), 4u);
  for (int row : {2, 3}) {
    const std::vector<std::string> cells = Cells(out[row]);
    ASSERT_EQ(cells.size(), 4u) << out[row];
    EXPECT_EQ(cells[1], cells[3]) << out[row];
  }
}

TEST(SweepCli, RefusesWhatThePresetDoesNotHaveInOneLine) {
  const std::vector<std::string> base = {"compare", "--sim", "--policies", "fifo,edf"};
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"--preset", "dynshare", "--sweep", "speed=1:3"},
       "--sweep: preset dynshare has no parameter 'speed' (it has concurrency, strict-factor)"},
      {{"--preset", "rtmr-wl1", "--sweep", "concurrency=1:3"},
       "--sweep: preset rtmr-wl1 has no parameter 'concurrency' (it has none)"},
      {{"--preset", "dynshare", "--sweep", "concurrency=5:1"}, "--sweep: empty range 5:1"},
      {{"--preset", "dynshare", "--sweep", "concurrency=1:x"}, "--sweep: 'x' is not a number"},
      {{"--preset", "dynshare", "--sweep", "concurrency=1:5:0"}, "must be positive"},
      {{"--preset", "dynshare", "--sweep", "concurrency"}, "--sweep: expected NAME=LO:HI"},
      {{"--preset", "dynshare", "--sweep", "concurrency=0:3"},
       "--sweep: concurrency must be an integer in [1, 100] (got 0)"},
      {{"--preset", "dynshare", "--sweep", "concurrency=99:101"}, "(got 101)"},
      {{"--preset", "dynshare", "--sweep", "concurrency=1.5"}, "must be an integer"},
      {{"--preset", "dynshare", "--concurrency", "0"}, "--concurrency"},
      {{"--preset", "dynshare", "--concurrency", "101"}, "--concurrency"},
      {{"--preset", "rtmr-wl1", "--concurrency", "3"},
       "--concurrency: preset rtmr-wl1 has no parameter 'concurrency'"},
      {{"--preset", "dynshare", "--concurrency", "3", "--sweep", "concurrency=1:2"},
       "give one of them"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), c.args.begin(), c.args.end());
    SCOPED_TRACE(c.args[c.args.size() - 1]);
    ExpectUsageError(RunMrlocal(args), c.says);
  }
  ScratchDir dir;
  testing::WriteFile(dir / "spec.json",
                     R"({"jobs": [{"arrival_s": 0, "app": "pi", "maps": 1, "samples": 10}]})");
  ExpectUsageError(RunMrlocal({"compare", (dir / "spec.json").string(), "--sim", "--policies",
                               "fifo", "--sweep", "concurrency=1:2"}),
                   "--sweep applies to presets");
  ExpectUsageError(
      RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--concurrency", "2"}),
      "--concurrency applies to --preset dynshare");
}

TEST(SweepCli, WorkloadRunsThePresetAtOneConcurrency) {
  auto r = RunMrlocal({"workload", "--preset", "dynshare", "--sim", "--jobs", "6", "--concurrency",
                       "3", "--policy", "edf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "workload dynshare: 6 jobs on 2x(1m,1r,0.25)+4x(1m,1r,0.125)"))
      << r.out;
  EXPECT_TRUE(Contains(r.err, "C 3: a job every")) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace mrlocal
