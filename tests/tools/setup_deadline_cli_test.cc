// A deadline that passes while the job is being set up (reading its input, a probe) is
// rejected with the same way out as any rejection: the --deadline that would be admitted
// (found on a loaded machine, where set-up took longer than a 100 ms deadline and the hint
// was missing).
#include <gtest/gtest.h>

#include <regex>

#include "sched/estimate/job_history.h"
#include "tests/util/test_util.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

using testing::Contains;
using testing::CountLines;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

TEST(SetupDeadlineCli, ADeadlineThatPassedDuringSetUpStillGetsItsHint) {
  ScratchDir dir;
  const std::string history = (dir / "history.json").string();
  JobHistory h;
  h.Set("wordcount", {.model = {.map_fixed_s = 0.06}, .jobs = 3});
  ASSERT_TRUE(SaveHistory(h, history).ok());
  WriteFile(dir / "in.txt", "the quick brown fox\n");
  // 1 us: no set-up is that fast.
  auto r = RunMrlocal(
      {"wordcount", (dir / "in.txt").string(), "-q", "--deadline", "1us", "--history", history});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(Contains(r.err, "deadline passed during set-up")) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("feasible with --deadline [0-9]+ms"))) << r.err;
  EXPECT_EQ(CountLines(r.err), 2) << r.err;
}

}  // namespace
}  // namespace mrlocal
