// --overwrite replaces a previous job's output and nothing else: mrlocal never deletes a
// file it did not write.
#include <gtest/gtest.h>

#include <map>

#include "engine/output_committer.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::DirectoryTree;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

// A job's committed output of `parts` parts.
void CommitJob(const fs::path& dir, uint32_t parts, bool overwrite, const std::string& text) {
  auto c = OutputCommitter::Begin(dir, overwrite);
  ASSERT_TRUE(c.ok()) << c.status().message();
  for (uint32_t r = 0; r < parts; ++r) {
    auto part = (*c)->OpenPart(r);
    ASSERT_TRUE((*part)->Append(text).ok());
    ASSERT_TRUE((*part)->Close().ok());
  }
  ASSERT_TRUE((*c)->Commit(parts).ok());
}

void ExpectContains(const std::string& text, const std::string& fragment) {
  EXPECT_NE(text.find(fragment), std::string::npos) << text;
}

class OutputOverwrite : public ::testing::Test {
 protected:
  // The user's own directory: a file and a subdirectory with a file.
  void MakeUserDir() {
    fs::create_directories(d_ / "precious" / "sub");
    WriteFile(d_ / "precious" / "notes.txt", "my notes\n");
    WriteFile(d_ / "precious" / "sub" / "data.csv", "1,2\n");
  }
  ScratchDir d_;
};

TEST_F(OutputOverwrite, AUserDirectoryIsRefusedNamingWhatIsInItAndNothingIsDeleted) {
  MakeUserDir();
  const auto before = DirectoryTree(d_.path());
  for (bool overwrite : {true, false}) {
    auto c = OutputCommitter::Begin(d_ / "precious", overwrite);
    ASSERT_FALSE(c.ok());
    const std::string why = c.status().message();
    EXPECT_EQ(c.status().code(), Status::Code::kInvalidArgument);
    ExpectContains(why, (d_ / "precious").string());
    ExpectContains(why, "notes.txt, sub/");
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_EQ(why.find("use --overwrite"), std::string::npos) << "it would not help: " << why;
    EXPECT_FALSE(OutputCommitter::Check(d_ / "precious", overwrite).ok());
    EXPECT_EQ(DirectoryTree(d_.path()), before);
  }
}

TEST_F(OutputOverwrite, APreviousJobsOutputIsReplacedWhole) {
  CommitJob(d_ / "out", 3, false, "old\n");
  CommitJob(d_ / "out", 1, true, "new\n");
  EXPECT_EQ(DirectoryTree(d_.path()),
            (std::map<std::string, std::string>{
                {"out/", ""}, {"out/_SUCCESS", ""}, {"out/part-r-00000", "new\n"}}))
      << "no part of the old job, no temporary";
}

TEST_F(OutputOverwrite, TheSameOutputTwiceWithoutOverwriteIsRefusedWithTheWayOut) {
  CommitJob(d_ / "out", 2, false, "x\n");
  auto c = OutputCommitter::Begin(d_ / "out", false);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), "Output directory " + (d_ / "out").string() +
                                      " already exists (use --overwrite to replace it)");
}

TEST_F(OutputOverwrite, AnythingThatIsNotExactlyAJobsOutputIsRefused) {
  struct Case {
    std::string what;
    std::function<void(const fs::path&)> make;
    std::string named;
  };
  const std::vector<Case> cases = {
      {"part files without _SUCCESS",
       [](const fs::path& o) { WriteFile(o / "part-r-00000", "x\n"); }, "no _SUCCESS"},
      {"a user file beside a job's output",
       [](const fs::path& o) {
         WriteFile(o / "_SUCCESS", "");
         WriteFile(o / "part-r-00000", "x\n");
         WriteFile(o / "README", "mine");
       },
       "README"},
      {"a _SUCCESS with content", [](const fs::path& o) { WriteFile(o / "_SUCCESS", "{}"); },
       "_SUCCESS"},
      {"a part name that PartName never writes",
       [](const fs::path& o) {
         WriteFile(o / "_SUCCESS", "");
         WriteFile(o / "part-m-00000", "x\n");
       },
       "part-m-00000"},
      {"a directory named like a part",
       [](const fs::path& o) {
         WriteFile(o / "_SUCCESS", "");
         fs::create_directory(o / "part-r-00000");
       },
       "part-r-00000/"},
      {"a symbolic link named like a part",
       [](const fs::path& o) {
         WriteFile(o / "_SUCCESS", "");
         WriteFile(o.parent_path() / "elsewhere", "mine");
         fs::create_symlink(o.parent_path() / "elsewhere", o / "part-r-00000");
       },
       "part-r-00000"},
  };
  for (const Case& c : cases) {
    ScratchDir d;
    fs::create_directory(d / "out");
    c.make(d / "out");
    const auto before = DirectoryTree(d.path());
    auto begun = OutputCommitter::Begin(d / "out", true);
    ASSERT_FALSE(begun.ok()) << c.what;
    ExpectContains(begun.status().message(), "(" + c.named);
    EXPECT_EQ(DirectoryTree(d.path()), before) << c.what;
  }
}

TEST_F(OutputOverwrite, AFileNamedAsTheOutputIsRefusedAndKept) {
  WriteFile(d_ / "out", "my file");
  auto c = OutputCommitter::Begin(d_ / "out", true);
  ASSERT_FALSE(c.ok());
  ExpectContains(c.status().message(), "is not a directory");
  EXPECT_EQ(ReadFile(d_ / "out"), "my file");
}

// The user puts a file into the old output while the job runs: the commit is refused, the
// old output and the file stay, and the job's own temporary goes.
TEST_F(OutputOverwrite, AFileAddedWhileTheJobRunsStopsTheCommit) {
  CommitJob(d_ / "out", 1, false, "old\n");
  auto c = OutputCommitter::Begin(d_ / "out", true);
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  WriteFile(d_ / "out" / "notes.txt", "mine");
  const auto before = DirectoryTree(d_ / "out");
  Status committed = (*c)->Commit(1);
  ASSERT_FALSE(committed.ok());
  ExpectContains(committed.message(), "(notes.txt)");
  (*c)->Abort();
  EXPECT_EQ(DirectoryTree(d_ / "out"), before);
  EXPECT_EQ(DirectoryTree(d_.path()).size(), before.size() + 1) << "only out/ beside it";
}

}  // namespace
}  // namespace mrlocal
