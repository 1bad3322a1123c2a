// The kill test (tools/bench/crash_kill_test.sh) in small: a WordCount with -o, a
// persistent store and a history file, killed with SIGKILL at random moments (fixed seed)
// and at every named step of its commit, then checked as a user would look and rerun.
// Asserts outcomes only: which moments the kills land on varies with the machine's speed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>

#include "engine/stale_temporary.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::Contains;
using testing::RunMrlocal;
using testing::RunProgram;
using testing::ScratchDir;
using testing::WriteFile;

int Count(const std::string& text, const std::string& row) {
  std::smatch m;
  const std::regex re("(^|\n)" + row + " +([0-9]+) +([0-9]+)");
  return std::regex_search(text, m, re) ? std::stoi(m[2]) : -1;
}

TEST(CrashKill, NoKillLeavesWhatAUserWouldSeeAsBrokenAndTheRerunAlwaysSucceeds) {
  ScratchDir d;
  const CommandResult r =
      RunProgram("/bin/bash", {MRLOCAL_SOURCE_DIR "/tools/bench/crash_kill_test.sh", "--mrlocal",
                               MRLOCAL_BIN, "--kills", "10", "--put-kills", "2", "--seed", "7",
                               "--size", "4MiB", "--work", (d / "work").string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("kills: ([0-9]+), clean outcomes: ([0-9]+)")))
      << r.out;
  EXPECT_EQ(m[1], m[2]) << r.out;
  // Every step of a commit was killed at least once, in a fresh run or one that replaces
  // a previous output, and each time the outcome was clean.
  for (const char* point :
       {"part-published", "commit-success-written", "commit-marker-removed", "commit-moved-aside",
        "commit-renamed", "output-removing", "atomic-file-written"}) {
    EXPECT_GE(Count(r.out, std::string("kill point ") + point), 1) << point << "\n" << r.out;
  }
}

// The new user's case: `wordcount -o o` killed mid-run left its hidden directory, and the
// history file's save left a temporary; the next run removes both and says so.
TEST(CrashKill, TheNextRunRemovesWhatAKilledRunLeftAndSaysSo) {
  ScratchDir d;
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string pid = std::to_string(dead);
  const fs::path tmp = d / (".o.mrlocal-tmp-" + pid + "-0");
  fs::create_directory(tmp);
  WriteFile(tmp / "_mrlocal-owner", EncodeOwner({dead, 1}));
  WriteFile(tmp / "part-r-00000", "the\t3\n");
  WriteFile(tmp / ("_attempt-part-r-00001-1"), "an");
  const fs::path history_tmp = d / (".hist.json.mrlocal-tmp-" + pid + "-Ab3dEf");
  WriteFile(history_tmp, "{\"vers");
  WriteFile(d / "in.txt", "the cat and the dog and the bird\n");
  const CommandResult r =
      RunMrlocal({"wordcount", (d / "in.txt").string(), "-o", (d / "o").string(), "--history",
                  (d / "hist.json").string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "mrlocal: removed a stale temporary directory '" + tmp.string() +
                                  "' left by a killed run\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "mrlocal: removed a stale temporary file '" + history_tmp.string() +
                                  "' left by a killed run\n"))
      << r.err;
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_FALSE(fs::exists(history_tmp));
  EXPECT_TRUE(fs::exists(d / "o" / "_SUCCESS"));
}

}  // namespace
}  // namespace mrlocal
