// A spec file's inputs must be there when it is read: a missing one is one line naming the
// spec, the field and the folder a relative path is read from. Availability profiles are
// checked against the cluster the workload runs on, with the field that names the node.
#include <gtest/gtest.h>

#include <filesystem>

#include "datasets/workload_file.h"
#include "datasets/workload_spec.h"
#include "tests/util/test_util.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

std::string WordCountOf(const std::string& file) {
  return R"({"jobs": [{"arrival_s": 0, "app": "pi", "maps": 1, "samples": 1},
                      {"arrival_s": 1, "app": "wordcount", "input": {"files": ["in.txt", ")" +
         file + R"("]}}]})";
}

TEST(WorkloadSpecInputs, AMissingInputNamesTheSpecTheFieldAndTheFolder) {
  testing::ScratchDir dir;
  std::filesystem::create_directories(dir / "specs");
  testing::WriteFile(dir / "specs" / "in.txt", "a b c\n");
  const std::string spec = (dir / "specs" / "w.json").string();
  testing::WriteFile(spec, WordCountOf("nope.txt"));
  Result<WorkloadSpec> r = LoadWorkloadJson(spec, Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            spec + ": jobs[1].input.files[1]: cannot read 'nope.txt' (relative to " +
                (dir / "specs").string() + "): No such file or directory");
}

TEST(WorkloadSpecInputs, RelativeToTheWorkingDirectoryForASpecGivenBare) {
  testing::ScratchDir dir;
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  testing::WriteFile("in.txt", "a b c\n");
  testing::WriteFile("spec.json", WordCountOf("nope.txt"));
  Result<WorkloadSpec> r = LoadWorkloadJson("spec.json", Apps());
  std::filesystem::current_path(cwd);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "spec.json: jobs[1].input.files[1]: cannot read 'nope.txt' "
            "(relative to " +
                std::filesystem::canonical(dir.path()).string() + "): No such file or directory");
}

TEST(WorkloadSpecInputs, AbsolutePathsAndDirectories) {
  testing::ScratchDir dir;
  testing::WriteFile(dir / "in.txt", "a b c\n");
  const std::string spec = (dir / "w.json").string();
  const std::string missing = (dir / "gone.txt").string();
  testing::WriteFile(spec, WordCountOf(missing));
  Result<WorkloadSpec> r = LoadWorkloadJson(spec, Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), spec + ": jobs[1].input.files[1]: cannot read '" + missing +
                                      "': No such file or directory");

  std::filesystem::create_directories(dir / "sub");
  testing::WriteFile(spec, WordCountOf("sub"));
  r = LoadWorkloadJson(spec, Apps());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), spec +
                                      ": jobs[1].input.files[1]: cannot read 'sub' (relative to " +
                                      dir.path().string() + "): Is a directory");

  testing::WriteFile(dir / "sub" / "b.txt", "d\n");
  testing::WriteFile(spec, WordCountOf("sub/b.txt"));
  r = LoadWorkloadJson(spec, Apps());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs[1].input.files[1], (dir / "sub" / "b.txt").string());
}

TEST(WorkloadSpecInputs, ParsingTextAloneDoesNotLookForTheFiles) {
  Result<WorkloadSpec> r = ParseWorkloadJson(WordCountOf("nope.txt"), "spec.json", Apps());
  EXPECT_TRUE(r.ok()) << r.status().message();
}

TEST(WorkloadSpecInputs, AvailabilityIsCheckedAgainstTheClusterItRunsOn) {
  Result<WorkloadSpec> spec = ParseWorkloadJson(
      R"({"availability": [{"nodes": [0], "profile": [[1, 0.5]]},
                           {"nodes": [1, 7], "profile": [[1, 0.5]]}],
          "jobs": [{"arrival_s": 0, "app": "pi", "maps": 1, "samples": 1}]})",
      "spec.json", Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_TRUE(CheckAvailability(*spec, *ClusterSpec::Parse("8x(1m,1r,1.0)")).ok());
  Status st = CheckAvailability(*spec, *ClusterSpec::Parse("2x(1m,1r,1.0)"));
  EXPECT_EQ(st.message(),
            "spec.json: availability[1].nodes[1]: node 7 is not in the cluster (2 nodes: "
            "2x(1m,1r,1.0))");
}

}  // namespace
}  // namespace mrlocal
