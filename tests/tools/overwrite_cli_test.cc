// `-o DIR --overwrite` as a user runs it: a previous job's output is replaced, anything
// else is refused with one line, exit 2, and nothing deleted.
#include <gtest/gtest.h>

#include <map>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::DirectoryTree;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// The refusal as a user sees it: exit 2, one line naming what is wrong, nothing else.
void ExpectRefusal(const testing::CommandResult& r, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("mrlocal: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

class OverwriteCli : public ::testing::Test {
 protected:
  OverwriteCli() { WriteFile(dir_ / "w.txt", "the cat saw the dog\n"); }
  testing::CommandResult WordCount(const std::string& out, bool overwrite) {
    std::vector<std::string> args = {"wordcount", P("w.txt"), "-o", P(out), "-q"};
    if (overwrite) args.push_back("--overwrite");
    return RunMrlocal(args);
  }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  ScratchDir dir_;
};

TEST_F(OverwriteCli, AUserDirectoryIsRefusedAndKeptWhole) {
  fs::create_directories(dir_ / "precious" / "sub");
  WriteFile(dir_ / "precious" / "notes.txt", "my notes\n");
  WriteFile(dir_ / "precious" / "sub" / "data.csv", "1,2\n");
  const auto before = DirectoryTree(dir_.path());
  for (bool overwrite : {true, false}) {
    auto r = WordCount("precious", overwrite);
    ExpectRefusal(r, P("precious") + " already exists and is not a job's output (notes.txt, sub/)");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(DirectoryTree(dir_.path()), before) << "nothing deleted, nothing written";
  }
}

TEST_F(OverwriteCli, AFileNamedByDashOIsRefusedAndKept) {
  WriteFile(dir_ / "out", "my file\n");
  auto r = WordCount("out", true);
  ExpectRefusal(r, P("out") + "' exists and is not a directory");
  EXPECT_EQ(ReadFile(dir_ / "out"), "my file\n");
}

TEST_F(OverwriteCli, TheSameOutputTwiceNeedsOverwriteWhichReplacesIt) {
  ASSERT_EQ(WordCount("out", false).exit_code, 0);
  auto again = WordCount("out", false);
  ExpectRefusal(again,
                "Output directory " + P("out") + " already exists (use --overwrite to replace it)");
  WriteFile(dir_ / "w.txt", "a new text\n");
  auto replaced = WordCount("out", true);
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(testing::ReadJobOutput(dir_ / "out"),
            (std::map<std::string, std::string>{{"a", "1"}, {"new", "1"}, {"text", "1"}}));
}

}  // namespace
}  // namespace mrlocal
