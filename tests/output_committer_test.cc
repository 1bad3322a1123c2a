#include "engine/output_committer.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

std::vector<std::string> Names(const fs::path& dir) {
  std::vector<std::string> names;
  for (auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutputCommitter, NothingIsVisibleBeforeCommitAndEverythingAfter) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE(c.ok());
  for (uint32_t r = 0; r < 2; ++r) {
    auto part = (*c)->OpenPart(r);
    ASSERT_TRUE(part.ok());
    ASSERT_TRUE((*part)->Append("k\t" + std::to_string(r) + "\n").ok());
    ASSERT_TRUE((*part)->Close().ok());
  }
  EXPECT_FALSE(fs::exists(d / "out"));
  ASSERT_TRUE((*c)->Commit(2).ok());
  EXPECT_EQ(Names(d / "out"), (std::vector<std::string>{"_SUCCESS", "part-r-00000", "part-r-00001"}));
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00001"), "k\t1\n");
  EXPECT_EQ(Names(d.path()), std::vector<std::string>{"out"}) << "no temporary left";
}

TEST(OutputCommitter, AbortAndDestructionLeaveNothing) {
  ScratchDir d;
  {
    auto c = OutputCommitter::Begin(d / "out", false);
    auto part = (*c)->OpenPart(0);
    ASSERT_TRUE((*part)->Append("half").ok());
  }
  EXPECT_TRUE(fs::is_empty(d.path()));
}

TEST(OutputCommitter, RefusesANonEmptyDirectoryUnlessOverwrite) {
  ScratchDir d;
  fs::create_directory(d / "out");
  WriteFile(d / "out" / "old", "x");
  auto refused = OutputCommitter::Begin(d / "out", false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("already exists"), std::string::npos);
  auto c = OutputCommitter::Begin(d / "out", true);
  ASSERT_TRUE(c.ok());
  auto part = (*c)->OpenPart(0);
  ASSERT_TRUE((*part)->Close().ok());
  EXPECT_TRUE(fs::exists(d / "out" / "old")) << "replaced only at commit";
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_EQ(Names(d / "out"), (std::vector<std::string>{"_SUCCESS", "part-r-00000"}));
}

TEST(OutputCommitter, AnExistingEmptyDirectoryIsFine) {
  ScratchDir d;
  fs::create_directory(d / "out");
  auto c = OutputCommitter::Begin(d / "out/", false);
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_TRUE(fs::exists(d / "out" / "_SUCCESS"));
}

TEST(OutputCommitter, CommitNeedsEveryPart) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  EXPECT_FALSE((*c)->Commit(2).ok());
  EXPECT_FALSE(fs::exists(d / "out"));
}

}  // namespace
}  // namespace mrlocal
