// What the options of issue 21 do when a user runs the binary: calibrate keeps the file's
// other apps, gen refuses to overwrite, the graph's default skew fits any graph, and an
// option that does not apply to the workload is an error, not ignored.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <nlohmann/json.hpp>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ExpectUsageError;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

TEST(OptionCli, CalibrateOneAppKeepsTheFilesOtherApps) {
  ScratchDir dir;
  const fs::path file = dir / "cal.json";
  const nlohmann::json wordcount = {{"map_s_per_unit", 4.5e-09},
                                    {"map_task_s", 0.02},
                                    {"output_per_unit", 0.07},
                                    {"reduce_s_per_unit", 1.7e-08},
                                    {"reduce_task_s", 0.0}};
  WriteFile(file, nlohmann::json{{"apps", {{"wordcount", wordcount}}}}.dump());
  auto r = RunMrlocal({"calibrate", "--apps", "pi", "--size", "1MiB", "-o", file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kept from the file: wordcount"), std::string::npos) << r.out;
  const nlohmann::json apps = nlohmann::json::parse(ReadFile(file))["apps"];
  EXPECT_EQ(apps["wordcount"], wordcount);
  EXPECT_TRUE(apps.contains("pi"));
}

TEST(OptionCli, GenRefusesToOverwriteAFileUnlessTold) {
  ScratchDir dir;
  const fs::path file = dir / "mine.txt";
  WriteFile(file, "my own words\n");
  for (const char* kind : {"text", "graph"}) {
    SCOPED_TRACE(kind);
    std::vector<std::string> args = {"gen", kind, "-o", file.string()};
    if (kind == std::string("text"))
      args.insert(args.end(), {"--size", "1KiB"});
    else
      args.insert(args.end(), {"--nodes", "100", "--edges", "1000"});
    auto r = RunMrlocal(args);
    ExpectUsageError(
        r, "Output file " + file.string() + " already exists (use --overwrite to replace it)");
    EXPECT_EQ(ReadFile(file), "my own words\n");
  }
  auto r = RunMrlocal({"gen", "text", "-o", file.string(), "--size", "1KiB", "--overwrite"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(fs::file_size(file), 1024u);
}

TEST(OptionCli, TheGraphsDefaultSkewFitsASmallGraph) {
  ScratchDir dir;
  auto r = RunMrlocal(
      {"gen", "graph", "--nodes", "100", "--edges", "1000", "-o", (dir / "g.tsv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ReadFile(dir / "g.tsv").find("# Nodes: 100 Edges: 1000"), std::string::npos);
  // Given, a skew the model cannot reach is still an error.
  r = RunMrlocal({"gen", "graph", "--nodes", "100", "--edges", "1000", "--skew", "100", "-o",
                  (dir / "h.tsv").string()});
  ExpectUsageError(r, "--skew 100 is out of reach");
}

TEST(OptionCli, AWorkloadOptionThatDoesNotApplyIsAnError) {
  ScratchDir dir;
  WriteFile(dir / "w.json",
            R"({"jobs": [{"name": "a", "arrival_s": 0, "app": "synthetic", "maps": 1,
                          "reduces": 1, "map_s": 1, "reduce_s": 1}]})");
  const std::string spec = (dir / "w.json").string();
  ExpectUsageError(RunMrlocal({"workload"}),
                   "give a WORKLOAD file (a .json spec or a .tsv SWIM trace) or --preset NAME");
  ExpectUsageError(RunMrlocal({"workload", spec, "--sim", "--limit", "2"}),
                   "--limit applies to SWIM traces (.tsv)");
  ExpectUsageError(RunMrlocal({"workload", spec, "--sim", "--jobs", "2"}),
                   "--jobs applies to presets");
  ExpectUsageError(RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--jobs", "5"}),
                   "it cannot make 5");
  ExpectUsageError(
      RunMrlocal({"workload", "--preset", "mars-random", "--sim", "--estimate-margin", "2"}),
      "--estimate-margin applies to --policy rtmr | rtmr-nofb | dc only");
  ExpectUsageError(
      RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--reject-policy", "keep"}),
      "--reject-policy");
  ExpectUsageError(
      RunMrlocal({"workload", "--preset", "mars-random", "--sim", "--reject-policy", "drop"}),
      "--reject-policy applies to --policy rtmr | rtmr-nofb | dc only");
}

// --reject-policy: the same jobs accepted either way; backfilled, the rejected ones run
// best effort and some meet their deadlines (rtmr-wl1 at 4x its rate turns many away).
// Backfill re-plans RTMR's queue when it lends a slot, so it may accept other jobs than
// drop does; either way every accepted job meets its deadline.
TEST(OptionCli, BackfillRunsTheRejectedJobsAndKeepsTheGuarantee) {
  ScratchDir dir;
  std::map<std::string, nlohmann::json> metrics;
  for (const char* policy : {"drop", "backfill"}) {
    auto r = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--noise", "0.5",
                         "--time-scale", "0.25", "--policy", "rtmr", "--reject-policy", policy,
                         "-q", "--report", (dir / policy).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    metrics[policy] = nlohmann::json::parse(ReadFile(dir / policy / "metrics.json"));
    EXPECT_EQ(metrics[policy]["reject_policy"], policy);
  }
  const nlohmann::json& drop = metrics["drop"];
  const nlohmann::json& backfill = metrics["backfill"];
  EXPECT_EQ(backfill["successful"], backfill["accepted"]);
  EXPECT_EQ(drop["successful"], drop["accepted"]);
  EXPECT_EQ(drop["best_effort_jobs"], 0);
  EXPECT_GT(drop["rejected"].get<int>(), 0);
  EXPECT_GT(backfill["rejected"].get<int>(), 0);
  EXPECT_EQ(backfill["best_effort_jobs"], backfill["rejected"]);
  EXPECT_EQ(drop["met_all"], drop["successful"]);
  EXPECT_GT(backfill["met_all"].get<int>(), drop["met_all"].get<int>());
  bool said = false;
  for (const nlohmann::json& j : backfill["per_job"])
    if (j["best_effort"].get<bool>()) {
      EXPECT_FALSE(j["admitted"].get<bool>());
      said = j["admission"].get<std::string>().ends_with("; runs best-effort in spare slots");
    }
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace mrlocal
