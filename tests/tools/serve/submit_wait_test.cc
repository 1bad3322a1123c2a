// `mrlocal submit --wait`, as a user who moved a job from their laptop to the shared server
// meets it: the job ends on their terminal as a local run of it ends. The result and the
// closing report on stdout are a local run's (the same result line, top keys and report
// lines), the progress lines on stderr are a local run's, and the exit code is the local
// run's for each way a job ends: 0 done, 3 finished past its deadline, 4 rejected by
// admission control, 130 cancelled (a local run's Ctrl-C). The real binaries, over HTTP.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/util/server_process.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::CommandResult;
using testing::Lines;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::ServerProcess;

// The report's line labels ("job pi: SUCCEEDED", "  input", "  phases"...), in order: what
// a local run and the server's report of the same job must both have.
std::vector<std::string> Labels(const std::string& out) {
  std::vector<std::string> labels;
  for (const std::string& line : Lines(out)) {
    if (line.rfind("job ", 0) == 0)
      labels.push_back(line.substr(0, line.find(" in ")));
    else if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ')
      labels.push_back(line.substr(0, line.find(' ', 2)));
  }
  return labels;
}

class SubmitWaitTest : public ::testing::Test {
 protected:
  // A server under `policy` whose data root is the scratch directory, and an admin key.
  void Start(const std::string& policy) {
    testing::WriteFile(dir_ / "words.txt", "the cat and the hat\nthe end\nof the story\n");
    const std::string state = (dir_ / "state").string();
    ASSERT_EQ(RunMrlocal({"keys", "add", "root", "--role", "admin", "--state", state, "-o",
                          (dir_ / "root.key").string()})
                  .exit_code,
              0);
    server_ = std::make_unique<ServerProcess>(
        std::vector<std::string>{"--state", state, "--cluster", "1x(2m,1r,1.0)", "--policy", policy,
                                 "--data-root", dir_.path().string(), "--no-pin", "--grace", "1s"},
        dir_ / "serve.log", std::chrono::seconds(20));
    ASSERT_TRUE(server_->started()) << server_->log();
  }
  CommandResult Submit(std::vector<std::string> args) {
    std::vector<std::string> command = {"submit", "--server", server_->url(), "--key",
                                        (dir_ / "root.key").string()};
    command.insert(command.end(), args.begin(), args.end());
    return RunMrlocal(command);
  }

  ScratchDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(SubmitWaitTest, AJobEndsOnTheTerminalAsALocalRunOfItEnds) {
  Start("fifo");
  // pi: the same estimate (its samples are seeded by task index) and the same report lines.
  const CommandResult local = RunMrlocal({"pi", "2", "200000"});
  const CommandResult remote = Submit({"pi", "--maps", "2", "--samples", "200000", "--wait"});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  ASSERT_EQ(remote.exit_code, 0) << remote.err << remote.out;
  // The remote run's first line is the job's id and admission; then the local run's text.
  const std::vector<std::string> remote_lines = Lines(remote.out);
  ASSERT_GE(remote_lines.size(), 2u) << remote.out;
  EXPECT_EQ(remote_lines[0].rfind("job ", 0), 0u) << remote.out;
  EXPECT_EQ(remote_lines[1], Lines(local.out)[0]) << "the result line";
  EXPECT_EQ(Labels(remote.out.substr(remote.out.find('\n') + 1)), Labels(local.out))
      << "local:\n"
      << local.out << "remote:\n"
      << remote.out;
  EXPECT_TRUE(testing::Contains(remote.out, "job pi: SUCCEEDED in ")) << remote.out;

  // wordcount: the same top keys as the local run of the same file.
  const std::string words = (dir_ / "words.txt").string();
  const CommandResult local_wc = RunMrlocal({"wordcount", words});
  const CommandResult remote_wc = Submit({"wordcount", words, "--wait"});
  ASSERT_EQ(remote_wc.exit_code, 0) << remote_wc.err;
  const std::string top = local_wc.out.substr(0, local_wc.out.find("job wordcount:"));
  EXPECT_TRUE(testing::Contains(remote_wc.out, top)) << "local:\n"
                                                     << local_wc.out << "remote:\n"
                                                     << remote_wc.out;
  EXPECT_TRUE(testing::Contains(remote_wc.out, "output    7 keys")) << remote_wc.out;
}

TEST_F(SubmitWaitTest, ProgressLinesAndExitCodesAreALocalRuns) {
  Start("fifo");
  // 2 maps of 1 s and a reduce: progress lines while it runs, then a deadline missed: 3.
  // The deadline is an option beside --job: it sets the job's deadline_s.
  const std::string late =
      R"({"app": "synthetic", "maps": 2, "reduces": 1, "map_s": 1, "reduce_s": 0.2})";
  const CommandResult missed = Submit({"--job", late, "--deadline", "500ms", "--wait"});
  EXPECT_EQ(missed.exit_code, 3) << missed.out << missed.err;
  EXPECT_TRUE(testing::Contains(missed.out, "MISSED by")) << missed.out;
  EXPECT_TRUE(testing::Contains(missed.err, "mrlocal: map ")) << missed.err;
  EXPECT_TRUE(testing::Contains(missed.err, "% reduce ")) << missed.err;
  EXPECT_TRUE(testing::Contains(missed.err, "| slack ")) << missed.err;

  // Cancelled while it is followed: 130, as a local run interrupted. It is the server's
  // second job.
  const std::string slow = R"({"app": "synthetic", "maps": 1, "reduces": 0, "map_s": 60})";
  CommandResult cancelled;
  std::thread follow([&] { cancelled = Submit({"--job", slow, "--wait"}); });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const CommandResult cancel = RunMrlocal(
      {"cancel", "--server", server_->url(), "--key", (dir_ / "root.key").string(), "2"});
  follow.join();
  EXPECT_EQ(cancel.exit_code, 0) << cancel.err;
  EXPECT_EQ(cancelled.exit_code, 130) << cancelled.out << cancelled.err;
  EXPECT_TRUE(testing::Contains(cancelled.out, "job synthetic: FAILED")) << cancelled.out;
  EXPECT_TRUE(testing::Contains(cancelled.err, "mrlocal: error: job failed: ")) << cancelled.err;
}

TEST_F(SubmitWaitTest, ARejectedJobExitsFourWithTheReason) {
  Start("rtmr");
  const std::string impossible =
      R"({"app": "synthetic", "maps": 4, "reduces": 1, "map_s": 5, "reduce_s": 1, )"
      R"("deadline_s": 1})";
  const CommandResult r = Submit({"--job", impossible, "--wait"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_TRUE(testing::Contains(r.out, "rejected")) << r.out;
}

}  // namespace
}  // namespace mrlocal
