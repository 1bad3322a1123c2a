// `mrlocal workload` and `mrlocal compare` end to end: reproducible simulated reports, real
// runs of small workloads, and bad input (exit 2, one line naming the file and field).
#include <gtest/gtest.h>

#include <regex>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// metrics.json without the wall times measured on this machine: the scheduler's decision
// latencies and each job's planning time (the only figures of a simulated run that depend
// on this machine rather than on the seed).
std::string WithoutWallClock(std::string json) {
  json = std::regex_replace(json, std::regex(R"("decision_latency_us": \{[^}]*\})"), "");
  return std::regex_replace(json, std::regex(R"("cost_us": [-+.e0-9]+)"), "");
}

TEST(WorkloadCli, SameSeedGivesByteIdenticalSimulatedReports) {
  ScratchDir dir;
  for (const char* run : {"a", "b"}) {
    auto r = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "edf", "--seed",
                         "7", "--report", (dir / run).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  for (const char* f : {"jobs.csv", "tasks.csv", "trace.json", "gantt.svg"})
    EXPECT_EQ(ReadFile(dir / "a" / f), ReadFile(dir / "b" / f)) << f;
  EXPECT_EQ(WithoutWallClock(ReadFile(dir / "a" / "metrics.json")),
            WithoutWallClock(ReadFile(dir / "b" / "metrics.json")));
  // And another seed is another workload.
  auto other = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "edf", "--seed",
                           "8", "--report", (dir / "c").string()});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(ReadFile(dir / "a" / "jobs.csv"), ReadFile(dir / "c" / "jobs.csv"));
  for (const char* key :
       {"\"policy\"", "\"sim\": true", "\"jobs\": 88", "\"accept_ratio\"", "\"success_ratio\"",
        "\"utilization\"", "\"miss_ratio\"", "\"twjct\"", "\"latency_s\"", "\"p95\"",
        "\"makespan_s\"", "\"decisions\"", "\"decision_latency_us\""})
    EXPECT_NE(ReadFile(dir / "a" / "metrics.json").find(key), std::string::npos) << key;
}

TEST(WorkloadCli, CompareRunsEveryPolicyOnTheSameJobs) {
  ScratchDir dir;
  auto r = RunMrlocal({"compare", "--preset", "mars-random", "--sim", "--policies", "fifo,fair,edf",
                       "--seeds", "2", "--report", dir.path().string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* p : {"| fifo |", "| fair |", "| edf |"})
    EXPECT_NE(r.out.find(p), std::string::npos) << r.out;
  for (const char* f : {"comparison.md", "comparison.csv", "utilization.svg", "twjct.svg"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
}

TEST(WorkloadCli, RunsASmallMixedWorkloadForReal) {
  ScratchDir dir;
  WriteFile(dir / "spec.json", R"json({
    "name": "mixed", "cluster": "1x(1m,1r,1.0)", "block_size": "1MiB",
    "availability": [{"nodes": [0], "profile": [[0, 1.0], [0.05, 0.5]]}],
    "jobs": [
      {"name": "wc", "arrival_s": 0, "app": "wordcount",
       "input": {"generate": "text", "size": "3MiB", "seed": 2}, "reduces": 1},
      {"name": "pi", "arrival_s": 0.05, "app": "pi", "maps": 2, "samples": 100000},
      {"name": "syn", "arrival_s": 0.06, "app": "synthetic", "maps": 2, "reduces": 1,
       "map_s": 0.01, "reduce_s": 0.01},
      {"name": "fc", "arrival_s": 0.1, "app": "friendcount",
       "input": {"generate": "graph", "nodes": 1000, "edges": 20000, "seed": 3}, "reduces": 2,
       "deadline_s": 600}
    ]})json");
  auto r = RunMrlocal(
      {"workload", (dir / "spec.json").string(), "--report", (dir / "report").string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string jobs = ReadFile(dir / "report" / "jobs.csv");
  EXPECT_NE(jobs.find(",wc,wordcount,"), std::string::npos) << jobs;
  EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), 5) << jobs;
  EXPECT_EQ(std::regex_search(jobs, std::regex(",(failed|rejected),")), false) << jobs;
  std::string metrics = ReadFile(dir / "report" / "metrics.json");
  EXPECT_NE(metrics.find("\"sim\": false"), std::string::npos);
  EXPECT_NE(metrics.find("\"completed\": 4"), std::string::npos) << metrics;
}

TEST(WorkloadCli, BadInputIsOneLineAndExitTwo) {
  ScratchDir dir;
  WriteFile(dir / "syntax.json", "{\n  \"jobs\": [\n    {\"app\": }\n  ]\n}\n");
  WriteFile(dir / "negative.json",
            R"({"jobs": [{"arrival_s": -2, "app": "pi", "maps": 1, "samples": 10}]})");
  WriteFile(dir / "app.json", R"({"jobs": [{"app": "wordcont", "maps": 1}]})");
  WriteFile(dir / "trace.tsv", "job0\t9\t9\t1762\t0\t14347\njob1\t18\t9\tabc\t609\t697\n");
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"workload", (dir / "missing.json").string(), "--sim"}, "missing.json"},
      {{"workload", (dir / "syntax.json").string(), "--sim"}, "syntax.json:3:"},
      {{"workload", (dir / "negative.json").string(), "--sim"}, "jobs[0].arrival_s"},
      {{"workload", (dir / "app.json").string(), "--sim"}, "unknown app 'wordcont'"},
      {{"workload", (dir / "trace.tsv").string(), "--sim"}, "trace.tsv:2:"},
      {{"workload", "--preset", "rtmr-wl9", "--sim"}, "rtmr-wl9"},
      {{"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "lottery"},
       "--policy: must be one of"},
      {{"workload", "--preset", "rtmr-wl1", "--sim", "--time-scale", "-1"}, "--time-scale"},
      {{"workload", "--preset", "rtmr-wl1", "--sim", "--reduce-slowstart", "1.5"},
       "--reduce-slowstart: must be a number in (0, 1]"},
      {{"workload", "--preset", "rtmr-wl1", "--sim", "--reduce-slowstart", "-3"},
       "--reduce-slowstart"},
      {{"workload", "--sim"}, "WORKLOAD"},
      {{"compare", "--preset", "rtmr-wl1", "--sim", "--policies", "fifo,nope"}, "nope"},
  };
  for (const Case& c : cases) {
    auto r = RunMrlocal(c.args);
    SCOPED_TRACE(c.args[1]);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace mrlocal
