// Faults as a user meets them on the command line (issue 19): a job under injected task
// failures, a slowed node with speculation, or a corrupt replica writes the same output
// as a clean run; a task that fails every attempt fails its job with every reason and
// leaves no output; what cannot be asked is refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;

class FaultsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    TextOptions t;
    t.bytes = 24 << 20;
    t.vocabulary = 20000;
    testing::WriteFile(dir_ / "in.txt", GenerateText(t));
  }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  // Runs wordcount on the input with 2 MiB blocks (12 maps) into `out`, plus `extra`.
  testing::CommandResult Count(const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"wordcount", P("in.txt"), "-q",  "--block-size",
                                     "2MiB",      "-o",        P(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunMrlocal(args);
  }
  // Byte for byte, every part (and no more parts in one than the other).
  void ExpectSameOutput(const std::string& a, const std::string& b) {
    size_t parts = 0;
    for (const auto& e : fs::directory_iterator(dir_ / a)) {
      const std::string part = e.path().filename().string();
      ++parts;
      EXPECT_TRUE(ReadFile(dir_ / a / part) == ReadFile(dir_ / b / part)) << part << " differs";
    }
    EXPECT_EQ(parts, static_cast<size_t>(std::distance(fs::directory_iterator(dir_ / b),
                                                       fs::directory_iterator())));
  }
  ScratchDir dir_;
};

TEST_F(FaultsCli, InjectedTaskFailuresAreRetriedAndTheOutputIsTheCleanRunsOwn) {
  ASSERT_EQ(Count("clean", {"--cluster", "2x(1m,1r,1.0)", "--no-speculative"}).exit_code, 0);
  auto r = Count("faulty", {"--cluster", "2x(1m,1r,1.0)", "--inject", "task-fail:0.3,seed=5",
                            "--max-attempts", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "  faults    ")) << r.out;
  EXPECT_TRUE(Contains(r.out, "injected fault: task-fail:0.3,seed=5")) << r.out;
  ExpectSameOutput("clean", "faulty");
}

TEST_F(FaultsCli, ASlowedNodeWithSpeculationWritesTheSameOutput) {
  ASSERT_EQ(Count("clean", {"--cluster", "2x(1m,1r,1.0)", "--no-speculative"}).exit_code, 0);
  auto r = Count("spec", {"--cluster", "2x(1m,1r,1.0)", "--inject", "node-slow:1,factor=0.05",
                          "--speculative"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectSameOutput("clean", "spec");
}

// A store of three nodes read by a job on the first only: each map prefers the replica on
// node 0, so a fault there is met for sure.
TEST_F(FaultsCli, ACorruptOrLostReplicaIsReadFromAnother) {
  ASSERT_EQ(RunMrlocal({"fs", "--store", P("st"), "put", P("in.txt"), "/in", "--block-size", "2MiB",
                        "--nodes", "3"})
                .exit_code,
            0);
  auto job = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"wordcount", "--store",       P("st"), "/in", "-q",
                                     "--cluster", "1x(1m,1r,1.0)", "-o",    P(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunMrlocal(args);
  };
  ASSERT_EQ(job("clean", {}).exit_code, 0);
  auto corrupt = job("corrupt", {"--inject", "replica-corrupt:2,node=0"});
  ASSERT_EQ(corrupt.exit_code, 0) << corrupt.err;
  EXPECT_TRUE(Contains(corrupt.err, "replica on node 0 failed its checksum")) << corrupt.err;
  ExpectSameOutput("clean", "corrupt");
  auto lost = job("lost", {"--inject", "replica-lost:0,node=0"});
  ASSERT_EQ(lost.exit_code, 0) << lost.err;
  EXPECT_TRUE(Contains(lost.err, "replica on node 0 is missing")) << lost.err;
  ExpectSameOutput("clean", "lost");
  // Nothing on disk changed: the store is still whole.
  auto fsck = RunMrlocal({"fs", "--store", P("st"), "fsck"});
  EXPECT_EQ(fsck.exit_code, 0) << fsck.out << fsck.err;
}

TEST_F(FaultsCli, ATaskThatFailsEveryAttemptFailsTheJobAndLeavesNoOutput) {
  auto r = Count("out", {"--inject", "task-fail:1,kind=reduce", "--max-attempts", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.err, "job failed: reduce")) << r.err;
  EXPECT_TRUE(Contains(r.err, "(2 attempts failed; the last: injected fault")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_FALSE(Contains(e.path().filename().string(), "mrlocal-tmp")) << e.path();
}

// 4 million distinct words: their map outputs take far more than the limit, so the job
// stops with one line (not the kernel's OOM killer) and writes nothing.
TEST_F(FaultsCli, AJobWhoseDataOutgrowsTheMemoryLimitFailsInOneLineAndWritesNothing) {
  std::string words;
  for (uint32_t i = 0; i < 4'000'000; ++i) {
    words += 'x';
    for (uint32_t v = i, k = 0; k < 5; ++k, v /= 26) words += static_cast<char>('a' + v % 26);
    words += '\n';
  }
  testing::WriteFile(dir_ / "distinct.txt", words);
  auto r =
      RunMrlocal({"wordcount", P("distinct.txt"), "-q", "--memory-limit", "64MiB", "-o", P("out")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "passed its limit of 64.0 MiB (--memory-limit)")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_FALSE(Contains(e.path().filename().string(), "mrlocal-tmp")) << e.path();
}

TEST_F(FaultsCli, WhatCannotBeAskedIsRefusedInOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--inject", "task-fail:2"}, "P must be in [0, 1]"},
      {{"--inject", "disk-fail:1"}, "expected task-fail:P"},
      {{"--inject", "slot-fail:9"}, "the cluster has"},
      {{"--inject", "replica-lost:99"}, "the job has"},
      {{"--max-attempts", "0"}, "--max-attempts: must be an integer from 1 to 100"},
      {{"--policy", "rtmr", "--deadline", "30s", "--speculative"}, "rtmr reserves slots"},
      {{"--fault-budget", "1"}, "--fault-budget applies to"},
      {{"--memory-limit", "1MiB"}, "--memory-limit: must be a size from 64MiB to "},
      {{"--memory-limit", "1000TiB"}, "--memory-limit: must be a size from 64MiB to "},
  };
  for (const Case& c : cases) {
    auto r = Count("out", c.args);
    EXPECT_EQ(r.exit_code, 2) << c.says;
    EXPECT_TRUE(Contains(r.err, c.says)) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << c.says;
  }
}

}  // namespace
}  // namespace mrlocal
