// The kill test (tools/bench/crash_kill_test.sh) in small: a WordCount with -o, a
// persistent store and a history file, killed with SIGKILL at random moments (fixed seed)
// and at every named step of its commit, then checked as a user would look and rerun.
// Asserts outcomes only: which moments the kills land on varies with the machine's speed.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::CommandResult;
using testing::RunProgram;
using testing::ScratchDir;

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

}  // namespace
}  // namespace mrlocal
