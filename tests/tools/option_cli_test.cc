// What the options of issue 21 do when a user runs the binary: calibrate keeps the file's
// other apps, gen refuses to overwrite, the graph's default skew fits any graph, and an
// option that does not apply to the workload is an error, not ignored.
#include <gtest/gtest.h>

#include <filesystem>
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
}

}  // namespace
}  // namespace mrlocal
