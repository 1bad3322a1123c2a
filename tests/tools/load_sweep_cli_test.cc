// `mrlocal compare --load A,B,C`: the workload at several arrival rates (arrivals divided by
// the load, relative deadlines and availability kept), its tables and CSVs per measure,
// its charts, and one-line refusals of bad loads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/util/test_util.h"
#include "tools/cli/workload_options.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::ExpectUsageError;
using testing::Lines;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;

// The mean of a "mean (min–max)" cell.
double Mean(const std::string& cell) { return std::stod(cell); }

// The cells after the row's label of the row starting "| x |" in the table whose caption
// names `measure`.
std::vector<std::string> Row(const std::string& out, const std::string& measure,
                             const std::string& x) {
  const size_t caption = out.find("Each cell: " + measure);
  const size_t table = out.rfind("| load |", caption);
  if (caption == std::string::npos || table == std::string::npos) return {};
  const size_t row = out.find("| " + x + " |", table);
  if (row == std::string::npos || row > caption) return {};
  std::vector<std::string> cells;
  const std::string line = out.substr(row, out.find('\n', row) - row);
  for (size_t start = line.find('|', 1); start + 1 < line.size();) {
    const size_t end = line.find('|', start + 1);
    cells.push_back(line.substr(start + 2, end - start - 3));
    start = end;
  }
  return cells;
}

Result<LoadedWorkload> Loaded(const std::string& spec, double load) {
  WorkloadOptions o;
  o.source = spec;
  o.sim = true;
  o.load = load;
  return LoadWorkloadFromOptions(o);
}

TEST(LoadSweep, ALoadOfTwoHalvesEveryArrivalAndKeepsDeadlinesGoalsAndAvailability) {
  ScratchDir dir;
  testing::WriteFile(dir / "spec.json", R"json({
    "cluster": "2x(1m,1r,1.0)",
    "availability": [{"nodes": [0], "profile": [[0, 1.0], [30, 0.25], [60, 1.0]]}],
    "jobs": [
      {"arrival_s": 0, "app": "synthetic", "maps": 2, "map_s": 1, "reduces": 0, "deadline_s": 20},
      {"arrival_s": 10, "app": "synthetic", "maps": 2, "map_s": 1, "reduces": 0, "deadline_s": 15,
       "goal_s": 12},
      {"arrival_s": 50, "app": "synthetic", "maps": 2, "map_s": 1, "reduces": 0}]})json");
  auto one = Loaded((dir / "spec.json").string(), 1);
  auto two = Loaded((dir / "spec.json").string(), 2);
  ASSERT_TRUE(one.ok()) << one.status().message();
  ASSERT_TRUE(two.ok()) << two.status().message();
  ASSERT_EQ(two->spec.jobs.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const WorkloadJob &a = one->spec.jobs[i], &b = two->spec.jobs[i];
    EXPECT_DOUBLE_EQ(b.arrival_s, a.arrival_s / 2) << i;
    EXPECT_EQ(b.deadline_s, a.deadline_s) << i;
    EXPECT_EQ(b.goal_s, a.goal_s) << i;
    EXPECT_EQ(b.maps, a.maps) << i;
  }
  EXPECT_DOUBLE_EQ(two->spec.jobs[2].arrival_s, 25);
  ASSERT_EQ(two->spec.availability.size(), 1u);
  ASSERT_EQ(two->spec.availability[0].steps.size(), 3u);
  EXPECT_DOUBLE_EQ(two->spec.availability[0].steps[1].at_s, 30);
  EXPECT_DOUBLE_EQ(two->spec.availability[0].steps[2].at_s, 60);
}

TEST(LoadSweep, APresetAtLoadFourArrivesFourTimesFasterWithTheSameJobs) {
  WorkloadOptions o;
  o.preset = "rtmr-wl1";
  o.sim = true;
  auto one = LoadWorkloadFromOptions(o);
  o.load = 4;
  auto four = LoadWorkloadFromOptions(o);
  ASSERT_TRUE(one.ok() && four.ok());
  ASSERT_EQ(one->spec.jobs.size(), four->spec.jobs.size());
  for (size_t i = 0; i < one->spec.jobs.size(); ++i) {
    EXPECT_DOUBLE_EQ(four->spec.jobs[i].arrival_s, one->spec.jobs[i].arrival_s / 4);
    EXPECT_EQ(four->spec.jobs[i].deadline_s, one->spec.jobs[i].deadline_s);
  }
}

TEST(LoadSweep, TablesPerMeasureCsvPerMeasureAndTwoCharts) {
  ScratchDir dir;
  auto r =
      RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5", "--seeds", "2",
                  "--load", "1,4", "--policies", "fifo,rtmr", "--report", dir.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "| load | fifo | rtmr |\n")) << r.out;
  for (const std::string load : {"1", "4"}) {
    SCOPED_TRACE("load " + load);
    const auto accepted = Row(r.out, "accepted", load);
    const auto met_all = Row(r.out, "met of all jobs", load);
    const auto met_accepted = Row(r.out, "met of accepted", load);
    ASSERT_EQ(accepted.size(), 2u) << r.out;
    ASSERT_EQ(met_all.size(), 2u) << r.out;
    ASSERT_EQ(met_accepted.size(), 2u) << r.out;
    EXPECT_EQ(accepted[0], "100.0 (100.0–100.0)") << "fifo admits every job";
    // --reject-policy backfill (the default): the jobs rtmr rejects run best effort.
    EXPECT_GE(Mean(met_all[1]), Mean(accepted[1])) << "rtmr meets what it accepts, and more";
    EXPECT_EQ(met_accepted[1], "100.0 (100.0–100.0)") << "rtmr keeps its promise";
    EXPECT_EQ(Row(r.out, "utilization", load).size(), 2u);
    EXPECT_EQ(Row(r.out, "scheduler cost: p99", load).size(), 2u);
  }
  EXPECT_LT(Mean(Row(r.out, "accepted", "4")[1]), 100) << "at load 4 rtmr turns jobs away";
  EXPECT_GT(Mean(Row(r.out, "met of all jobs", "4")[1]), Mean(Row(r.out, "accepted", "4")[1]))
      << "and some of those, run best effort, meet their deadlines";
  EXPECT_TRUE(Contains(r.out, "Jobs that rtmr rejected ran best-effort in spare slots")) << r.out;
  EXPECT_TRUE(Contains(r.err, "load 4, rtmr seed 2 done")) << r.err;

  EXPECT_EQ(ReadFile(dir / "met-of-all.csv").substr(0, 21), "series,x,y,ymin,ymax\n");
  const std::vector<std::string> csv = Lines(ReadFile(dir / "met-of-all.csv"));
  ASSERT_EQ(csv.size(), 5u);
  EXPECT_EQ(csv[1].substr(0, 7), "fifo,1,");
  EXPECT_EQ(csv[2].substr(0, 7), "fifo,4,");
  EXPECT_EQ(csv[3].substr(0, 7), "rtmr,1,");
  EXPECT_EQ(csv[4].substr(0, 7), "rtmr,4,");
  for (const char* measure :
       {"accepted", "met-of-accepted", "utilization", "decision-p50-us", "decision-p99-us"})
    EXPECT_EQ(Lines(ReadFile(dir / (std::string(measure) + ".csv"))).size(), 5u) << measure;
  for (const char* chart : {"accepted.svg", "met-of-all.svg"}) {
    const std::string svg = ReadFile(dir / chart);
    EXPECT_TRUE(Contains(svg, "<svg")) << chart;
    EXPECT_TRUE(Contains(svg, "class=\"band\"")) << chart << ": min–max bands";
    EXPECT_TRUE(Contains(svg, ">rtmr</text>")) << chart << ": a legend entry per policy";
  }
  EXPECT_EQ(ReadFile(dir / "sweep.md"), r.out.substr(0, r.out.find("\nreport in")));
}

// Simulated runs print the same tables, byte for byte, but for the wall-time columns.
TEST(LoadSweep, SimulatedTablesAreDeterministic) {
  const std::vector<std::string> args = {"compare",    "--preset", "rtmr-wl1", "--sim",
                                         "--noise",    "0.5",      "--load",   "0.5,2",
                                         "--policies", "edf,rtmr", "-q"};
  auto a = RunMrlocal(args), b = RunMrlocal(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto cut = [](const std::string& out) {
    return out.substr(0, out.find("| load", out.find("utilization")));
  };
  EXPECT_EQ(cut(a.out), cut(b.out));
}

TEST(LoadSweep, RefusesBadLoadsInOneLineAndRunsNothing) {
  const std::vector<std::string> base = {"compare", "--preset",   "rtmr-wl1",
                                         "--sim",   "--policies", "fifo"};
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"--load", "0"}, "--load: 0 is not a positive number"},
      {{"--load", "-1"}, "--load: -1 is not a positive number"},
      {{"--load", "1,-0.5"}, "--load: -0.5 is not a positive number"},
      {{"--load", "nan"}, "--load: 'nan' is not a number"},
      {{"--load", "inf"}, "--load: 'inf' is not a number"},
      {{"--load", ""}, "--load: expected arrival-rate multipliers"},
      {{"--load", "1,,2"}, "--load: an empty value in '1,,2'"},
      {{"--load", "1,2,"}, "--load: an empty value"},
      {{"--load", "1,2", "--sweep", "jobs=1:2"}, "--load and --sweep: give one of them"},
      {{"--load", "1,2000000"}, "--load: 2000000 is above 1000000"},
      // Arrivals stretched past what the clock counts: refused, not wrapped around.
      {{"--load", "1e-300"}, "arrival at 9.703e+300 s is past the latest time a run reaches"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), c.args.begin(), c.args.end());
    SCOPED_TRACE(c.says);
    ExpectUsageError(RunMrlocal(args), c.says);
  }
  std::string many = "1";
  for (int i = 0; i < 1000; ++i) many += ",1";
  ExpectUsageError(RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--policies", "fifo",
                               "--load", many}),
                   "--load: more than 1000 values");
}

// One point of the sweep, with everything `workload` reports (per-job files included): the
// figures of `compare --load 4` at load 4.
TEST(LoadSweep, WorkloadRunsOnePointOfTheSweep) {
  auto sweep = RunMrlocal({"compare", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5", "--load",
                           "4", "--policies", "rtmr", "-q"});
  auto point = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5", "--load",
                           "4", "--policy", "rtmr", "-q"});
  auto one = RunMrlocal(
      {"workload", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5", "--policy", "rtmr", "-q"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  ASSERT_EQ(point.exit_code, 0) << point.err;
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::string met = Row(sweep.out, "met of all jobs", "4").at(0);  // "85.2" with one seed
  EXPECT_TRUE(Contains(point.out, "(" + met + "%)")) << met << "\n" << point.out;
  EXPECT_NE(point.out, one.out) << "load 4 is not the workload as given";
  for (const char* bad : {"0", "-2", "nan", "2000000"})
    ExpectUsageError(RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--load", bad}),
                     "--load: must be a number in (0, 1000000]");
}

// A spec's absurd arrival is refused in one line, naming the job, before anything runs.
TEST(LoadSweep, ATimePastWhatTheClockCountsIsRefused) {
  ScratchDir dir;
  testing::WriteFile(dir / "spec.json", R"json({"cluster": "1x(1m,1r,1.0)", "jobs": [
      {"name": "soon", "arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 0},
      {"name": "late", "arrival_s": 1e12, "app": "synthetic", "maps": 1, "map_s": 1,
       "reduces": 0}]})json");
  auto r = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--policy", "fifo"});
  ExpectUsageError(r, "job 'late': arrival at 1e+12 s is past the latest time a run reaches");
  auto scaled = RunMrlocal({"workload", (dir / "spec.json").string(), "--sim", "--policy", "fifo",
                            "--time-scale", "1000000"});
  ExpectUsageError(scaled, "arrival at 1e+18 s is past the latest time a run reaches");
}

}  // namespace
}  // namespace mrlocal
